package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.GatherScatterCombiner;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ScatterWindows;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A scatter whose result does not depend on the order of its updates, on one block: the threads
 * copy the operand into the result, a barrier, then thread t applies the windows of index vectors
 * t, t + 256, … ({@link ScatterWindows}, the CPU's geometry, clamping and skipping). Two kinds
 * qualify: {@code unique_indices} scatters (no two updates meet, so any combiner is applied by a
 * plain load, combine and store), and add, sub, min and max on 32- and 64-bit integers, applied
 * with atomics (exact in any order). Any other scatter whose windows have at least {@link
 * #MIN_COLUMNS} elements (rows of an embedding's gradient) splits the window positions instead:
 * thread t takes positions t, t + 256, … and applies every index vector there in index order, so
 * each result element sees XLA's serial order (float sums round the same, the last duplicate
 * wins). Smaller windows — scalar float updates, plain overwrites that may repeat an index — keep
 * the CPU step in one thread.
 */
final class GpuScatter {
  private static final int BLOCK = 256;

  private GpuScatter() {}

  /** Window elements from which each thread may take its own window positions in order. */
  static final long MIN_COLUMNS = 32;

  static boolean applies(Primitive p, Eqn e) {
    return switch (p) {
      case SCATTER, SCATTER_ADD, SCATTER_SUB, SCATTER_MUL, SCATTER_MIN, SCATTER_MAX ->
          e.params().getBool("unique_indices", false) || atomic(p, ((ArrayType) e.outs().get(0).type()).dtype()) != null
              || ScatterWindows.windowElements(e) >= MIN_COLUMNS;
      default -> false;
    };
  }

  /** The atomic that applies {@code p}'s combine on {@code d} in any order, or null. */
  private static Integer atomic(Primitive p, DType d) {
    if (!d.isInteger() || (d.bits() != 32 && d.bits() != 64)) return null;
    boolean u = d.isUnsigned();
    return switch (p) {
      case SCATTER_ADD -> LLVMAtomicRMWBinOpAdd;
      case SCATTER_SUB -> LLVMAtomicRMWBinOpSub;
      case SCATTER_MIN -> u ? LLVMAtomicRMWBinOpUMin : LLVMAtomicRMWBinOpMin;
      case SCATTER_MAX -> u ? LLVMAtomicRMWBinOpUMax : LLVMAtomicRMWBinOpMax;
      default -> null;
    };
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx, Primitive p) {
    ArrayType out = cx.resultTypes().get(0);
    LLVMValueRef result = cx.results().get(0);
    long[] shape = out.shape().sizes();
    long n = out.shape().elementCount();
    boolean unique = cx.eqn().params().getBool("unique_indices", false);
    Integer op = unique ? null : atomic(p, out.dtype());
    ScatterWindows windows = new ScatterWindows(cx);
    long[] batch = windows.scatterShape();
    long vectors = GpuReductions.product(batch);
    GatherScatterCombiner combiner = new GatherScatterCombiner(ir, cx.lowering());
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    bc.phase(t -> ir.loop(t, ir.i64(n), BLOCK, i -> {
      var at = GpuReductions.unflatten(ir, i, shape);
      cx.access().store(result, out, at, cx.operands().get(0).at(at));
    }));
    // The copy (global memory) is visible to the whole block before any update combines with it.
    bc.barrier();
    if (!unique && op == null) {
      // Thread t owns window positions t, t + 256, … and applies every index vector's element
      // there in index order: each result element gets XLA's serial sequence of combines.
      long[] window = windows.windowShape();
      bc.phase(t -> ir.loop(t, ir.i64(windows.windowElements()), BLOCK, c -> {
        var w = GpuReductions.unflatten(ir, c, window);
        ir.loop(ir.i64(0), ir.i64(vectors), 1, v -> windows.forElement(GpuReductions.unflatten(ir, v, batch), w, (target, u) -> {
          Value current = cx.access().load(result, out, target);
          cx.access().store(result, out, target, combiner.combine(cx.eqn(), p, out.dtype(), current, cx.operands().get(2).at(u)));
        }));
      }));
      return new GpuReductions.Launch(1, BLOCK);
    }
    bc.phase(t -> ir.loop(t, ir.i64(vectors), BLOCK, v -> windows.forEachElement(GpuReductions.unflatten(ir, v, batch), (target, u) -> {
      Value update = cx.operands().get(2).at(u);
      if (op == null) {
        Value current = cx.access().load(result, out, target);
        cx.access().store(result, out, target, combiner.combine(cx.eqn(), p, out.dtype(), current, update));
        return;
      }
      LLVMValueRef at = ir.gep(ElementTypes.storage(ir, out.dtype()), result, cx.access().linear(shape, target));
      LLVMBuildAtomicRMW(ir.b, op, at, update.v(), LLVMAtomicOrderingMonotonic, 0);
    })));
    return new GpuReductions.Launch(1, BLOCK);
  }
}
