package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A built-in reduction of the leading dimensions with the trailing ones kept (a column sum),
 * folded at memory speed: the reduced rows are cut into a fixed number of parts ({@link #parts},
 * from the shape only), each part folds its whole rows, in order, into a partial row of
 * accumulators in scratch memory (the input streams with unit stride, the partial row stays in
 * cache), threads take the parts, and the partial rows are then folded in part order into the
 * result. The result never depends on the thread count.
 *
 * <p>For float sums and products this order is not XLA's 32-row tree windows: results differ in
 * the last bits (docs/backend-design.md, "Reductions").
 */
final class ReduceColumns {
  /** At most this many partial rows. */
  private static final long MAX_PARTS = 16;
  /** A part folds at least this many elements. */
  private static final long PART_ELEMENTS = 1 << 15;
  /** The kept row's accumulators fit in L2 (else ReduceKernel's row tiles are used). */
  private static final long MAX_ROW_BYTES = 256 << 10;
  /** Rows folded per pass over the partial row. */
  private static final int GROUP = 4;

  private final KernelContext cx;
  private final Ir ir;
  private final ReduceKernel.Reduction r;
  private final List<Integer> stored;
  private final ScalarJaxprEmitter combiner;
  private final LLVMTypeRef type;
  private final int slot;
  /** Number of reduced (leading) dimensions. */
  private final int lead;
  private final long rows;
  private final long width;

  private ReduceColumns(KernelContext cx, ReduceKernel.Reduction r, List<Integer> stored) {
    this.cx = cx;
    this.ir = cx.ir();
    this.r = r;
    this.stored = stored;
    this.combiner = new ScalarJaxprEmitter(ir, cx.lowering());
    DType d = r.dtypes().get(0);
    this.type = ElementTypes.compute(ir, d);
    this.slot = slotBytes(d);
    this.lead = r.axes().length;
    this.rows = product(r.shape(), 0, lead);
    this.width = product(r.shape(), lead, r.shape().length);
  }

  /** True for a one-operand built-in reduction that {@link #fits} and whose order is free or large. */
  static boolean applies(ReduceKernel.Reduction r) {
    if (!r.monoid() || r.operands().size() != 1) return false;
    DType d = r.dtypes().get(0);
    long elements = Arrays.stream(r.shape()).reduce(1, (a, b) -> a * b);
    return fits(r.shape(), r.axes(), d) && (r.orderFree() || elements >= ReduceLanes.XLA_VECTOR_MIN);
  }

  /**
   * The reduced axes are the leading ones, at least one dimension is kept, more than one row is
   * folded, the kept row's accumulators fit {@link #MAX_ROW_BYTES}; not complex.
   */
  private static boolean fits(long[] shape, int[] axes, DType d) {
    int n = axes.length;
    if (n == 0 || n >= shape.length || d.isComplex()) return false;
    for (int j = 0; j < n; j++) if (axes[j] != j) return false;
    long rows = product(shape, 0, n);
    long width = product(shape, n, shape.length);
    return rows > 1 && width > 0 && width * slotBytes(d) <= MAX_ROW_BYTES;
  }

  static void emit(KernelContext cx, ReduceKernel.Reduction r, List<Integer> stored) {
    new ReduceColumns(cx, r, stored).run();
  }

  /** Scratch bytes of a reduce_* equation this kernel takes: its partial rows; else 0. */
  static long scratchBytes(Primitive p, Eqn e) {
    ArrayType in = (ArrayType) e.ins().get(0).type();
    long[] shape = in.shape().sizes();
    int[] axes = Arrays.stream(e.params().getLongs("axes")).mapToInt(Math::toIntExact).sorted().toArray();
    DType d = in.dtype();
    long elements = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    if (!fits(shape, axes, d) || !(ReduceCombiners.orderFree(p, d) || elements >= ReduceLanes.XLA_VECTOR_MIN)) return 0;
    long rows = product(shape, 0, axes.length);
    long width = product(shape, axes.length, shape.length);
    return parts(rows, width) * width * slotBytes(d);
  }

  static long parts(long rows, long width) {
    return Math.max(1, Math.min(Math.min(MAX_PARTS, rows), rows * width / PART_ELEMENTS));
  }

  /** The compute type's size: f16 and bf16 are held as f32. */
  private static int slotBytes(DType d) {
    return d == DType.F16 || d == DType.BF16 ? 4 : d.byteSize();
  }

  private static long product(long[] shape, int from, int to) {
    long n = 1;
    for (int k = from; k < to; k++) n *= shape[k];
    return n;
  }

  private void run() {
    long parts = parts(rows, width);
    long[] keptShape = Arrays.copyOfRange(r.shape(), lead, r.shape().length);
    long[] leadShape = Arrays.copyOfRange(r.shape(), 0, lead);
    LLVMValueRef scratch = cx.scratch();
    Value init = r.inits().get(0);
    cx.loops().parallel().range(parts, 1, rows * width, (begin, end) -> cx.loops().forRange(begin, end, b -> {
      LLVMValueRef lo = ir.udiv(ir.mul(b, ir.i64(rows)), ir.i64(parts));
      LLVMValueRef hi = ir.udiv(ir.mul(ir.add(b, ir.i64(1)), ir.i64(rows)), ir.i64(parts));
      LLVMValueRef partial = ir.gep(type, scratch, ir.mul(b, ir.i64(width)));
      cx.loops().forEach(keptShape, k -> ir.store(init.v(), at(partial, k, keptShape), slot));
      // GROUP rows at a time: each accumulator is loaded and stored once per group (the same
      // order of folds as row by row), then the part's remaining rows one by one.
      LLVMValueRef groups = ir.udiv(ir.sub(hi, lo), ir.i64(GROUP));
      cx.loops().forRange(ir.i64(0), groups, g -> foldRows(partial, ir.add(lo, ir.mul(g, ir.i64(GROUP))), GROUP, keptShape, leadShape));
      cx.loops().forRange(ir.add(lo, ir.mul(groups, ir.i64(GROUP))), hi, s -> foldRows(partial, s, 1, keptShape, leadShape));
    }));
    // The partial rows folded in part order, threads over the kept positions.
    cx.loops().forEachParallel(keptShape, parts * width, LoopEmitter.VECTOR_GRAIN, k -> {
      Value v = Value.of(ir.load(type, at(scratch, k, keptShape), slot));
      for (long b = 1; b < parts; b++) {
        LLVMValueRef row = ir.gep(type, scratch, ir.i64(b * width));
        v = fold(v, Value.of(ir.load(type, at(row, k, keptShape), slot)));
      }
      for (int j = 0; j < stored.size(); j++) cx.access().store(cx.results().get(j), cx.resultTypes().get(j), k, v);
    });
  }

  /** partial[k] folds rows first … first + n - 1 in order, for every kept index k. */
  private void foldRows(LLVMValueRef partial, LLVMValueRef first, int n, long[] keptShape, long[] leadShape) {
    LLVMValueRef[][] red = new LLVMValueRef[n][];
    for (int j = 0; j < n; j++) red[j] = unflatten(ir.add(first, ir.i64(j)), leadShape);
    cx.loops().forEach(keptShape, k -> {
      LLVMValueRef p = at(partial, k, keptShape);
      Value acc = Value.of(ir.load(type, p, slot));
      for (int j = 0; j < n; j++) acc = fold(acc, r.operands().get(0).at(operandIndex(red[j], k)));
      ir.store(acc.v(), p, slot);
    });
  }

  /** Element k (a kept index) of a row of accumulators. */
  private LLVMValueRef at(LLVMValueRef row, Index k, long[] keptShape) {
    LLVMValueRef linear = ir.i64(0);
    for (int d = 0; d < keptShape.length; d++) linear = ir.add(ir.mul(linear, ir.i64(keptShape[d])), k.get(d));
    return ir.gep(type, row, linear);
  }

  /** The reduced dimensions' indices of flat row s. */
  private LLVMValueRef[] unflatten(LLVMValueRef s, long[] leadShape) {
    LLVMValueRef[] idx = new LLVMValueRef[leadShape.length];
    for (int d = leadShape.length - 1; d >= 0; d--) {
      idx[d] = d == 0 ? s : ir.urem(s, ir.i64(leadShape[d]));
      if (d > 0) s = ir.udiv(s, ir.i64(leadShape[d]));
    }
    return idx;
  }

  private Index operandIndex(LLVMValueRef[] red, Index k) {
    LLVMValueRef[] idx = new LLVMValueRef[r.shape().length];
    for (int d = 0; d < idx.length; d++) idx[d] = d < lead ? red[d] : k.get(d - lead);
    return Index.of(idx);
  }

  private Value fold(Value acc, Value x) {
    return combiner.emit(r.combiner(), List.of(acc, x)).get(0);
  }
}
