package dev.jaxc.ir.pass;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.TypeRuleException;
import dev.jaxc.ir.types.ElementType;
import dev.jaxc.ir.types.Promotion;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operand half of the type pass: literals get their dtypes (from their partners, from the
 * nested jaxprs they feed, or the defaults) and operands that must share a dtype are promoted.
 */
final class OperandTyping {
  private final TypeConfig cfg;
  private final PrimitiveRules rules;
  private final FreshNames names;

  OperandTyping(TypeConfig cfg, PrimitiveRules rules, FreshNames names) {
    this.cfg = cfg;
    this.rules = rules;
    this.names = names;
  }

  /**
   * Types the literal operands in place and promotes the operands that must share a dtype,
   * adding the conversions to {@code out}.
   */
  void type(Eqn e, Primitive p, Params params, List<Atom> ins, List<Eqn> out) {
    List<ElementType> types = new ArrayList<>();
    for (Atom a : ins) types.add(operandType(a));
    List<Integer> group = SameDTypeOperands.of(p, types);
    ElementType target =
        group.isEmpty() ? null : promote(e, group.stream().map(types::get).toList());
    List<Type> implied = implied(e, p, params, ins.size());
    Map<Var, Var> converted = new IdentityHashMap<>();
    for (int i = 0; i < ins.size(); i++) {
      Atom a = ins.get(i);
      if (group.contains(i)) {
        ins.set(
            i,
            a instanceof Literal l ? retype(l, target) : convert((Var) a, target, converted, out));
      } else if (a instanceof Literal l) {
        ElementType hint = implied.size() > i ? elementType(implied.get(i)) : null;
        ins.set(i, hint == null || l.typed() ? lone(l) : retype(l, hint));
      }
    }
  }

  private List<Type> implied(Eqn e, Primitive p, Params params, int n) {
    try {
      return rules.impliedOperandTypes(p, params, n).orElse(List.of());
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    } catch (TypeRuleException x) {
      throw new JaxcException(x.getMessage(), e.primSpan());
    } catch (Dim.NegativeSize x) {
      throw new JaxcException(e.primitive() + ": its params give an operand with a " + x.getMessage(), e.primSpan());
    }
  }

  /** The join of operands that must share a dtype; an error where promotion is not allowed. */
  private ElementType promote(Eqn e, List<ElementType> operands) {
    Optional<ElementType> r = Promotion.result(operands, cfg);
    if (r.isPresent()) return r.get();
    Set<String> shown = new LinkedHashSet<>();
    for (ElementType t : operands) shown.add(t.toString());
    List<String> list = new ArrayList<>(shown);
    String which =
        String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
    String msg =
        cfg.promotion() == PromotionMode.STRICT
            ? "implicit promotion of " + which + " in '" + e.primitive()
                + "' is not allowed with --promotion strict"
            : "no implicit promotion of " + which + " in '" + e.primitive()
                + "'; convert explicitly with convert_element_type";
    throw new JaxcException(msg, e.primSpan());
  }

  /** A var converted to the group's dtype by a new {@code convert_element_type} equation. */
  private Var convert(Var v, ElementType target, Map<Var, Var> converted, List<Eqn> out) {
    if (!(v.type() instanceof Type.ArrayType t) || t.dtype() == target.dtype()) return v;
    Var done = converted.get(v);
    if (done != null) return done;
    Var n = new Var(names.next(), t.withDType(target.dtype()).withWeak(target.weak()), v.span());
    Map<String, ParamValue> ps = new LinkedHashMap<>();
    ps.put("new_dtype", new ParamValue.DTypeValue(target.dtype()));
    ps.put("weak_type", new ParamValue.Bool(target.weak()));
    out.add(new Eqn(List.of(n), "convert_element_type", new Params(ps), List.of(v)));
    converted.put(v, n);
    return n;
  }

  /** An operand's element type; an untyped literal is a weak scalar of its kind's default dtype. */
  private ElementType operandType(Atom a) {
    if (a instanceof Literal l && !l.typed()) {
      Scalar v = l.value();
      if (v instanceof Scalar.Bool) return ElementType.strong(DType.BOOL);
      if (v instanceof Scalar.Int) return ElementType.weak(cfg.defaultInt());
      if (v instanceof Scalar.Float) return ElementType.weak(cfg.defaultFloat());
      if (v instanceof Scalar.Complex) return ElementType.weak(cfg.defaultComplex());
      return null;
    }
    return elementType(a.type());
  }

  private static ElementType elementType(Type t) {
    return t instanceof Type.ArrayType at ? new ElementType(at.dtype(), at.weak()) : null;
  }

  /** A literal with no partner: typed ones are checked, untyped ones take the default dtype. */
  Literal lone(Literal l) {
    if (l.typed()) return l.type() instanceof Type.ArrayType t ? retype(l, elementType(t)) : l;
    ElementType t = operandType(l);
    return t == null ? l.withType(l.type()) : retype(l, t);
  }

  /**
   * A literal jaxpr output. A weak one joins the type the enclosing equation declares at its
   * position ({@code declared}, or null): a cond branch returning {@code 0.0} into an f16 result.
   */
  Literal output(Literal l, Type declared) {
    ElementType self = operandType(l);
    ElementType hint = declared == null ? null : elementType(declared);
    if (hint == null || l.typed() || self == null || !self.weak()) return lone(l);
    return retype(l, Promotion.result(List.of(hint, self), cfg).orElse(self));
  }

  /** The literal as a value of {@code t}; an error if its value does not fit. */
  private static Literal retype(Literal l, ElementType t) {
    Scalar v =
        LiteralValues.convert(l.value(), t.dtype())
            .orElseThrow(
                () ->
                    new JaxcException(
                        "literal " + LiteralValues.text(l.value()) + " is not representable as "
                            + t.dtype().shortName(),
                        l.span()));
    Type type =
        l.type() instanceof Type.ArrayType at && l.typed()
            ? at.withDType(t.dtype()).withWeak(t.weak())
            : new Type.ArrayType(t.dtype(), Shape.SCALAR, t.weak());
    return new Literal(v, type, true, l.span());
  }
}
