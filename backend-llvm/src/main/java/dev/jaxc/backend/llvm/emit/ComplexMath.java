package dev.jaxc.backend.llvm.emit;

import dev.jaxc.backend.llvm.math.MathFn;
import dev.jaxc.backend.llvm.math.MathLibrary;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.prim.Primitive;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Transcendental primitives on c64 and c128, built from the real library functions with the
 * formulas XLA 0.10.2 runs: JAX's own lowerings (sin, cos, sinh, cosh, logistic, exp2), the
 * expansions XLA applies before fusion (exp here; log, log1p, sqrt in {@link ComplexMathLog};
 * the inverse functions in {@link ComplexMathInverse}) and XLA:CPU's elemental emitter (expm1,
 * tan, tanh, rsqrt, pow). The order of operations is XLA's, which decides overflow, NaN
 * and signed-zero results, e.g. a zero imaginary part is +0 whatever its sign where XLA compares
 * it with 0. Operands read denormals as zero and results are flushed (FTZ/DAZ).
 */
final class ComplexMath {
  private final Ir ir;
  private final Arith arith;
  private final MathLibrary lib;

  ComplexMath(Ir ir, Arith arith, MathLibrary lib) {
    this.ir = ir;
    this.arith = arith;
    this.lib = lib;
  }

  Value unary(Primitive p, DType d, Value x) {
    MathOps o = new MathOps(ir, lib, d.realPart());
    Value z = Ftz.daz(ir, d, x);
    Value r = switch (p) {
      case EXP -> exp(o, z);
      // JAX: exp(z·ln2), a complex multiply by (ln2, 0).
      case EXP2 -> exp(o, arith.mul(d, z, Value.complex(o.c(Math.log(2)), o.c(0))));
      case EXPM1 -> expm1(o, z);
      case LOG -> ComplexMathLog.log(o, z);
      case LOG1P -> ComplexMathLog.log1p(o, z);
      case SQRT -> ComplexMathLog.sqrt(o, z);
      case RSQRT -> ComplexMathLog.rsqrt(o, z);
      case SIN -> sinCos(o, z, true);
      case COS -> sinCos(o, z, false);
      case TAN -> tanh(o, z, true);
      case TANH -> tanh(o, z, false);
      case SINH -> sinhCosh(o, d, z, true);
      case COSH -> sinhCosh(o, d, z, false);
      // JAX: 1/(1 + exp(-z)) with complex add and divide.
      case LOGISTIC -> {
        Value one = Value.complex(o.c(1), o.c(0));
        yield arith.div(d, one, arith.add(d, exp(o, arith.neg(d, z)), one));
      }
      case ASIN -> ComplexMathInverse.asin(o, z);
      case ACOS -> ComplexMathInverse.acos(o, z);
      case ASINH -> ComplexMathInverse.asinh(o, z);
      case ACOSH -> ComplexMathInverse.acosh(o, z);
      case ATAN -> ComplexMathInverse.atan(o, z);
      case ATANH -> ComplexMathInverse.atanh(o, z);
      default -> throw new Arith.UnsupportedDType(p.printedName() + " of " + d);
    };
    return Value.complex(o.flush(r.re()), o.flush(r.im()));
  }

  /**
   * atan2(y, x) = -i·log((x + i·y) / sqrt(x² + y²)) in complex arithmetic, XLA:CPU's elemental
   * formula, step by step (complex multiplies by i and -i included, as their NaN/inf behaviour
   * follows from them).
   */
  Value atan2(DType d, Value y, Value x) {
    MathOps o = new MathOps(ir, lib, d.realPart());
    Value yy = Ftz.daz(ir, d, y);
    Value xx = Ftz.daz(ir, d, x);
    Value sum = arith.add(d, arith.mul(d, xx, xx), arith.mul(d, yy, yy));
    Value root = ComplexMathLog.sqrt(o, sum);
    Value iy = arith.mul(d, Value.complex(o.c(0), o.c(1)), yy);
    Value log = ComplexMathLog.log(o, arith.div(d, arith.add(d, xx, iy), root));
    Value r = arith.mul(d, Value.complex(o.c(0), o.c(-1)), log);
    return Value.complex(o.flush(r.re()), o.flush(r.im()));
  }

  /** pow; the exponent has the base's dtype. */
  Value pow(DType d, Value x, Value y) {
    MathOps o = new MathOps(ir, lib, d.realPart());
    Value r = pow(o, d, Ftz.daz(ir, d, x), Ftz.daz(ir, d, y));
    return Value.complex(o.flush(r.re()), o.flush(r.im()));
  }

  /**
   * e^a·(cos b + i sin b), where e^a overflows computed as (e^(a/2)·cos b)·e^(a/2); the
   * imaginary part is +0 when b is zero.
   */
  static Value exp(MathOps o, Value z) {
    LLVMValueRef a = z.re();
    LLVMValueRef b = z.im();
    LLVMValueRef e = o.call(MathFn.EXP, a);
    LLVMValueRef overflow = o.eq(e, o.c(Double.POSITIVE_INFINITY));
    LLVMValueRef h = o.call(MathFn.EXP, o.mul(a, o.c(0.5)));
    LLVMValueRef cos = o.call(MathFn.COS, b);
    LLVMValueRef sin = o.call(MathFn.SIN, b);
    LLVMValueRef re = o.select(overflow, o.mul(o.mul(h, cos), h), o.mul(e, cos));
    LLVMValueRef im = o.select(overflow, o.mul(o.mul(h, sin), h), o.mul(e, sin));
    return Value.complex(re, o.select(o.eq(b, o.c(0)), o.c(0), im));
  }

  /**
   * JAX's lowering: sin(x + iy) = sin x·cosh y + i cos x·sinh y and cos(x + iy) = cos x·cosh y -
   * i sin x·sinh y, with 2 cosh y = expm1(y) + expm1(-y) + 2 and 2 sinh y = expm1(y) -
   * expm1(-y); where x is zero the part with sin x is exactly 0.
   */
  private static Value sinCos(MathOps o, Value z, boolean sin) {
    LLVMValueRef x = z.re();
    LLVMValueRef y = z.im();
    LLVMValueRef ep = o.call(MathFn.EXPM1, y);
    LLVMValueRef em = o.call(MathFn.EXPM1, o.neg(y));
    LLVMValueRef sinhY = o.mul(o.sub(ep, em), o.c(0.5));
    LLVMValueRef coshY = o.mul(o.add(o.add(ep, em), o.c(2)), o.c(0.5));
    LLVMValueRef cosX = o.call(MathFn.COS, x);
    LLVMValueRef sinX = o.call(MathFn.SIN, x);
    LLVMValueRef xZero = o.eq(x, o.c(0));
    if (sin) {
      LLVMValueRef im = o.mul(cosX, sinhY);
      return Value.complex(o.select(xZero, o.c(0), o.mul(sinX, coshY)), im);
    }
    LLVMValueRef re = o.mul(cosX, coshY);
    return Value.complex(re, o.select(xZero, o.c(0), o.mul(o.neg(sinX), sinhY)));
  }

  /**
   * JAX's lowering: sinh z = e^(z + log ½) - e^(log ½ - z), cosh z = e^(z + log ½) + e^(log ½ -
   * z), with complex adds (log ½ = (-ln 2, +0), so the imaginary part of z + log ½ is +0 for
   * either zero).
   */
  private Value sinhCosh(MathOps o, DType d, Value z, boolean sinh) {
    Value logHalf = Value.complex(o.c(Math.log(0.5)), o.c(0));
    Value p = exp(o, arith.add(d, z, logHalf));
    Value q = exp(o, arith.sub(d, logHalf, z));
    return sinh ? arith.sub(d, p, q) : arith.add(d, p, q);
  }

  /**
   * XLA's emitter: expm1(a + ib) = (expm1(a)·cos b + cosm1(b)) + i e^a·sin b, the imaginary part
   * +0 when b is zero.
   */
  private static Value expm1(MathOps o, Value z) {
    LLVMValueRef a = z.re();
    LLVMValueRef b = z.im();
    LLVMValueRef one = o.c(1);
    LLVMValueRef em1 = o.call(MathFn.EXPM1, a);
    LLVMValueRef cm1 = cosm1(o, b);
    LLVMValueRef re = o.add(o.mul(em1, o.add(cm1, one)), cm1);
    LLVMValueRef im = o.mul(o.add(em1, one), o.call(MathFn.SIN, b));
    return Value.complex(re, o.select(o.eq(b, o.c(0)), o.c(0), im));
  }

  /** Cephes' cosm1 as XLA emits it: -x²/2 + x⁴·P(x²) for x² ≤ (π/4)², cos x - 1 beyond. */
  private static LLVMValueRef cosm1(MathOps o, LLVMValueRef x) {
    double[] p = {4.7377507964246204691685E-14, -1.1470284843425359765671E-11, 2.0876754287081521758361E-9,
        -2.7557319214999787979814E-7, 2.4801587301570552304991E-5, -1.3888888888888872993737E-3,
        4.1666666666666666609054E-2};
    LLVMValueRef xx = o.mul(x, x);
    LLVMValueRef poly = o.c(p[0]);
    for (int i = 1; i < p.length; i++) poly = o.add(o.mul(poly, xx), o.c(p[i]));
    LLVMValueRef small = o.add(o.mul(o.mul(xx, xx), poly), o.mul(o.c(-0.5), xx));
    LLVMValueRef large = o.add(o.call(MathFn.COS, x), o.c(-1));
    return o.select(o.gt(xx, o.c(0.61685)), large, small);
  }

  /**
   * XLA's emitter: tanh(a + ib) = (sinh 2a + i sin 2b)/(cosh 2a + cos 2b), as (expm1(2a) -
   * expm1(-2a) + 4i cos b sin b)/(expm1(2a) + expm1(-2a) + 4cos²b), ±1 where the denominator
   * overflows, with C99's special cases; tan z = -i·tanh(iz).
   */
  private static Value tanh(MathOps o, Value z, boolean tan) {
    LLVMValueRef negOne = o.c(-1);
    LLVMValueRef a = tan ? o.mul(negOne, z.im()) : z.re();
    LLVMValueRef b = tan ? z.re() : z.im();
    LLVMValueRef twoA = o.add(a, a);
    LLVMValueRef ep = o.call(MathFn.EXPM1, twoA);
    LLVMValueRef em = o.call(MathFn.EXPM1, o.mul(negOne, twoA));
    LLVMValueRef cos = o.call(MathFn.COS, b);
    LLVMValueRef four = o.c(4);
    LLVMValueRef sin = o.call(MathFn.SIN, b);
    LLVMValueRef imNum = o.mul(four, o.mul(cos, sin));
    LLVMValueRef sum = o.add(ep, em);
    LLVMValueRef den = o.add(sum, o.mul(o.mul(cos, cos), four));
    LLVMValueRef inf = o.c(Double.POSITIVE_INFINITY);
    LLVMValueRef re = o.select(o.eq(sum, inf), o.ir.copysign(negOne, a), o.div(o.sub(ep, em), den));
    LLVMValueRef im = o.div(imNum, den);
    LLVMValueRef aInf = o.eq(o.abs(a), inf);
    LLVMValueRef sin2bNan = o.isNan(imNum);
    re = o.select(o.and(sin2bNan, o.not(aInf)), o.c(Double.NaN), re);
    im = o.select(o.or(o.eq(b, o.c(0)), o.and(aInf, sin2bNan)), o.c(0), im);
    return tan ? Value.complex(im, o.mul(negOne, re)) : Value.complex(re, im);
  }

  /**
   * XLA's emitter: (a + ib)^(c + id) = |z|^c·e^(-d·arg z)·(cos q + i sin q), q = c·arg z + d·ln|z|,
   * then Kahan's special cases in XLA's order: 0^(c + 0i) = 0 (c > 0) or 1 (c = 0); z^0 = 1;
   * 1^w = 1; inf^c = inf (c > 0) or 0 (c < 0).
   */
  private Value pow(MathOps o, DType d, Value x, Value y) {
    LLVMValueRef a = x.re(), b = x.im(), c = y.re(), dd = y.im();
    LLVMValueRef abs = arith.abs(d, x).v();
    LLVMValueRef absToC = o.call(MathFn.POW, abs, c);
    LLVMValueRef arg = o.call(MathFn.ATAN2, b, a);
    LLVMValueRef coeff = o.mul(absToC, o.call(MathFn.EXP, o.mul(o.neg(dd), arg)));
    LLVMValueRef q = o.add(o.mul(c, arg), o.mul(dd, o.call(MathFn.LOG, abs)));
    LLVMValueRef re = o.mul(coeff, o.call(MathFn.COS, q));
    LLVMValueRef im = o.mul(coeff, o.call(MathFn.SIN, q));
    LLVMValueRef zero = o.c(0), one = o.c(1), inf = o.c(Double.POSITIVE_INFINITY);
    LLVMValueRef dZero = o.eq(dd, zero);
    LLVMValueRef zeroBase = o.and(o.and(o.eq(abs, zero), dZero), o.le(zero, c));
    re = o.select(zeroBase, o.select(o.eq(zero, c), one, zero), re);
    im = o.select(zeroBase, zero, im);
    LLVMValueRef toOne = o.or(o.and(o.eq(zero, c), dZero), o.and(o.eq(a, one), o.eq(b, zero)));
    re = o.select(toOne, one, re);
    im = o.select(toOne, zero, im);
    LLVMValueRef infReal = o.and(o.eq(a, inf), o.and(o.eq(b, zero), dZero));
    re = o.select(o.and(infReal, o.gt(c, zero)), inf, re);
    re = o.select(o.and(infReal, o.lt(c, zero)), zero, re);
    im = o.select(o.and(infReal, o.or(o.gt(c, zero), o.lt(c, zero))), zero, im);
    return Value.complex(re, im);
  }
}
