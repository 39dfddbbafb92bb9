package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import java.util.Arrays;
import java.util.function.Consumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Owns loop nests. The first version is a plain row-major nest whose innermost loop walks the
 * last dimension with unit stride, so LLVM's loop vectoriser can take it; size-1 dimensions get
 * no loop, and an empty shape emits nothing. {@link #forEachParallel} splits the outermost loop
 * across workers ({@link ParallelRegions}). Tiling and explicit vectors replace this one class later.
 */
public final class LoopEmitter {
  /**
   * Chunk bounds on a split innermost axis are multiples of this, so the vectoriser's main loop and
   * remainder see the same elements in every chunking and results do not depend on the threads.
   */
  public static final long VECTOR_GRAIN = 1024;

  private final Ir ir;
  private final ParallelRegions parallel;

  public LoopEmitter(Ir ir, ParallelRegions parallel) {
    this.ir = ir;
    this.parallel = parallel;
  }

  public ParallelRegions parallel() {
    return parallel;
  }

  /** Emits {@code body} once per index of {@code shape}, at the builder's position. */
  public void forEach(long[] shape, Consumer<Index> body) {
    for (long n : shape) if (n == 0) return;
    nest(shape, 0, new LLVMValueRef[shape.length], body);
  }

  /**
   * As {@link #forEach}, with the outermost axis longer than 1 split into chunks across threads
   * when {@code work} (the nest's estimated scalar operations) is worth it; every index is still
   * visited once and each element computed alone, so the results are those of one thread. {@code
   * innerGrain}: chunk bounds are multiples of it when the split axis is the innermost.
   */
  public void forEachParallel(long[] shape, long work, long innerGrain, Consumer<Index> body) {
    forEachParallel(shape, work, innerGrain, 0, body);
  }

  /**
   * As above, the innermost axis (when it is not the split one) walked as {@code n / period}
   * runs of {@code period} (a power of two dividing its extent n, or 0 for none), its index
   * {@code q·period + r}: a body that reads element {@code index mod period} (a tile along the
   * last axis) then reads {@code r}, which LLVM sees as unit stride and vectorises, where through
   * the remainder it was a scalar loop.
   */
  public void forEachParallel(long[] shape, long work, long innerGrain, long period, Consumer<Index> body) {
    forEachParallel(shape, work, innerGrain, period, null, body);
  }

  /**
   * As above, {@code rowStart} (unless null) emitted at the start of each row, before the loop over
   * the innermost axis, given the row's index along the outer axes (the innermost's entry unset):
   * only where the split axis is not the innermost one.
   */
  public void forEachParallel(long[] shape, long work, long innerGrain, long period, Consumer<Index> rowStart,
      Consumer<Index> body) {
    parallelNest(shape, work, innerGrain, new LastAxis(period, null, null, rowStart), body);
  }

  /**
   * As {@link #forEachParallel}, the innermost axis (when it is not the split one) walked as one
   * loop per segment between consecutive {@code cuts} (sorted, inside (0, n)), each loop's
   * variable recorded in {@code ranges} with its bounds while {@code body} is emitted for it.
   */
  public void forEachParallelCut(long[] shape, long work, long innerGrain, long[] cuts, IndexRanges ranges,
      Consumer<Index> body) {
    parallelNest(shape, work, innerGrain, new LastAxis(0, cuts, ranges, null), body);
  }

  /**
   * How a nest walks its innermost axis where that is not the split one: in runs of {@code
   * period} (0: none), or in segments between {@code cuts} (null: none) recorded in {@code
   * ranges}; {@code rowStart} (null: none) emitted before each row's innermost loop.
   */
  private record LastAxis(long period, long[] cuts, IndexRanges ranges, Consumer<Index> rowStart) {
    static final LastAxis PLAIN = new LastAxis(0, null, null, null);
  }

  private void parallelNest(long[] shape, long work, long innerGrain, LastAxis last, Consumer<Index> body) {
    for (long n : shape) if (n == 0) return;
    int d = 0;
    while (d < shape.length && shape[d] == 1) d++;
    if (d == shape.length) {
      forEach(shape, body);
      return;
    }
    if (parallel.flatIndex()) {
      flat(shape, work, body);
      return;
    }
    int split = d;
    boolean innermost = Arrays.stream(shape, d + 1, shape.length).allMatch(n -> n == 1);
    LastAxis inner = innermost ? LastAxis.PLAIN : last;
    parallel.range(shape[d], innermost ? innerGrain : 1, work, (begin, end) -> {
      LLVMValueRef[] idx = new LLVMValueRef[shape.length];
      for (int k = 0; k < split; k++) idx[k] = ir.i64(0);
      range(begin, end, i -> {
        idx[split] = i;
        nest(shape, split + 1, idx, inner, body);
      });
    });
  }

  /** One region over the linear indices of {@code shape}, each delinearised (row-major). */
  private void flat(long[] shape, long work, Consumer<Index> body) {
    long total = 1;
    for (long x : shape) total *= x;
    long n = total;
    parallel.range(n, 1, work, (begin, end) -> range(begin, end, i -> {
      LLVMValueRef[] idx = new LLVMValueRef[shape.length];
      long stride = 1;
      for (int d = shape.length - 1; d >= 0; d--) {
        if (shape[d] == 1) {
          idx[d] = ir.i64(0);
          continue;
        }
        LLVMValueRef q = stride == 1 ? i : ir.udiv(i, ir.i64(stride));
        idx[d] = stride * shape[d] == n ? q : ir.urem(q, ir.i64(shape[d]));
        stride *= shape[d];
      }
      body.accept(Index.of(idx));
    }));
  }

  /** Lane counts up to this are emitted as straight-line copies (too short for the vectoriser). */
  private static final long STRAIGHT_LANES = 4;

  /**
   * {@code for (j = 0; j < n; j++) body(j)} over the lanes of a fixed accumulator array: the loop
   * the vectoriser makes of it is then unrolled fully ({@link Ir#condBrVectorizeThenUnroll}), and
   * up to {@link #STRAIGHT_LANES} lanes are copies with constant indices, so that SROA can keep
   * the accumulators in registers across the loops around it. {@code n} should be a power of two
   * (then the vector loop leaves no remainder loop indexing the array).
   */
  public void lanes(long n, Consumer<LLVMValueRef> body) {
    if (n <= STRAIGHT_LANES) {
      for (long j = 0; j < n; j++) body.accept(ir.i64(j));
      return;
    }
    range(ir.i64(0), ir.i64(n), ir::condBrVectorizeThenUnroll, body);
  }

  /** {@code for (i = begin; i < end; i++) body(i)} for run-time bounds (nothing when begin ≥ end). */
  public void forRange(LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef then = ir.block("range");
    LLVMBasicBlockRef join = ir.block("range.end");
    ir.condBr(ir.icmp(LLVMIntULT, begin, end), then, join);
    ir.at(then);
    range(begin, end, body);
    ir.br(join);
    ir.at(join);
  }

  /** A loop's latch: branch to {@code then} (the loop) while {@code cond} holds, else to {@code otherwise}. */
  private interface Latch {
    void branch(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise);
  }

  /** {@code for (i = begin; i < end; i++) body(i)}; begin < end. */
  private void range(LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    range(begin, end, ir::condBr, body);
  }

  /** As above, the loop closed by {@code latch}. */
  private void range(LLVMValueRef begin, LLVMValueRef end, Latch latch, Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("loop");
    LLVMBasicBlockRef exit = ir.block("loop.end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, begin, pre);
    body.accept(i);
    LLVMValueRef next = LLVMBuildNUWAdd(ir.b, i, ir.i64(1), "");
    ir.incoming(i, next, ir.currentBlock());
    latch.branch(ir.icmp(LLVMIntULT, next, end), loop, exit);
    ir.at(exit);
  }

  private void nest(long[] shape, int d, LLVMValueRef[] idx, Consumer<Index> body) {
    nest(shape, d, idx, LastAxis.PLAIN, body);
  }

  private void nest(long[] shape, int d, LLVMValueRef[] idx, LastAxis last, Consumer<Index> body) {
    if (d == shape.length - 1 && last.rowStart() != null && shape[d] > 1) {
      LLVMValueRef[] row = idx.clone();
      row[d] = ir.i64(0);
      last.rowStart().accept(Index.of(row));
    }
    if (d == shape.length - 1 && last.cuts() != null) {
      long lo = 0;
      for (int c = 0; c <= last.cuts().length; c++) {
        long a = lo;
        long b = c < last.cuts().length ? last.cuts()[c] : shape[d];
        lo = b;
        range(ir.i64(a), ir.i64(b), j -> {
          idx[d] = j;
          last.ranges().push(j, a, b);
          body.accept(Index.of(idx.clone()));
          last.ranges().pop();
        });
      }
      return;
    }
    long period = last.period();
    if (d == shape.length - 1 && period > 1 && period < shape[d] && shape[d] % period == 0
        && Long.bitCount(period) == 1) {
      range(ir.i64(0), ir.i64(shape[d] / period), q -> range(ir.i64(0), ir.i64(period), r -> {
        idx[d] = LLVMBuildNUWAdd(ir.b, LLVMBuildNUWMul(ir.b, q, ir.i64(period), ""), r, "");
        body.accept(Index.of(idx.clone()));
      }));
      return;
    }
    if (d == shape.length) {
      body.accept(Index.of(idx.clone()));
      return;
    }
    if (shape[d] == 1) {
      idx[d] = ir.i64(0);
      nest(shape, d + 1, idx, last, body);
      return;
    }
    range(ir.i64(0), ir.i64(shape[d]), i -> {
      idx[d] = i;
      nest(shape, d + 1, idx, last, body);
    });
  }
}
