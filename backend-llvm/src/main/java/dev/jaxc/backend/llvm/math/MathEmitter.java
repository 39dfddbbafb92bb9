package dev.jaxc.backend.llvm.math;

import static org.bytedeco.llvm.global.LLVM.*;

import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Builds branch-free floating-point IR for one value type: float or double, scalar or vector.
 * Constants are splatted to the type, integer views have the float's width (i32 / i64), and
 * every operation lowers to plain instructions on x86-64 (SSE2 baseline) and AArch64: rounding
 * is done with the 1.5·2^p shifter rather than {@code llvm.floor}/{@code llvm.rint}, which become
 * libm calls where SSE4.1 is missing (where the target has them, {@link #floor} and {@link #rint}
 * are the intrinsics: {@link MathLibrary#nativeRounding}). {@link #fma} is {@code llvm.fmuladd}, so accuracy never
 * depends on a fused multiply-add being available.
 */
final class MathEmitter {
  /** An unevaluated sum {@code hi + lo} with {@code |lo| <= ulp(hi)/2}: double-word arithmetic. */
  record Dd(LLVMValueRef hi, LLVMValueRef lo) {}

  private final MathLibrary lib;
  private final LLVMBuilderRef b;
  private final LLVMContextRef ctx;
  private final boolean f64;
  private final int lanes;
  private final LLVMTypeRef ft;
  private final LLVMTypeRef it;
  private final LLVMTypeRef elemF;
  private final LLVMTypeRef elemI;

  /**
   * Whether every argument is known to lie in the common range of a function with a rare slow
   * path ({@link MathLibrary#function}): trig reductions then leave Payne–Hanek out.
   */
  private final boolean commonRange;

  MathEmitter(MathLibrary lib, LLVMBuilderRef b, boolean f64, int lanes) {
    this(lib, b, f64, lanes, false);
  }

  MathEmitter(MathLibrary lib, LLVMBuilderRef b, boolean f64, int lanes, boolean commonRange) {
    this.commonRange = commonRange;
    this.lib = lib;
    this.b = b;
    this.ctx = lib.context();
    this.f64 = f64;
    this.lanes = lanes;
    this.elemF = f64 ? LLVMDoubleTypeInContext(ctx) : LLVMFloatTypeInContext(ctx);
    this.elemI = f64 ? LLVMInt64TypeInContext(ctx) : LLVMInt32TypeInContext(ctx);
    this.ft = lanes == 0 ? elemF : LLVMVectorType(elemF, lanes);
    this.it = lanes == 0 ? elemI : LLVMVectorType(elemI, lanes);
  }

  // ---- the type -------------------------------------------------------------------------------

  /** Whether the argument lies in the common range (see {@link MathLibrary#function}). */
  public boolean commonRange() {
    return commonRange;
  }

  public boolean isF64() {
    return f64;
  }

  /** Explicit mantissa bits: 52 or 23. */
  public int mantBits() {
    return f64 ? 52 : 23;
  }

  /** The exponent field's mask in the integer view. */
  public long expMask() {
    return f64 ? 0x7FF0000000000000L : 0x7F800000L;
  }

  public int bias() {
    return f64 ? 1023 : 127;
  }

  public double minNormal() {
    return f64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
  }

  /** The emitter for doubles with this emitter's lane count (itself when already f64). */
  public MathEmitter wide() {
    return f64 ? this : new MathEmitter(lib, b, true, lanes, commonRange);
  }

  public LLVMValueRef toWide(LLVMValueRef x) {
    return f64 ? x : LLVMBuildFPExt(b, x, wide().ft, "");
  }

  /** Rounds a double of {@link #wide()} to this emitter's float type. */
  public LLVMValueRef fromWide(LLVMValueRef x) {
    return f64 ? x : LLVMBuildFPTrunc(b, x, ft, "");
  }

  // ---- constants ------------------------------------------------------------------------------

  public LLVMValueRef c(double v) {
    return splat(LLVMConstReal(elemF, v), ft);
  }

  public LLVMValueRef ic(long v) {
    return splat(LLVMConstInt(elemI, v, 1), it);
  }

  private LLVMValueRef bool(boolean v) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
    return splat(LLVMConstInt(i1, v ? 1 : 0, 0), lanes == 0 ? i1 : LLVMVectorType(i1, lanes));
  }

  private LLVMValueRef splat(LLVMValueRef scalar, LLVMTypeRef type) {
    if (lanes == 0) return scalar;
    PointerPointer<LLVMValueRef> elems = new PointerPointer<>(lanes);
    for (int i = 0; i < lanes; i++) elems.put(i, scalar);
    return LLVMConstVector(elems, lanes);
  }

  // ---- float arithmetic -----------------------------------------------------------------------

  public LLVMValueRef add(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFAdd(b, a, c, "");
  }

  public LLVMValueRef sub(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFSub(b, a, c, "");
  }

  public LLVMValueRef mul(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFMul(b, a, c, "");
  }

  public LLVMValueRef div(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFDiv(b, a, c, "");
  }

  /**
   * {@code a / c} that the code generator may compute as {@code a · (1/c)} with a refined
   * reciprocal estimate (the {@code arcp} flag: x86 vector divisions become rcp14/rcpps and one
   * Newton step, about 1 ulp of the quotient with AVX-512, 2 with SSE/AVX; scalar ones and other
   * targets stay exact divisions). For quotients that are then scaled down or added to
   * something larger, where a hardware divider's throughput would bound the loop. Also marked
   * {@code ninf} (LLVM builds the estimate only then): callers keep both operands and the
   * quotient finite.
   */
  public LLVMValueRef divEstimate(LLVMValueRef a, LLVMValueRef c) {
    LLVMValueRef q = LLVMBuildFDiv(b, a, c, "");
    if (LLVMCanValueUseFastMathFlags(q) != 0) LLVMSetFastMathFlags(q, LLVMFastMathAllowReciprocal | LLVMFastMathNoInfs);
    return q;
  }

  public LLVMValueRef neg(LLVMValueRef a) {
    return LLVMBuildFNeg(b, a, "");
  }

  /** {@code a*c + d}, fused where the target has FMA, a multiply and an add elsewhere. */
  public LLVMValueRef fma(LLVMValueRef a, LLVMValueRef c, LLVMValueRef d) {
    return intrinsic("llvm.fmuladd", a, c, d);
  }

  public LLVMValueRef sqrt(LLVMValueRef a) {
    return intrinsic("llvm.sqrt", a);
  }

  public LLVMValueRef abs(LLVMValueRef a) {
    return intrinsic("llvm.fabs", a);
  }

  /** The magnitude of {@code mag} with the sign bit of {@code sign}. */
  public LLVMValueRef copysign(LLVMValueRef mag, LLVMValueRef sign) {
    return intrinsic("llvm.copysign", mag, sign);
  }

  /** {@code a < c ? a : c}: returns {@code c} when either is NaN. */
  public LLVMValueRef min(LLVMValueRef a, LLVMValueRef c) {
    return sel(lt(a, c), a, c);
  }

  /** {@code a > c ? a : c}: returns {@code c} when either is NaN. */
  public LLVMValueRef max(LLVMValueRef a, LLVMValueRef c) {
    return sel(gt(a, c), a, c);
  }

  /** Round to nearest even, exact for every input (NaN and infinities pass through). */
  public LLVMValueRef rint(LLVMValueRef x) {
    if (lib.nativeRounding()) return intrinsic("llvm.roundeven", x);
    LLVMValueRef two52 = c(f64 ? 0x1p52 : 0x1p23);
    LLVMValueRef ax = abs(x);
    LLVMValueRef r = sub(add(ax, two52), two52);
    return sel(lt(ax, two52), copysign(r, x), x);
  }

  public LLVMValueRef floor(LLVMValueRef x) {
    if (lib.nativeRounding()) return intrinsic("llvm.floor", x);
    LLVMValueRef r = rint(x);
    return sel(gt(r, x), sub(r, c(1)), r);
  }

  /**
   * {@code rint(x)} for {@code |x| < 2^(p-2)} as a float and, in the low bits of the second
   * value, as a two's-complement integer (the 1.5·2^p shifter trick).
   */
  public LLVMValueRef[] rintWithBits(LLVMValueRef x) {
    LLVMValueRef shifter = c(f64 ? 0x1.8p52 : 0x1.8p23);
    LLVMValueRef t = add(x, shifter);
    return new LLVMValueRef[] {sub(t, shifter), bits(t)};
  }

  // ---- comparisons and selection --------------------------------------------------------------

  public LLVMValueRef lt(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealOLT, a, c, "");
  }

  public LLVMValueRef le(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealOLE, a, c, "");
  }

  public LLVMValueRef gt(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealOGT, a, c, "");
  }

  public LLVMValueRef ge(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealOGE, a, c, "");
  }

  public LLVMValueRef eq(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealOEQ, a, c, "");
  }

  /** True for NaN or unequal. */
  public LLVMValueRef une(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildFCmp(b, LLVMRealUNE, a, c, "");
  }

  public LLVMValueRef isNan(LLVMValueRef a) {
    return LLVMBuildFCmp(b, LLVMRealUNO, a, a, "");
  }

  public LLVMValueRef isInf(LLVMValueRef a) {
    return eq(abs(a), c(Double.POSITIVE_INFINITY));
  }

  public LLVMValueRef and(LLVMValueRef p, LLVMValueRef q) {
    return LLVMBuildAnd(b, p, q, "");
  }

  public LLVMValueRef or(LLVMValueRef p, LLVMValueRef q) {
    return LLVMBuildOr(b, p, q, "");
  }

  public LLVMValueRef not(LLVMValueRef p) {
    return LLVMBuildXor(b, p, bool(true), "");
  }

  public LLVMValueRef sel(LLVMValueRef cond, LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildSelect(b, cond, a, c, "");
  }

  // ---- denormals (XLA:CPU runs with FTZ and DAZ) ----------------------------------------------

  /** A denormal input read as a zero of its sign, as DAZ hardware reads it. */
  public LLVMValueRef daz(LLVMValueRef x) {
    return sel(lt(abs(x), c(minNormal())), copysign(c(0), x), x);
  }

  /** A denormal result flushed to a zero of its sign, as FTZ hardware flushes it. */
  public LLVMValueRef ftz(LLVMValueRef r) {
    return daz(r);
  }

  /** Whether {@link #floor} and {@link #rint} are one instruction on the target. */
  public boolean nativeRounding() {
    return lib.nativeRounding();
  }

  /** XLA:GPU's denormal semantics (kept) rather than XLA:CPU's (DAZ, FTZ): {@link MathLibrary}. */
  public boolean keepsDenormals() {
    return lib.keepsDenormals();
  }

  /**
   * {@link #ftz} of {@code r}, the result of a float arithmetic instruction: nothing to do where
   * the hardware's FTZ flushed it already ({@link MathLibrary#arithmeticFlushed}).
   */
  public LLVMValueRef ftzArithmetic(LLVMValueRef r) {
    return lib.arithmeticFlushed() ? r : ftz(r);
  }

  /** {@code x} itself where it is denormal or zero, else {@code r}: functions with f(x) ≈ x at 0. */
  public LLVMValueRef passTiny(LLVMValueRef x, LLVMValueRef r) {
    return sel(lt(abs(x), c(minNormal())), x, r);
  }

  /** x is ±0, by its bits: a denormal is not zero here, even under DAZ hardware. */
  public LLVMValueRef isZeroBits(LLVMValueRef x) {
    return ieq(iand(bits(x), ic(f64 ? Long.MAX_VALUE : Integer.MAX_VALUE)), ic(0));
  }

  /** x is a nonzero denormal, by its bits. */
  public LLVMValueRef isDenormalBits(LLVMValueRef x) {
    LLVMValueRef mag = iand(bits(x), ic(f64 ? Long.MAX_VALUE : Integer.MAX_VALUE));
    return and(LLVMBuildICmp(b, LLVMIntULT, mag, ic(f64 ? 1L << 52 : 1L << 23), ""), not(ieq(mag, ic(0))));
  }

  /** The sign bit of x, as a condition (true for -0 and negative NaNs too). */
  public LLVMValueRef signBit(LLVMValueRef x) {
    return islt(bits(x), ic(0));
  }

  // ---- integer views --------------------------------------------------------------------------

  public LLVMValueRef bits(LLVMValueRef x) {
    return LLVMBuildBitCast(b, x, it, "");
  }

  public LLVMValueRef fromBits(LLVMValueRef i) {
    return LLVMBuildBitCast(b, i, ft, "");
  }

  public LLVMValueRef iadd(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildAdd(b, a, c, "");
  }

  public LLVMValueRef isub(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildSub(b, a, c, "");
  }

  public LLVMValueRef imul(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildMul(b, a, c, "");
  }

  public LLVMValueRef udiv(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildUDiv(b, a, c, "");
  }

  public LLVMValueRef iand(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildAnd(b, a, c, "");
  }

  public LLVMValueRef ior(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildOr(b, a, c, "");
  }

  public LLVMValueRef shl(LLVMValueRef a, LLVMValueRef n) {
    return LLVMBuildShl(b, a, n, "");
  }

  public LLVMValueRef lshr(LLVMValueRef a, LLVMValueRef n) {
    return LLVMBuildLShr(b, a, n, "");
  }

  public LLVMValueRef ashr(LLVMValueRef a, LLVMValueRef n) {
    return LLVMBuildAShr(b, a, n, "");
  }

  public LLVMValueRef ieq(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildICmp(b, LLVMIntEQ, a, c, "");
  }

  public LLVMValueRef islt(LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildICmp(b, LLVMIntSLT, a, c, "");
  }

  public LLVMValueRef isel(LLVMValueRef cond, LLVMValueRef a, LLVMValueRef c) {
    return LLVMBuildSelect(b, cond, a, c, "");
  }

  /** Signed integer to float; exact for the small integers it is used on. */
  public LLVMValueRef itof(LLVMValueRef i) {
    return LLVMBuildSIToFP(b, i, ft, "");
  }

  /** Signed integer below 2^31 in magnitude to float, through i32 (which vector units convert). */
  public LLVMValueRef itofSmall(LLVMValueRef i) {
    if (!f64) return itof(i);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef t = LLVMBuildTrunc(b, i, lanes == 0 ? i32 : LLVMVectorType(i32, lanes), "");
    return LLVMBuildSIToFP(b, t, ft, "");
  }

  /** This emitter's integer type, converted exactly (below 2^53) to the double type of {@link #wide()}. */
  public LLVMValueRef itofWide(LLVMValueRef i) {
    return LLVMBuildSIToFP(b, i, wide().ft, "");
  }

  /** An integral float value (in this emitter's integer's range) as that integer. */
  public LLVMValueRef fptosi(LLVMValueRef x) {
    return LLVMBuildFPToSI(b, x, it, "");
  }

  /** The float {@code 2^k} for integers {@code k} in the normal exponent range. */
  public LLVMValueRef pow2(LLVMValueRef k) {
    return fromBits(shl(iadd(k, ic(bias())), ic(mantBits())));
  }

  /**
   * {@code x · 2^k} for {@code k} in [-2·bias, 2·bias]: two exact scalings, so results that
   * overflow become infinities and tiny ones round (then {@link #ftz} them where XLA would).
   */
  public LLVMValueRef ldexp(LLVMValueRef x, LLVMValueRef k) {
    LLVMValueRef k1 = ashr(k, ic(1));
    return mul(mul(x, pow2(k1)), pow2(isub(k, k1)));
  }

  // ---- polynomials ----------------------------------------------------------------------------

  /** {@code c[0] + c[1] t + ... + c[n-1] t^(n-1)} by Horner's rule. */
  public LLVMValueRef poly(LLVMValueRef t, double... coeffs) {
    LLVMValueRef acc = c(coeffs[coeffs.length - 1]);
    for (int k = coeffs.length - 2; k >= 0; k--) acc = fma(acc, t, c(coeffs[k]));
    return acc;
  }

  // ---- double-word arithmetic (Dekker, Knuth; no FMA needed) ----------------------------------

  /** Exact {@code a + c} when {@code |a| >= |c|} (or a is 0). */
  public Dd fastTwoSum(LLVMValueRef a, LLVMValueRef c) {
    LLVMValueRef s = add(a, c);
    return new Dd(s, sub(c, sub(s, a)));
  }

  /** Exact {@code a + c} for any magnitudes. */
  public Dd twoSum(LLVMValueRef a, LLVMValueRef c) {
    LLVMValueRef s = add(a, c);
    LLVMValueRef bb = sub(s, a);
    LLVMValueRef err = add(sub(a, sub(s, bb)), sub(c, bb));
    return new Dd(s, err);
  }

  /** Veltkamp's split: hi has at most half the mantissa bits, hi + lo == a. */
  public Dd split(LLVMValueRef a) {
    LLVMValueRef t = mul(a, c(f64 ? 134217729.0 : 4097.0));
    LLVMValueRef hi = sub(t, sub(t, a));
    return new Dd(hi, sub(a, hi));
  }

  /** Exact {@code a * c} (Dekker), for |a|, |c| well inside the exponent range. */
  public Dd twoProd(LLVMValueRef a, LLVMValueRef c) {
    LLVMValueRef p = mul(a, c);
    Dd sa = split(a);
    Dd sc = split(c);
    LLVMValueRef err = add(add(sub(mul(sa.hi, sc.hi), p), mul(sa.hi, sc.lo)), mul(sa.lo, sc.hi));
    err = add(err, mul(sa.lo, sc.lo));
    return new Dd(p, err);
  }

  /** {@code x} with the low half of its mantissa cleared, so {@code hi*hi} is exact. */
  public LLVMValueRef truncHalf(LLVMValueRef x) {
    long mask = f64 ? 0xFFFFFFFFF8000000L : 0xFFFFF000L;
    return fromBits(iand(bits(x), ic(mask)));
  }

  public Dd ddMul(Dd a, Dd c) {
    Dd p = twoProd(a.hi, c.hi);
    return fastTwoSum(p.hi, add(p.lo, add(mul(a.hi, c.lo), mul(a.lo, c.hi))));
  }

  public Dd ddMul(Dd a, LLVMValueRef c) {
    Dd p = twoProd(a.hi, c);
    return fastTwoSum(p.hi, fma(a.lo, c, p.lo));
  }

  /**
   * The constant hi + lo (a double-word of doubles) as a double-word of this type: for floats,
   * hi rounded to float and the remainder rounded to float.
   */
  public Dd dd(double hi, double lo) {
    if (f64) return new Dd(c(hi), c(lo));
    float h = (float) hi;
    return new Dd(c(h), c((float) ((hi - h) + lo)));
  }


  // ---- tables ---------------------------------------------------------------------------------

  /**
   * {@code table[index]} from a constant array of i32 (a gather for vectors), widened to this
   * emitter's integer type. The index has that type too and must be in range.
   */
  public LLVMValueRef loadI32(LLVMValueRef table, LLVMValueRef index) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef ptr = LLVMBuildGEP2(b, i32, table, new PointerPointer<>(1).put(0, index), 1, "");
    LLVMValueRef v;
    if (lanes == 0) {
      v = LLVMBuildLoad2(b, i32, ptr, "");
      LLVMSetAlignment(v, 4);
    } else {
      LLVMTypeRef vt = LLVMVectorType(i32, lanes);
      LLVMValueRef mask = bool(true);
      LLVMValueRef align = LLVMConstInt(i32, 4, 0);
      LLVMValueRef pass = LLVMGetPoison(vt);
      v = intrinsicTyped("llvm.masked.gather", new LLVMTypeRef[] {vt, LLVMTypeOf(ptr)}, vt, ptr, align, mask, pass);
    }
    return f64 ? LLVMBuildZExt(b, v, it, "") : v;
  }

  public LLVMValueRef i32Table(String name, int[] values) {
    return lib.i32Table(name, values);
  }

  // ---- calls ----------------------------------------------------------------------------------

  /** Another library function on this emitter's type (inlined later). */
  public LLVMValueRef call(MathFn fn, LLVMValueRef... args) {
    return lib.call(b, fn, args);
  }

  private LLVMValueRef intrinsic(String name, LLVMValueRef... args) {
    return intrinsicTyped(name, new LLVMTypeRef[] {LLVMTypeOf(args[0])}, LLVMTypeOf(args[0]), args);
  }

  private LLVMValueRef intrinsicTyped(String name, LLVMTypeRef[] overloads, LLVMTypeRef ret, LLVMValueRef... args) {
    int id = LLVMLookupIntrinsicID(name, name.length());
    if (id == 0) throw new IllegalStateException("no intrinsic " + name);
    PointerPointer<LLVMTypeRef> tys = new PointerPointer<>(overloads.length);
    for (int i = 0; i < overloads.length; i++) tys.put(i, overloads[i]);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(lib.module(), id, tys, overloads.length);
    LLVMTypeRef fnTy = LLVMIntrinsicGetType(ctx, id, tys, overloads.length);
    PointerPointer<LLVMValueRef> as = new PointerPointer<>(args.length);
    for (int i = 0; i < args.length; i++) as.put(i, args[i]);
    return LLVMBuildCall2(b, fnTy, fn, as, args.length, "");
  }

}
