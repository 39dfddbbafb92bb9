package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMIntULT;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
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
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Reductions: reduce_sum/prod/max/min/and/or/xor, argmax/argmin and the generic variadic
 * {@code reduce}. Each result folds its reduced elements with the combiner jaxpr, starting from
 * the init values, in XLA:CPU's order:
 *
 * <ul>
 *   <li>When one element is reduced (no axes, or only size-1 ones) the operand passes through
 *       unchanged, combiner and init unused (XLA's algebraic simplifier turns the reduce into a
 *       reshape).
 *   <li>A single-operand reduction with a reduced dimension over 32 is split as XLA's
 *       TreeReductionRewriter splits it: every reduced dimension is cut into windows of
 *       min(size, 32), padded evenly ("same" padding, positions outside the operand skipped);
 *       each window is folded from the init, then the window results are folded from the init.
 *   <li>Otherwise the reduced elements are folded in row-major order.
 * </ul>
 *
 * Where every order gives the same bits (integer and bool reductions, float max and min) the
 * elements are simply folded in row-major order. Float sums and products therefore round as on
 * XLA:CPU, except where XLA hands a large reduction to a vector library, whose order is its own
 * (the results agree within rounding).
 */
final class ReduceKernel {
  private static final int TREE_WINDOW = 32;
  /** Results computed together along a kept last dimension. */
  private static final long ROW_TILE = 512;

  private ReduceKernel() {}

  /**
   * n operands folded together, with their dtypes, init values and a 2n → n combiner. {@code
   * merge}, where not null, is a 2n → n combiner of the results of two disjoint sets of elements,
   * in either order, such that folding the lanes or parts of a row with it gives the bits of the
   * sequential fold (argmax's total order); the lane forms use it in place of the combiner.
   */
  record Reduction(long[] shape, int[] axes, List<ElementGenerator> operands, List<DType> dtypes,
      List<Value> inits, Jaxpr combiner, boolean orderFree, boolean monoid, Jaxpr merge) {}

  static void emit(KernelContext cx) {
    Eqn e = cx.eqn();
    Primitive p = Primitive.byName(e.primitive()).orElseThrow();
    ArrayType in = cx.operandType(0);
    long[] shape = in.shape().sizes();
    switch (p) {
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_AND, REDUCE_OR, REDUCE_XOR ->
          reduce(cx, monoid(cx, p), List.of(0));
      case ARGMAX, ARGMIN -> {
        DType d = in.dtype();
        DType index = cx.resultTypes().get(0).dtype();
        int axis = axes(e.params().getLongs("axes"))[0];
        Ir ir = cx.ir();
        ElementGenerator position = idx -> Value.of(ir.intCast(idx.get(axis), ElementTypes.compute(ir, index), false));
        Reduction r = new Reduction(shape, new int[] {axis}, List.of(cx.operands().get(0), position),
            List.of(d, index), List.of(ReduceCombiners.identity(ir, p, d), ReduceCombiners.zeroOf(ir, index)),
            ReduceCombiners.argMinMax(p == Primitive.ARGMAX, d, index), false, false,
            ReduceCombiners.argMerge(p == Primitive.ARGMAX, d, index));
        reduce(cx, r, List.of(1));
      }
      case REDUCE -> {
        int n = e.ins().size() / 2;
        List<DType> dtypes = new ArrayList<>();
        List<Value> inits = new ArrayList<>();
        List<Integer> stored = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          dtypes.add(cx.operandType(k).dtype());
          inits.add(cx.operands().get(n + k).at(Index.SCALAR));
          stored.add(k);
        }
        Reduction r = new Reduction(shape, axes(e.params().getLongs("dimensions")), cx.operands().subList(0, n),
            dtypes, inits, e.params().getJaxpr("jaxpr"), false, false, null);
        reduce(cx, r, stored);
      }
      default -> throw new AssertionError(p);
    }
  }

  /** A built-in reduce_* primitive as a reduction with its identity and binary combiner. */
  private static Reduction monoid(KernelContext cx, Primitive p) {
    ArrayType in = cx.operandType(0);
    DType d = in.dtype();
    return new Reduction(in.shape().sizes(), axes(cx.eqn().params().getLongs("axes")), List.of(cx.operands().get(0)),
        List.of(d), List.of(ReduceCombiners.identity(cx.ir(), p, d)), ReduceCombiners.monoid(p, d),
        ReduceCombiners.orderFree(p, d), true, ReduceCombiners.monoid(p, d));
  }

  /**
   * The leading kept dimensions of a built-in reduction of the trailing ones that folds in lanes
   * (ReduceLanes) and has more than one result, else -1: such a reduction can be emitted a row
   * at a time (KernelLowering#emitRow).
   */
  static int rowReduction(Primitive p, Eqn e) {
    ArrayType in = (ArrayType) e.ins().get(0).type();
    long[] shape = in.shape().sizes();
    int[] axes = axes(e.params().getLongs("axes"));
    int kept = shape.length - axes.length;
    for (int j = 0; j < axes.length; j++) if (axes[j] != kept + j) return -1;
    if (kept < 1 || axes.length == 0) return -1;
    long elements = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    boolean lanes = shape[shape.length - 1] > 1 && elements > 0
        && (ReduceCombiners.orderFree(p, in.dtype()) || elements >= ReduceLanes.XLA_VECTOR_MIN);
    return lanes ? kept : -1;
  }

  /** The one result at {@code row} (the kept index) of a reduction with a positive rowReduction. */
  static void emitRow(KernelContext cx, Index row) {
    Primitive p = Primitive.byName(cx.eqn().primitive()).orElseThrow();
    ReduceLanes.emitRow(cx, monoid(cx, p), row);
  }

  private static int[] axes(long[] given) {
    return Arrays.stream(given).mapToInt(Math::toIntExact).sorted().toArray();
  }

  /** Emits the reduction; result buffer j receives the reduction's output {@code stored[j]}. */
  private static void reduce(KernelContext cx, Reduction r, List<Integer> stored) {
    // A GPU thread per result folds its row serially: lanes of pairs would live in local memory.
    boolean gpuArg = !r.monoid() && cx.loops().parallel().flatIndex();
    if (ReduceLanes.applies(r) && !gpuArg) ReduceLanes.emit(cx, r, stored);
    else if (ReduceColumns.applies(r)) ReduceColumns.emit(cx, r, stored);
    else new Emission(cx, r, stored).run();
  }

  /**
   * The loops of one reduction. When the operand's last dimension is kept, results are computed a
   * row tile at a time: accumulators for up to {@link #ROW_TILE} adjacent results along it, the
   * reduced loops outside and the innermost loop walking the tile with unit stride. Otherwise each
   * result is folded on its own, and the innermost reduced loop walks the last dimension. Both
   * fold each result's elements in the same order.
   */
  private static final class Emission {
    private final KernelContext cx;
    private final Ir ir;
    private final Reduction r;
    private final List<Integer> stored;
    private final ScalarJaxprEmitter combiner;
    private final long[] reduced;
    private final long count;
    /** The last dimension when it is kept (the row direction), else -1. */
    private final int row;
    /** The kept dimensions other than {@code row}. */
    private final long[] outer;
    private final long width;
    /** The accumulators, made in the loop over the kept dimensions (a thread's own stack). */
    private List<ReduceSlot> acc;
    private final boolean tree;
    private List<ReduceSlot> window;
    private final long[] size;
    private final long[] windows;
    private final long[] low;

    Emission(KernelContext cx, Reduction r, List<Integer> stored) {
      this.cx = cx;
      this.ir = cx.ir();
      this.r = r;
      this.stored = stored;
      this.combiner = new ScalarJaxprEmitter(ir, cx.lowering());
      int rank = r.shape().length;
      reduced = new long[r.axes().length];
      for (int j = 0; j < reduced.length; j++) reduced[j] = r.shape()[r.axes()[j]];
      count = Arrays.stream(reduced).reduce(1, (a, b) -> a * b);
      row = rank > 0 && !isReduced(r, rank - 1) ? rank - 1 : -1;
      outer = IntStream.range(0, rank).filter(d -> d != row && !isReduced(r, d)).mapToLong(d -> r.shape()[d]).toArray();
      // A GPU (a thread per element) folds one result per thread, neighbouring threads on
      // neighbouring results; a CPU thread takes a tile of them for unit-stride inner loops.
      width = row < 0 || cx.loops().parallel().flatIndex() ? 1 : Math.max(1, Math.min(r.shape()[row], ROW_TILE));
      tree = count > 0 && r.operands().size() == 1 && !r.orderFree()
          && Arrays.stream(reduced).anyMatch(n -> n > TREE_WINDOW);
      int m = reduced.length;
      size = new long[m];
      windows = new long[m];
      low = new long[m];
      for (int j = 0; j < m && tree; j++) {
        size[j] = Math.min(reduced[j], TREE_WINDOW);
        windows[j] = (reduced[j] + size[j] - 1) / size[j];
        low[j] = (windows[j] * size[j] - reduced[j]) / 2;
      }
    }

    /**
     * The loop over the kept dimensions may be split across threads: each result is still folded
     * whole, in its order, by one thread.
     */
    void run() {
      long results = Arrays.stream(outer).reduce(row < 0 ? 1 : r.shape()[row], (a, b) -> a * b);
      long work = results * count * r.operands().size();
      if (row < 0) {
        cx.loops().forEachParallel(outer, work, 1, o -> {
          acc = slots(width);
          window = tree ? slots(width) : List.of();
          tile(o, ir.i64(0), 1);
          release();
        });
        return;
      }
      // Threads over the kept dimensions and the row's tiles (a column sum has no other kept one).
      long n = r.shape()[row];
      long full = n / width;
      long tiles = full + (n % width > 0 ? 1 : 0);
      long[] space = Arrays.copyOf(outer, outer.length + 1);
      space[outer.length] = tiles;
      cx.loops().forEachParallel(space, work, 1, ot -> {
        Index o = new Index(ot.dims().subList(0, outer.length));
        LLVMValueRef t = ot.get(outer.length);
        acc = slots(width);
        window = tree ? slots(width) : List.of();
        LLVMValueRef start = ir.mul(t, ir.i64(width));
        if (n % width == 0) {
          tile(o, start, width);
        } else if (full == 0) {
          tile(o, start, n % width);
        } else {
          ir.ifElse(ir.icmp(org.bytedeco.llvm.global.LLVM.LLVMIntEQ, t, ir.i64(full)), "tile",
              () -> tile(o, start, n % width), () -> tile(o, start, width));
        }
        release();
      });
    }

    private void release() {
      acc.forEach(ReduceSlot::release);
      window.forEach(ReduceSlot::release);
    }

    /** The results at {@code o} and row positions start … start + lanes - 1. */
    private void tile(Index o, LLVMValueRef start, long lanes) {
      if (count == 1) {
        lanes(lanes, i -> results(o, start, i, elements(at(o, start, i, Index.of(zeros(reduced.length))))));
        return;
      }
      lanes(lanes, i -> store(acc, i, r.inits()));
      if (tree) {
        treeFold(o, start, lanes);
      } else {
        cx.loops().forEach(reduced, red -> lanes(lanes, i -> fold(acc, i, elements(at(o, start, i, red)))));
      }
      lanes(lanes, i -> results(o, start, i, load(acc, i)));
    }

    /** XLA's tree reduction of one operand (see the class comment). */
    private void treeFold(Index o, LLVMValueRef start, long lanes) {
      int m = reduced.length;
      cx.loops().forEach(windows, w -> {
        lanes(lanes, i -> store(window, i, r.inits()));
        cx.loops().forEach(size, t -> {
          LLVMValueRef[] pos = new LLVMValueRef[m];
          LLVMValueRef inside = null;
          for (int j = 0; j < m; j++) {
            pos[j] = ir.sub(ir.add(ir.mul(w.get(j), ir.i64(size[j])), t.get(j)), ir.i64(low[j]));
            if (windows[j] * size[j] == reduced[j]) continue;  // no padding on this dimension
            LLVMValueRef in = ir.icmp(LLVMIntULT, pos[j], ir.i64(reduced[j]));
            inside = inside == null ? in : ir.and(inside, in);
          }
          Runnable step = () -> lanes(lanes, i -> fold(window, i, elements(at(o, start, i, Index.of(pos)))));
          if (inside == null) step.run();
          else guarded(ir, inside, step);
        });
        lanes(lanes, i -> fold(acc, i, load(window, i)));
      });
    }

    private void lanes(long lanes, Consumer<LLVMValueRef> body) {
      cx.loops().forEach(new long[] {lanes}, i -> body.accept(i.get(0)));
    }

    /** acc[i] = combiner(acc[i], xs). */
    private void fold(List<ReduceSlot> slots, LLVMValueRef i, List<Value> xs) {
      List<Value> args = new ArrayList<>(load(slots, i));
      args.addAll(xs);
      store(slots, i, combiner.emit(r.combiner(), args));
    }

    private List<Value> elements(Index idx) {
      List<Value> v = new ArrayList<>();
      for (ElementGenerator g : r.operands()) v.add(g.at(idx));
      return v;
    }

    private void results(Index o, LLVMValueRef start, LLVMValueRef lane, List<Value> v) {
      List<LLVMValueRef> out = new ArrayList<>(o.dims());
      if (row >= 0) out.add(ir.add(start, lane));
      Index idx = new Index(out);
      for (int j = 0; j < stored.size(); j++)
        cx.access().store(cx.results().get(j), cx.resultTypes().get(j), idx, v.get(stored.get(j)));
    }

    /** The operand index of result (o, start + lane) and reduced-dimension index {@code red}. */
    private Index at(Index o, LLVMValueRef start, LLVMValueRef lane, Index red) {
      LLVMValueRef[] idx = new LLVMValueRef[r.shape().length];
      for (int d = 0, k = 0, j = 0; d < idx.length; d++) {
        if (d == row) idx[d] = ir.add(start, lane);
        else idx[d] = isReduced(r, d) ? red.get(j++) : o.get(k++);
      }
      return Index.of(idx);
    }

    private LLVMValueRef[] zeros(int n) {
      LLVMValueRef[] z = new LLVMValueRef[n];
      Arrays.fill(z, ir.i64(0));
      return z;
    }

    private List<ReduceSlot> slots(long length) {
      return r.dtypes().stream().map(d -> ReduceSlot.array(ir, d, Math.toIntExact(length))).toList();
    }

    private static List<Value> load(List<ReduceSlot> slots, LLVMValueRef i) {
      return slots.stream().map(s -> s.load(i)).toList();
    }

    private static void store(List<ReduceSlot> slots, LLVMValueRef i, List<Value> vs) {
      for (int k = 0; k < slots.size(); k++) slots.get(k).store(i, vs.get(k));
    }
  }

  private static boolean isReduced(Reduction r, int d) {
    return Arrays.stream(r.axes()).anyMatch(a -> a == d);
  }

  /** Runs {@code body} only where {@code cond} (i1) holds. */
  static void guarded(Ir ir, LLVMValueRef cond, Runnable body) {
    LLVMBasicBlockRef then = ir.block("if");
    LLVMBasicBlockRef join = ir.block("endif");
    ir.condBr(cond, then, join);
    ir.at(then);
    body.run();
    ir.br(join);
    ir.at(join);
  }
}
