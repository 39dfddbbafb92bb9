package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * log|Γ(x)|, in double (floats are computed in double and rounded once). For y > 0, with
 * lgamma(2 + t) = t·P(t) on |t| <= 1/2 (P a near-minimax fit, fit_coefficients.py
 * {@code lgamma}): y < 1/2 as t·P(t) - log1p(t) - log(t) with t = y; y near 1 and 2 through
 * t = y - 1 and y - 2 (exact), so the zeros at 1 and 2 keep relative accuracy; up to 10 by the
 * recurrence, lgamma(y) = lgamma(2 + t) + log((y-1)(y-2)···(2+t)) with a fixed, unrolled
 * product; above 10 by Stirling's series (as fdlibm {@code __ieee754_lgamma_r} does beyond 8).
 * Negative x by reflection: lgamma(x) = log(π / |sin(πx)|) - lgamma(1 - x) for x > -1 and
 * log(π / |x·sin(πx)|) - lgamma(-x) below ({@link SinPi}); near the negative zeros of lgamma the
 * relative error grows (absolute error stays ~1e-16). Poles (0, negative integers) and ±inf give
 * +inf; denormal inputs read as zeros.
 */
final class Lgamma {
  private static final double[] P64 = {
    0.42278433509846713, 0.32246703342411326, -0.0673523010531981, 0.020580808427780376,
    -0.00738555102867207, 0.002890510331034591, -0.0011927539118396782, 0.0005096695154026368,
    -0.00022315475407430916, 9.94576736870595e-05, -4.49263125279515e-05, 2.0505589704951016e-05,
    -9.438721234289534e-06, 4.38470925959846e-06, -2.0438791279926487e-06, 9.200409426329418e-07,
    -4.3258173460221254e-07, 2.787526605595035e-07, -1.3214540456969544e-07};
  private static final double[] P32 = {
    0.42278433509845464, 0.32246703367426394, -0.06735230116555894, 0.020580788472357617,
    -0.007385541938148104, 0.0028909541911510254, -0.0011929571494679637, 0.0005056679470193071,
    -0.00022131724862260304, 0.00011498510533562276, -5.2069293669205516e-05};
  /** Stirling: Σ B_2k / (2k(2k-1)) z^(2k-1), k = 1..8. */
  private static final double[] STIRLING = {
    1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156, -3617.0 / 122400};
  private static final double HALF_LOG_2PI = 0.9189385332046728;
  private static final double LOG_PI = 1.1447298858494002;

  private Lgamma() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    x = e.daz(x);
    MathEmitter w = e.wide();
    LLVMValueRef wx = e.toWide(x);
    LLVMValueRef ax = w.abs(wx);
    LLVMValueRef nonNeg = w.ge(wx, w.c(0));
    LLVMValueRef nearZero = w.gt(wx, w.c(-1));
    LLVMValueRef y = w.sel(nonNeg, wx, w.sel(nearZero, w.sub(w.c(1), wx), ax));
    LLVMValueRef pos = positive(w, y, !e.isF64());
    if (e.commonRange()) return e.sel(e.isInf(x), e.c(Double.POSITIVE_INFINITY), e.fromWide(pos));  // every x > 0
    LLVMValueRef s = w.abs(SinPi.sinCos(w, wx)[0]);
    LLVMValueRef factor = w.sel(nearZero, s, w.mul(ax, s));
    LLVMValueRef neg = w.sub(w.sub(w.c(LOG_PI), w.call(MathFn.LOG, factor)), pos);
    LLVMValueRef r = e.fromWide(w.sel(nonNeg, pos, neg));
    LLVMValueRef pole = e.or(e.isInf(x), e.and(e.lt(x, e.c(0)), e.eq(x, e.fromWide(w.floor(wx)))));
    return e.sel(pole, e.c(Double.POSITIVE_INFINITY), e.sel(e.isNan(x), x, r));
  }

  /** lgamma(y) for y >= 0 (y = 0 and +inf give +inf). */
  private static LLVMValueRef positive(MathEmitter w, LLVMValueRef y, boolean narrow) {
    LLVMValueRef below = w.lt(y, w.c(0.5));
    LLVMValueRef nearOne = w.lt(y, w.c(1.5));
    LLVMValueRef nearTwo = w.lt(y, w.c(2.5));
    LLVMValueRef shifted = w.lt(y, w.c(10));
    LLVMValueRef t = w.sel(nearTwo, w.sub(y, w.c(2)), w.sub(y, w.rint(y)));
    t = w.sel(below, y, w.sel(nearOne, w.sub(y, w.c(1)), t));
    LLVMValueRef core = w.mul(t, w.poly(t, narrow ? P32 : P64));
    // (y-1)(y-2)···(2+t) for y in [2.5, 10): the factors y - k down to 2 + t (all exact).
    LLVMValueRef prod = w.c(1);
    LLVMValueRef last = w.add(t, w.c(1.5));
    for (int k = 1; k <= 8; k++) {
      LLVMValueRef f = w.sub(y, w.c(k));
      prod = w.mul(prod, w.sel(w.ge(f, last), f, w.c(1)));
    }
    LLVMValueRef logArg = w.sel(below, t, w.sel(nearTwo, w.c(1), w.sel(shifted, prod, y)));
    LLVMValueRef lg = w.call(MathFn.LOG, logArg);
    LLVMValueRef l1p = w.call(MathFn.LOG1P, t);
    LLVMValueRef small = w.sel(below, w.sub(w.sub(core, l1p), lg), w.sel(nearOne, w.sub(core, l1p), w.add(core, lg)));
    LLVMValueRef z = w.div(w.c(1), y);
    LLVMValueRef series = w.mul(z, w.poly(w.mul(z, z), STIRLING));
    LLVMValueRef stirling = w.fma(w.sub(y, w.c(0.5)), w.sub(lg, w.c(1)), w.add(w.c(HALF_LOG_2PI - 0.5), series));
    return w.sel(shifted, small, stirling);
  }
}
