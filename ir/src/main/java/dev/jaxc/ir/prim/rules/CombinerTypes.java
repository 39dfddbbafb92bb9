package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.List;

/**
 * The scalar combiner jaxprs of reduce, reduce_window, scatter's {@code update_jaxpr} and
 * select_and_scatter's {@code scatter_jaxpr} take
 * (accumulators…, elements…) and return accumulators, all scalars of their operands' dtypes. A
 * combiner of other dtypes (a u32 accumulator of f32 values) would reach the backend as a
 * conversion LLVM rejects.
 */
final class CombinerTypes {
  private CombinerTypes() {}

  /**
   * Checks the jaxpr in {@code param}, when there is one of 2n inputs and n outputs (other counts
   * are the primitive rule's or the backend's to report), against {@code dtypes}, operand by
   * operand.
   */
  static void check(RuleContext ctx, String param, List<DType> dtypes) {
    ParamValue v = ctx.params().get(param).orElse(null);
    if (!(v instanceof ParamValue.JaxprValue jv)) return;
    Jaxpr j = jv.jaxpr();
    int n = dtypes.size();
    if (j.invars().size() != 2 * n || j.outs().size() != n) return;
    for (int i = 0; i < n; i++) {
      DType d = dtypes.get(i);
      for (Type t : List.of(j.invars().get(i).type(), j.invars().get(n + i).type(), j.outs().get(i).type())) {
        if (!(t instanceof ArrayType a) || a.rank() != 0 || a.dtype() != d)
          throw RuleOperands.error(ctx, i, ctx.primitive() + ": the " + param + "'s values for operand " + i
              + " must be " + d + "[], got " + t.text());
      }
    }
  }

  /**
   * A comparison jaxpr ({@code select_and_scatter}'s {@code select_jaxpr}) of two inputs and one
   * output: two {@code dtype} scalars in, a bool scalar out.
   */
  static void checkPredicate(RuleContext ctx, String param, DType dtype) {
    ParamValue v = ctx.params().get(param).orElse(null);
    if (!(v instanceof ParamValue.JaxprValue jv)) return;
    Jaxpr j = jv.jaxpr();
    if (j.invars().size() != 2 || j.outs().size() != 1) return;
    List<Type> ts = List.of(j.invars().get(0).type(), j.invars().get(1).type(), j.outs().get(0).type());
    for (int k = 0; k < 3; k++) {
      DType want = k < 2 ? dtype : DType.BOOL;
      if (!(ts.get(k) instanceof ArrayType a) || a.rank() != 0 || a.dtype() != want)
        throw RuleOperands.error(ctx, 0, ctx.primitive() + ": the " + param + "'s " + (k < 2 ? "inputs" : "output")
            + " must be " + want + "[], got " + ts.get(k).text());
    }
  }
}
