package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMIntEQ;
import static org.bytedeco.llvm.global.LLVM.LLVMIntUGE;
import static org.bytedeco.llvm.global.LLVM.LLVMIntULT;

import dev.jaxc.backend.llvm.Support;
import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * cumsum, cumprod, cummax, cummin and cumlogsumexp, in XLA:CPU's order. JAX lowers them to a
 * reduce_window whose window is the whole prefix (suffix when reversed), and XLA's
 * ReduceWindowRewriter turns a scan longer than 16 into a tree: the scan is padded with the
 * identity to a multiple of 16 and cut into blocks of 16; each block is scanned from the
 * identity; the block totals are scanned the same way (recursively) and exclusively; and each
 * result is combine(in-block scan, exclusive scan of the blocks before it). A window is always
 * folded in ascending order, so a reversed scan's element i is fold(init, x[i], x[i+1], …).
 *
 * <p>Each line along the axis is computed in one pass, a level at a time from the top: level 0
 * is the operand, level l+1 the block totals of level l, and the top level (16 items or fewer)
 * is scanned directly. The kernel streams through level 0 in scan order, keeping per level the
 * running fold of its current block and the last scan result it produced, which is the exclusive
 * prefix of the next block below. A reversed block folds its suffixes from a 16-entry buffer.
 * Padding is never read: folding the identity changes no value. When the axis is not the last
 * dimension, up to {@link #LANE_TILE} adjacent lines along the last dimension are scanned
 * together, the innermost loops walking them with unit stride (one line per thread where the
 * parallel regions want a thread per element: a GPU grid).
 */
final class CumulativeKernel {
  /** The ReduceWindowRewriter base length XLA:CPU uses. */
  private static final int BLOCK = ReductionShapes.SCAN_BLOCK;
  private static final long LANE_TILE = 64;

  private CumulativeKernel() {}

  static void emit(KernelContext cx) {
    Eqn e = cx.eqn();
    Primitive p = Primitive.byName(e.primitive()).orElseThrow();
    if (p == Primitive.CUMLOGSUMEXP && !(Support.isLowered(Primitive.EXP) && Support.isLowered(Primitive.LOG1P)))
      throw new JaxcException(
          "unsupported primitive cumlogsumexp (its combiner needs exp and log1p: pending math library)", e.span());
    DType d = cx.operandType(0).dtype();
    // JAX traces cumlogsumexp of integers; its log-add-exp exists only for floating and complex dtypes.
    if (p == Primitive.CUMLOGSUMEXP && !d.isInexact())
      throw new JaxcException("unsupported primitive cumlogsumexp of " + d + " (only of floating and complex dtypes)",
          e.span());
    Jaxpr combiner = p == Primitive.CUMLOGSUMEXP ? ReduceCombiners.logAddExp(d) : ReduceCombiners.monoid(p, d);
    new Scan(cx, combiner, ReduceCombiners.identity(cx.ir(), p, d), e.params().getInt("axis"),
        e.params().getBool("reverse", false)).emit();
  }

  private static final class Scan {
    private final KernelContext cx;
    private final Ir ir;
    private final ScalarJaxprEmitter emitter;
    private final Jaxpr combiner;
    private final Value init;
    private final long[] shape;
    private final int axis;
    private final boolean reverse;
    private final ElementGenerator operand;
    /** Item counts per level: the axis length, then its block counts, down to 16 or fewer. */
    private final long[] sizes;
    /** The last dimension when it is not the axis (lines along it are scanned together), else -1. */
    private final int lane;
    private final long width;
    /** Per level and lane: the running fold of the current block (reversed: the last suffix fold). */
    private final List<ReduceSlot> run = new ArrayList<>();
    /** Per level and lane: the last scan result, the exclusive prefix of the next block below. */
    private final List<ReduceSlot> last = new ArrayList<>();
    /** Per level, reversed only: the current block's items, item j of lane i at j * width + i. */
    private final List<ReduceSlot> items = new ArrayList<>();
    private Index outer;
    private LLVMValueRef start;
    private long lanes;

    Scan(KernelContext cx, Jaxpr combiner, Value init, int axis, boolean reverse) {
      this.cx = cx;
      this.ir = cx.ir();
      this.emitter = new ScalarJaxprEmitter(ir, cx.lowering());
      this.combiner = combiner;
      this.init = init;
      ArrayType t = cx.operandType(0);
      this.shape = t.shape().sizes();
      this.axis = axis;
      this.reverse = reverse;
      this.operand = cx.operands().get(0);
      List<Long> n = new ArrayList<>(List.of(shape[axis]));
      while (n.get(n.size() - 1) > BLOCK) n.add((n.get(n.size() - 1) + BLOCK - 1) / BLOCK);
      this.sizes = n.stream().mapToLong(Long::longValue).toArray();
      this.lane = axis == shape.length - 1 ? -1 : shape.length - 1;
      // A GPU (one thread per element) scans one line per thread, neighbouring threads on
      // neighbouring lines; a CPU thread takes a tile of lines for unit-stride inner loops.
      boolean perLine = cx.loops().parallel().flatIndex();
      this.width = lane < 0 || perLine ? 1 : Math.max(1, Math.min(shape[lane], LANE_TILE));
    }

    /** The per-level slots, made inside the (possibly threaded) loop body: a thread's own stack. */
    private void makeSlots() {
      DType d = cx.operandType(0).dtype();
      int w = Math.toIntExact(width);
      for (List<ReduceSlot> slots : List.of(run, last, items)) slots.clear();
      for (long ignored : sizes) {
        run.add(ReduceSlot.array(ir, d, w));
        last.add(ReduceSlot.array(ir, d, w));
        if (reverse) items.add(ReduceSlot.array(ir, d, BLOCK * w));
      }
    }

    /**
     * Threads over the other dimensions and the lane tiles: each line is scanned whole, by one
     * thread, with the same code, so results do not depend on the thread count.
     */
    void emit() {
      long[] outerShape =
          IntStream.range(0, shape.length).filter(d -> d != axis && d != lane).mapToLong(d -> shape[d]).toArray();
      long n = lane < 0 ? 1 : shape[lane];
      long full = n / width;
      long tiles = full + (n % width > 0 ? 1 : 0);
      long[] space = Arrays.copyOf(outerShape, outerShape.length + 1);
      space[outerShape.length] = tiles;
      long work = Arrays.stream(shape).reduce(1, (a, b) -> a * b) * sizes.length;
      cx.loops().forEachParallel(space, work, 1, ot -> {
        Index o = new Index(ot.dims().subList(0, outerShape.length));
        LLVMValueRef t = ot.get(outerShape.length);
        makeSlots();
        LLVMValueRef first = ir.mul(t, ir.i64(width));
        if (n % width == 0) {
          tile(o, first, width);
        } else if (full == 0) {
          tile(o, first, n % width);
        } else {
          ir.ifElse(ir.icmp(LLVMIntEQ, t, ir.i64(full)), "scan",
              () -> tile(o, first, n % width), () -> tile(o, first, width));
        }
        for (List<ReduceSlot> slots : List.of(run, last, items)) slots.forEach(ReduceSlot::release);
      });
    }

    /** Scans the lines at {@code o} and lane positions start … start + n - 1. */
    private void tile(Index o, LLVMValueRef first, long n) {
      outer = o;
      start = first;
      lanes = n;
      // Before any block of a level is done, the exclusive prefix below it is the identity.
      for (ReduceSlot s : last) lanes(i -> s.store(i, init));
      top();
    }

    private void lanes(Consumer<LLVMValueRef> body) {
      cx.loops().forEach(new long[] {lanes}, i -> body.accept(i.get(0)));
    }

    private Value combine(Value acc, Value x) {
      return emitter.emit(combiner, List.of(acc, x)).get(0);
    }

    /** The top level: 16 items or fewer, scanned directly. */
    private void top() {
      int l = sizes.length - 1;
      long n = sizes[l];
      lanes(i -> run.get(l).store(i, init));
      cx.loops().forEach(new long[] {n}, t -> {
        LLVMValueRef k = reverse ? ir.sub(ir.i64(n - 1), t.get(0)) : t.get(0);
        if (l > 0) block(l - 1, k);
        if (reverse) {
          lanes(i -> items.get(l).store(slot(k, i), item(l, k, i)));
          suffix(l, k, ir.i64(0), n, n);
          lanes(i -> result(l, k, i, run.get(l).load(i)));
        } else {
          lanes(i -> {
            Value s = combine(run.get(l).load(i), item(l, k, i));
            run.get(l).store(i, s);
            result(l, k, i, s);
          });
        }
      });
    }

    /** Item k of level l in lane i: an operand element, or the total of block k one level down. */
    private Value item(int l, LLVMValueRef k, LLVMValueRef i) {
      return l == 0 ? operand.at(at(k, i)) : run.get(l - 1).load(i);
    }

    /** Scans block b of level l; leaves its totals in run[l]. */
    private void block(int l, LLVMValueRef b) {
      long n = sizes[l];
      ReduceSlot exclusive = last.get(l + 1);  // unchanged until this block is done
      LLVMValueRef first = ir.mul(b, ir.i64(BLOCK));
      lanes(i -> run.get(l).store(i, init));
      cx.loops().forEach(new long[] {BLOCK}, t -> {
        LLVMValueRef j = reverse ? ir.sub(ir.i64(BLOCK - 1), t.get(0)) : t.get(0);
        LLVMValueRef k = ir.add(first, j);
        Runnable step = () -> {
          if (l > 0) block(l - 1, k);
          if (reverse) {
            lanes(i -> items.get(l).store(slot(j, i), item(l, k, i)));
            suffix(l, j, first, BLOCK, n);
          } else {
            lanes(i -> run.get(l).store(i, combine(run.get(l).load(i), item(l, k, i))));
          }
          lanes(i -> result(l, k, i, combine(run.get(l).load(i), exclusive.load(i))));
        };
        if (n % BLOCK == 0) step.run();
        else ReduceKernel.guarded(ir, ir.icmp(LLVMIntULT, k, ir.i64(n)), step);
      });
    }

    /**
     * run[l] = fold(init, items[j], …, items[count - 1]) of the block of level l at {@code first},
     * items past n skipped.
     */
    private void suffix(int l, LLVMValueRef j, LLVMValueRef first, long count, long n) {
      ReduceSlot acc = run.get(l);
      lanes(i -> acc.store(i, init));
      cx.loops().forEach(new long[] {count}, u -> {
        LLVMValueRef from = ir.icmp(LLVMIntUGE, u.get(0), j);
        LLVMValueRef in = ir.icmp(LLVMIntULT, ir.add(first, u.get(0)), ir.i64(n));
        ReduceKernel.guarded(ir, ir.and(from, in),
            () -> lanes(i -> acc.store(i, combine(acc.load(i), items.get(l).load(slot(u.get(0), i))))));
      });
    }

    /** Scan result s at item k of level l in lane i: an output element, or the prefix for level l - 1. */
    private void result(int l, LLVMValueRef k, LLVMValueRef i, Value s) {
      if (l == 0) cx.access().store(cx.results().get(0), cx.resultTypes().get(0), at(k, i), s);
      else last.get(l).store(i, s);
    }

    private LLVMValueRef slot(LLVMValueRef j, LLVMValueRef i) {
      return ir.add(ir.mul(j, ir.i64(width)), i);
    }

    /** The element at position k along the axis, in lane i of the current tile. */
    private Index at(LLVMValueRef k, LLVMValueRef i) {
      LLVMValueRef[] idx = new LLVMValueRef[shape.length];
      for (int d = 0, o = 0; d < idx.length; d++) {
        if (d == axis) idx[d] = k;
        else if (d == lane) idx[d] = ir.add(start, i);
        else idx[d] = outer.get(o++);
      }
      return Index.of(idx);
    }
  }
}
