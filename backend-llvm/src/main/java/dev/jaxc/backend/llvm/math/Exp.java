package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * exp(x): {@link ExpKernel}. Denormal results are flushed to zero and denormal inputs give 1,
 * as on XLA:CPU (FTZ/DAZ); NaN propagates, exp(-inf) = 0, exp(+inf) = inf.
 */
final class Exp {
  private Exp() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef r = e.ftzArithmetic(ExpKernel.exp(e, x, e.c(0)));
    return e.sel(e.isNan(x), x, r);
  }
}
