package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * 1/√x. Doubles: two correctly rounded operations (at most 1 ulp, XLA's bound). Floats: y = 1/√x
 * in float, then one Newton correction y + y·(1 - x·y²)/2 in double, where the residual is
 * exact enough to leave only the final rounding. rsqrt(±0) = ±inf, rsqrt(inf) = 0, negative
 * inputs give NaN. Where denormals are flushed (XLA:CPU) a denormal input reads as a zero (DAZ);
 * where they are kept (XLA:GPU) the hardware's square root takes it as it is.
 */
final class Rsqrt {
  private Rsqrt() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    if (!e.keepsDenormals()) x = e.daz(x);
    LLVMValueRef y = e.div(e.c(1), e.sqrt(x));
    if (e.isF64()) return y;
    MathEmitter w = e.wide();
    LLVMValueRef wy = e.toWide(y);
    LLVMValueRef res = w.sub(w.c(1), w.mul(e.toWide(x), w.mul(wy, wy)));
    LLVMValueRef better = e.fromWide(w.fma(w.mul(wy, w.c(0.5)), res, wy));
    LLVMValueRef exact = e.or(e.or(e.isInf(y), e.eq(y, e.c(0))), e.isNan(y));
    return e.sel(exact, y, better);
  }
}
