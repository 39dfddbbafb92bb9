package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * ψ(x) = d/dx log Γ(x), in double (floats are computed in double and rounded once). On [1, 2],
 * ψ(u) = (u - x0)·D(u - 3/2) with x0 the positive root as a double-word and D a near-minimax fit
 * (fit_coefficients.py {@code digamma}), so the root keeps relative accuracy; below 1 by
 * ψ(y) = ψ(1 + y) - 1/y; up to 12 by the recurrence ψ(y) = ψ(u) + Σ 1/(u + j), summed as one
 * unrolled fraction; above 12 by the asymptotic series in 1/y². Negative x by reflection,
 * ψ(x) = ψ(1 - x) - π·cos(πx)/sin(πx) ({@link SinPi}). Zero, negative integers and -inf give NaN,
 * as in XLA; denormal inputs read as zeros (so give NaN).
 */
final class Digamma {
  private static final double[] D64 = {
    0.9510558760318328, -0.4236274212814606, 0.24054248424078697, -0.14840492305388092,
    0.09498872445289039, -0.06192213327548831, 0.040760833940846085, -0.026975796659787055,
    0.017907248317313294, -0.011908220105959716, 0.007927021796868154, -0.005279937255532708,
    0.003518106563802472, -0.0023454947397380833, 0.0015633696313653504, -0.0010364584817312839,
    0.0006909255761282986, -0.00048595039220036254, 0.00032395945401345196, -0.00014480643368061614,
    9.653646261410062e-05, -0.0001782188548855923, 0.00011881232908510335};
  private static final double[] D32 = {
    0.9510558760318328, -0.4236274186325623, 0.2405424824751142, -0.14840521855349975,
    0.09498892142362683, -0.061912770922936004, 0.040754593297480844, -0.027101835424346757,
    0.01799126155857759, -0.011096228103516554, 0.007385776781953944, -0.00769679044525289,
    0.0051290832618366995};
  private static final double ROOT_HI = 1.4616321449683622;
  private static final double ROOT_LO = 9.549995429965697e-17;
  /** ψ(y) ~ log y - 1/(2y) - Σ B_2k/(2k) z^k, z = 1/y², k = 1..7. */
  private static final double[] ASYMPTOTIC = {
    1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760, 1.0 / 12};

  private Digamma() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    x = e.daz(x);
    MathEmitter w = e.wide();
    LLVMValueRef wx = e.toWide(x);
    LLVMValueRef negative = w.lt(wx, w.c(0));
    LLVMValueRef y = w.sel(negative, w.sub(w.c(1), wx), wx);
    LLVMValueRef pos = positive(w, y, !e.isF64());
    // Every x > 0 (x read as 0, a denormal, is a pole).
    if (e.commonRange()) return e.sel(e.eq(x, e.c(0)), e.c(Double.NaN), e.fromWide(pos));
    LLVMValueRef[] sc = SinPi.sinCos(w, wx);
    LLVMValueRef neg = w.sub(pos, w.div(w.mul(w.c(TwoOverPi.PI_HI), sc[1]), sc[0]));
    LLVMValueRef r = e.fromWide(w.sel(negative, neg, pos));
    LLVMValueRef pole = e.or(e.eq(x, e.c(0)), e.and(e.lt(x, e.c(0)), e.eq(x, e.fromWide(w.floor(wx)))));
    return e.sel(pole, e.c(Double.NaN), e.sel(e.isNan(x), x, r));
  }

  /** ψ(y) for y > 0. */
  private static LLVMValueRef positive(MathEmitter w, LLVMValueRef y, boolean narrow) {
    LLVMValueRef below = w.lt(y, w.c(1));
    LLVMValueRef inRange = w.le(y, w.c(2));
    LLVMValueRef u = w.sel(below, w.add(w.c(1), y), w.sel(inRange, y, w.add(w.sub(y, w.floor(y)), w.c(1))));
    LLVMValueRef fromRoot = w.sub(w.sub(u, w.c(ROOT_HI)), w.c(ROOT_LO));
    LLVMValueRef core = w.mul(fromRoot, w.poly(w.sub(u, w.c(1.5)), narrow ? D32 : D64));
    // Σ 1/z over z = y-1, y-2, ... >= 1, as num/den, for y in (2, 12).
    LLVMValueRef num = w.c(0);
    LLVMValueRef den = w.c(1);
    for (int k = 1; k <= 10; k++) {
      LLVMValueRef z = w.sub(y, w.c(k));
      LLVMValueRef use = w.ge(z, w.c(1));
      num = w.sel(use, w.fma(num, z, den), num);
      den = w.sel(use, w.mul(den, z), den);
    }
    LLVMValueRef adj = w.sel(below, w.neg(w.div(w.c(1), y)), w.sel(inRange, w.c(0), w.div(num, den)));
    LLVMValueRef z = w.div(w.c(1), w.mul(y, y));
    LLVMValueRef asym = w.sub(w.sub(w.call(MathFn.LOG, y), w.div(w.c(0.5), y)), w.mul(z, w.poly(z, ASYMPTOTIC)));
    return w.sel(w.ge(y, w.c(12)), asym, w.add(core, adj));
  }
}
