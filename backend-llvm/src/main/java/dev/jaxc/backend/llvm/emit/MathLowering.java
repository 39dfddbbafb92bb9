package dev.jaxc.backend.llvm.emit;

import dev.jaxc.backend.llvm.math.MathFn;
import dev.jaxc.backend.llvm.math.MathLibrary;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.prim.Primitive;
import java.util.OptionalLong;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The transcendental primitives on float and complex dtypes, computed with jaxc's math library
 * ({@link MathLibrary}: inlined IR, never libm). f32 and f64 call the library function directly.
 * f16 and bf16 follow the HLO XLA runs: a primitive JAX or XLA expands into several HLO
 * operations (exp2, asin, acos, asinh, acosh, atanh, logistic) is computed operation by
 * operation, each rounded to the dtype ({@link MathExpansions}), as is f16 expm1, which XLA
 * computes in f16 arithmetic; the others are computed in f32 and rounded once. Complex dtypes go
 * to {@link ComplexMath}.
 */
final class MathLowering {
  private final Arith arith;
  private final MathLibrary lib;
  private final ComplexMath complex;
  private final Ir ir;

  MathLowering(Ir ir, Arith arith) {
    this.ir = ir;
    this.arith = arith;
    // The denormal mode attribute is set by Compiler; FTZ is set in hardware where the numerics say so.
    this.lib = new MathLibrary(ir.module, false, ir.numerics().flushesInHardware(),
        ir.numerics().denormals() == Numerics.Denormals.IEEE, ir.target() != null && ir.target().roundsNatively(),
        ir.target() != null && ir.target().arch() != dev.jaxc.backend.llvm.llvm.TargetSpec.Arch.NVPTX);
    this.complex = new ComplexMath(ir, arith, lib);
  }

  Value unary(Primitive p, DType d, Value x) {
    if (d.isComplex()) return complex.unary(p, d, x);
    if (d.kind() != DType.Kind.FLOAT) throw new Arith.UnsupportedDType(p.printedName() + " of " + d);
    return switch (p) {
      // Square roots are exact operations, not library functions.
      case SQRT -> arith.sqrt(d, x);
      default -> Value.of(real(p, new MathOps(ir, lib, d), x.v()));
    };
  }

  /** atan2 and pow; pow's exponent has already been converted to the base's dtype. */
  Value binary(Primitive p, DType d, Value x, Value y) {
    if (d.isComplex()) return p == Primitive.POW ? complex.pow(d, x, y) : complex.atan2(d, x, y);
    if (d.kind() != DType.Kind.FLOAT) throw new Arith.UnsupportedDType(p.printedName() + " of " + d);
    MathOps o = new MathOps(ir, lib, d);
    return Value.of(o.primitive(p == Primitive.ATAN2 ? MathFn.ATAN2 : MathFn.POW, x.v(), y.v()));
  }

  private LLVMValueRef real(Primitive p, MathOps o, LLVMValueRef x) {
    boolean narrow = o.d == DType.F16 || o.d == DType.BF16;
    return switch (p) {
      // JAX lowers exp2(x) to exp(x·ln2) in x's dtype, for every dtype.
      case EXP2 -> o.call(MathFn.EXP, o.mul(x, o.c(Math.log(2))));
      case ASIN, ACOS, ASINH, ACOSH, ATANH, LOGISTIC -> narrow ? MathExpansions.of(p, o, x) : o.primitive(fn(p), x);
      case EXPM1 -> o.d == DType.F16 ? MathExpansions.of(p, o, x) : o.primitive(fn(p), x);
      default -> o.primitive(fn(p), x);
    };
  }

  /** k if {@code a} is a literal equal to k ∈ {-1, 0, 1, 2, 3} (complex: with imaginary part 0). */
  static OptionalLong smallIntegerExponent(Atom a) {
    if (!(a instanceof Literal lit)) return OptionalLong.empty();
    double v;
    Scalar s = lit.value();
    if (s instanceof Scalar.Int i) {
      v = i.value().bitLength() < 8 ? i.value().doubleValue() : Double.NaN;
    } else if (s instanceof Scalar.Float f) {
      v = f.value();
    } else if (s instanceof Scalar.Complex c && c.im() == 0) {
      v = c.re();
    } else {
      return OptionalLong.empty();
    }
    return v == -1 || v == 0 || v == 1 || v == 2 || v == 3 ? OptionalLong.of((long) v) : OptionalLong.empty();
  }

  /** The library function of a one-operand primitive (exp2 has none: JAX lowers it to exp). */
  private static MathFn fn(Primitive p) {
    return switch (p) {
      case EXP -> MathFn.EXP;
      case EXPM1 -> MathFn.EXPM1;
      case LOG -> MathFn.LOG;
      case LOG1P -> MathFn.LOG1P;
      case SIN -> MathFn.SIN;
      case COS -> MathFn.COS;
      case TAN -> MathFn.TAN;
      case ASIN -> MathFn.ASIN;
      case ACOS -> MathFn.ACOS;
      case ATAN -> MathFn.ATAN;
      case SINH -> MathFn.SINH;
      case COSH -> MathFn.COSH;
      case TANH -> MathFn.TANH;
      case ASINH -> MathFn.ASINH;
      case ACOSH -> MathFn.ACOSH;
      case ATANH -> MathFn.ATANH;
      case LOGISTIC -> MathFn.LOGISTIC;
      case ERF -> MathFn.ERF;
      case ERFC -> MathFn.ERFC;
      case ERF_INV -> MathFn.ERF_INV;
      case LGAMMA -> MathFn.LGAMMA;
      case DIGAMMA -> MathFn.DIGAMMA;
      case CBRT -> MathFn.CBRT;
      case RSQRT -> MathFn.RSQRT;
      default -> throw new IllegalArgumentException("no math function for " + p);
    };
  }
}
