package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * erf(x). f32 (and f16, bf16, computed in f32): XLA:CPU's own rational approximation, bit for bit
 * ({@link #xlaF32}). f64 by {@link ErfKernel}: the odd series below 0.84375, 1 - erfc(|x|) above
 * (erfc <= 0.23 there, so no cancellation), ±1 from 6. Denormal inputs read as zeros (DAZ).
 */
final class Erf {
  /** Odd numerator x·A(x²), coefficients of x¹ … x⁹ (XLA's, from Eigen). */
  private static final double[] ALPHA = {
    1.128379143519084, 0.18520832239976145, 0.050955695062380861, 0.0034082910107109506,
    0.00022905065861350646};
  /** Even denominator B(x²), coefficients of x⁰ … x¹². */
  private static final double[] BETA = {
    1.0, 0.49746925110067538, 0.11098505178285362, 0.014070470171167667, 0.0010179625278914885,
    0.000023547966471313185, -1.1791602954361697e-7};
  /** From this |x| on XLA returns ±1. */
  private static final double ONE_FROM = 3.832506856900711;

  private Erf() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    x = e.daz(x);
    if (!e.isF64()) return xlaF32(e, x);
    LLVMValueRef ax = e.abs(x);
    LLVMValueRef big = e.sub(e.c(1), ErfKernel.erfcLarge(e, e.max(ax, e.c(0.5)), false));
    big = e.sel(e.gt(ax, e.c(6)), e.c(1), big);
    LLVMValueRef r = e.sel(e.lt(ax, e.c(0.84375)), ErfKernel.erfSmall(e, ax), big);
    return e.sel(e.isNan(x), x, e.copysign(r, x));
  }

  /**
   * XLA:CPU's f32 erf: x·A(x²) / B(x²) by Horner's rule with fused multiply-adds, one IEEE
   * division, ±1 from |x| ≥ 3.8325069 (where the quotient would pass 1). Bit-identical to
   * jax.jit's erf on 600K values including ±inf, NaN, ±0 and denormals.
   */
  private static LLVMValueRef xlaF32(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef x2 = e.mul(x, x);
    LLVMValueRef p = horner(e, x2, ALPHA);
    p = e.mul(x, p);
    LLVMValueRef q = horner(e, x2, BETA);
    LLVMValueRef r = e.div(p, q);
    return e.sel(e.le(e.c(ONE_FROM), e.abs(x)), e.copysign(e.c(1), x), r);
  }

  /** Σ c[k]·t^k by Horner's rule from the highest coefficient, as XLA evaluates it. */
  private static LLVMValueRef horner(MathEmitter e, LLVMValueRef t, double[] c) {
    LLVMValueRef acc = e.fma(t, e.c(c[c.length - 1]), e.c(c[c.length - 2]));
    for (int k = c.length - 3; k >= 0; k--) acc = e.fma(t, acc, e.c(c[k]));
    return acc;
  }
}
