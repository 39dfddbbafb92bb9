package dev.jaxc.backend.ptx;

import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.backend.llvm.kernel.ScheduleEmitter;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import java.util.List;
import java.util.Optional;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The steps whose GPU kernels are block-cooperative ({@link BlockCode}) instead of the CPU step's
 * code on a grid-stride loop: dot_general and convolutions (a tiled GEMM through shared memory,
 * {@link GpuGemm}), row groups and row reductions (a warp per row, {@link
 * RowReductions}), full reductions (a grid of blocks, then the last block combines, {@link
 * FullReduction}), column reductions (a thread per kept column, {@link ColumnReduction}) and the
 * rest, in XLA's order ({@link OrderedReduction}: a thread per result, a warp over the tree's windows);
 * argmax and argmin to one result on a block ({@link ArgReduction}); order-free scatters on a
 * block ({@link GpuScatter}); sort and top_k, a bitonic sort per row on a block ({@link GpuSort});
 * cumulative ops over few long lines, XLA's scan tree on a block per line ({@link GpuScan});
 * rng_uniform's Philox blocks over a block's threads ({@link GpuRng}). Each
 * folds as the CPU's memory-speed reduction of the same shape (ReductionShapes) where that order
 * can be kept with threads. Asked by the schedule emitter before it emits a step; the launch of
 * the step it took is then {@link #take}n by {@link Kernels}.
 */
final class GpuReductions implements ScheduleEmitter.StepOverride {
  /** A cooperative kernel's launch. */
  record Launch(long gridX, int blockX) {}

  private final Ir ir;
  private final ThreadIndex index;
  private final LaunchScratch scratch;
  private Launch last;

  GpuReductions(Ir ir, ThreadIndex index, LaunchScratch scratch) {
    this.ir = ir;
    this.index = index;
    this.scratch = scratch;
  }

  @Override
  public boolean emit(Step s, ScheduleEmitter em) {
    if (s instanceof Step.Rows r) {
      if (!RowReductions.fits(r.steps(), r.rows().size())) return false;
      last = RowReductions.emit(ir, index, em, r.shape(), r.steps());
      return true;
    }
    if (!(s instanceof Step.Kernel k)) return false;
    Eqn e = k.eqn();
    if (GpuGemm.applies(e)) {
      last = GpuGemm.emit(ir, index, scratch, em.context(e));
      return true;
    }
    Optional<Primitive> p = Primitive.byName(e.primitive());
    // rng_uniform of more than one Philox block (4 elements of 32 bits); fewer are one thread's work.
    if (p.isPresent() && p.get() == Primitive.RNG_UNIFORM && ((ArrayType) e.outs().get(0).type()).shape().elementCount() > 4) {
      last = GpuRng.emit(ir, index, em.context(e));
      return true;
    }
    if (p.isPresent() && GpuScan.applies(p.get(), e)) {
      last = GpuScan.emit(ir, index, scratch, em.context(e), p.get());
      return true;
    }
    if (p.isPresent() && GpuSort.applies(p.get(), e)) {
      last = GpuSort.emit(ir, index, em.context(e));
      return true;
    }
    if (p.isPresent() && GpuScatter.applies(p.get(), e)) {
      last = GpuScatter.emit(ir, index, em.context(e), p.get());
      return true;
    }
    if (p.isPresent() && ArgReduction.applies(p.get(), e)) {
      last = ArgReduction.emit(ir, index, em.context(e), p.get());
      return true;
    }
    if (p.isEmpty() || !ReductionShapes.monoid(p.get())) return false;
    ReductionShapes.Form form = ReductionShapes.form(p.get(), e);
    long[] shape = ((ArrayType) e.ins().get(0).type()).shape().sizes();
    int kept = shape.length - ReductionShapes.axes(e).length;
    if (form == ReductionShapes.Form.LANES && kept == 0) {
      last = FullReduction.emit(ir, index, scratch, em.context(e), p.get());
      return true;
    }
    int rows = CpuBackendRules.DEFAULT.rowReduction(p.get(), e);
    if (form == ReductionShapes.Form.LANES && rows > 0) {
      last = RowReductions.emit(ir, index, em, java.util.Arrays.copyOf(shape, rows), List.of(s));
      return true;
    }
    if (form == ReductionShapes.Form.COLUMNS) {
      last = ColumnReduction.emit(ir, index, em.context(e), p.get());
      return true;
    }
    last = OrderedReduction.emit(ir, index, em.context(e), p.get());
    return true;
  }

  /** The launch of the step just emitted, if this class emitted it (then forgotten). */
  Launch take() {
    Launch l = last;
    last = null;
    return l;
  }

  /** The row-major index of flat position {@code i} in {@code shape}. */
  static Index unflatten(Ir ir, LLVMValueRef i, long[] shape) {
    LLVMValueRef[] idx = new LLVMValueRef[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = d == 0 ? i : ir.urem(i, ir.i64(shape[d]));
      if (d > 0) i = ir.udiv(i, ir.i64(shape[d]));
    }
    return Index.of(idx);
  }

  static long product(long[] shape) {
    long n = 1;
    for (long x : shape) n *= x;
    return n;
  }
}
