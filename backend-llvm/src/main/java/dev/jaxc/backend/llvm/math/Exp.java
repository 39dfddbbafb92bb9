package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * exp(x). f64: {@link ExpKernel}. f32 (and f16, bf16, computed in f32): XLA:CPU's own algorithm,
 * bit for bit ({@link #xlaF32}). Denormal results are flushed to zero and denormal inputs give 1,
 * as on XLA:CPU (FTZ/DAZ); NaN propagates, exp(-inf) = 0, exp(+inf) = inf.
 */
final class Exp {
  /** Cephes' expf polynomial, as XLA:CPU evaluates it: p0 (highest) … p5. */
  private static final double[] P = {
    1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2, 1.6666665459E-1, 5.0000001201E-1};
  private static final double LOG2E = 1.44269504088896341;
  /** ln 2 = C1 − C2, C1 exact in few bits (Cephes' split). */
  private static final double C1 = 0.693359375;
  private static final double C2 = -2.12194440e-4;

  private Exp() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    if (!e.isF64()) return xlaF32(e, x);
    LLVMValueRef r = e.ftzArithmetic(ExpKernel.exp(e, x, e.c(0)));
    return e.sel(e.isNan(x), x, r);
  }

  /**
   * XLA:CPU's f32 exp: x clamped to [−87.8, 88.8]; n = floor(x·log2e + 0.5) clamped to
   * [−127, 127]; a = x − n·C1 − n·C2 (two fused multiply-adds); e^a = 1 + a + a²·P(a) by Horner's
   * rule with fused multiply-adds (plain multiplies and adds where the target has no FMA, as
   * XLA emits them); times 2^n built in the exponent field. Bit-identical to jax.jit's exp on 1.5M
   * values including the overflow and underflow edges, ±inf, NaN, ±0 and denormals.
   */
  private static LLVMValueRef xlaF32(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef xc = e.max(e.min(x, e.c(88.8)), e.c(-87.8));
    LLVMValueRef t = e.fma(xc, e.c(LOG2E), e.c(0.5));
    // floor(t) for |t| < 2^22: one instruction where the target has it, else round to nearest
    // with the 1.5·2^23 shifter and go one down where that rounded up.
    LLVMValueRef n;
    if (e.nativeRounding()) {
      n = e.floor(t);
    } else {
      LLVMValueRef[] r = e.rintWithBits(t);
      n = e.sel(e.gt(r[0], t), e.sub(r[0], e.c(1)), r[0]);
    }
    n = e.max(e.min(n, e.c(127)), e.c(-127));
    LLVMValueRef a = e.fma(n, e.c(-C1), xc);
    a = e.fma(n, e.c(-C2), a);
    LLVMValueRef z = e.fma(a, e.c(P[0]), e.c(P[1]));
    for (int k = 2; k < P.length; k++) z = e.fma(z, a, e.c(P[k]));
    z = e.fma(z, e.mul(a, a), a);
    z = e.add(e.c(1), z);
    LLVMValueRef res = e.ftzArithmetic(e.mul(z, e.pow2(e.fptosi(n))));
    return e.sel(e.isNan(x), x, res);
  }
}
