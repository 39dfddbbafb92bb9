package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMIntEQ;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A built-in reduction (reduce_sum/prod/max/min/and/or/xor, argmax/argmin) whose operand's last
 * dimension is reduced, folded at memory speed: each result keeps {@link #lanes} independent accumulators,
 * element k of a row going to lane k mod lanes, and the innermost loop walks the lanes with unit
 * stride, so LLVM's loop vectoriser turns them into the target's vectors (4 registers of 16 f32
 * on AVX-512, 8 of 8 on AVX2, 16 of 4 on SSE2 and NEON: the same lanes, hence the same bits, on
 * every target). The lanes are then combined pairwise (lane j with lane j + h, h halving).
 * argmax and argmin fold (value, index) pairs so, half as many lanes, and combine lanes and
 * partials with their order-free merge ({@link ReduceCombiners#argMerge}): JAX's bits.
 *
 * <p>A full reduction (one result) with enough elements is cut into a fixed number of parts
 * ({@link #parts}, from the shape only), each folded as above into a partial, which threads
 * compute; the partials are then folded in order. The result never depends on the thread count.
 *
 * <p>For float sums and products this order is not XLA's (a sequential fold of 32-element tree
 * windows): results differ in the last bits (docs/backend-design.md, "Reductions").
 */
final class ReduceLanes {
  /** Bytes of accumulators per result: 4 AVX-512 registers, 8 AVX2 ones. */
  private static final int LANE_BYTES = 256;
  /**
   * Lanes of a bool reduction (any, all): LLVM keeps 256 one-bit lanes as scalar inserts and
   * extracts, 32 as one vector of bytes.
   */
  private static final int BOOL_LANES = 32;
  /**
   * XLA:CPU 0.10.2 rewrites a float reduction of fewer operand elements into its 32-wide tree
   * (kept bit for bit by ReduceKernel); from this many on it calls YNNPACK's vectorised reduce.
   */
  static final long XLA_VECTOR_MIN = 4096;
  /** At most this many partials for one result. */
  private static final long MAX_PARTS = 64;
  /** A partial folds at least this many elements. */
  private static final long PART_ELEMENTS = 1 << 15;
  /** Bytes per partial in the scratch memory (each part of a value in its own 8-byte slot). */
  private static final int PART_SLOT = 8;

  private final KernelContext cx;
  private final Ir ir;
  private final ReduceKernel.Reduction r;
  private final List<Integer> stored;
  private final ScalarJaxprEmitter combiner;
  private final DType dtype;
  private final int rank;
  /** Reduced dimensions other than the last. */
  private final int[] redOuter;
  /** Kept dimensions. */
  private final int[] kept;
  private final long m;
  private final long lanes;

  private ReduceLanes(KernelContext cx, ReduceKernel.Reduction r, List<Integer> stored) {
    this.cx = cx;
    this.ir = cx.ir();
    this.r = r;
    this.stored = stored;
    this.combiner = new ScalarJaxprEmitter(ir, cx.lowering());
    this.dtype = r.dtypes().get(0);
    this.rank = r.shape().length;
    this.redOuter = Arrays.stream(r.axes()).filter(a -> a != rank - 1).toArray();
    this.kept = IntStream.range(0, rank).filter(d -> !reduced(d)).toArray();
    this.m = r.shape()[rank - 1];
    this.lanes = lanesFor(dtype, m, r.operands().size());
  }

  /**
   * True for a one-operand built-in reduction over the last dimension of more than one element
   * whose order is free (every order gives XLA's bits) or whose operand has at least {@link
   * #XLA_VECTOR_MIN} elements, where XLA:CPU hands it to YNNPACK, whose order is its own. The
   * caller folds the others in XLA's tree order.
   */
  static boolean applies(ReduceKernel.Reduction r) {
    int rank = r.shape().length;
    if (r.merge() == null || rank == 0) return false;
    if (!r.monoid() && (r.operands().size() != 2 || r.dtypes().get(0) == DType.BOOL)) return false;
    if (Arrays.stream(r.axes()).noneMatch(a -> a == rank - 1)) return false;
    long elements = Arrays.stream(r.shape()).reduce(1, (a, b) -> a * b);
    return r.shape()[rank - 1] > 1 && elements > 0 && (!r.monoid() || r.orderFree() || elements >= XLA_VECTOR_MIN);
  }

  static void emit(KernelContext cx, ReduceKernel.Reduction r, List<Integer> stored) {
    new ReduceLanes(cx, r, stored).run();
  }

  /** The power of two ≤ the row length, at most LANE_BYTES of accumulators. */
  static long lanesFor(DType d, long m) {
    return lanesFor(d, m, 1);
  }

  /** As {@link #lanesFor(DType, long)}, for {@code operands} accumulators a lane (their registers share the budget). */
  private static long lanesFor(DType d, long m, int operands) {
    long bytes = d == DType.F16 || d == DType.BF16 ? 4 : d.byteSize();
    long max = Math.max(1, (d == DType.BOOL ? BOOL_LANES : LANE_BYTES / operands) / bytes);
    return Math.min(max, Long.highestOneBit(m));
  }

  private boolean reduced(int d) {
    return Arrays.stream(r.axes()).anyMatch(a -> a == d);
  }

  private long size(int[] dims) {
    long n = 1;
    for (int d : dims) n *= r.shape()[d];
    return n;
  }

  private long[] sizes(int[] dims) {
    return Arrays.stream(dims).mapToLong(d -> r.shape()[d]).toArray();
  }

  private void run() {
    long results = size(kept);
    long count = size(redOuter) * m;
    long parts = parts(r.shape(), r.axes(), dtype, r.operands().size());
    if (parts >= 2) {
      partitioned(parts, count);
      return;
    }
    long work = results * count;
    cx.loops().forEachParallel(sizes(kept), work, 1, this::result);
  }

  /** The result at kept index {@code o} of a reduction that {@link #applies} (one row). */
  static void emitRow(KernelContext cx, ReduceKernel.Reduction r, Index o) {
    new ReduceLanes(cx, r, List.of(0)).result(o);
  }

  private void result(Index o) {
    List<ReduceSlot> acc = slots();
    fill(acc);
    cx.loops().forEach(sizes(redOuter), red -> row(acc, o, red, ir.i64(0), ir.i64(m / lanes), true));
    List<Value> v = combineLanes(acc);
    acc.forEach(ReduceSlot::release);
    store(o, v);
  }

  private List<ReduceSlot> slots() {
    return r.dtypes().stream().map(d -> ReduceSlot.array(ir, d, Math.toIntExact(lanes))).toList();
  }

  /**
   * How many partials a reduction folds its one result from (1: none), from the shape only. The
   * split is along the first reduced dimension other than the last with more than one index,
   * else along the last dimension's lane chunks (the last part takes the row's tail).
   */
  private static long parts(long[] shape, int[] axes, DType d, int operands) {
    int rank = shape.length;
    long count = 1;
    for (int a : axes) count *= shape[a];
    if (count != Arrays.stream(shape).reduce(1, (a, b) -> a * b)) return 1;  // several results
    long wanted = Math.min(MAX_PARTS, count / PART_ELEMENTS);
    int split = splitDim(shape, axes);
    long extent = split >= 0 ? shape[split] : shape[rank - 1] / lanesFor(d, shape[rank - 1], operands);
    return Math.max(1, Math.min(wanted, extent));
  }

  private static int splitDim(long[] shape, int[] axes) {
    for (int d : axes) if (d != shape.length - 1 && shape[d] > 1) return d;
    return -1;
  }

  /**
   * Scratch bytes of a reduce_*, argmax or argmin equation ({@code operands}: 1, or 2 for the
   * (value, index) pairs): its partials (both parts of a complex value), or 0 when it is not split.
   */
  static long scratchBytes(Eqn e, int operands) {
    ArrayType in = (ArrayType) e.ins().get(0).type();
    long[] shape = in.shape().sizes();
    int[] axes = Arrays.stream(e.params().getLongs("axes")).mapToInt(Math::toIntExact).sorted().toArray();
    if (shape.length == 0 || Arrays.stream(axes).noneMatch(a -> a == shape.length - 1) || shape[shape.length - 1] < 2
        || Arrays.stream(shape).anyMatch(n -> n == 0)) return 0;
    long parts = parts(shape, axes, in.dtype(), operands);
    return parts < 2 ? 0 : parts * 2 * PART_SLOT * operands;
  }

  /** The one result folded from {@code parts} partials, which threads compute. */
  private void partitioned(long parts, long count) {
    int split = splitDim(r.shape(), r.axes());
    long extent = split >= 0 ? r.shape()[split] : m / lanes;
    LLVMValueRef scratch = cx.scratch();
    Index zero = Index.of(zeros(kept.length));
    cx.loops().parallel().range(parts, 1, count, (begin, end) -> cx.loops().forRange(begin, end, b -> {
      LLVMValueRef lo = ir.udiv(ir.mul(b, ir.i64(extent)), ir.i64(parts));
      LLVMValueRef hi = ir.udiv(ir.mul(ir.add(b, ir.i64(1)), ir.i64(extent)), ir.i64(parts));
      List<ReduceSlot> acc = slots();
      fill(acc);
      if (split < 0) {
        LLVMValueRef last = ir.icmp(LLVMIntEQ, b, ir.i64(parts - 1));
        // The lane chunks [lo, hi), and the row's tail in the last part only.
        cx.loops().forEach(sizes(redOuter), red -> {
          chunks(acc, zero, red, lo, hi);
          if (m % lanes > 0) ReduceKernel.guarded(ir, last, () -> tail(acc, zero, red));
        });
      } else {
        int[] rest = Arrays.stream(redOuter).filter(d -> d != split).toArray();
        cx.loops().forRange(lo, hi, s -> cx.loops().forEach(sizes(rest), inner -> {
          LLVMValueRef[] red = new LLVMValueRef[redOuter.length];
          for (int j = 0, k = 0; j < redOuter.length; j++) red[j] = redOuter[j] == split ? s : inner.get(k++);
          row(acc, zero, Index.of(red), ir.i64(0), ir.i64(m / lanes), true);
        }));
      }
      storePartial(scratch, parts, b, combineLanes(acc));
      acc.forEach(ReduceSlot::release);
    }));
    List<Value> total = loadPartial(scratch, parts, ir.i64(0));
    for (long k = 1; k < parts; k++) total = merge(total, loadPartial(scratch, parts, ir.i64(k)));
    store(zero, total);
  }

  /** Operand j of partial b: its real part at slot 2j·parts + b, its imaginary part parts later. */
  private void storePartial(LLVMValueRef base, long parts, LLVMValueRef b, List<Value> vs) {
    for (int j = 0; j < vs.size(); j++) {
      Value v = vs.get(j);
      LLVMValueRef at = ir.add(b, ir.i64(2L * j * parts));
      ir.store(v.isComplex() ? v.re() : v.v(), slot(base, at), PART_SLOT);
      if (v.isComplex()) ir.store(v.im(), slot(base, ir.add(at, ir.i64(parts))), PART_SLOT);
    }
  }

  private List<Value> loadPartial(LLVMValueRef base, long parts, LLVMValueRef b) {
    List<Value> vs = new ArrayList<>();
    for (int j = 0; j < r.dtypes().size(); j++) {
      DType d = r.dtypes().get(j);
      LLVMValueRef at = ir.add(b, ir.i64(2L * j * parts));
      LLVMTypeRef t = ElementTypes.compute(ir, d.isComplex() ? d.realPart() : d);
      LLVMValueRef re = ir.load(t, slot(base, at), PART_SLOT);
      vs.add(d.isComplex() ? Value.complex(re, ir.load(t, slot(base, ir.add(at, ir.i64(parts))), PART_SLOT)) : Value.of(re));
    }
    return vs;
  }

  private LLVMValueRef slot(LLVMValueRef base, LLVMValueRef k) {
    return ir.gep(ir.i8, base, ir.mul(k, ir.i64(PART_SLOT)));
  }

  /** One row (kept index o, other reduced indices red): chunks [lo, hi), then the tail. */
  private void row(List<ReduceSlot> acc, Index o, Index red, LLVMValueRef lo, LLVMValueRef hi, boolean withTail) {
    chunks(acc, o, red, lo, hi);
    if (withTail && m % lanes > 0) tail(acc, o, red);
  }

  private void chunks(List<ReduceSlot> acc, Index o, Index red, LLVMValueRef lo, LLVMValueRef hi) {
    if (m / lanes == 0) return;
    cx.loops().forRange(lo, hi, c -> {
      LLVMValueRef start = ir.mul(c, ir.i64(lanes));
      if (r.operands().get(0) instanceof NextRowPrefetch next) next.prefetch(index(o, red, start), lanes);
      cx.loops().lanes(lanes, lane -> store(acc, lane, fold(load(acc, lane), elements(o, red, ir.add(start, lane)))));
    });
  }

  /** The row's last m mod lanes elements into lanes 0, 1, …: in power-of-two pieces, largest first. */
  private void tail(List<ReduceSlot> acc, Index o, Index red) {
    long start = m / lanes * lanes;
    long rest = m % lanes;
    long done = 0;
    for (long piece = Long.highestOneBit(rest); piece > 0; piece >>= 1) {
      if ((rest & piece) == 0) continue;
      long first = done;
      cx.loops().lanes(piece, j -> {
        LLVMValueRef lane = ir.add(j, ir.i64(first));
        store(acc, lane, fold(load(acc, lane), elements(o, red, ir.add(ir.i64(start), lane))));
      });
      done += piece;
    }
  }

  private void fill(List<ReduceSlot> acc) {
    cx.loops().lanes(lanes, lane -> store(acc, lane, r.inits()));
  }

  /** Lane j merges lane j + h, for h = lanes/2, …, 1; the result is in lane 0. */
  private List<Value> combineLanes(List<ReduceSlot> acc) {
    for (long h = lanes / 2; h >= 1; h /= 2) {
      long half = h;
      cx.loops().lanes(half, lane -> store(acc, lane, merge(load(acc, lane), load(acc, ir.add(lane, ir.i64(half))))));
    }
    return load(acc, ir.i64(0));
  }

  private List<Value> fold(List<Value> acc, List<Value> x) {
    return combine(r.combiner(), acc, x);
  }

  private List<Value> merge(List<Value> a, List<Value> b) {
    return combine(r.merge(), a, b);
  }

  private List<Value> combine(Jaxpr f, List<Value> a, List<Value> b) {
    List<Value> args = new ArrayList<>(a);
    args.addAll(b);
    return combiner.emit(f, args);
  }

  private static List<Value> load(List<ReduceSlot> slots, LLVMValueRef i) {
    return slots.stream().map(s -> s.load(i)).toList();
  }

  private static void store(List<ReduceSlot> slots, LLVMValueRef i, List<Value> vs) {
    for (int k = 0; k < slots.size(); k++) slots.get(k).store(i, vs.get(k));
  }

  /** The operand elements at kept index o, other reduced indices red, last index k. */
  private List<Value> elements(Index o, Index red, LLVMValueRef k) {
    Index at = index(o, red, k);
    return r.operands().stream().map(g -> g.at(at)).toList();
  }

  /** The operand index of kept index o, other reduced indices red, last index k. */
  private Index index(Index o, Index red, LLVMValueRef k) {
    LLVMValueRef[] idx = new LLVMValueRef[rank];
    for (int d = 0, a = 0, b = 0; d < rank; d++) {
      if (d == rank - 1) idx[d] = k;
      else idx[d] = reduced(d) ? red.get(b++) : o.get(a++);
    }
    return Index.of(idx);
  }

  private void store(Index o, List<Value> v) {
    for (int j = 0; j < stored.size(); j++)
      cx.access().store(cx.results().get(j), cx.resultTypes().get(j), o, v.get(stored.get(j)));
  }

  private LLVMValueRef[] zeros(int n) {
    LLVMValueRef[] z = new LLVMValueRef[n];
    Arrays.fill(z, ir.i64(0));
    return z;
  }
}
