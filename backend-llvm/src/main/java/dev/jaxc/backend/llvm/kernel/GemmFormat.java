package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Conversions;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What the packed GEMM ({@link GemmPacked}) stores and sums.
 *
 * <ul>
 *   <li>{@link Kind#FLOAT}: the packed panels and the C block hold the accumulation type (f32 or
 *       f64), one K step per micro-kernel step.
 *   <li>{@link Kind#PAIRS}: integer contractions of i8, u8 or i16 operands whose sum is taken
 *       modulo 2^32 or less (an i32 or narrower accumulator): the panels hold the terms as i16, K in
 *       pairs, and a micro-kernel step is one {@code pmaddwd} (two products of 16-bit values added
 *       into 32 bits; with AVX-512 VNNI {@code vpdpwssd}, the add into the accumulator as well).
 *   <li>{@link Kind#QUADS}: i8 × i8 and u8 × u8 where the target has AVX-512 VNNI: the panels hold
 *       bytes, K in fours, and a step is one {@code vpdpbusd} (four products of an unsigned and a
 *       signed byte added into 32 bits), twice the pairs' products per instruction. One operand
 *       must be unsigned and the other signed, so B is packed with its top bit flipped ({@code b ±
 *       128}: u8 → signed, i8 → unsigned) and each C element corrected by ∓128 × its A row's sum.
 *   <li>{@link Kind#BF16_PAIRS}: bf16 × bf16 summed in f32 where the target has AVX-512 BF16: the
 *       panels hold the bf16 bits, K in pairs, and a step is one {@code vdpbf16ps} (both products
 *       of a pair, exact in f32, added into the f32 accumulator one after the other, each add
 *       rounded to nearest; denormal inputs read as zero and denormal sums flushed, as XLA:CPU
 *       reads and writes them). The two products of a pair are added odd K step first, so sums
 *       may differ from K order in the last bits of f32 (within bf16's rounding).
 * </ul>
 *
 * Integer sums of at most 32 bits are exact modulo 2^32 in any order, so the result equals the
 * plain nest's, and an operand may be given by any value congruent to it (an i8 as its sign
 * extension).
 *
 * @param kind how elements are packed and summed
 * @param packed the element type of the packed panels
 * @param packedBytes its size
 * @param acc the accumulator (C block) element type
 * @param accBytes its size
 * @param kStep K steps per micro-kernel step (a packed depth is a multiple of it)
 * @param signedA for quads: A's dtype is i8 (A is vpdpbusd's signed operand, flipped B the
 *     unsigned one; the correction is −128 × the row sum), else u8 (roles and sign swapped)
 */
record GemmFormat(Kind kind, LLVMTypeRef packed, int packedBytes, LLVMTypeRef acc, int accBytes, int kStep,
    boolean signedA) {
  enum Kind { FLOAT, PAIRS, QUADS, BF16_PAIRS }

  /** The format for {@code acc}'s arithmetic, or null when the packed form does not take it. */
  static GemmFormat of(Ir ir, GemmAccumulator.Plain acc) {
    DType a = acc.acc();
    if (a == DType.F32 && acc.lhs() == DType.BF16 && acc.rhs() == DType.BF16 && VectorIsa.avx512Bf16(ir.target()))
      return new GemmFormat(Kind.BF16_PAIRS, ir.i16, 2, ir.f32, 4, 2, false);
    if (a == DType.F32) return new GemmFormat(Kind.FLOAT, ir.f32, 4, ir.f32, 4, 1, false);
    if (a == DType.F64) return new GemmFormat(Kind.FLOAT, ir.f64, 8, ir.f64, 8, 1, false);
    boolean modular = (a.kind() == DType.Kind.INT || a.kind() == DType.Kind.UINT) && a.bits() <= 32;
    DType op = acc.lhs();
    if (!modular || op != acc.rhs()) return null;
    if ((op == DType.I8 || op == DType.U8) && VectorIsa.avx512Vnni(ir.target()))
      return new GemmFormat(Kind.QUADS, ir.i8, 1, ir.i32, 4, 4, op == DType.I8);
    if (op == DType.I8 || op == DType.U8 || op == DType.I16) return new GemmFormat(Kind.PAIRS, ir.i16, 2, ir.i32, 4, 2, false);
    return null;
  }

  /** Whether the panels hold groups of {@link #kStep} K steps per 32-bit word. */
  boolean grouped() {
    return kind != Kind.FLOAT;
  }

  /** Whether the sums are integers (an i32 C block). */
  boolean integer() {
    return kind == Kind.PAIRS || kind == Kind.QUADS;
  }

  /** Whether C elements need the A row sum correction (quads). */
  boolean corrected() {
    return kind == Kind.QUADS;
  }

  /** An A term (in the operand dtype {@code from}) as a packed element. */
  LLVMValueRef lhsTerm(Ir ir, GemmAccumulator.Plain acc, Value v, DType from) {
    if (kind == Kind.BF16_PAIRS) return bf16Bits(ir, v.v());
    return grouped() ? Conversions.convert(ir, v, from, packedDType()).v() : acc.lhsTerm(v);
  }

  /** The bits of a bf16 value held in f32 (exact: its low 16 bits are zero). */
  private static LLVMValueRef bf16Bits(Ir ir, LLVMValueRef f) {
    return ir.trunc(ir.lshr(ir.bitcast(f, ir.i32), ir.i32(16)), ir.i16);
  }

  /** A B term as a packed element (quads: its top bit flipped). */
  LLVMValueRef rhsTerm(Ir ir, GemmAccumulator.Plain acc, Value v, DType from) {
    if (!grouped()) return acc.rhsTerm(v);
    if (kind == Kind.BF16_PAIRS) return bf16Bits(ir, v.v());
    LLVMValueRef x = Conversions.convert(ir, v, from, packedDType()).v();
    return kind == Kind.QUADS ? ir.xor(x, ir.constInt(ir.i8, 0x80)) : x;
  }

  private DType packedDType() {
    return kind == Kind.QUADS ? (signedA ? DType.I8 : DType.U8) : DType.I16;
  }

  /** What C[i][j] needs added, times the sum of A's row i (quads). */
  long rowSumFactor() {
    return signedA ? -128 : 128;
  }

  /** A finished C element (an i32 sum for integers) in the accumulation dtype, for {@code finish}. */
  Value sum(Ir ir, GemmAccumulator.Plain acc, LLVMValueRef c) {
    return integer() ? Conversions.convert(ir, Value.of(c), DType.I32, acc.acc()) : Value.of(c);
  }

  /** {@code depth} rounded up to whole micro-kernel steps. */
  long pad(long depth) {
    return (depth + kStep - 1) / kStep * kStep;
  }

  /** {@code depth} rounded up to whole micro-kernel steps, in code. */
  LLVMValueRef pad(Ir ir, LLVMValueRef depth) {
    return kStep == 1 ? depth : ir.and(ir.add(depth, ir.i64(kStep - 1)), ir.i64(-kStep));
  }

  /** Whether the micro-kernel's step needs no register for a product beside the accumulator's. */
  boolean fused(TargetSpec target, VectorIsa isa) {
    return switch (kind) {
      case FLOAT -> isa.fma();
      case PAIRS -> VectorIsa.avx512Vnni(target);
      case QUADS, BF16_PAIRS -> true;
    };
  }

  /** The micro-kernel's name part, e.g. {@code f32}, {@code i16p} or {@code u8s8q}. */
  String tag() {
    return switch (kind) {
      case FLOAT -> "f" + accBytes * 8;
      case PAIRS -> "i16p";
      case QUADS -> signedA ? "s8u8q" : "u8s8q";
      case BF16_PAIRS -> "bf16p";
    };
  }
}
