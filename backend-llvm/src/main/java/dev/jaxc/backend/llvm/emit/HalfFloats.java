package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * f16 and bf16 are stored as 16-bit patterns and computed in f32. The conversions use integer
 * operations only, so no target needs half-precision instructions or compiler-rt helpers, and
 * they do not depend on the caller's denormal mode. Narrowing rounds to nearest even, as XLA:CPU
 * does; a NaN stays a NaN (bf16: sign | 0x7fc0; f16: sign | 0x7e00 | the top payload bits, which
 * is what the x86 instruction XLA uses produces).
 */
public final class HalfFloats {
  private HalfFloats() {}

  /** The f32 value of 16 stored bits ({@code i16}). */
  public static LLVMValueRef toF32(Ir ir, DType d, LLVMValueRef bits16) {
    LLVMValueRef h = ir.zext(bits16, ir.i32);
    if (d == DType.BF16) return ir.bitcast(ir.shl(h, ir.i32(16)), ir.f32);
    if (d != DType.F16) throw new IllegalArgumentException(d.toString());
    if (ir.nativeHalfWidening()) return widen(ir, bits16);
    if (convertsNatively(ir)) {
      if (!ir.keepsHalfNaNs()) return widen(ir, bits16);  // quiets NaNs, as XLA's converts do
      LLVMValueRef w = ir.bitcast(widen(ir, bits16), ir.i32);
      LLVMValueRef sNaN = ir.icmp(LLVMIntULT, ir.sub(ir.and(h, ir.i32(0x7FFF)), ir.i32(0x7C01)), ir.i32(0x1FF));
      return ir.bitcast(ir.select(sNaN, ir.and(w, ir.i32(~0x400000)), w), ir.f32);
    }
    LLVMValueRef sign = ir.shl(ir.and(h, ir.i32(0x8000)), ir.i32(16));
    LLVMValueRef exp = ir.and(h, ir.i32(0x7C00));
    LLVMValueRef mant = ir.and(h, ir.i32(0x3FF));
    // Normal: rebias the exponent (127 - 15 = 112); Inf/NaN: all-ones exponent.
    LLVMValueRef normal = ir.add(ir.shl(ir.and(h, ir.i32(0x7FFF)), ir.i32(13)), ir.i32(112 << 23));
    LLVMValueRef special = ir.or(ir.i32(0x7F800000), ir.shl(mant, ir.i32(13)));
    // Denormal or zero: mant * 2^-24, exact and normal (or zero) in f32.
    LLVMValueRef small = ir.bitcast(ir.fmul(ir.uitofp(mant, ir.f32), ir.constReal(ir.f32, 0x1p-24)), ir.i32);
    LLVMValueRef mag = ir.select(ir.icmp(LLVMIntEQ, exp, ir.i32(0)), small,
        ir.select(ir.icmp(LLVMIntEQ, exp, ir.i32(0x7C00)), special, normal));
    return ir.bitcast(ir.or(sign, mag), ir.f32);
  }

  /** The 16 bits ({@code i16}) of an f32 rounded to nearest even. */
  public static LLVMValueRef fromF32(Ir ir, DType d, LLVMValueRef f) {
    LLVMValueRef bits = ir.bitcast(f, ir.i32);
    LLVMValueRef abs = ir.and(bits, ir.i32(0x7FFFFFFF));
    LLVMValueRef sign = ir.and(ir.lshr(bits, ir.i32(16)), ir.i32(0x8000));
    LLVMValueRef isNan = ir.icmp(LLVMIntUGT, abs, ir.i32(0x7F800000));
    LLVMValueRef r;
    if (d == DType.BF16) {
      LLVMValueRef lsb = ir.and(ir.lshr(bits, ir.i32(16)), ir.i32(1));
      LLVMValueRef rounded = ir.lshr(ir.add(bits, ir.add(ir.i32(0x7FFF), lsb)), ir.i32(16));
      r = ir.select(isNan, ir.or(sign, ir.i32(0x7FC0)), rounded);
    } else if (d == DType.F16 && convertsNatively(ir)) {
      return ir.bitcast(ir.fptrunc(f, LLVMHalfTypeInContext(ir.ctx)), ir.i16);
    } else if (d == DType.F16) {
      LLVMValueRef nan = ir.or(ir.or(sign, ir.i32(0x7E00)), ir.and(ir.lshr(abs, ir.i32(13)), ir.i32(0x3FF)));
      // 65520 and above round to infinity.
      LLVMValueRef overflow = ir.icmp(LLVMIntUGE, abs, ir.i32(0x477FF000));
      LLVMValueRef rebiased = ir.sub(abs, ir.i32(112 << 23));
      LLVMValueRef lsb = ir.and(ir.lshr(rebiased, ir.i32(13)), ir.i32(1));
      LLVMValueRef normal = ir.lshr(ir.add(rebiased, ir.add(ir.i32(0xFFF), lsb)), ir.i32(13));
      // Below 2^-14 the result is denormal: adding 0.5 leaves |f| rounded to a multiple of 2^-24
      // (the f16 denormal step) in the low mantissa bits. f32 denormals give 0 in any mode.
      LLVMValueRef plusHalf = ir.faddExact(ir.bitcast(abs, ir.f32), ir.constReal(ir.f32, 0.5));
      LLVMValueRef denormal = ir.sub(ir.bitcast(plusHalf, ir.i32), ir.i32(0x3F000000));
      LLVMValueRef mag = ir.select(ir.icmp(LLVMIntULT, abs, ir.i32(0x38800000)), denormal,
          ir.select(overflow, ir.i32(0x7C00), normal));
      r = ir.select(isNan, nan, ir.or(sign, mag));
    } else {
      throw new IllegalArgumentException(d.toString());
    }
    return ir.trunc(r, ir.i16);
  }

  private static LLVMValueRef widen(Ir ir, LLVMValueRef bits16) {
    return ir.fpext(ir.bitcast(bits16, LLVMHalfTypeInContext(ir.ctx)), ir.f32);
  }

  /** Whether the target converts f16 in one instruction with the integer form's results. */
  private static boolean convertsNatively(Ir ir) {
    return ir.target() != null && ir.target().convertsHalfNatively();
  }

  /** Rounds an f32 to the nearest {@code d} value and back: the result of a primitive on d. */
  public static LLVMValueRef round(Ir ir, DType d, LLVMValueRef f) {
    // A rounded value is never a signalling NaN, so the instruction's widening is exact here.
    if (d == DType.F16 && convertsNatively(ir)) return widen(ir, fromF32(ir, d, f));
    return toF32(ir, d, fromF32(ir, d, f));
  }
}
