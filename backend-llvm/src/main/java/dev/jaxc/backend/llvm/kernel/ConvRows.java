package dev.jaxc.backend.llvm.kernel;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A convolution's A (its input, as im2col rows) where the packed GEMM can read tiles in place:
 * channels-last (NWC, NHWC, …) with unit rhs dilation along the last spatial axis, so the terms
 * of a row for one position of the outer windows — the last window axis × the input features —
 * are one contiguous run of the input, and the rows of consecutive outputs along the last spatial
 * axis are {@link #stride} elements apart. A tile of such rows inside the input is a micro-panel
 * with a constant row stride: the micro-kernel reads it where it lies, not packed.
 */
interface ConvRows {
  /** The length of a run: K is a whole number of runs, and a K slice must lie inside one. */
  long run();

  /** Elements between the runs of consecutive rows (window stride × input features). */
  long stride();

  /**
   * For the {@code mr} rows from flattened M index {@code m0} (batch item {@code bi} of the
   * contraction's batch axes, none for a convolution) and the K slice from {@code k0}: {i1 whether
   * all of them lie inside the input along one output row, the address of row m0's term k0}.
   */
  LLVMValueRef[] tile(LLVMValueRef m0, LLVMValueRef k0, int mr);
}
