package dev.jaxc.backend.llvm.math;

import dev.jaxc.backend.llvm.math.MathEmitter.Dd;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * e^x by Cody–Waite reduction: x = k·ln2 + r with |r| <= ln2/2, where ln2 is split so that
 * k·ln2_hi is exact; e^r = 1 + r + r²·P(r) with P a near-minimax fit (fit_coefficients.py
 * {@code exp}); the result is scaled by 2^k in two exact steps so it overflows and underflows
 * like the true value. The argument may be a double-word (hi + lo), as pow and erfc need.
 * Structure as in Cephes {@code exp} and fdlibm {@code __ieee754_exp}.
 */
final class ExpKernel {
  static final double LN2 = 0.6931471805599453;
  static final double LN2_LO = 2.3190468138462996e-17;
  private static final double LOG2E = 1.4426950408889634;
  private static final double LN2_HI_64 = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000
  private static final double LN2_LO_64 = 1.90821492927058770002e-10;
  private static final double LN2_HI_32 = 0.693145751953125;  // 0x3f317200: k < 2^9 exact
  private static final double LN2_LO_32 = 1.428606765330187045e-06;
  private static final double[] P64 = {
    0.5, 0.1666666666666667, 0.04166666666666667, 0.008333333333326134, 0.0013888888888883455,
    0.00019841269874826148, 2.4801587326326207e-05, 2.7557255393201663e-06, 2.755727280925938e-07,
    2.510521991974238e-08, 2.0914995663206452e-09};
  private static final double[] P32 = {
    0.5000000013468083, 0.16666666682325107, 0.0416664649025727, 0.008333310612516609,
    0.001393365251709729, 0.00019891252011692504};

  private ExpKernel() {}

  /** e^(hi + lo) for finite or infinite hi (not NaN: callers select NaN through themselves). */
  static LLVMValueRef exp(MathEmitter e, LLVMValueRef hi, LLVMValueRef lo) {
    return exp(e, hi, lo, 0);
  }

  /** e^(hi + lo) · 2^scale, scaled exactly (for sinh and cosh near overflow). */
  static LLVMValueRef exp(MathEmitter e, LLVMValueRef hi, LLVMValueRef lo, int scale) {
    // Beyond these the result is inf or 0 anyway (with scale >= -2); clamping keeps k inside
    // ldexp's range.
    LLVMValueRef x = e.min(e.max(hi, e.c(e.isF64() ? -746 : -104)), e.c(e.isF64() ? 712 : 91));
    lo = e.sel(e.eq(x, hi), lo, e.c(0));
    LLVMValueRef[] k = e.rintWithBits(e.mul(x, e.c(LOG2E)));
    LLVMValueRef r = e.sub(x, e.mul(k[0], e.c(e.isF64() ? LN2_HI_64 : LN2_HI_32)));
    r = e.add(e.sub(r, e.mul(k[0], e.c(e.isF64() ? LN2_LO_64 : LN2_LO_32))), lo);
    return e.ldexp(expReduced(e, r), e.iadd(intOf(e, k), e.ic(scale)));
  }

  /**
   * e^x for x whose k = rint(x/ln2) lies well inside the normal exponent range (callers clamp
   * x): no range cases, one exact scaling by 2^k.
   */
  static LLVMValueRef expInRange(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef[] k = e.rintWithBits(e.mul(x, e.c(LOG2E)));
    LLVMValueRef r = e.sub(x, e.mul(k[0], e.c(e.isF64() ? LN2_HI_64 : LN2_HI_32)));
    r = e.sub(r, e.mul(k[0], e.c(e.isF64() ? LN2_LO_64 : LN2_LO_32)));
    return e.mul(expReduced(e, r), e.pow2(intOf(e, k)));
  }

  /** e^r for |r| <= ln2/2 (about 0.35). */
  static LLVMValueRef expReduced(MathEmitter e, LLVMValueRef r) {
    LLVMValueRef p = e.poly(r, e.isF64() ? P64 : P32);
    return e.add(e.c(1), e.fma(e.mul(r, r), p, r));
  }

  /** The integer k from {@link MathEmitter#rintWithBits}'s result. */
  static LLVMValueRef intOf(MathEmitter e, LLVMValueRef[] k) {
    long shifterBits = e.isF64() ? Double.doubleToRawLongBits(0x1.8p52) : Float.floatToRawIntBits(0x1.8p23f);
    return e.isub(k[1], e.ic(shifterBits));
  }

  /** r·ln2 as a double-word, for 2^r. */
  static Dd timesLn2(MathEmitter e, LLVMValueRef r) {
    Dd ln2 = e.dd(LN2, LN2_LO);
    Dd p = e.twoProd(r, ln2.hi());
    return e.fastTwoSum(p.hi(), e.fma(r, ln2.lo(), p.lo()));
  }
}
