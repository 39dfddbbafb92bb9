package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * convert_element_type, bitcast_convert_type and reduce_precision between compute values, with
 * XLA:CPU's corners: float→int saturates and NaN → 0; float→bool is "≠ 0" (NaN is true); f64 and
 * the integers reach f16/bf16 through f32 (XLA rounds twice); complex→real takes the real part.
 */
public final class Conversions {
  private Conversions() {}

  public static Value convert(Ir ir, Value v, DType from, DType to) {
    if (from == to) return v;
    if (from.isComplex()) {
      if (to.isComplex()) {
        return Value.complex(scalar(ir, v.re(), from.realPart(), to.realPart()),
            scalar(ir, v.im(), from.realPart(), to.realPart()));
      }
      if (to == DType.BOOL) {
        return Value.of(ir.or(scalar(ir, v.re(), from.realPart(), to), scalar(ir, v.im(), from.realPart(), to)));
      }
      return Value.of(scalar(ir, v.re(), from.realPart(), to));
    }
    if (to.isComplex()) {
      LLVMValueRef re = scalar(ir, v.v(), from, to.realPart());
      return Value.complex(re, ir.constReal(ir.typeOf(re), 0.0));
    }
    return Value.of(scalar(ir, v.v(), from, to));
  }

  /** Between non-complex compute values. */
  static LLVMValueRef scalar(Ir ir, LLVMValueRef x, DType from, DType to) {
    if (from == to) return x;
    LLVMTypeRef t = ElementTypes.compute(ir, to);
    if (to == DType.BOOL) {
      if (from == DType.BF16) {
        // XLA tests the bits, so a denormal bf16 is true (an f32 one reads as zero).
        LLVMValueRef bits = HalfFloats.fromF32(ir, from, x);
        return ir.icmp(LLVMIntNE, ir.and(bits, ir.constInt(ir.i16, 0x7FFF)), ir.constInt(ir.i16, 0));
      }
      if (from.isFloating()) {
        LLVMValueRef v = Ftz.daz(ir, from, x);
        return ir.fcmp(LLVMRealUNE, v, ir.constReal(ir.typeOf(v), 0.0));
      }
      return ir.icmp(LLVMIntNE, x, ir.constInt(ir.typeOf(x), 0));
    }
    boolean fromSigned = from.kind() == DType.Kind.INT;
    if (!from.isFloating()) {
      if (to.isInteger()) return ir.intCast(x, t, fromSigned);
      // Integers and bool to float: f64 directly, the others through f32.
      LLVMTypeRef via = to == DType.F64 ? ir.f64 : ir.f32;
      LLVMValueRef f = fromSigned ? ir.sitofp(x, via) : ir.uitofp(x, via);
      return roundTo16(ir, f, to);
    }
    if (to.isInteger()) {
      // Saturating, NaN → 0: exactly LLVM's fpto[su]i.sat.
      int bits = Ir.intWidth(t);
      boolean signed = to.kind() == DType.Kind.INT;
      if (bits <= 16 || (bits == 32 && signed)) return saturated(ir, Ftz.daz(ir, from, x), t, signed);
      String sat = signed ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
      return ir.intrinsic(sat, new LLVMTypeRef[] {t, ir.typeOf(x)}, Ftz.daz(ir, from, x));
    }
    // Float to float. f16 and bf16 values are f32 already (exact).
    if (from == DType.F64) {
      LLVMValueRef v = Ftz.daz(ir, from, x);
      LLVMValueRef f = Ftz.flush(ir, DType.F32, ir.fptrunc(v, ir.f32));
      if (ir.numerics().flushesInHardware()) f = roundedUpToMinNormal(ir, v, f);
      return roundTo16(ir, f, to);
    }
    if (to == DType.F64) {
      return ir.fpext(Ftz.daz(ir, from, x), ir.f64);
    }
    // Among f16, bf16 and f32: rounding by integer operations, no flushing.
    return roundTo16(ir, x, to);
  }

  /**
   * An f64 just below f32's smallest normal that rounds up to it stays that normal, as x86 (which
   * detects tininess after rounding) gives it; AArch64's FZ detects tininess before rounding and
   * flushes it (golden case convert_f64_to_f32).
   */
  private static LLVMValueRef roundedUpToMinNormal(Ir ir, LLVMValueRef v, LLVMValueRef f) {
    LLVMValueRef a = ir.fabs(v);
    double min = Float.MIN_NORMAL;
    LLVMValueRef up = ir.and(ir.fcmp(LLVMRealOGE, a, ir.constReal(ir.f64, min - Math.scalb(1.0, -150))),
        ir.fcmp(LLVMRealOLT, a, ir.constReal(ir.f64, min)));
    return ir.select(up, ir.copysign(ir.constReal(ir.f32, min), f), f);
  }

  private static LLVMValueRef roundTo16(Ir ir, LLVMValueRef f32, DType to) {
    return to == DType.F16 || to == DType.BF16 ? HalfFloats.round(ir, to, f32) : f32;
  }

  /** The stored bits of a non-complex compute value, as an integer of the dtype's width. */
  public static LLVMValueRef toBits(Ir ir, DType d, LLVMValueRef x) {
    return switch (d) {
      case F16, BF16 -> HalfFloats.fromF32(ir, d, x);
      case F32 -> ir.bitcast(x, ir.i32);
      case F64 -> ir.bitcast(x, ir.i64);
      case BOOL -> ir.zext(x, ir.i8);
      default -> x;
    };
  }

  /** The compute value of stored bits (the inverse of {@link #toBits}). */
  public static LLVMValueRef fromBits(Ir ir, DType d, LLVMValueRef bits) {
    return switch (d) {
      case F16, BF16 -> HalfFloats.toF32(ir, d, bits);
      case F32 -> ir.bitcast(bits, ir.f32);
      case F64 -> ir.bitcast(bits, ir.f64);
      case BOOL -> ir.icmp(LLVMIntNE, bits, ir.constInt(ir.i8, 0));
      default -> bits;
    };
  }

  /**
   * reduce_precision to {@code exponentBits}/{@code mantissaBits}, on the dtype's own bits:
   * mantissa rounded to nearest even, exponent overflow → ±inf, underflow (denormals included) →
   * ±0, NaN kept as it is.
   */
  public static LLVMValueRef reducePrecision(Ir ir, DType d, LLVMValueRef x, int exponentBits, int mantissaBits) {
    int srcMantissa = switch (d) {
      case F16 -> 10;
      case BF16 -> 7;
      case F32 -> 23;
      case F64 -> 52;
      default -> throw new IllegalArgumentException(d.toString());
    };
    int width = d.bits();
    int srcExponent = width - 1 - srcMantissa;
    LLVMValueRef bits = toBits(ir, d, x);
    LLVMTypeRef it = ir.typeOf(bits);
    LLVMValueRef v = bits;
    if (mantissaBits < srcMantissa) {
      long lastBit = 1L << (srcMantissa - mantissaBits);
      LLVMValueRef lsb = ir.lshr(ir.and(v, ir.constInt(it, lastBit)), ir.constInt(it, srcMantissa - mantissaBits));
      LLVMValueRef bias = ir.add(lsb, ir.constInt(it, (lastBit >> 1) - 1));
      v = ir.and(ir.add(v, bias), ir.constInt(it, ~(lastBit - 1)));
    }
    if (exponentBits < srcExponent) {
      long expMask = ((1L << srcExponent) - 1) << srcMantissa;
      long bias = (1L << (srcExponent - 1)) - 1;
      long reducedBias = (1L << (exponentBits - 1)) - 1;
      LLVMValueRef exp = ir.and(v, ir.constInt(it, expMask));
      LLVMValueRef over = ir.icmp(LLVMIntUGT, exp, ir.constInt(it, (bias + reducedBias) << srcMantissa));
      LLVMValueRef under = ir.icmp(LLVMIntULE, exp, ir.constInt(it, (bias - reducedBias) << srcMantissa));
      LLVMValueRef signedZero = ir.and(v, ir.constInt(it, 1L << (width - 1)));
      LLVMValueRef signedInf = ir.or(signedZero, ir.constInt(it, expMask));
      v = ir.select(over, signedInf, v);
      v = ir.select(under, signedZero, v);
    }
    LLVMValueRef isNan = ir.fcmp(LLVMRealUNO, x, x);
    return ir.select(isNan, x, fromBits(ir, d, v));
  }

  /**
   * fpto[su]i.sat for targets of at most 16 bits and for i32, built from a plain conversion: NaN
   * → 0, the float clamped to the largest and smallest values it can hold in the target's range,
   * then {@code fptosi} (in range, so defined), and values above the largest such float give the
   * maximum. The same results as the intrinsic, which x86 scalarises (no vector conversion to
   * narrow integers, a branch per lane for i32): an f32 → int8 quantisation ran 1.57× XLA's time.
   */
  private static LLVMValueRef saturated(Ir ir, LLVMValueRef x, LLVMTypeRef t, boolean signed) {
    int bits = Ir.intWidth(t);
    LLVMTypeRef ft = ir.typeOf(x);
    boolean f64 = ft.equals(ir.f64);
    long lo = signed ? -(1L << (bits - 1)) : 0;
    long hi = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    float h = (float) hi;
    double hiF = f64 ? hi : (double) h <= (double) hi ? h : Math.nextDown(h);  // the largest value ≤ hi
    LLVMValueRef zero = ir.constReal(ft, 0);
    LLVMValueRef c = ir.select(ir.fcmp(LLVMRealUNO, x, x), zero, x);
    c = ir.select(ir.fcmp(LLVMRealOLT, c, ir.constReal(ft, lo)), ir.constReal(ft, lo), c);
    c = ir.select(ir.fcmp(LLVMRealOGT, c, ir.constReal(ft, hiF)), ir.constReal(ft, hiF), c);
    LLVMTypeRef wide = bits == 32 ? t : ir.i32;
    LLVMValueRef r = LLVMBuildFPToSI(ir.b, c, wide, "");
    if (hiF != hi) r = ir.select(ir.fcmp(LLVMRealOGT, x, ir.constReal(ft, hiF)), ir.constInt(wide, hi), r);
    return bits == 32 ? r : ir.trunc(r, t);
  }
}
