package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.params.GatherParams;
import dev.jaxc.ir.prim.params.ScatterParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Type rules of gather and the scatters: XLA's shape inference as JAX implements it ({@code
 * _gather_shape_rule}, {@code _scatter_shape_rule}), with the index vector always the last dim
 * of the indices. Results are weak iff the operand is. The operand may be a key array.
 */
public final class IndexingRules {
  private IndexingRules() {}

  /**
   * {@code gather operand indices[dimension_numbers=… slice_sizes=… mode=… fill_value=…]}: the
   * result has the indices' batch dims, with the slice's remaining dims at {@code offset_dims}.
   */
  public static List<Type> gather(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    Type operand = RuleOperands.arrayLike(ctx, 0);
    Shape op = RuleOperands.shapeOf(operand);
    Shape idx = indices(ctx, 1);
    GatherParams dn = RuleParams.decoded(ctx, GatherParams::of);
    long[] sliceSizes = dn.sliceSizes();
    int ivd = idx.rank() - 1;
    int outRank = dn.offsetDims().length + idx.rank() - 1;

    sortedUnique(ctx, dn.offsetDims(), outRank, "offset_dims");
    if (!RuleDims.isKnown(idx.dims().get(ivd), dn.startIndexMap().length))
      throw RuleOperands.error(ctx, 1, "start_index_map " + RuleParams.tuple(dn.startIndexMap())
          + " needs the last dim of the indices " + ctx.in(1).text() + " to be "
          + dn.startIndexMap().length);
    unique(ctx, dn.startIndexMap(), op.rank(), "start_index_map");
    sortedUnique(ctx, dn.collapsedSliceDims(), op.rank(), "collapsed_slice_dims");
    sortedUnique(ctx, dn.operandBatchingDims(), op.rank(), "operand_batching_dims");
    disjoint(ctx, dn.collapsedSliceDims(), "collapsed_slice_dims", dn.operandBatchingDims());
    disjoint(ctx, dn.startIndexMap(), "start_index_map", dn.operandBatchingDims());
    batching(ctx, op, dn.operandBatchingDims(), idx, dn.startIndicesBatchingDims(),
        "start_indices_batching_dims");

    if (sliceSizes.length != op.rank())
      throw RuleOperands.error(ctx, "slice_sizes " + RuleParams.tuple(sliceSizes)
          + " need one entry per dim of " + operand.text());
    if (sliceSizes.length
        != dn.offsetDims().length + dn.collapsedSliceDims().length
            + dn.operandBatchingDims().length)
      throw RuleOperands.error(ctx, "every slice dim must be an offset, collapsed or batching dim, got "
          + sliceSizes.length + " slice sizes for offset_dims " + RuleParams.tuple(dn.offsetDims())
          + ", collapsed_slice_dims " + RuleParams.tuple(dn.collapsedSliceDims())
          + " and operand_batching_dims " + RuleParams.tuple(dn.operandBatchingDims()));
    boolean noIndices = idx.isStatic() && idx.elementCount() == 0;
    for (int i = 0; i < sliceSizes.length; i++) {
      Dim d = op.dims().get(i);
      boolean fits = sliceSizes[i] >= 0
          && (!(d instanceof Dim.Known k) || sliceSizes[i] <= k.size());
      if (!noIndices && !fits)
        throw RuleOperands.error(ctx, "slice size " + sliceSizes[i] + " at index " + i
            + " does not fit the operand " + operand.text());
    }
    for (long c : dn.collapsedSliceDims()) {
      if (sliceSizes[(int) c] != 1)
        throw RuleOperands.error(ctx, "collapsed slice dim " + c + " must have slice size 1, got "
            + sliceSizes[(int) c]);
    }
    for (long b : dn.operandBatchingDims()) {
      if (sliceSizes[(int) b] > 1)
        throw RuleOperands.error(ctx, "operand batching dim " + b + " must have slice size 0 or 1, got "
            + sliceSizes[(int) b]);
    }

    // Batch dims of the indices (all but the index vector) fill the non-offset positions.
    List<Dim> batch = new ArrayList<>(idx.dims().subList(0, ivd));
    List<Dim> window = new ArrayList<>();
    for (int i = 0; i < sliceSizes.length; i++) {
      if (!contains(dn.collapsedSliceDims(), i) && !contains(dn.operandBatchingDims(), i))
        window.add(Dim.of(sliceSizes[i]));
    }
    List<Dim> out = new ArrayList<>(outRank);
    int b = 0;
    int w = 0;
    for (int i = 0; i < outRank; i++) {
      out.add(contains(dn.offsetDims(), i) ? window.get(w++) : batch.get(b++));
    }
    return List.of(RuleOperands.reshaped(operand, new Shape(out), RuleOperands.weak(operand)));
  }

  /**
   * {@code scatter*} operand indices updates: the result is the operand's type. The updates
   * have the indices' batch dims at their scatter positions and at most the operand's window
   * sizes at {@code update_window_dims}.
   */
  public static List<Type> scatter(RuleContext ctx) {
    RuleOperands.arity(ctx, 3);
    Type operand = RuleOperands.arrayLike(ctx, 0);
    Shape op = RuleOperands.shapeOf(operand);
    Shape idx = indices(ctx, 1);
    Type updates = RuleOperands.arrayLike(ctx, 2);
    Shape up = RuleOperands.shapeOf(updates);
    if (!RuleOperands.element(updates).equals(RuleOperands.element(operand)))
      throw RuleOperands.error(ctx, 2, "the updates' dtype " + RuleOperands.element(updates)
          + " differs from the operand's " + RuleOperands.element(operand));
    if (operand instanceof ArrayType a) CombinerTypes.check(ctx, "update_jaxpr", List.of(a.dtype()));
    ScatterParams dn = RuleParams.decoded(ctx, ScatterParams::of);
    int ivd = idx.rank() - 1;

    int expectedRank = idx.rank() - 1 + dn.updateWindowDims().length;
    if (up.rank() != expectedRank)
      throw RuleOperands.error(ctx, 2, "the updates " + updates.text() + " must have rank "
          + expectedRank);
    sortedUnique(ctx, dn.updateWindowDims(), up.rank(), "update_window_dims");
    sortedUnique(ctx, dn.insertedWindowDims(), op.rank(), "inserted_window_dims");
    sortedUnique(ctx, dn.operandBatchingDims(), op.rank(), "operand_batching_dims");
    disjoint(ctx, dn.insertedWindowDims(), "inserted_window_dims", dn.operandBatchingDims());
    disjoint(ctx, dn.scatterDimsToOperandDims(), "scatter_dims_to_operand_dims",
        dn.operandBatchingDims());
    batching(ctx, op, dn.operandBatchingDims(), idx, dn.scatterIndicesBatchingDims(),
        "scatter_indices_batching_dims");

    int window = dn.updateWindowDims().length + dn.insertedWindowDims().length
        + dn.operandBatchingDims().length;
    if (window != op.rank())
      throw RuleOperands.error(ctx, "update_window_dims, inserted_window_dims and operand_batching_dims "
          + "cover " + window + " dims, but the operand " + operand.text() + " has "
          + op.rank());
    if (!RuleDims.isKnown(idx.dims().get(ivd), dn.scatterDimsToOperandDims().length))
      throw RuleOperands.error(ctx, 1, "scatter_dims_to_operand_dims "
          + RuleParams.tuple(dn.scatterDimsToOperandDims()) + " needs the last dim of the indices "
          + ctx.in(1).text() + " to be " + dn.scatterDimsToOperandDims().length);
    unique(ctx, dn.scatterDimsToOperandDims(), op.rank(), "scatter_dims_to_operand_dims");

    // Window dims of the updates are bounded by the operand's non-inserted, non-batching dims.
    List<Dim> maxWindow = new ArrayList<>();
    for (int i = 0; i < op.rank(); i++) {
      if (!contains(dn.insertedWindowDims(), i) && !contains(dn.operandBatchingDims(), i))
        maxWindow.add(op.dims().get(i));
    }
    for (int i = 0; i < dn.updateWindowDims().length; i++) {
      Dim u = up.dims().get((int) dn.updateWindowDims()[i]);
      if (u instanceof Dim.Known uk && maxWindow.get(i) instanceof Dim.Known mk
          && uk.size() > mk.size())
        throw RuleOperands.error(ctx, 2, "update window dim " + dn.updateWindowDims()[i] + " of "
            + updates.text() + " exceeds the operand's " + mk.size());
    }
    // The other dims of the updates match the indices' batch dims, in order.
    int seen = 0;
    for (int i = 0; i < up.rank(); i++) {
      if (contains(dn.updateWindowDims(), i)) continue;
      if (seen == ivd) seen++;
      if (!RuleDims.sameDim(up.dims().get(i), idx.dims().get(seen)))
        throw RuleOperands.error(ctx, 2, "scatter dim " + i + " of the updates " + updates.text()
            + " must equal dim " + seen + " of the indices " + ctx.in(1).text());
      seen++;
    }
    return List.of(RuleOperands.reshaped(operand, op, RuleOperands.weak(operand)));
  }

  /** The indices operand: an integer array whose last dim is the index vector. */
  private static Shape indices(RuleContext ctx, int i) {
    Type t = ctx.in(i);
    if (!RuleOperands.isIntegerArray(t))
      throw RuleOperands.error(ctx, i, "indices must have an integer dtype, got " + t.text());
    Shape s = ((ArrayType) t).shape();
    if (s.rank() == 0)
      throw RuleOperands.error(ctx, i, "indices must have a last dim holding the index vector, got "
          + t.text());
    return s;
  }

  /** The batching dims of operand and indices pair up with equal sizes. */
  private static void batching(
      RuleContext ctx, Shape op, long[] operandDims, Shape idx, long[] indexDims, String name) {
    unique(ctx, indexDims, idx.rank(), name);
    if (contains(indexDims, idx.rank() - 1))
      throw RuleOperands.error(ctx, name + " " + RuleParams.tuple(indexDims)
          + " cannot include the index vector dim " + (idx.rank() - 1));
    if (operandDims.length != indexDims.length)
      throw RuleOperands.error(ctx, "operand_batching_dims " + RuleParams.tuple(operandDims) + " and "
          + name + " " + RuleParams.tuple(indexDims) + " must have the same length");
    for (int i = 0; i < operandDims.length; i++) {
      if (!RuleDims.sameDim(op.dims().get((int) operandDims[i]), idx.dims().get((int) indexDims[i])))
        throw RuleOperands.error(ctx, "batching dims " + RuleParams.tuple(operandDims) + " of the operand "
            + "and " + RuleParams.tuple(indexDims) + " of the indices differ in size");
    }
  }

  private static void sortedUnique(RuleContext ctx, long[] dims, int rank, String name) {
    for (int i = 1; i < dims.length; i++) {
      if (dims[i] < dims[i - 1])
        throw RuleOperands.error(ctx, name + " " + RuleParams.tuple(dims) + " must be sorted");
    }
    unique(ctx, dims, rank, name);
  }

  private static void unique(RuleContext ctx, long[] dims, int rank, String name) {
    RuleDims.axesInRange(ctx, dims, rank, name);
  }

  private static void disjoint(RuleContext ctx, long[] a, String name, long[] batching) {
    for (long x : a) {
      if (contains(batching, x))
        throw RuleOperands.error(ctx, name + " " + RuleParams.tuple(a) + " and operand_batching_dims "
            + RuleParams.tuple(batching) + " must be disjoint");
    }
  }

  private static boolean contains(long[] xs, long x) {
    return Arrays.stream(xs).anyMatch(v -> v == x);
  }
}
