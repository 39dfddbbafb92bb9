package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * log(x): {@link LogKernel}. Where denormals are flushed (XLA:CPU), a denormal input reads as
 * zero and gives -inf; where they are kept (XLA:GPU, whose libdevice log gives log(1e-40) =
 * -92.1), a positive denormal is scaled into the normal range first: log(x·2^s) - s·ln 2.
 */
final class Log {
  private Log() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    if (!e.keepsDenormals()) {
      x = e.daz(x);
      return LogKernel.special(e, x, LogKernel.log(e, x, e.c(0)));
    }
    int s = e.mantBits() + 1;
    LLVMValueRef tiny = e.and(e.gt(x, e.c(0)), e.lt(x, e.c(e.minNormal())));
    LLVMValueRef u = e.sel(tiny, e.mul(x, e.c(Math.scalb(1.0, s))), x);
    LLVMValueRef r = LogKernel.log(e, u, e.c(0));
    r = e.sel(tiny, e.sub(r, e.c(s * Math.log(2))), r);
    return LogKernel.special(e, x, r);
  }
}
