package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * tanh(x): x + x³·T(x²) for |x| <= 0.55 (T a near-minimax fit, fit_coefficients.py
 * {@code tanh}), 1 - 2/(e^(2|x|) + 1) above (fdlibm's 1 - 2/(expm1(2|x|) + 2): above 0.55
 * e^(2|x|) >= 3, so no expm1 is needed), ±1 from 22 (f64) / 9.1 (f32). Odd. Denormal inputs:
 * XLA:CPU returns float ones unchanged and reads double ones as zero, and so does this.
 *
 * <p>The exponential is evaluated inline on 2|x| clamped to [0, 2·cap]: k = rint(y/ln2) is at
 * most 64, so 2^k is one exponent-field write and none of exp's or expm1's range cases are
 * needed. Every lane computes both branches and selects, so the branch-free form is most of the
 * cost of a vectorised tanh loop (with expm1 it was about twice as long). The quotient 2/(t+1) is
 * at most 1/2 of the result and is a {@link MathEmitter#divEstimate} (AVX-512's divider took half
 * of the loop's time) refined once from its residual, so the error stays the exact divide's.
 */
final class Tanh {
  private static final double[] T64 = {
    -0.3333333333333333, 0.13333333333333333, -0.05396825396825262, 0.021869488536056636,
    -0.008863235526162748, 0.003592127951977673, -0.0014558331555248696, 0.0005900153843630375,
    -0.00023904789124834172, 9.653644090446703e-05, -3.8066220888644314e-05, 1.333928198473202e-05,
    -3.0073112559873794e-06};
  private static final double[] T32 = {
    -0.33333333294808476, 0.13333324157327267, -0.05396468737494977, 0.02181831165149973,
    -0.008525751377438268, 0.0025255392466152207};

  private Tanh() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef ax = e.abs(e.daz(x));
    LLVMValueRef z = e.mul(ax, ax);
    LLVMValueRef small = e.fma(e.mul(ax, z), e.poly(z, e.isF64() ? T64 : T32), ax);
    double cap = e.isF64() ? 22 : 9.1;
    LLVMValueRef y = e.mul(e.c(2), e.min(ax, e.c(cap)));
    LLVMValueRef t = ExpKernel.expInRange(e, y);
    LLVMValueRef d = e.add(t, e.c(1));
    LLVMValueRef q0 = e.divEstimate(e.c(2), d);
    // One correction from the residual 2 - d·q0 (1/d ≈ q0/2): an estimate's ~2 ulp become ~1.
    LLVMValueRef q = e.fma(e.fma(e.neg(d), q0, e.c(2)), e.mul(e.c(0.5), q0), q0);
    LLVMValueRef big = e.sub(e.c(1), q);
    LLVMValueRef r = e.sel(e.le(ax, e.c(0.55)), small, e.sel(e.gt(ax, e.c(cap)), e.c(1), big));
    r = e.sel(e.isNan(x), x, e.copysign(r, x));
    return e.isF64() ? r : e.passTiny(x, r);
  }
}
