package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.ir.prim.Primitive;

/**
 * Kernel for dot_general and conv_general_dilated: both map their operands onto the one
 * GEMM-shaped loop nest, {@link GemmCore} ({@link GemmDot}, {@link GemmConv}).
 */
public final class GemmKernel {
  private GemmKernel() {}

  static void emit(KernelContext cx) {
    Primitive p = Primitive.byName(cx.eqn().primitive()).orElseThrow();
    switch (p) {
      case DOT_GENERAL -> GemmDot.emit(cx);
      case CONV_GENERAL_DILATED -> GemmConv.emit(cx);
      default -> throw new AssertionError(p);
    }
  }

  /** The contraction {@code cx}'s dot_general or convolution computes, for a backend's own GEMM kernel. */
  public static GemmCore.Spec spec(KernelContext cx) {
    Primitive p = Primitive.byName(cx.eqn().primitive()).orElseThrow();
    switch (p) {
      case DOT_GENERAL: return GemmDot.spec(cx);
      case CONV_GENERAL_DILATED: return GemmConv.spec(cx);
      default: throw new AssertionError(p);
    }
  }
}
