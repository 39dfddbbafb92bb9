package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.prim.Primitive;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A built-in reduction in none of the vectorised forms (small float sums and products, whose
 * order is XLA:CPU's: ReduceKernel's 32-wide tree windows when a reduced dimension exceeds 32,
 * else row-major), folded exactly in that order: a thread per result. A reduction to one result
 * with tree windows gives each window to a lane of one warp (windows w, w + 32, …), which folds
 * it and writes it to shared memory; after a barrier lane 0 folds the windows in order.
 */
final class OrderedReduction {
  private static final int BLOCK = 256;
  private static final int TREE_WINDOW = 32;
  /** Most shared-memory bytes for the windows of a one-result tree. */
  private static final long MAX_SHARED = 16 << 10;

  private final Ir ir;
  private final KernelContext cx;
  private final Primitive p;
  private final DType d;
  private final long[] shape;
  private final int[] axes;
  private final long[] reduced;
  private final long[] keptShape;
  private final long count;
  private final boolean tree;
  private final long[] size;
  private final long[] windows;
  private final long[] low;
  private final Jaxpr combiner;
  private final ScalarJaxprEmitter folds;

  private OrderedReduction(Ir ir, KernelContext cx, Primitive p) {
    this.ir = ir;
    this.cx = cx;
    this.p = p;
    this.d = cx.operandType(0).dtype();
    this.shape = cx.operandType(0).shape().sizes();
    this.axes = ReductionShapes.axes(cx.eqn());
    this.reduced = Arrays.stream(axes).mapToLong(a -> shape[a]).toArray();
    this.keptShape = IntStream.range(0, shape.length).filter(k -> !isReduced(k)).mapToLong(k -> shape[k]).toArray();
    this.count = GpuReductions.product(reduced);
    this.tree = count > 0 && !ReductionShapes.orderFree(p, d) && Arrays.stream(reduced).anyMatch(n -> n > TREE_WINDOW);
    int m = reduced.length;
    this.size = new long[m];
    this.windows = new long[m];
    this.low = new long[m];
    for (int j = 0; j < m && tree; j++) {
      size[j] = Math.min(reduced[j], TREE_WINDOW);
      windows[j] = (reduced[j] + size[j] - 1) / size[j];
      low[j] = (windows[j] * size[j] - reduced[j]) / 2;
    }
    this.combiner = ReductionShapes.combiner(p, d);
    this.folds = new ScalarJaxprEmitter(ir, cx.lowering());
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx, Primitive p) {
    return new OrderedReduction(ir, cx, p).emit(index);
  }

  private boolean isReduced(int k) {
    return Arrays.stream(axes).anyMatch(a -> a == k);
  }

  private GpuReductions.Launch emit(ThreadIndex index) {
    long results = GpuReductions.product(keptShape);
    long w = GpuReductions.product(windows);
    long partBytes = (long) ElementTypes.partBytes(d) * (d.isComplex() ? 2 : 1);
    if (results == 1 && tree && w > 1 && w * partBytes <= MAX_SHARED) return windowsOnLanes(index, w);
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef block = bc.block();
    bc.phase(t -> {
      LLVMValueRef r = ir.add(ir.mul(block, ir.i64(BLOCK)), t);
      BlockCode.when(ir, ir.icmp(LLVMIntULT, r, ir.i64(results)), () -> {
        Index o = GpuReductions.unflatten(ir, r, keptShape);
        store(o, result(o));
      });
    });
    return new GpuReductions.Launch(Math.max(1, (results + BLOCK - 1) / BLOCK), BLOCK);
  }

  /** The result at kept index o, folded by this thread in ReduceKernel's order. */
  private Value result(Index o) {
    if (count == 1) return element(o, Index.of(zeros(reduced.length)));
    ReduceSlot acc = ReduceSlot.of(ir, d);
    acc.store(ReductionShapes.identity(ir, p, d));
    if (tree) {
      cx.loops().forEach(windows, w -> acc.store(fold(acc.load(), window(o, w))));
    } else {
      cx.loops().forEach(reduced, red -> acc.store(fold(acc.load(), element(o, red))));
    }
    Value v = acc.load();
    acc.release();
    return v;
  }

  /** Window w folded from the identity; positions in the padding are skipped. */
  private Value window(Index o, Index w) {
    int m = reduced.length;
    ReduceSlot win = ReduceSlot.of(ir, d);
    win.store(ReductionShapes.identity(ir, p, d));
    cx.loops().forEach(size, t -> {
      LLVMValueRef[] pos = new LLVMValueRef[m];
      LLVMValueRef inside = null;
      for (int j = 0; j < m; j++) {
        pos[j] = ir.sub(ir.add(ir.mul(w.get(j), ir.i64(size[j])), t.get(j)), ir.i64(low[j]));
        if (windows[j] * size[j] == reduced[j]) continue;
        LLVMValueRef in = ir.icmp(LLVMIntULT, pos[j], ir.i64(reduced[j]));
        inside = inside == null ? in : ir.and(inside, in);
      }
      Runnable step = () -> win.store(fold(win.load(), element(o, Index.of(pos))));
      if (inside == null) step.run();
      else BlockCode.when(ir, inside, step);
    });
    Value v = win.load();
    win.release();
    return v;
  }

  /** One result: lanes fold the windows into shared memory, then lane 0 folds them in order. */
  private GpuReductions.Launch windowsOnLanes(ThreadIndex index, long w) {
    BlockCode bc = new BlockCode(ir, index, BlockCode.WARP);
    LLVMTypeRef part = ElementTypes.compute(ir, d);
    LLVMValueRef re = bc.shared("jaxc.red.windows", part, Math.toIntExact(w));
    LLVMValueRef im = d.isComplex() ? bc.shared("jaxc.red.windows", part, Math.toIntExact(w)) : null;
    // One result: every kept axis (if any) has size 1.
    Index o = Index.of(zeros(shape.length - reduced.length));
    bc.phase(t -> ir.loop(t, ir.i64(w), BlockCode.WARP, k -> {
      Value v = window(o, GpuReductions.unflatten(ir, k, windows));
      ir.store(im == null ? v.v() : v.re(), ir.gep(part, re, k), ElementTypes.partBytes(d));
      if (im != null) ir.store(v.im(), ir.gep(part, im, k), ElementTypes.partBytes(d));
    }));
    bc.barrier();
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> {
      ReduceSlot acc = ReduceSlot.of(ir, d);
      acc.store(ReductionShapes.identity(ir, p, d));
      ir.loop(ir.i64(0), ir.i64(w), 1, k -> {
        LLVMValueRef x = ir.load(part, ir.gep(part, re, k), ElementTypes.partBytes(d));
        Value v = im == null ? Value.of(x) : Value.complex(x, ir.load(part, ir.gep(part, im, k), ElementTypes.partBytes(d)));
        acc.store(fold(acc.load(), v));
      });
      store(o, acc.load());
      acc.release();
    }));
    return new GpuReductions.Launch(1, BlockCode.WARP);
  }

  private Value element(Index o, Index red) {
    LLVMValueRef[] idx = new LLVMValueRef[shape.length];
    for (int k = 0, a = 0, b = 0; k < idx.length; k++) idx[k] = isReduced(k) ? red.get(b++) : o.get(a++);
    return cx.operands().get(0).at(Index.of(idx));
  }

  private void store(Index o, Value v) {
    cx.access().store(cx.results().get(0), cx.resultTypes().get(0), o, v);
  }

  private Value fold(Value acc, Value x) {
    return RowReductions.fold(folds, combiner, acc, x);
  }

  private LLVMValueRef[] zeros(int n) {
    LLVMValueRef[] z = new LLVMValueRef[n];
    Arrays.fill(z, ir.i64(0));
    return z;
  }
}
