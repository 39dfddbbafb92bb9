package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Conversions;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What the packed GEMM ({@link GemmPacked}) stores and sums. Floats: the packed panels and the C
 * block hold the accumulation type (f32 or f64), one K step per micro-kernel step. 16-bit pairs:
 * integer contractions of 8- and 16-bit operands whose sum is taken modulo 2^32 or less (an i32 or
 * narrower accumulator): the panels hold the terms as i16, K in pairs, and the micro-kernel's step
 * is one {@code pmaddwd} (two products of 16-bit values added into 32 bits; with AVX-512 VNNI,
 * {@code vpdpwssd}, the add into the accumulator as well), twice the multiply-adds of an f32 FMA.
 * Sums of integers are exact modulo 2^32 in any order, so the result equals the plain nest's, and
 * an operand may be given by any value congruent to it (an i8 as its sign extension).
 *
 * @param packed the element type of the packed panels
 * @param packedBytes its size
 * @param acc the accumulator (C block) element type
 * @param accBytes its size
 * @param kStep K steps per micro-kernel step (a packed depth is a multiple of it)
 */
record GemmFormat(boolean pairs, LLVMTypeRef packed, int packedBytes, LLVMTypeRef acc, int accBytes, int kStep) {
  /** The format for {@code acc}'s arithmetic, or null when the packed form does not take it. */
  static GemmFormat of(Ir ir, GemmAccumulator.Plain acc) {
    DType a = acc.acc();
    if (a == DType.F32) return new GemmFormat(false, ir.f32, 4, ir.f32, 4, 1);
    if (a == DType.F64) return new GemmFormat(false, ir.f64, 8, ir.f64, 8, 1);
    boolean modular = (a.kind() == DType.Kind.INT || a.kind() == DType.Kind.UINT) && a.bits() <= 32;
    if (modular && acc.lhs() == acc.rhs() && fitsI16(acc.lhs())) return new GemmFormat(true, ir.i16, 2, ir.i32, 4, 2);
    return null;
  }

  private static boolean fitsI16(DType d) {
    return d == DType.I8 || d == DType.U8 || d == DType.I16;
  }

  /** A term (in the operand dtype {@code from}) as a packed element. */
  LLVMValueRef term(Ir ir, GemmAccumulator.Plain acc, Value v, DType from, boolean lhs) {
    if (!pairs) return lhs ? acc.lhsTerm(v) : acc.rhsTerm(v);
    return Conversions.convert(ir, v, from, DType.I16).v();
  }

  /** A finished C element (an i32 sum for pairs) in the accumulation dtype, for {@code finish}. */
  Value sum(Ir ir, GemmAccumulator.Plain acc, LLVMValueRef c) {
    return pairs ? Conversions.convert(ir, Value.of(c), DType.I32, acc.acc()) : Value.of(c);
  }

  /** {@code depth} rounded up to whole micro-kernel steps. */
  long pad(long depth) {
    return (depth + kStep - 1) / kStep * kStep;
  }

  /** The micro-kernel's name part, e.g. {@code f32} or {@code i16p}. */
  String tag() {
    return pairs ? "i16p" : "f" + accBytes * 8;
  }
}
