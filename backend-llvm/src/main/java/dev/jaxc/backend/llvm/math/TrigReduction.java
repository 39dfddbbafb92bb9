package dev.jaxc.backend.llvm.math;

import dev.jaxc.backend.llvm.math.MathEmitter.Dd;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * x = n·π/2 + r with |r| <= π/4, in double arithmetic, for every finite double: Cody–Waite
 * with π/2 in three 33-bit parts (exact products, double-word remainder, as fdlibm
 * {@code __ieee754_rem_pio2}) below 2^19·π/2, and Payne–Hanek above, done branch-free in
 * 64-bit integers: the mantissa (split 27 + 26 bits) times the 26-bit chunks of 2/π that can
 * matter for this exponent (a gather from {@link TwoOverPi#CHUNKS}), carried into 26-bit limbs,
 * whose top bits give n mod 4 and the rest the fraction, to about 2^-120 absolute. Both paths
 * are computed and one selected, so the code stays straight-line. Inputs of float functions
 * arrive widened ({@code narrow}): their 24-bit mantissas need fewer limbs.
 */
final class TrigReduction {
  /** n mod 4 in the low bits of {@code quadrant} (an integer of the emitter's width); r = hi + lo. */
  record Reduced(LLVMValueRef quadrant, LLVMValueRef hi, LLVMValueRef lo) {}

  private static final double CODY_WAITE_LIMIT = 0x1p19 * 1.5707963267948966;
  /**
   * Arguments of smaller magnitude take the Cody–Waite reduction: the common range of sin, cos
   * and tan, whose vector forms skip Payne–Hanek where every lane is in it ({@link MathLibrary}).
   */
  static final double COMMON_LIMIT = 0x1p19;

  private TrigReduction() {}

  /** {@code w} is a double emitter; {@code x} finite (others give garbage, callers select NaN). */
  static Reduced reduce(MathEmitter w, LLVMValueRef x, boolean narrow) {
    double[] p = TwoOverPi.PIO2_PARTS;
    LLVMValueRef[] n = w.rintWithBits(w.mul(x, w.c(0.6366197723675814)));
    LLVMValueRef t = w.sub(x, w.mul(n[0], w.c(p[0])));
    Dd s1 = w.twoSum(t, w.neg(w.mul(n[0], w.c(p[1]))));
    Dd s2 = w.twoSum(s1.hi(), w.neg(w.mul(n[0], w.c(p[2]))));
    LLVMValueRef lo = w.sub(w.add(s1.lo(), s2.lo()), w.mul(n[0], w.c(p[3])));
    Dd cw = w.fastTwoSum(s2.hi(), lo);

    if (w.commonRange()) return new Reduced(n[1], cw.hi(), cw.lo());
    Reduced ph = payneHanek(w, x, narrow);
    LLVMValueRef small = w.lt(w.abs(x), w.c(CODY_WAITE_LIMIT));
    return new Reduced(w.isel(small, n[1], ph.quadrant), w.sel(small, cw.hi(), ph.hi), w.sel(small, cw.lo(), ph.lo));
  }

  private static Reduced payneHanek(MathEmitter w, LLVMValueRef x, boolean narrow) {
    final long mask26 = (1L << 26) - 1;
    int digits = narrow ? 5 : 7;
    LLVMValueRef bits = w.bits(w.abs(x));
    LLVMValueRef exp = w.lshr(bits, w.ic(52));
    LLVMValueRef bigE = w.isub(exp, w.ic(1075));
    bigE = w.isel(w.islt(bigE, w.ic(-40)), w.ic(-40), bigE);
    LLVMValueRef m = w.ior(w.iand(bits, w.ic((1L << 52) - 1)), w.ic(1L << 52));
    LLVMValueRef mh = w.lshr(m, w.ic(26));
    LLVMValueRef ml = w.iand(m, w.ic(mask26));
    // A = floor((E - 2) / 26) for E in [-40, 972], by multiplication; B = E - 26A in [2, 28).
    LLVMValueRef a = w.isub(w.lshr(w.imul(w.iadd(bigE, w.ic(50)), w.ic(2521)), w.ic(16)), w.ic(2));
    LLVMValueRef bb = w.isub(bigE, w.imul(a, w.ic(26)));
    LLVMValueRef base = w.iadd(a, w.ic(TwoOverPi.PAD));
    LLVMValueRef table = w.i32Table("jaxc.two_over_pi", TwoOverPi.CHUNKS);
    LLVMValueRef[] chunk = new LLVMValueRef[digits + 1];
    for (int j = narrow ? 1 : 0; j <= digits; j++) {
      chunk[j] = w.loadI32(table, w.iadd(base, w.ic(j)));
    }
    // x·(2/π) mod 4 = Σ_d S_d·2^(B-26d), S_d = ml·c[d-1] + mh·c[d]; carry into 26-bit limbs.
    LLVMValueRef[] limb = new LLVMValueRef[digits + 1];
    LLVMValueRef carry = w.ic(0);
    for (int d = digits; d >= 1; d--) {
      LLVMValueRef s = w.iadd(w.imul(mh, chunk[d]), carry);
      if (!narrow) s = w.iadd(s, w.imul(ml, chunk[d - 1]));
      limb[d] = w.iand(s, w.ic(mask26));
      carry = w.lshr(s, w.ic(26));
    }
    // The carry out of limb 1 is a multiple of 2^B >= 4; so are limb 1's bits from 28 - B up.
    limb[1] = w.iand(limb[1], w.isub(w.shl(w.ic(1), w.isub(w.ic(28), bb)), w.ic(1)));
    LLVMValueRef h = w.fma(w.itofSmall(limb[1]), w.pow2(w.isub(bb, w.ic(26))),
        w.mul(w.itofSmall(limb[2]), w.pow2(w.isub(bb, w.ic(52)))));
    LLVMValueRef[] q = w.rintWithBits(h);
    Dd f = w.twoSum(w.sub(h, q[0]), w.mul(w.itofSmall(limb[3]), w.pow2(w.isub(bb, w.ic(78)))));
    LLVMValueRef lo = f.lo();
    for (int d = 4; d <= digits; d++) {
      lo = w.fma(w.itofSmall(limb[d]), w.pow2(w.isub(bb, w.ic(26L * d))), lo);
    }
    Dd frac = w.fastTwoSum(f.hi(), lo);
    Dd r = w.ddMul(frac, w.dd(TwoOverPi.PIO2_HI, TwoOverPi.PIO2_LO));
    // Reduced |x|; for x < 0, x = (-n)·π/2 - r.
    LLVMValueRef negative = w.lt(x, w.c(0));
    LLVMValueRef quadrant = w.isel(negative, w.isub(w.ic(0), q[1]), q[1]);
    return new Reduced(quadrant, w.sel(negative, w.neg(r.hi()), r.hi()), w.sel(negative, w.neg(r.lo()), r.lo()));
  }
}
