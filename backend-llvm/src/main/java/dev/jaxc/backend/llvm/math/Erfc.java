package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * erfc(x). Doubles by {@link ErfKernel}: 1 - erf(x) for |x| < 1/2, erfc(|x|) from e^(-x²)·G
 * above, and 2 - erfc(|x|) for x <= -1/2. Floats (f16, bf16 through f32) as XLA computes them
 * ({@link #xlaF32}). Results below the normal range flush to 0 (FTZ); denormal inputs give 1.
 */
final class Erfc {
  /** XLA's erf(x) = x·T(x²) for |x| < 1 (Cephes' erff), lowest coefficient first ({@link MathEmitter#poly}). */
  private static final double[] T = {
    1.128379165726710E+0, -3.761262582423300E-1, 1.128358514861418E-1, -2.685381193529856E-2,
    5.188327685732524E-3, -8.010193625184903E-4, 7.853861353153693E-5};
  /** erfc(x) = e^(-x²)/x·P(1/x²) for 1 <= x < 2 (Cephes' erfcf), lowest first. */
  private static final double[] P = {
    5.638259427386472E-1, -2.741127028184656E-1, 3.404879937665872E-1, -4.944515323274145E-1,
    6.210004621745983E-1, -5.824733027278666E-1, 3.687424674597105E-1, -1.387039388740657E-1,
    2.326819970068386E-2};
  /** erfc(x) = e^(-x²)/x·R(1/x²) for x >= 2, lowest first. */
  private static final double[] R = {
    5.641895067754075E-1, -2.820767439740514E-1, 4.218463358204948E-1, -1.015265279202700E+0,
    2.921019019210786E+0, -7.495518717768503E+0, 1.297719955372516E+1, -1.047766399936249E+1};
  private static final double MAXLOG = 88.72283905206835;

  private Erfc() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    x = e.daz(x);
    if (!e.isF64()) return xlaF32(e, x);
    LLVMValueRef ax = e.abs(x);
    LLVMValueRef small = e.sub(e.c(1), ErfKernel.erfSmall(e, x));
    MathEmitter w = e.wide();
    LLVMValueRef tail = e.fromWide(ErfKernel.erfcLarge(w, w.max(e.toWide(ax), w.c(0.5)), !e.isF64()));
    LLVMValueRef big = e.sel(e.lt(x, e.c(0)), e.sub(e.c(2), tail), e.ftz(tail));
    big = e.sel(e.gt(x, e.c(ErfKernel.erfcZeroFrom(e.isF64()))), e.c(0), big);
    LLVMValueRef r = e.sel(e.lt(ax, e.c(0.5)), small, big);
    return e.sel(e.isNan(x), x, r);
  }

  /**
   * XLA's f32 erfc (its CHLO lowering, after Cephes): 1 - x·T(x²) for |x| < 1, else
   * e^(-x²)·(1/|x|)·P(1/x²) below 2 and ·R(1/x²) from 2, 0 where -x² < -88.7, and 2 minus
   * that for x < 0; in float arithmetic, e^(-x²) by XLA's own exp ({@link Exp}). A few ulps
   * near the underflow (x² rounds), as XLA's; its speed rather than twice its time in double.
   */
  private static LLVMValueRef xlaF32(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef ax = e.abs(x);
    LLVMValueRef xx = e.mul(x, x);
    LLVMValueRef small = e.fma(e.neg(x), e.poly(xx, T), e.c(1));
    LLVMValueRef z = e.neg(xx);
    LLVMValueRef inv = e.div(e.c(1), xx);
    LLVMValueRef scale = e.mul(Exp.emit(e, z), e.div(e.c(1), ax));
    LLVMValueRef poly = e.sel(e.lt(ax, e.c(2)), e.poly(inv, P), e.poly(inv, R));
    LLVMValueRef tail = e.sel(e.lt(z, e.c(-MAXLOG)), e.c(0), e.mul(scale, poly));
    LLVMValueRef big = e.sel(e.lt(x, e.c(0)), e.sub(e.c(2), tail), tail);
    LLVMValueRef r = e.sel(e.lt(ax, e.c(1)), small, e.ftzArithmetic(big));
    return e.sel(e.isNan(x), x, r);
  }
}
