package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Float semantics of XLA:CPU on f32/f64 compute values (f16 and bf16 arrive as f32 and are
 * rounded by the caller). {@code d} is the dtype, which decides denormal flushing ({@link Ftz}).
 * Rounding functions use float arithmetic only, never libm or instructions a baseline target
 * lacks.
 */
final class FloatArith {
  private final Ir ir;

  FloatArith(Ir ir) {
    this.ir = ir;
  }

  private LLVMValueRef c(LLVMValueRef like, double v) {
    return ir.constReal(ir.typeOf(like), v);
  }

  private LLVMValueRef in(DType d, LLVMValueRef x) {
    return Ftz.daz(ir, d, x);
  }

  private LLVMValueRef out(DType d, LLVMValueRef x) {
    return Ftz.flush(ir, d, x);
  }

  LLVMValueRef add(DType d, LLVMValueRef x, LLVMValueRef y) {
    return out(d, ir.fadd(in(d, x), in(d, y)));
  }

  LLVMValueRef sub(DType d, LLVMValueRef x, LLVMValueRef y) {
    return out(d, ir.fsub(in(d, x), in(d, y)));
  }

  LLVMValueRef mul(DType d, LLVMValueRef x, LLVMValueRef y) {
    return out(d, ir.fmul(in(d, x), in(d, y)));
  }

  LLVMValueRef div(DType d, LLVMValueRef x, LLVMValueRef y) {
    return out(d, ir.fdiv(in(d, x), in(d, y)));
  }

  /** NaN if either is NaN; max(-0, +0) = +0. */
  LLVMValueRef max(DType d, LLVMValueRef x, LLVMValueRef y) {
    return ir.intrinsic("llvm.maximum", in(d, x), in(d, y));
  }

  /** NaN if either is NaN; min(-0, +0) = -0. */
  LLVMValueRef min(DType d, LLVMValueRef x, LLVMValueRef y) {
    return ir.intrinsic("llvm.minimum", in(d, x), in(d, y));
  }

  /**
   * NaN stays NaN (with its sign), ±0 stays ±0, otherwise ±1: XLA's {@code copysign(x != 0, x)},
   * NaN passed through, so a denormal (read as zero) gives a zero of its sign.
   */
  LLVMValueRef sign(DType d, LLVMValueRef x) {
    LLVMValueRef v = in(d, x);
    LLVMValueRef nonzero = ir.select(ir.fcmp(LLVMRealONE, v, c(v, 0.0)), c(v, 1.0), c(v, 0.0));
    return ir.select(ir.fcmp(LLVMRealUNO, v, v), v, ir.copysign(nonzero, v));
  }

  /** A square root of a negative number is NaN; sqrt(-0) = -0. */
  LLVMValueRef sqrt(DType d, LLVMValueRef x) {
    return ir.intrinsic("llvm.sqrt", in(d, x));
  }

  LLVMValueRef isFinite(LLVMValueRef x) {
    return ir.fcmp(LLVMRealOLT, ir.fabs(x), c(x, Double.POSITIVE_INFINITY));
  }

  /** Rounds to the nearest integer, ties to even: adding and subtracting 2^mantissa-bits. */
  private LLVMValueRef roundEvenMagnitude(LLVMValueRef a) {
    LLVMTypeRef t = ir.typeOf(a);
    LLVMValueRef big = c(a, t.equals(ir.f64) ? 0x1p52 : 0x1p23);
    LLVMValueRef r = LLVMBuildFSub(ir.b, ir.faddExact(a, big), big, "");
    return ir.select(ir.fcmp(LLVMRealOLT, a, big), r, a);  // large values and NaN are kept
  }

  /** {@code round} with rounding_method 1 (TO_NEAREST_EVEN). */
  LLVMValueRef roundEven(DType d, LLVMValueRef x) {
    LLVMValueRef v = in(d, x);
    return ir.copysign(roundEvenMagnitude(ir.fabs(v)), v);
  }

  /** {@code round} with rounding_method 0 (AWAY_FROM_ZERO): halves move away from zero. */
  LLVMValueRef roundAway(DType d, LLVMValueRef x) {
    LLVMValueRef v = in(d, x);
    LLVMValueRef a = ir.fabs(v);
    LLVMValueRef r = roundEvenMagnitude(a);
    LLVMValueRef tieDown = ir.fcmp(LLVMRealOEQ, LLVMBuildFSub(ir.b, a, r, ""), c(a, 0.5));
    return ir.copysign(ir.select(tieDown, ir.faddExact(r, c(r, 1.0)), r), v);
  }

  LLVMValueRef floor(DType d, LLVMValueRef x) {
    LLVMValueRef v = in(d, x);
    LLVMValueRef r = roundEven(d, v);
    LLVMValueRef f = ir.select(ir.fcmp(LLVMRealOGT, r, v), ir.faddExact(r, c(r, -1.0)), r);
    return ir.copysign(f, v);  // a zero result keeps x's sign
  }

  LLVMValueRef ceil(DType d, LLVMValueRef x) {
    LLVMValueRef v = in(d, x);
    LLVMValueRef r = roundEven(d, v);
    LLVMValueRef f = ir.select(ir.fcmp(LLVMRealOLT, r, v), ir.faddExact(r, c(r, 1.0)), r);
    return ir.copysign(f, v);
  }

  /**
   * C's fmod, as XLA gets it from libm: a denormal dividend is kept, but a denormal divisor
   * compares equal to zero there (DAZ), so the result is NaN.
   */
  LLVMValueRef rem(DType d, LLVMValueRef x, LLVMValueRef y) {
    return FloatRem.fmod(ir, x, Ftz.dazBits(ir, d, y));  // integer code: DAZ by hand
  }

  /**
   * nextafter on the bit patterns {@code xb}, {@code yb} (integers of the dtype's width); {@code
   * x}, {@code y} are the same values as floats. Equality is a float compare (so, on XLA, with
   * denormals read as zero); the step itself is integer arithmetic and keeps denormals.
   */
  LLVMValueRef nextafterBits(DType d, LLVMValueRef x, LLVMValueRef y, LLVMValueRef xb, LLVMValueRef yb) {
    LLVMTypeRef it = ir.typeOf(xb);
    int w = Ir.intWidth(it);
    LLVMValueRef signMask = ir.constInt(it, 1L << (w - 1));
    LLVMValueRef xAbs = ir.and(xb, ir.not(signMask));
    LLVMValueRef yAbs = ir.and(yb, ir.not(signMask));
    LLVMValueRef xSign = ir.and(xb, signMask);
    LLVMValueRef ySign = ir.and(yb, signMask);
    // Away from y's side or past it in magnitude: one step towards zero.
    LLVMValueRef down = ir.or(ir.icmp(LLVMIntNE, xSign, ySign), ir.icmp(LLVMIntUGT, xAbs, yAbs));
    LLVMValueRef stepped = ir.add(xb, ir.select(down, ir.constInt(it, -1), ir.constInt(it, 1)));
    LLVMValueRef fromZero = ir.or(ySign, ir.constInt(it, 1));  // the smallest denormal towards y
    LLVMValueRef r = ir.select(ir.icmp(LLVMIntEQ, xAbs, ir.constInt(it, 0)), fromZero, stepped);
    return ir.select(ir.fcmp(LLVMRealOEQ, in(d, x), in(d, y)), yb, r);
  }
}
