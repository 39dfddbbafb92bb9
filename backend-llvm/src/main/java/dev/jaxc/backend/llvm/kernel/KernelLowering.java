package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;

/** Maps every kernel primitive to the one class that lowers its family. */
public final class KernelLowering {
  private KernelLowering() {}

  public static void emit(Primitive p, KernelContext cx) {
    switch (p) {
      case REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_AND, REDUCE_OR, REDUCE_XOR, ARGMAX,
          ARGMIN, REDUCE -> ReduceKernel.emit(cx);
      case CUMSUM, CUMPROD, CUMMAX, CUMMIN, CUMLOGSUMEXP -> CumulativeKernel.emit(cx);
      case SORT, TOP_K -> cx.ir().keepingHalfNaNs(() -> {  // it moves f16 bits unchanged, as XLA's sort does
        SortKernel.emit(cx);
        return null;
      });
      case DOT_GENERAL, CONV_GENERAL_DILATED -> GemmKernel.emit(cx);
      case GATHER, SCATTER, SCATTER_ADD, SCATTER_MUL, SCATTER_MIN, SCATTER_MAX, SCATTER_SUB,
          DYNAMIC_UPDATE_SLICE -> GatherScatterKernel.emit(cx);
      case REDUCE_WINDOW, REDUCE_WINDOW_SUM, REDUCE_WINDOW_MAX, REDUCE_WINDOW_MIN, SELECT_AND_SCATTER_ADD,
          SELECT_AND_GATHER_ADD, SELECT_AND_SCATTER -> WindowKernel.emit(cx);
      case COND, WHILE, SCAN -> ControlFlowKernel.emit(cx);
      case PLATFORM_INDEX -> ControlFlowPlatformIndex.emit(cx);
      case THREEFRY2X32 -> ThreefryKernel.emit(cx);
      case RNG_UNIFORM -> RngUniformKernel.emit(cx);
      default -> throw new JaxcException(
          "unsupported primitive " + p.printedName() + " (no kernel)", cx.eqn().span());
    }
  }

  /**
   * The rows of a reduction emitted per row ({@link #emitRow}): the number of leading kept
   * dimensions, or -1 when {@code e} is not such a reduction.
   */
  public static int rowReduction(Primitive p, Eqn e) {
    return switch (p) {
      case REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> ReduceKernel.rowReduction(p, e);
      default -> -1;
    };
  }

  /** The result at row {@code row} of a reduction for which {@link #rowReduction} is positive. */
  public static void emitRow(Primitive p, KernelContext cx, Index row) {
    ReduceKernel.emitRow(cx, row);
  }

  /** Bytes of scratch memory the kernel of {@code e} needs (its {@link KernelContext#scratch()}). */
  public static long scratchBytes(Primitive p, Eqn e) {
    return switch (p) {
      case SORT, TOP_K -> SortKernel.scratchBytes(e);
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> Math.max(ReduceLanes.scratchBytes(e, 1), ReduceColumns.scratchBytes(p, e));
      case ARGMAX, ARGMIN -> ReduceLanes.scratchBytes(e, 2);
      default -> 0;
    };
  }
}
