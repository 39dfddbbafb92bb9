package dev.jaxc.backend.llvm.kernel;

import static dev.jaxc.backend.llvm.emit.GatherScatterParams.contains;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.GatherScatterCombiner;
import dev.jaxc.backend.llvm.emit.GatherScatterIndexing.GatherLowering;
import dev.jaxc.backend.llvm.emit.GatherScatterIndexing.Start;
import dev.jaxc.backend.llvm.emit.GatherScatterIndexing;
import dev.jaxc.backend.llvm.emit.GatherScatterParams;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.GatherScatterMode;
import dev.jaxc.ir.prim.params.ScatterParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Kernel for gather, scatter (all combiners) and dynamic_update_slice. Gather stores the values
 * of {@link GatherLowering}. The scatters and dynamic_update_slice copy the operand into the result and
 * update it in place, in XLA:CPU's order: scatter indices outer (row-major over the indices'
 * batch dims), window inner, so duplicate indices combine in index order and the last plain
 * scatter wins.
 */
final class GatherScatterKernel {
  private GatherScatterKernel() {}

  static void emit(KernelContext cx) {
    Primitive p = Primitive.byName(cx.eqn().primitive()).orElseThrow();
    switch (p) {
      case GATHER -> gather(cx);
      case SCATTER, SCATTER_ADD, SCATTER_SUB, SCATTER_MUL, SCATTER_MIN, SCATTER_MAX -> scatter(cx, p);
      case DYNAMIC_UPDATE_SLICE -> dynamicUpdateSlice(cx);
      default -> throw new IllegalArgumentException("not a gather or scatter: " + p);
    }
  }

  /**
   * When the offset dims trail (x[i] of rows, embeddings), each index vector is read once and its
   * slice copied by a unit-stride inner loop; otherwise every element evaluates the generator.
   * Every output element is written by one thread, so threads split the outermost loop (the
   * index vectors, or the output's first axis) when there is enough to copy: a gather is a
   * memory copy, one load and one store per element.
   */
  private static void gather(KernelContext cx) {
    GatherLowering g = new GatherScatterIndexing(cx.ir()).gather(cx.eqn(), cx.operands().get(0), cx.operands().get(1));
    ArrayType out = cx.resultTypes().get(0);
    LLVMValueRef result = cx.results().get(0);
    // Every output element (or slice) is its own: the loops may be split across workers.
    long work = out.shape().elementCount() * 2;
    if (!g.offsetsTrail()) {
      ElementGenerator gen = g.generator();
      cx.loops().forEachParallel(out.shape().sizes(), work, LoopEmitter.VECTOR_GRAIN,
          idx -> cx.access().store(result, out, idx, gen.at(idx)));
      return;
    }
    cx.loops().forEachParallel(g.batchShape(), work, 1, b -> {
      Start s = g.start(dims(b));
      cx.loops().forEach(g.windowShape(), w -> cx.access().store(result, out, concat(b, w), g.element(s, dims(w))));
    });
  }

  private static LLVMValueRef[] dims(Index i) {
    return i.dims().toArray(new LLVMValueRef[0]);
  }

  private static Index concat(Index a, Index b) {
    List<LLVMValueRef> r = new ArrayList<>(a.dims());
    r.addAll(b.dims());
    return new Index(r);
  }

  /** The result starts as a copy of operand 0. */
  private static void copyOperand(KernelContext cx) {
    ArrayType out = cx.resultTypes().get(0);
    ElementGenerator x = cx.operands().get(0);
    cx.loops().forEach(out.shape().sizes(), idx -> cx.access().store(cx.results().get(0), out, idx, x.at(idx)));
  }

  /**
   * {@code scatter operand indices updates}: update dims not in {@code update_window_dims} walk
   * the indices' batch dims; window dims walk the operand dims that are neither inserted nor
   * batching. The outer loop reads each index vector once; a window that does not fit the
   * operand whole is skipped (XLA), after CLIP has clamped its start so that it fits; the inner
   * loop combines the window element by element.
   */
  private static void scatter(KernelContext cx, Primitive p) {
    copyOperand(cx);
    Ir ir = cx.ir();
    ScatterParams s = GatherScatterParams.scatter(cx.eqn());
    GatherScatterMode mode = GatherScatterParams.mode(cx.eqn());
    GatherScatterIndexing indexing = new GatherScatterIndexing(ir);
    GatherScatterCombiner combiner = new GatherScatterCombiner(ir, cx.lowering());
    ArrayType out = cx.resultTypes().get(0);
    LLVMValueRef result = cx.results().get(0);
    long[] op = out.shape().sizes();
    DType idxD = cx.operandType(1).dtype();
    long[] up = cx.operandType(2).shape().sizes();
    int nWindow = s.updateWindowDims().length;
    int nScatter = up.length - nWindow;
    int[] scatterDims = new int[nScatter];  // the updates' dims that walk the indices' batch dims
    for (int i = 0, k = 0; i < up.length; i++) if (!contains(s.updateWindowDims(), i)) scatterDims[k++] = i;
    long[] scatterShape = new long[nScatter];
    for (int k = 0; k < nScatter; k++) scatterShape[k] = up[scatterDims[k]];
    long[] windowShape = new long[nWindow];
    for (int j = 0; j < nWindow; j++) windowShape[j] = up[(int) s.updateWindowDims()[j]];
    int[] windowOperandDim = new int[nWindow];
    long[] windowSize = new long[op.length];
    Arrays.fill(windowSize, 1);
    for (int d = 0, j = 0; d < op.length; d++) {
      if (contains(s.insertedWindowDims(), d) || contains(s.operandBatchingDims(), d)) continue;
      windowOperandDim[j] = d;
      windowSize[d] = windowShape[j++];
    }
    cx.loops().forEach(scatterShape, b -> {
      LLVMValueRef[] batch = dims(b);
      LLVMValueRef[] start = new LLVMValueRef[op.length];
      Arrays.fill(start, ir.i64(0));
      LLVMValueRef fits = ir.bool(true);
      for (int k = 0; k < s.scatterDimsToOperandDims().length; k++) {
        int d = (int) s.scatterDimsToOperandDims()[k];
        LLVMValueRef i = indexing.component(cx.operands().get(1), idxD, batch, k);
        start[d] = indexing.clampStart(i, idxD, op[d], windowSize[d]);
        fits = ir.and(fits, ir.icmp(LLVMIntEQ, start[d], i));
      }
      for (int k = 0; k < s.operandBatchingDims().length; k++) {
        start[(int) s.operandBatchingDims()[k]] = batch[(int) s.scatterIndicesBatchingDims()[k]];
      }
      LLVMBasicBlockRef skip = null;
      if (mode != GatherScatterMode.CLIP) {
        LLVMBasicBlockRef inside = ir.block("scatter.window");
        skip = ir.block("scatter.next");
        ir.condBr(fits, inside, skip);
        ir.at(inside);
      }
      cx.loops().forEach(windowShape, w -> {
        LLVMValueRef[] at = start.clone();
        for (int j = 0; j < nWindow; j++) at[windowOperandDim[j]] = ir.add(at[windowOperandDim[j]], w.get(j));
        LLVMValueRef[] u = new LLVMValueRef[up.length];
        for (int k = 0; k < nScatter; k++) u[scatterDims[k]] = batch[k];
        for (int j = 0; j < nWindow; j++) u[(int) s.updateWindowDims()[j]] = w.get(j);
        Index target = Index.of(at);
        Value current = cx.access().load(result, out, target);
        Value update = cx.operands().get(2).at(Index.of(u));
        cx.access().store(result, out, target, combiner.combine(cx.eqn(), p, out.dtype(), current, update));
      });
      if (skip != null) {
        ir.br(skip);
        ir.at(skip);
      }
    });
  }

  /** {@code dynamic_update_slice operand update i0 i1 …}: starts clamped so the update fits. */
  private static void dynamicUpdateSlice(KernelContext cx) {
    copyOperand(cx);
    Ir ir = cx.ir();
    GatherScatterIndexing indexing = new GatherScatterIndexing(ir);
    ArrayType out = cx.resultTypes().get(0);
    long[] op = out.shape().sizes();
    long[] up = cx.operandType(1).shape().sizes();
    ElementGenerator update = cx.operands().get(1);
    LLVMValueRef[] start = new LLVMValueRef[op.length];  // read once, before the loop
    for (int d = 0; d < op.length; d++) {
      DType t = cx.operandType(2 + d).dtype();
      start[d] = indexing.clampStart(indexing.widen(t, cx.operands().get(2 + d).at(Index.SCALAR)), t, op[d], up[d]);
    }
    cx.loops().forEach(up, idx -> {
      LLVMValueRef[] at = new LLVMValueRef[op.length];
      for (int d = 0; d < op.length; d++) at[d] = ir.add(start[d], idx.get(d));
      cx.access().store(cx.results().get(0), out, Index.of(at), update.at(idx));
    });
  }
}
