package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;

/** Type rules of the reductions, cumulative reductions and sorts. */
public final class ReductionRules {
  private ReductionRules() {}

  /**
   * {@code reduce_sum reduce_prod reduce_max reduce_min[axes=…]}: drops the axes, keeps the
   * dtype and weak flag. Sum and product take numbers; max and min also bool.
   */
  public static List<Type> reduceMonoid(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    boolean arithmetic = ctx.primitive().equals("reduce_sum")
        || ctx.primitive().equals("reduce_prod");
    ElementwiseDTypes accepted = arithmetic ? ElementwiseDTypes.NUMBER : ElementwiseDTypes.ANY;
    if (!accepted.accepts(x.dtype()))
      throw RuleOperands.error(ctx, 0, "operand has dtype " + x.dtype() + ", expected "
          + accepted.description());
    return List.of(x.withShape(dropAxes(ctx, x)));
  }

  /** {@code reduce_and reduce_or reduce_xor[axes=…]}: bool or integer; never weak. */
  public static List<Type> reduceLogical(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    if (!ElementwiseDTypes.BOOL_OR_INT.accepts(x.dtype()))
      throw RuleOperands.error(ctx, 0, "operand has dtype " + x.dtype() + ", expected bool or integer");
    return List.of(x.withShape(dropAxes(ctx, x)).withWeak(false));
  }

  /** {@code argmax argmin[axes=(a,) index_dtype=…]}: drops the (non-empty) axis. */
  public static List<Type> argReduce(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    long[] axes = RuleParams.longs(ctx, "axes");
    if (axes.length != 1)
      throw RuleOperands.error(ctx, "axes " + RuleParams.tuple(axes) + " must name exactly one axis");
    RuleDims.axesInRange(ctx, axes, x.rank(), "axes");
    if (RuleDims.isKnown(x.shape().dims().get((int) axes[0]), 0))
      throw RuleOperands.error(ctx, 0, "axis " + axes[0] + " of " + x.text() + " is empty");
    DType index = RuleParams.dtypeParam(ctx, "index_dtype");
    if (!index.isInteger())
      throw RuleOperands.error(ctx, "index_dtype must be an integer dtype, got " + index);
    return List.of(new ArrayType(index, RuleDims.dropAxes(x.shape(), axes)));
  }

  /**
   * {@code reduce xs… inits…[dimensions=… jaxpr=…]}: n operands of one shape, then n scalar
   * initial values of their dtypes; n results without the reduced dims, result i weak iff
   * operand i and init i are.
   */
  public static List<Type> reduce(RuleContext ctx) {
    if (ctx.arity() < 2 || ctx.arity() % 2 != 0)
      throw RuleOperands.error(ctx, "expects n operands and n initial values, got " + ctx.arity()
          + " operands");
    int n = ctx.arity() / 2;
    ArrayType first = RuleOperands.array(ctx, 0);
    long[] dims = RuleParams.longs(ctx, "dimensions");
    RuleDims.axesInRange(ctx, dims, first.rank(), "dimensions");
    List<Type> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ArrayType x = RuleOperands.array(ctx, i);
      ArrayType init = RuleOperands.array(ctx, n + i);
      if (!RuleDims.sameShape(x.shape(), first.shape()))
        throw RuleOperands.error(ctx, i, "operands have different shapes " + first.text() + " and "
            + x.text());
      if (init.rank() != 0)
        throw RuleOperands.error(ctx, n + i, "initial values must be scalars, got " + init.text());
      if (init.dtype() != x.dtype())
        throw RuleOperands.error(ctx, n + i, "initial value " + init.text() + " must have dtype "
            + x.dtype() + " of operand " + i);
      out.add(x.withShape(RuleDims.dropAxes(x.shape(), dims)).withWeak(x.weak() && init.weak()));
    }
    checkCombiner(ctx, n);
    return out;
  }

  /**
   * {@code cumsum cumprod cummax cummin cumlogsumexp[axis=… reverse=…]}: numbers; same type.
   */
  public static List<Type> cumulative(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    if (!ElementwiseDTypes.NUMBER.accepts(x.dtype()))
      throw RuleOperands.error(ctx, 0, "operand has dtype " + x.dtype() + ", expected "
          + ElementwiseDTypes.NUMBER.description());
    long axis = RuleParams.longParam(ctx, "axis");
    if (axis < 0 || axis >= x.rank())
      throw RuleOperands.error(ctx, "axis " + axis + " is out of range for " + x.text());
    return List.of(x);
  }

  /**
   * {@code sort[dimension=… is_stable=… num_keys=…]}: operands of one shape, sorted together by
   * the first num_keys; the results are the operands' types.
   */
  public static List<Type> sort(RuleContext ctx) {
    RuleOperands.minArity(ctx, 1);
    ArrayType first = RuleOperands.array(ctx, 0);
    for (int i = 1; i < ctx.arity(); i++) {
      ArrayType x = RuleOperands.array(ctx, i);
      if (!RuleDims.sameShape(x.shape(), first.shape()))
        throw RuleOperands.error(ctx, i, "operands have different shapes " + first.text() + " and "
            + x.text());
    }
    long dim = RuleParams.longParam(ctx, "dimension");
    if (dim < 0 || dim >= first.rank())
      throw RuleOperands.error(ctx, "dimension " + dim + " is out of range for " + first.text());
    long keys = RuleParams.longOr(ctx, "num_keys", 1);
    if (keys < 1 || keys > ctx.arity())
      throw RuleOperands.error(ctx, "num_keys " + keys + " must be between 1 and the "
          + ctx.arity() + " operands");
    return ctx.in();
  }

  /**
   * {@code top_k[k=… axis=…]} and {@code approx_top_k[k=… reduction_dimension=… …]}: values of
   * the operand's type and int32 indices, k along the axis (top_k's axis is the last before
   * 0.8.1). Both results carry the operand's weak flag, as JAX's abstract eval does.
   */
  public static List<Type> topK(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    boolean approx = ctx.primitive().equals("approx_top_k");
    if (x.rank() == 0)
      throw RuleOperands.error(ctx, 0, "operand must have rank 1 or more, got " + x.text());
    if (approx ? !x.dtype().isFloating() : x.dtype().isComplex())
      throw RuleOperands.error(ctx, 0, "operand must be "
          + (approx ? "floating" : "a non-complex array") + ", got " + x.text());
    long k = RuleParams.longParam(ctx, "k");
    if (approx ? k <= 0 : k < 0)
      throw RuleOperands.error(ctx, "k must be " + (approx ? "positive" : "non-negative") + ", got " + k);
    int axis = approx
        ? RuleDims.axis(ctx, RuleParams.longParam(ctx, "reduction_dimension"), x.rank(),
            "reduction_dimension")
        : RuleDims.axis(ctx, RuleParams.longOr(ctx, "axis", x.rank() - 1), x.rank(), "axis");
    Dim d = x.shape().dims().get(axis);
    if (d instanceof Dim.Known known && known.size() < k)
      throw RuleOperands.error(ctx, 0, "k " + k + " is larger than dim " + axis + " of " + x.text());
    Dim size = Dim.of(k);
    if (approx && !RuleParams.boolOr(ctx, "aggregate_to_topk", true)) {
      long n = RuleDims.known(d).orElseThrow(() -> RuleOperands.error(ctx, 0,
          "aggregate_to_topk=False needs a known size of dim " + axis + ", got " + x.text()));
      size = Dim.of(approxOutputSize(ctx, n, x.rank(), k));
    }
    List<Dim> dims = new ArrayList<>(x.shape().dims());
    dims.set(axis, size);
    Shape s = new Shape(dims);
    return List.of(x.withShape(s), x.withShape(s).withDType(DType.I32));
  }

  /**
   * The reduction-dim size of approx_top_k without aggregation: XLA's
   * {@code ApproxTopKReductionOutputSize}, which sizes the partial reduction for the TPU's
   * tiling (1024 elements for rank 1, 128 lanes otherwise) so that the recall target holds.
   */
  private static long approxOutputSize(RuleContext ctx, long inputSize, int rank, long k) {
    long tiling = rank == 1 ? 1024 : 128;
    if (inputSize <= tiling) return inputSize;
    long override = RuleParams.longOr(ctx, "reduction_input_size_override", -1);
    if (override >= 0 && inputSize > override)
      throw RuleOperands.error(ctx, "reduction_input_size_override " + override
          + " must be at least the reduced dim " + inputSize);
    long logical = override >= 0 ? override : inputSize;
    if (k == 1) return tiling;
    // XLA takes the recall target as a C++ float.
    double recall = (float) RuleParams.doubleParam(ctx, "recall_target");
    if (recall >= 1.0) return inputSize;
    // With M windows of the input, a top-k element is missed with probability ~ exp((1-K)/M).
    long m = Math.min(Math.max((long) ((1.0 - k) / Math.log(recall)), tiling), inputSize);
    int log2Reduction = log2Floor(logical / m);
    if (log2Reduction == 0) return inputSize;
    log2Reduction = Math.min(log2Reduction, log2Ceil(inputSize / tiling));
    return ceilDiv(ceilDiv(inputSize, tiling), 1L << log2Reduction) * tiling;
  }

  private static int log2Floor(long v) {
    return v == 0 ? 0 : 63 - Long.numberOfLeadingZeros(v);
  }

  private static int log2Ceil(long v) {
    return v <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(v - 1);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static Shape dropAxes(RuleContext ctx, ArrayType x) {
    long[] axes = RuleParams.longs(ctx, "axes");
    RuleDims.axesInRange(ctx, axes, x.rank(), "axes");
    return RuleDims.dropAxes(x.shape(), axes);
  }

  /** The combiner jaxpr, when given, takes 2n scalars and returns n. */
  private static void checkCombiner(RuleContext ctx, int n) {
    ParamValue v = ctx.params().get("jaxpr").orElse(null);
    if (!(v instanceof ParamValue.JaxprValue jv)) return;
    Jaxpr j = jv.jaxpr();
    if (j.invars().size() != 2 * n || j.outs().size() != n)
      throw RuleOperands.error(ctx, "the combiner jaxpr must take " + 2 * n + " values and return "
          + n + ", it takes " + j.invars().size() + " and returns " + j.outs().size());
    List<DType> dtypes = new ArrayList<>();
    for (int i = 0; i < n; i++) dtypes.add(RuleOperands.array(ctx, i).dtype());
    CombinerTypes.check(ctx, "jaxpr", dtypes);
  }
}
