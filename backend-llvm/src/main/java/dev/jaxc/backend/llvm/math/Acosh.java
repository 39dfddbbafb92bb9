package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * acosh(x), as fdlibm {@code __ieee754_acosh}: log(x) + ln2 where √(x²-1) = x to the precision,
 * log(2x - 1/(x + √(x²-1))) above 2, log1p(t + √(2t + t²)) with t = x - 1 (exact) below.
 * Floats are computed in double and rounded once, by one formula ({@link #narrow}). NaN below 1.
 */
final class Acosh {
  private Acosh() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    return e.isF64() ? acosh(e, x) : e.fromWide(narrow(e.wide(), e.toWide(x)));
  }

  /**
   * The float function, in double: acosh(x) = log1p(t + √(t(t + 2))) with t = x - 1 (exact), as
   * x² - 1 = t(t + 2) and x + √(x² - 1) - 1 is that argument: one square root and one log1p for
   * every x (t² cannot overflow a double), where fdlibm's three branches, each with its own
   * logarithm, square root or division, took 4.2× XLA's time on 1M elements. Double's precision
   * leaves the rounded float result as the branches gave it.
   */
  private static LLVMValueRef narrow(MathEmitter w, LLVMValueRef x) {
    LLVMValueRef t = w.sub(x, w.c(1));
    LLVMValueRef r = w.call(MathFn.LOG1P, w.add(t, w.sqrt(w.fma(t, t, w.mul(w.c(2), t)))));
    return w.sel(w.ge(x, w.c(1)), r, w.sel(w.isNan(x), x, w.c(Double.NaN)));
  }

  private static LLVMValueRef acosh(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef huge = e.add(e.call(MathFn.LOG, x), e.c(ExpKernel.LN2));
    LLVMValueRef root = e.sqrt(e.fma(x, x, e.c(-1)));
    LLVMValueRef big = e.call(MathFn.LOG, e.sub(e.mul(e.c(2), x), e.div(e.c(1), e.add(x, root))));
    LLVMValueRef t = e.sub(x, e.c(1));
    LLVMValueRef small = e.call(MathFn.LOG1P, e.add(t, e.sqrt(e.fma(t, t, e.mul(e.c(2), t)))));
    double hugeFrom = e.isF64() ? 0x1p28 : 0x1p12;
    LLVMValueRef r = e.sel(e.gt(x, e.c(hugeFrom)), huge, e.sel(e.gt(x, e.c(2)), big, small));
    return e.sel(e.ge(x, e.c(1)), r, e.sel(e.isNan(x), x, e.c(Double.NaN)));
  }
}
