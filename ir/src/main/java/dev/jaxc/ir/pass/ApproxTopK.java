package dev.jaxc.ir.pass;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.List;
import java.util.Map;

/**
 * {@code approx_top_k} as XLA runs it off TPU: JAX lowers it to the ApproxTopK custom call with
 * {@code is_fallback}, which XLA computes exactly — the operand sorted along the reduction
 * dimension (greater first for max, less first for min) with its indices, and the first N kept,
 * N being the result's size there (k when {@code aggregate_to_topk}, else JAX's
 * approx_top_k_reduction_output_size, already in the result type). That is {@code top_k} along
 * the dimension, on the negated operand for a min (floats).
 *
 * <p>Run it on a typed program (after the type pass); its result type-checks again.
 */
public final class ApproxTopK extends EqnRewriter {
  private final FreshNames names;

  private ApproxTopK(FreshNames names) {
    this.names = names;
  }

  public static Program run(Program p) {
    return p.withMain(new ApproxTopK(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!e.primitive().equals("approx_top_k")) {
      keep(e, ins, out);
      return;
    }
    Emitter em = new Emitter(names, out, e);
    ArrayType x = (ArrayType) ins.get(0).type();
    ArrayType values = (ArrayType) e.outs().get(0).type();
    ArrayType indices = (ArrayType) e.outs().get(1).type();
    int rank = x.rank();
    long dim = e.params().getLong("reduction_dimension", -1);
    int axis = (int) (dim < 0 ? dim + rank : dim);
    if (axis < 0 || axis >= rank)
      throw new JaxcException("approx_top_k: reduction_dimension " + dim + " out of range for rank " + rank, e.primSpan());
    long k = values.shape().sizes()[axis];
    boolean max = e.params().getBool("is_max_k", true);
    if (!max && !x.dtype().isFloating())
      throw new JaxcException("approx_top_k: a min of " + x.dtype().shortName() + " values is not supported", e.primSpan());
    Atom operand = max ? ins.get(0) : em.emit("neg", Emitter.params(), x, ins.get(0));
    Var v = new Var(names.next(), values);
    Var i = new Var(names.next(), indices);
    out.add(new Eqn(List.of(v, i), "top_k",
        Emitter.params("axis", ParamValue.Int.of(axis), "k", ParamValue.Int.of(k)), List.of(operand), e.span(), e.primSpan()));
    scope.put(e.outs().get(0), max ? v : em.emit("neg", Emitter.params(), values, v));
    scope.put(e.outs().get(1), i);
  }
}
