package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;

/**
 * What one element of a fused equation costs in vectorised code, in units of a simple operation
 * (an add, a compare, a select, a conversion: about 0.25 ns an element on one Zen 3 core, memory
 * included, for 64K cached f32). A fusion's work, the sum over its equations times its elements,
 * decides whether its loop is worth threads (Threading#minWork): counted as one unit each, a
 * sin's 3.8 ns made a 64K-element loop body of x·0.99 + 0.01·sin(x) look like 4 adds, so it ran
 * on one core while XLA ran it on two. The classes follow single-core measurements of jaxc's own
 * math library on 64K f32 (ns an element): exp 0.7, tanh 0.6, log 0.9, log1p 1.2, expm1 1.7;
 * sin, cos, tan 3.8–4.1, atan 2.1, atan2 3.0, cosh 4.0, cbrt 4.2, erf_inv 3.5; pow 8.9, erfc 10,
 * acosh 15, digamma 20, lgamma 30. Doubles cost about twice as much, complex values four times.
 */
final class ElementCost {
  private static final long SIMPLE = 1;
  private static final long MEDIUM = 4;
  private static final long HEAVY = 16;
  private static final long VERY_HEAVY = 48;

  private ElementCost() {}

  /** The cost of one element of {@code e}'s result. */
  static long of(Primitive p, Eqn e) {
    long base = switch (p) {
      case EXP, EXP2, LOG, TANH, ERF, RSQRT, LOG1P, EXPM1, LOGISTIC, ASIN, ACOS -> MEDIUM;
      case SIN, COS, TAN, ATAN, ATAN2, SINH, COSH, ASINH, ATANH, CBRT, ERF_INV -> HEAVY;
      case POW, ERFC, ACOSH, LGAMMA, DIGAMMA, IGAMMA, IGAMMAC, IGAMMA_GRAD_A, POLYGAMMA, BESSEL_I0E, BESSEL_I1E,
          RANDOM_GAMMA_GRAD -> VERY_HEAVY;
      default -> SIMPLE;
    };
    if (base == SIMPLE || e.outs().isEmpty() || !(e.outs().get(0).type() instanceof ArrayType t)) return base;
    DType d = t.dtype();
    return d.isComplex() ? 4 * base : d == DType.F64 ? 2 * base : base;
  }
}
