package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type.KeyType;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** How operands line up with the binders of a nested jaxpr (format doc §7.1, §9). */
public final class NestedJaxprs {
  private NestedJaxprs() {}

  /** The params that hold a call-like primitive's callee, by era and primitive. */
  private static final List<String> CALLEE_KEYS = List.of("jaxpr", "call_jaxpr", "fun_jaxpr");

  /** The callee of jit/pjit/xla_call/closed_call/call/custom_*_call/remat2, if present. */
  public static Optional<Jaxpr> callee(Params params) {
    for (String key : CALLEE_KEYS)
      if (params.get(key).orElse(null) instanceof ParamValue.JaxprValue j)
        return Optional.of(j.jaxpr());
    return Optional.empty();
  }

  /**
   * The types a nested jaxpr takes from {@code numOperands} operands. A closed jaxpr's constvars
   * stand for values it closed over, which the text does not show, so operands match the invars
   * ({@code d = pjit[jaxpr={ lambda e:c64[3]; f:… }] c} passes one operand). Only when the operands
   * also cover the constvars do they come first, the other reading of §9.
   */
  public static List<Type> inputs(Jaxpr j, int numOperands) {
    List<Type> invars = types(j.invars());
    if (!j.constvars().isEmpty() && numOperands == j.constvars().size() + invars.size()) {
      List<Type> all = new ArrayList<>(types(j.constvars()));
      all.addAll(invars);
      return all;
    }
    return invars;
  }

  /**
   * A per-iteration type with a new leading axis of {@code length}: scan's stacked ys, and the xs a
   * scan body's slices come from.
   */
  public static Type stacked(Type slice, long length) {
    if (length < 0) throw new TypeRuleException("scan length must not be negative, got " + length);
    Shape s =
        shapeOf(slice)
            .orElseThrow(
                () -> new TypeRuleException("scan cannot stack values of type " + slice.text()));
    List<Dim> dims = new ArrayList<>();
    dims.add(Dim.of(length));
    dims.addAll(s.dims());
    return withShape(slice, new Shape(dims));
  }

  /** An array or key array type with another shape. */
  static Type withShape(Type t, Shape s) {
    return t instanceof KeyType k ? new KeyType(k.impl(), s) : ((ArrayType) t).withShape(s);
  }

  /** The shape of an array or key array; empty for tokens and opaque types. */
  static Optional<Shape> shapeOf(Type t) {
    if (t instanceof ArrayType a) return Optional.of(a.shape());
    if (t instanceof KeyType k) return Optional.of(k.shape());
    return Optional.empty();
  }

  /** The types of binders or output atoms. */
  public static List<Type> types(List<? extends Atom> atoms) {
    return atoms.stream().map(Atom::type).toList();
  }
}
