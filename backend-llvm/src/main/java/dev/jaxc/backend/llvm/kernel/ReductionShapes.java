package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import java.util.Arrays;
import java.util.List;

/**
 * What another backend's reduction kernels need to fold a built-in reduce_* equation as the CPU
 * kernels fold it: which of the CPU's memory-speed forms it takes ({@link ReduceLanes} over the
 * last dimension, {@link ReduceColumns} over the leading ones), their lane and part counts, and
 * the combiner and identity. The GPU reproduces the per-lane and per-part order with threads.
 */
public final class ReductionShapes {
  private ReductionShapes() {}

  /** The CPU form of a reduction: lanes over the last dimension, rows of columns, or neither. */
  public enum Form { LANES, COLUMNS, OTHER }

  /** The form of built-in reduction {@code e} (OTHER for any other primitive). */
  public static Form form(Primitive p, Eqn e) {
    if (!monoid(p)) return Form.OTHER;
    ArrayType in = (ArrayType) e.ins().get(0).type();
    DType d = in.dtype();
    int[] axes = axes(e);
    ElementGenerator none = idx -> {
      throw new AssertionError("not evaluated");
    };
    ReduceKernel.Reduction r = new ReduceKernel.Reduction(in.shape().sizes(), axes, List.of(none), List.of(d),
        List.of(), ReduceCombiners.monoid(p, d), ReduceCombiners.orderFree(p, d), true, ReduceCombiners.monoid(p, d));
    if (ReduceLanes.applies(r)) return Form.LANES;
    if (ReduceColumns.applies(r)) return Form.COLUMNS;
    return Form.OTHER;
  }

  /** Whether {@code p} is a built-in reduce_* with an identity and a binary combiner. */
  public static boolean monoid(Primitive p) {
    return switch (p) {
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> true;
      default -> false;
    };
  }

  /** Whether every order of folding gives the same bits (integers, bools, float max and min). */
  public static boolean orderFree(Primitive p, DType d) {
    return ReduceCombiners.orderFree(p, d);
  }

  /** The reduced axes of a built-in reduction, ascending. */
  public static int[] axes(Eqn e) {
    return Arrays.stream(e.params().getLongs("axes")).mapToInt(Math::toIntExact).sorted().toArray();
  }

  /** {@link ReduceLanes}' accumulator lanes for a last dimension of {@code m} elements. */
  public static long lanes(DType d, long m) {
    return ReduceLanes.lanesFor(d, m);
  }

  /** {@link ReduceColumns}' partial rows for {@code rows} reduced rows of {@code width} elements. */
  public static long columnParts(long rows, long width) {
    return ReduceColumns.parts(rows, width);
  }

  /** The 2 → 1 combiner jaxpr of {@code p} on {@code d}. */
  public static Jaxpr combiner(Primitive p, DType d) {
    return ReduceCombiners.monoid(p, d);
  }

  /** The identity (init value) of {@code p} on {@code d}. */
  public static Value identity(Ir ir, Primitive p, DType d) {
    return ReduceCombiners.identity(ir, p, d);
  }

  /**
   * argmax's (or argmin's) 4 → 2 combiner {@code (acc value, acc index, x value, x index)}: the
   * better value, a NaN first, on a tie the earlier index; a NaN accumulator is kept.
   */
  public static Jaxpr argCombiner(boolean max, DType value, DType index) {
    return ReduceCombiners.argMinMax(max, value, index);
  }

  /** A cumulative primitive's 2 → 1 combiner on {@code d}, as {@link CumulativeKernel} folds it. */
  public static Jaxpr scanCombiner(Primitive p, DType d) {
    return p == Primitive.CUMLOGSUMEXP ? ReduceCombiners.logAddExp(d) : ReduceCombiners.monoid(p, d);
  }

  /** XLA:CPU's block length of a cumulative op's scan tree ({@link CumulativeKernel}). */
  public static final int SCAN_BLOCK = 16;
}
