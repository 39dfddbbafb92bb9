package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * XLA:CPU runs with denormals flushed to zero (FTZ and DAZ): a float arithmetic instruction sees
 * a denormal operand as a zero of the same sign and turns a denormal result into one. Emitters
 * mark the operands of arithmetic and comparisons ({@link #daz}) and results that can be denormal
 * ({@link #flush}); what that emits is the module's {@link Numerics} decision: nothing when the
 * hardware flushes (the FTZ/DAZ bits are set while generated code runs), a select when the code
 * runs in IEEE mode. Bitwise operations (neg, abs, select, bf16 conversion, nextafter's step,
 * reduce_precision) keep denormals, as on XLA. {@link #dazBits} is for integer code that reads a
 * value XLA reads through a float instruction: it flushes whenever the dtype flushes at all.
 *
 * <p>f16 values are computed in f32, where none of them is denormal, so nothing is flushed for
 * them; bf16 shares f32's exponent range and is flushed like f32.
 */
public final class Ftz {
  private Ftz() {}

  /** A denormal operand reads as a zero of its sign. */
  public static LLVMValueRef daz(Ir ir, DType d, LLVMValueRef x) {
    return flush(ir, d, x);
  }

  /**
   * A denormal result becomes a zero of its sign. In hardware mode nothing is emitted, but a
   * product marked here is no longer contracted into an FMA by LLVM: the software select sat
   * between it and its add, and where XLA rounds the product separately (an elementwise or
   * reduction body's mul, then add) the jaxc results must not depend on how LLVM happened to
   * schedule the two (serial and threaded code would differ in the last bit).
   */
  public static LLVMValueRef flush(Ir ir, DType d, LLVMValueRef x) {
    if (ir.numerics().flushesInSoftware(d)) return flushAlways(ir, x);
    // Whatever the denormal mode (IEEE on the GPU), a marked product stays rounded on its own.
    return roundedSeparately(d) ? uncontracted(ir, x) : x;
  }

  /** The dtypes whose marked products XLA rounds separately (f16 is computed in f32 and rounded). */
  private static boolean roundedSeparately(DType d) {
    return switch (d) {
      case BF16, F32, F64, C64, C128 -> true;
      default -> false;
    };
  }

  /**
   * x, or where x is a product LLVM may fuse into an add, the same product without that
   * permission (a fresh instruction at the builder's position: LLVM's C API can add fast-math
   * flags but not clear them, and x may have other uses).
   */
  private static LLVMValueRef uncontracted(Ir ir, LLVMValueRef x) {
    LLVMValueRef i = LLVMIsAInstruction(x);
    if (i == null || i.isNull()) return x;
    int op = LLVMGetInstructionOpcode(i);
    if (op == LLVMFNeg) {
      LLVMValueRef inner = LLVMGetOperand(i, 0);
      LLVMValueRef u = uncontracted(ir, inner);
      return u.equals(inner) ? x : ir.fneg(u);
    }
    if (op == LLVMFMul && (LLVMGetFastMathFlags(i) & LLVMFastMathAllowContract) != 0) {
      return LLVMBuildFMul(ir.b, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), "");
    }
    return x;
  }

  /**
   * x as a float instruction under DAZ reads it, for integer code that inspects its bits (which
   * the hardware mode does not touch): flushed in software in either mode.
   */
  public static LLVMValueRef dazBits(Ir ir, DType d, LLVMValueRef x) {
    return ir.numerics().flushes(d) ? flushAlways(ir, x) : x;
  }

  public static Value daz(Ir ir, DType d, Value x) {
    return x.isComplex()
        ? Value.complex(daz(ir, d, x.re()), daz(ir, d, x.im()))
        : Value.of(daz(ir, d, x.v()));
  }

  private static LLVMValueRef flushAlways(Ir ir, LLVMValueRef x) {
    var t = ir.typeOf(x);
    double minNormal = t.equals(ir.f64) ? Double.MIN_NORMAL : Float.MIN_NORMAL;
    // |x| < smallest normal also holds for ±0, whose sign copysign keeps; NaN compares false.
    LLVMValueRef tiny = ir.fcmp(LLVMRealOLT, ir.fabs(x), ir.constReal(t, minNormal));
    return ir.select(tiny, ir.copysign(ir.constReal(t, 0.0), x), x);
  }
}
