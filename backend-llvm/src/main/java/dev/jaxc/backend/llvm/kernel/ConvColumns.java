package dev.jaxc.backend.llvm.kernel;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A convolution's A (its input, as im2col rows) where the packed GEMM can pack micro-panels by
 * register transposes: channels-first (NCW, NCHW, …) with unit window stride and no lhs dilation
 * along the last spatial axis, so for one K term (a window position and an input feature) the
 * rows of consecutive outputs along the last spatial axis are consecutive input elements, and
 * consecutive input features (K's last axis) are one input {@link #plane} apart. Packed along K,
 * each row's run read its features a plane apart (8-lane gathers: 60% of an NCHW convolution's
 * time on a Cascade Lake).
 */
interface ConvColumns {
  /** Elements between consecutive input features (one input plane). */
  long plane();

  /**
   * For the {@code rows} rows from flattened M index {@code m0} and the {@code lanes} K steps from
   * {@code k0}: {i1 whether the rows lie along one output row and the K steps' features in one
   * window position, the address of row m0's term k0 (a plain address, maybe outside the input),
   * the {@code lanes} × i1 mask of the rows whose term k0 lies inside the input (none past
   * {@code rows}): padding reads as zero}.
   */
  LLVMValueRef[] tile(LLVMValueRef m0, LLVMValueRef k0, int rows, int lanes);
}
