package dev.jaxc.backend.llvm.emit;

import dev.jaxc.ir.DType;

/**
 * The numerics decisions of one backend, in one place: emitters ask this object instead of
 * hard-coding them, so another backend (PTX) supplies its own.
 *
 * <ul>
 *   <li>{@code denormals}: how f32/f64 (and bf16, computed in f32) arithmetic treats denormals.
 *       XLA:CPU runs with FTZ and DAZ set; jaxc either sets the same bits on entry ({@link
 *       Denormals#HARDWARE}: the entry point and every worker, see {@code runtime/FloatMode}) or
 *       flushes every operand and result in software ({@link Denormals#SOFTWARE}, {@link Ftz}).
 *   <li>{@code contractMultiplyAdd}: f32/f64 {@code fmul}/{@code fadd} may be fused into FMAs, as
 *       XLA lets LLVM do ({@link XlaRewrites} decides where jaxc fuses them itself).
 *   <li>{@code reciprocalOfLiteralDivisor}: {@code x / literal} becomes {@code x * (1/literal)}
 *       rounded to the dtype (XLA's algebraic simplifier), f16/f32/f64.
 * </ul>
 */
public record Numerics(Denormals denormals, boolean contractMultiplyAdd, boolean reciprocalOfLiteralDivisor) {
  public enum Denormals {
    /** IEEE semantics: denormals are read and produced (no backend of jaxc uses this yet). */
    IEEE,
    /** FTZ/DAZ emulated by a select on every float operand and result. */
    SOFTWARE,
    /** FTZ/DAZ set in the floating-point control register while generated code runs. */
    HARDWARE
  }

  /** XLA:CPU's numerics, with denormals flushed by the hardware. */
  public static final Numerics XLA_CPU = new Numerics(Denormals.HARDWARE, true, true);

  /** XLA:CPU's numerics with denormals flushed in software (IEEE hardware mode). */
  public static final Numerics XLA_CPU_SOFTWARE_FTZ = new Numerics(Denormals.SOFTWARE, true, true);

  /** Whether d's float arithmetic flushes denormals at all (f16 is computed in f32, where it has none). */
  public boolean flushes(DType d) {
    if (denormals == Denormals.IEEE) return false;
    return switch (d) {
      case BF16, F32, F64, C64, C128 -> true;
      default -> false;
    };
  }

  /** Whether emitted code must flush d's operands and results itself. */
  public boolean flushesInSoftware(DType d) {
    return denormals == Denormals.SOFTWARE && flushes(d);
  }

  /** Whether the entry point and workers set the FTZ/DAZ bits. */
  public boolean flushesInHardware() {
    return denormals == Denormals.HARDWARE;
  }

  /**
   * The dtype a dot product of {@code operand}s into {@code result} accumulates in on XLA:CPU:
   * the result dtype, or the operands' where it is the wider float of the same family (f32
   * operands into a bf16 result are summed in f32, f64 into f32 in f64); f16 and bf16 accumulate
   * in f32.
   */
  public DType dotAccumulation(DType operand, DType result) {
    DType acc = result;
    boolean sameFamily = operand.isInexact() && operand.isComplex() == result.isComplex() && result.isInexact();
    if (sameFamily && operand.realPart().bits() > result.realPart().bits()) acc = operand;
    return acc == DType.F16 || acc == DType.BF16 ? DType.F32 : acc;
  }
}
