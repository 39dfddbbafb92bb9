package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import java.util.function.BinaryOperator;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The scalar semantics of the elementwise primitives, dispatched once on the dtype family (bool,
 * signed, unsigned, float, complex). f16 and bf16 results are rounded to their dtype after every
 * primitive, as XLA:CPU does. Callers guarantee the dtype is one the primitive's type rule
 * accepts; {@link UnsupportedDType} reports the few (dtype, primitive) pairs not lowered yet.
 */
final class Arith {
  /** A dtype the lowering does not handle for this primitive (the caller locates it). */
  static final class UnsupportedDType extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnsupportedDType(String message) {
      super(message, null, false, false);
    }
  }

  private final Ir ir;
  private final IntArith ints;
  private final FloatArith floats;
  private final ComplexArith complexes;

  Arith(Ir ir) {
    this.ir = ir;
    this.ints = new IntArith(ir);
    this.floats = new FloatArith(ir);
    this.complexes = new ComplexArith(ir, floats);
  }

  private static boolean signed(DType d) {
    return d.kind() == DType.Kind.INT;
  }

  /** Rounds an f16/bf16 result (held in f32) to its dtype. */
  private LLVMValueRef fin(DType d, LLVMValueRef f) {
    return d == DType.F16 || d == DType.BF16 ? HalfFloats.round(ir, d, f) : f;
  }

  private Value floatBinary(DType d, Value x, Value y, FloatOp op) {
    return Value.of(fin(d, op.apply(d, x.v(), y.v())));
  }

  private interface FloatOp {
    LLVMValueRef apply(DType d, LLVMValueRef x, LLVMValueRef y);
  }

  private static UnsupportedDType unsupported(String what, DType d) {
    return new UnsupportedDType(what + " of " + d);
  }

  // ---- arithmetic

  Value add(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.or(x.v(), y.v()));
      case INT, UINT -> Value.of(ir.add(x.v(), y.v()));
      case FLOAT -> floatBinary(d, x, y, floats::add);
      case COMPLEX -> complexes.add(d, x, y);
      case OTHER -> throw unsupported("add", d);
    };
  }

  Value sub(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case INT, UINT -> Value.of(ir.sub(x.v(), y.v()));
      case FLOAT -> floatBinary(d, x, y, floats::sub);
      case COMPLEX -> complexes.sub(d, x, y);
      case BOOL, OTHER -> throw unsupported("sub", d);
    };
  }

  Value mul(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.and(x.v(), y.v()));
      case INT, UINT -> Value.of(ir.mul(x.v(), y.v()));
      case FLOAT -> floatBinary(d, x, y, floats::mul);
      case COMPLEX -> complexes.mul(d, x, y);
      case OTHER -> throw unsupported("mul", d);
    };
  }

  /**
   * x·y + z (or with the product or the addend negated) rounded once where the target has FMA
   * ({@code llvm.fmuladd}), as XLA's contraction of a multiply into its add; f32 and f64 only.
   */
  Value mulAdd(DType d, Value x, Value y, Value z, boolean negateProduct, boolean negateAddend) {
    if (d != DType.F32 && d != DType.F64) throw unsupported("contracted multiply-add", d);
    LLVMValueRef a = Ftz.daz(ir, d, x.v());
    LLVMValueRef c = Ftz.daz(ir, d, z.v());
    LLVMValueRef r = ir.intrinsic("llvm.fmuladd", negateProduct ? ir.fneg(a) : a, Ftz.daz(ir, d, y.v()),
        negateAddend ? ir.fneg(c) : c);
    return Value.of(Ftz.flush(ir, d, r));
  }

  Value div(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case INT, UINT -> Value.of(ints.div(signed(d), x.v(), y.v()));
      case FLOAT -> floatBinary(d, x, y, floats::div);
      case COMPLEX -> complexes.div(d, x, y);
      case BOOL, OTHER -> throw unsupported("div", d);
    };
  }

  Value rem(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case INT, UINT -> Value.of(ints.rem(signed(d), x.v(), y.v()));
      case FLOAT -> Value.of(fin(d, floats.rem(d, x.v(), y.v())));
      case BOOL, COMPLEX, OTHER -> throw unsupported("rem", d);
    };
  }

  Value max(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.or(x.v(), y.v()));
      case INT, UINT -> Value.of(ints.max(signed(d), x.v(), y.v()));
      case FLOAT -> Value.of(floats.max(d, x.v(), y.v()));
      case COMPLEX -> complexes.maxOrMin(d, x, y, true);
      case OTHER -> throw unsupported("max", d);
    };
  }

  Value min(DType d, Value x, Value y) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.and(x.v(), y.v()));
      case INT, UINT -> Value.of(ints.min(signed(d), x.v(), y.v()));
      case FLOAT -> Value.of(floats.min(d, x.v(), y.v()));
      case COMPLEX -> complexes.maxOrMin(d, x, y, false);
      case OTHER -> throw unsupported("min", d);
    };
  }

  /** clamp(lo, x, hi) = min(max(x, lo), hi), so lo > hi gives hi and a NaN anywhere gives NaN. */
  Value clamp(DType d, Value lo, Value x, Value hi) {
    return min(d, max(d, x, lo), hi);
  }

  Value neg(DType d, Value x) {
    return switch (d.kind()) {
      case INT, UINT -> Value.of(ir.sub(ir.constInt(ir.typeOf(x.v()), 0), x.v()));
      case FLOAT -> Value.of(ir.fneg(x.v()));
      case COMPLEX -> complexes.neg(x);
      case BOOL, OTHER -> throw unsupported("neg", d);
    };
  }

  /** For complex the result is the magnitude, of the part dtype. */
  Value abs(DType d, Value x) {
    return switch (d.kind()) {
      case INT -> Value.of(ints.abs(x.v()));
      case UINT -> x;
      case FLOAT -> Value.of(ir.fabs(x.v()));
      case COMPLEX -> Value.of(complexes.abs(d, x));
      case BOOL, OTHER -> throw unsupported("abs", d);
    };
  }

  Value sign(DType d, Value x) {
    return switch (d.kind()) {
      case INT, UINT -> Value.of(ints.sign(signed(d), x.v()));
      case FLOAT -> Value.of(floats.sign(d, x.v()));
      case COMPLEX -> complexes.sign(d, x);
      case BOOL, OTHER -> throw unsupported("sign", d);
    };
  }

  /** x·x (JAX lowers square to a multiply). */
  Value square(DType d, Value x) {
    return mul(d, x, x);
  }

  Value reciprocal(DType d, Value x) {
    return div(d, one(d), x);
  }

  /**
   * integer_pow as JAX lowers it: x·x for 2, (x·x)·x for 3, otherwise square-and-multiply, with
   * 1/x^|y| for negative y; every multiply is a primitive (rounded for f16/bf16).
   */
  Value integerPow(DType d, Value x, long y) {
    if (y == 0) return one(d);
    if (y == 3) return mul(d, mul(d, x, x), x);
    long n = Math.abs(y);
    Value acc = null;
    Value base = x;
    while (n > 0) {
      if ((n & 1) != 0) acc = acc == null ? base : mul(d, acc, base);
      n >>= 1;
      if (n > 0) base = mul(d, base, base);
    }
    return y < 0 ? div(d, one(d), acc) : acc;
  }

  Value one(DType d) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.bool(true));
      case INT, UINT -> Value.of(ir.constInt(ElementTypes.compute(ir, d), 1));
      case FLOAT -> Value.of(ir.constReal(ElementTypes.compute(ir, d), 1.0));
      case COMPLEX -> {
        var t = ElementTypes.compute(ir, d);
        yield Value.complex(ir.constReal(t, 1.0), ir.constReal(t, 0.0));
      }
      case OTHER -> throw unsupported("one", d);
    };
  }

  Value zero(DType d) {
    return switch (d.kind()) {
      case BOOL -> Value.of(ir.bool(false));
      case INT, UINT -> Value.of(ir.constInt(ElementTypes.compute(ir, d), 0));
      case FLOAT -> Value.of(ir.constReal(ElementTypes.compute(ir, d), 0.0));
      case COMPLEX -> {
        var t = ElementTypes.compute(ir, d);
        yield Value.complex(ir.constReal(t, 0.0), ir.constReal(t, 0.0));
      }
      case OTHER -> throw unsupported("zeros_like", d);
    };
  }

  /** Real square root (complex ones are {@link ComplexMath}'s). */
  Value sqrt(DType d, Value x) {
    return Value.of(fin(d, floats.sqrt(d, floatOnly("sqrt", d, x))));
  }

  Value floor(DType d, Value x) {
    return Value.of(floats.floor(d, floatOnly("floor", d, x)));
  }

  Value ceil(DType d, Value x) {
    return Value.of(floats.ceil(d, floatOnly("ceil", d, x)));
  }

  /** rounding_method 0: halves away from zero; 1: halves to even. */
  Value round(DType d, Value x, long method) {
    LLVMValueRef v = floatOnly("round", d, x);
    return Value.of(method == 0 ? floats.roundAway(d, v) : floats.roundEven(d, v));
  }

  Value isFinite(DType d, Value x) {
    return Value.of(floats.isFinite(floatOnly("is_finite", d, x)));
  }

  Value nextafter(DType d, Value x, Value y) {
    LLVMValueRef xv = floatOnly("nextafter", d, x);
    LLVMValueRef yv = y.v();
    LLVMValueRef bits = floats.nextafterBits(d, xv, yv, Conversions.toBits(ir, d, xv), Conversions.toBits(ir, d, yv));
    LLVMValueRef r = Conversions.fromBits(ir, d, bits);
    LLVMValueRef nan = ir.or(ir.fcmp(LLVMRealUNO, xv, xv), ir.fcmp(LLVMRealUNO, yv, yv));
    return Value.of(ir.select(nan, ir.faddExact(xv, yv), r));
  }

  private static LLVMValueRef floatOnly(String what, DType d, Value x) {
    if (d.kind() != DType.Kind.FLOAT) throw unsupported(what, d);
    return x.v();
  }

  // ---- bits and logic (bool or integer)

  Value and(DType d, Value x, Value y) {
    return Value.of(ir.and(bitsOnly("and", d, x), y.v()));
  }

  Value or(DType d, Value x, Value y) {
    return Value.of(ir.or(bitsOnly("or", d, x), y.v()));
  }

  Value xor(DType d, Value x, Value y) {
    return Value.of(ir.xor(bitsOnly("xor", d, x), y.v()));
  }

  Value not(DType d, Value x) {
    return Value.of(ir.not(bitsOnly("not", d, x)));
  }

  private static LLVMValueRef bitsOnly(String what, DType d, Value x) {
    if (d.kind() != DType.Kind.BOOL && !d.isInteger()) throw unsupported(what, d);
    return x.v();
  }

  Value integer(String what, DType d, Value x, Value y, BinaryOperator<LLVMValueRef> op) {
    if (!d.isInteger()) throw unsupported(what, d);
    return Value.of(op.apply(x.v(), y.v()));
  }

  Value shiftLeft(DType d, Value x, Value y) {
    return integer("shift_left", d, x, y, ints::shiftLeft);
  }

  Value shiftRightLogical(DType d, Value x, Value y) {
    return integer("shift_right_logical", d, x, y, ints::shiftRightLogical);
  }

  Value shiftRightArithmetic(DType d, Value x, Value y) {
    return integer("shift_right_arithmetic", d, x, y, ints::shiftRightArithmetic);
  }

  Value mulhi(DType d, Value x, Value y) {
    return integer("mulhi", d, x, y, (a, b) -> ints.mulhi(signed(d), a, b));
  }

  Value popcount(DType d, Value x) {
    if (!d.isInteger()) throw unsupported("population_count", d);
    return Value.of(ints.popcount(x.v()));
  }

  Value clz(DType d, Value x) {
    if (!d.isInteger()) throw unsupported("clz", d);
    return Value.of(ints.clz(x.v()));
  }

  // ---- comparisons

  enum Cmp {
    EQ, NE, LT, LE, GT, GE
  }

  /**
   * Ordered float comparisons (false with a NaN) except ne, which is true with a NaN; operands
   * read denormals as zero. Bool compares as 0 < 1; complex has only eq and ne.
   */
  Value compare(DType d, Cmp c, Value x, Value y) {
    return compare(d, c, x, y, true);
  }

  /** As above; with {@code daz} false, float operands keep denormals (see {@link ClassTestFold}). */
  Value compare(DType d, Cmp c, Value x, Value y, boolean daz) {
    return switch (d.kind()) {
      case BOOL, UINT -> Value.of(ir.icmp(switch (c) {
        case EQ -> LLVMIntEQ;
        case NE -> LLVMIntNE;
        case LT -> LLVMIntULT;
        case LE -> LLVMIntULE;
        case GT -> LLVMIntUGT;
        case GE -> LLVMIntUGE;
      }, x.v(), y.v()));
      case INT -> Value.of(ir.icmp(switch (c) {
        case EQ -> LLVMIntEQ;
        case NE -> LLVMIntNE;
        case LT -> LLVMIntSLT;
        case LE -> LLVMIntSLE;
        case GT -> LLVMIntSGT;
        case GE -> LLVMIntSGE;
      }, x.v(), y.v()));
      case FLOAT -> !daz && (c == Cmp.EQ || c == Cmp.NE) && ir.numerics().flushesInHardware()
          ? Value.of(zeroByClass(c, x.v(), y.v()))
          : Value.of(ir.fcmp(switch (c) {
        case EQ -> LLVMRealOEQ;
        case NE -> LLVMRealUNE;
        case LT -> LLVMRealOLT;
        case LE -> LLVMRealOLE;
        case GT -> LLVMRealOGT;
        case GE -> LLVMRealOGE;
      }, daz ? Ftz.daz(ir, d, x.v()) : x.v(), daz ? Ftz.daz(ir, d, y.v()) : y.v()));
      case COMPLEX -> switch (c) {
        case EQ -> Value.of(complexes.eq(d, x, y));
        case NE -> Value.of(ir.not(complexes.eq(d, x, y)));
        case LT, LE, GT, GE -> throw unsupported("ordered comparison", d);
      };
      case OTHER -> throw unsupported("comparison", d);
    };
  }

  /**
   * x == 0 (or !=) without DAZ, as XLA's {@code llvm.is.fpclass} fold tests it: by class, so a
   * denormal is not zero even while the hardware reads it as zero. One operand is a zero literal
   * ({@link ClassTestFold} picks only those).
   */
  private LLVMValueRef zeroByClass(Cmp c, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef v = isZeroConstant(y) ? x : y;
    if (!isZeroConstant(x) && !isZeroConstant(y)) throw new IllegalStateException("class test without a zero literal");
    final int fcZero = 0x60;  // fcNegZero | fcPosZero
    LLVMValueRef zero = ir.intrinsic("llvm.is.fpclass", new LLVMTypeRef[] {ir.typeOf(v)}, v, ir.i32(fcZero));
    return c == Cmp.EQ ? zero : ir.not(zero);
  }

  private static boolean isZeroConstant(LLVMValueRef v) {
    if (LLVMIsAConstantFP(v) == null || LLVMIsAConstantFP(v).isNull()) return false;
    int[] lost = new int[1];
    return LLVMConstRealGetDouble(v, lost) == 0.0;
  }

  /** x if c, else y (c is i1). */
  Value select(LLVMValueRef c, Value x, Value y) {
    if (x.isComplex()) return Value.complex(ir.select(c, x.re(), y.re()), ir.select(c, x.im(), y.im()));
    return Value.of(ir.select(c, x.v(), y.v()));
  }

  Ir ir() {
    return ir;
  }
}
