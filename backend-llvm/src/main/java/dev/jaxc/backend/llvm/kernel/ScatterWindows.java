package dev.jaxc.backend.llvm.kernel;

import static dev.jaxc.backend.llvm.emit.GatherScatterParams.contains;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.GatherScatterIndexing;
import dev.jaxc.backend.llvm.emit.GatherScatterParams;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.prim.params.GatherScatterMode;
import dev.jaxc.ir.prim.params.ScatterParams;
import java.util.Arrays;
import java.util.function.BiConsumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Where a scatter's updates land: update dims not in {@code update_window_dims} walk the indices'
 * batch dims (one index vector each); window dims walk the operand dims that are neither inserted
 * nor batching. A window that does not fit the operand whole is skipped (XLA), after CLIP has
 * clamped its start so that it fits. The CPU kernel visits the index vectors in row-major order
 * and each window in order ({@link GatherScatterKernel}); a GPU kernel may visit them in any
 * order where the combine does not depend on it.
 */
public final class ScatterWindows {
  private final KernelContext cx;
  private final Ir ir;
  private final ScatterParams s;
  private final GatherScatterMode mode;
  private final GatherScatterIndexing indexing;
  private final long[] op;
  private final long[] up;
  private final int[] scatterDims;
  private final long[] scatterShape;
  private final long[] windowShape;
  private final int[] windowOperandDim;
  private final long[] windowSize;

  public ScatterWindows(KernelContext cx) {
    this.cx = cx;
    this.ir = cx.ir();
    this.s = GatherScatterParams.scatter(cx.eqn());
    this.mode = GatherScatterParams.mode(cx.eqn());
    this.indexing = new GatherScatterIndexing(ir);
    this.op = cx.resultTypes().get(0).shape().sizes();
    this.up = cx.operandType(2).shape().sizes();
    int nWindow = s.updateWindowDims().length;
    int nScatter = up.length - nWindow;
    this.scatterDims = new int[nScatter];
    for (int i = 0, k = 0; i < up.length; i++) if (!contains(s.updateWindowDims(), i)) scatterDims[k++] = i;
    this.scatterShape = new long[nScatter];
    for (int k = 0; k < nScatter; k++) scatterShape[k] = up[scatterDims[k]];
    this.windowShape = new long[nWindow];
    for (int j = 0; j < nWindow; j++) windowShape[j] = up[(int) s.updateWindowDims()[j]];
    this.windowOperandDim = new int[nWindow];
    this.windowSize = new long[op.length];
    Arrays.fill(windowSize, 1);
    for (int d = 0, j = 0; d < op.length; d++) {
      if (contains(s.insertedWindowDims(), d) || contains(s.operandBatchingDims(), d)) continue;
      windowOperandDim[j] = d;
      windowSize[d] = windowShape[j++];
    }
  }

  /** The shape of the index vectors' batch (one window each). */
  public long[] scatterShape() {
    return scatterShape.clone();
  }

  /**
   * Emits {@code body(target, update)} for each element of the window of index vector {@code b}
   * (the operand index it lands on, the updates' index it comes from), in window order, where
   * the window fits.
   */
  public void forEachElement(Index b, BiConsumer<Index, Index> body) {
    window(b, (start, batch) -> cx.loops().forEach(windowShape, w -> element(start, batch, w, body)));
  }

  /** The window's element count of scatter {@code e} (the product of the updates' window dims). */
  public static long windowElements(dev.jaxc.ir.Eqn e) {
    long[] up = ((dev.jaxc.ir.Type.ArrayType) e.ins().get(2).type()).shape().sizes();
    long n = 1;
    for (long d : GatherScatterParams.scatter(e).updateWindowDims()) n *= up[(int) d];
    return n;
  }

  /** The window's element count (the product of the window dims). */
  public long windowElements() {
    long n = 1;
    for (long x : windowShape) n *= x;
    return n;
  }

  /** The window dims' shape. */
  public long[] windowShape() {
    return windowShape.clone();
  }

  /** {@code body(target, update)} for element {@code w} of the window of index vector {@code b}, where the window fits. */
  public void forElement(Index b, Index w, BiConsumer<Index, Index> body) {
    window(b, (start, batch) -> element(start, batch, w, body));
  }

  /** Emits {@code inside(start, batch)} where the window of index vector b fits (CLIP: always, clamped). */
  private void window(Index b, BiConsumer<LLVMValueRef[], LLVMValueRef[]> inside) {
    DType idxD = cx.operandType(1).dtype();
    LLVMValueRef[] batch = b.dims().toArray(new LLVMValueRef[0]);
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
      LLVMBasicBlockRef in = ir.block("scatter.window");
      skip = ir.block("scatter.next");
      ir.condBr(fits, in, skip);
      ir.at(in);
    }
    inside.accept(start, batch);
    if (skip != null) {
      ir.br(skip);
      ir.at(skip);
    }
  }

  private void element(LLVMValueRef[] start, LLVMValueRef[] batch, Index w, BiConsumer<Index, Index> body) {
    int nWindow = windowShape.length;
    LLVMValueRef[] at = start.clone();
    for (int j = 0; j < nWindow; j++) at[windowOperandDim[j]] = ir.add(at[windowOperandDim[j]], w.get(j));
    LLVMValueRef[] u = new LLVMValueRef[up.length];
    for (int k = 0; k < scatterDims.length; k++) u[scatterDims[k]] = batch[k];
    for (int j = 0; j < nWindow; j++) u[(int) s.updateWindowDims()[j]] = w.get(j);
    body.accept(Index.of(at), Index.of(u));
  }
}
