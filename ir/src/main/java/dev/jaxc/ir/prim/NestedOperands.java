package dev.jaxc.ir.prim;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params.ParamException;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import dev.jaxc.ir.prim.rules.NestedJaxprs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operand types that nested jaxprs imply for cond, while, scan and the call-like primitives
 * (layouts of format doc §9), so the type pass can type untyped literal operands such as the {@code
 * 0} in {@code while[…] c a 0 b d}.
 */
final class NestedOperands {
  private NestedOperands() {}

  /** One type per operand, or empty when the primitive has no nested jaxpr to ask. */
  static Optional<List<Type>> implied(Primitive p, Params params, int numOperands) {
    try {
      Optional<List<Type>> types =
          switch (p) {
            case COND -> Optional.of(cond(params, numOperands));
            case WHILE -> Optional.of(whileLoop(params, numOperands));
            case SCAN -> Optional.of(scan(params, numOperands));
            case JIT,
                    PJIT,
                    XLA_CALL,
                    CLOSED_CALL,
                    CORE_CALL,
                    CALL,
                    CUSTOM_JVP_CALL,
                    CUSTOM_VJP_CALL,
                    CUSTOM_VJP_CALL_JAXPR,
                    REMAT2 ->
                NestedJaxprs.callee(params).map(j -> NestedJaxprs.inputs(j, numOperands));
            default -> Optional.empty();
          };
      // A layout that does not fit the operands implies nothing; the type rule reports it.
      return types.filter(t -> t.size() == numOperands);
    } catch (ParamException | TypeRuleException e) {
      return Optional.empty(); // malformed params or binders: the type rule reports them
    }
  }

  /** {@code [i32[], *branch 0 inputs]}. */
  private static List<Type> cond(Params params, int numOperands) {
    List<Jaxpr> branches = params.getJaxprs("branches");
    if (branches.isEmpty()) return List.of();
    List<Type> r = new ArrayList<>();
    r.add(ArrayType.scalar(DType.I32));
    r.addAll(NestedJaxprs.inputs(branches.get(0), numOperands - 1));
    return r;
  }

  /** {@code [*cond consts, *body consts, *carry]}, the last two being the body's inputs. */
  private static List<Type> whileLoop(Params params, int numOperands) {
    WhileParams w = WhileParams.of(params);
    int cn = w.condNconsts();
    int bn = w.bodyNconsts();
    int nCarry = w.carries(numOperands);
    if (cn < 0 || bn < 0 || nCarry < 0) return List.of();
    List<Type> condIn = NestedJaxprs.inputs(w.condJaxpr(), cn + nCarry);
    List<Type> r = new ArrayList<>(condIn.subList(0, Math.min(cn, condIn.size())));
    r.addAll(NestedJaxprs.inputs(w.bodyJaxpr(), bn + nCarry));
    return r;
  }

  /** {@code [*consts, *carry, *xs]}: the body's inputs, x slices stacked to {@code length}. */
  private static List<Type> scan(Params params, int numOperands) {
    ScanParams sp = ScanParams.of(params);
    int xsFrom = sp.numConsts() + sp.numCarry();
    long length = sp.length();
    if (xsFrom < 0) return List.of();
    List<Type> bodyIn = NestedJaxprs.inputs(sp.jaxpr(), numOperands);
    List<Type> r = new ArrayList<>(bodyIn.subList(0, Math.min(xsFrom, bodyIn.size())));
    for (int i = xsFrom; i < bodyIn.size(); i++) r.add(NestedJaxprs.stacked(bodyIn.get(i), length));
    return r;
  }
}
