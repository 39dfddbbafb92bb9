package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.Support;
import dev.jaxc.backend.llvm.plan.Producer;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The generator of every fusible primitive, in one exhaustive switch: elementwise arithmetic
 * ({@link Arith}), transcendentals ({@link MathLowering}), conversions ({@link Conversions}) and
 * the shape family ({@link ShapeLowering}). Elementwise operands follow the n-ary rule: a rank-0 operand is read at the
 * empty index, a size-1 dim at 0. Primitives without a lowering here throw "unsupported primitive".
 */
public final class ElementwiseLowering {
  private final Ir ir;
  private final Arith arith;
  private final ShapeLowering shapes;
  private final MathLowering math;
  private final Set<Eqn> rawZeroCompares;
  private final XlaRewrites rewrites;
  private final IndexRanges ranges = new IndexRanges();

  /**
   * @param rawZeroCompares comparisons evaluated without DAZ ({@link ClassTestFold})
   * @param rewrites XLA's reciprocal division and FMA contraction in this plan
   */
  public ElementwiseLowering(Ir ir, Set<Eqn> rawZeroCompares, XlaRewrites rewrites) {
    this.ir = ir;
    this.rawZeroCompares = rawZeroCompares;
    this.rewrites = rewrites;
    this.arith = new Arith(ir);
    this.shapes = new ShapeLowering(ir, arith, ranges);
    this.math = new MathLowering(ir, arith);
  }

  /** The facts the loops emitted for these generators record about their index variables. */
  public IndexRanges ranges() {
    return ranges;
  }

  private interface Unary {
    Value apply(DType d, Value x);
  }

  private interface Binary {
    Value apply(DType d, Value x, Value y);
  }

  /**
   * The generator of result {@code p.result()} of a fusible equation, given its operands'
   * generators. A dtype the lowering does not handle is reported when the generator is used.
   */
  public ElementGenerator generator(Producer p, List<ElementGenerator> ops) {
    return reported(p.eqn(), build(p, ops));
  }

  /**
   * The generator of an add or sub with a product fused into it ({@link XlaRewrites}): {@code
   * factors} are the product's operands' generators, {@code ops} the add's.
   */
  public ElementGenerator contracted(
      Producer p, XlaRewrites.Contraction c, List<ElementGenerator> factors, List<ElementGenerator> ops) {
    Eqn e = p.eqn();
    Eqn m = c.product();
    DType d = dtype(e.outs().get(0));
    boolean sub = e.primitive().equals("sub");
    return reported(e, idx -> {
      Value x = operand(m, factors, 0, idx);
      Value y = rewrites.reciprocal(m) ? reciprocal(m) : operand(m, factors, 1, idx);
      Value other = operand(e, ops, 1 - c.operand(), idx);
      return arith.mulAdd(d, x, y, other, sub && c.operand() == 1, sub && c.operand() == 0);
    });
  }

  /** x · (1/y), the reciprocal rounded to d (to f32 for bf16), as XLA's A / broadcast(B). */
  private Value timesReciprocal(DType d, Value x, Value y) {
    DType r = d == DType.BF16 ? DType.F32 : d;
    return arith.mul(d, x, arith.div(r, arith.one(r), y));
  }

  /** 1/c for {@code x / c}, rounded to the dtype as XLA folds it (f16: via f32). */
  private Value reciprocal(Eqn div) {
    DType d = dtype(div.outs().get(0));
    return arith.div(d, arith.one(d), Constants.literal(ir, (Literal) div.ins().get(1)));
  }

  private ElementGenerator reported(Eqn e, ElementGenerator g) {
    return idx -> {
      try {
        return g.at(idx);
      } catch (Arith.UnsupportedDType x) {
        throw new JaxcException("unsupported primitive " + e.primitive() + ": " + x.getMessage(), e.span());
      }
    };
  }

  private static DType dtype(Atom a) {
    return ((ArrayType) a.type()).dtype();
  }

  private static Shape shape(Atom a) {
    return ((ArrayType) a.type()).shape();
  }

  private ElementGenerator build(Producer p, List<ElementGenerator> ops) {
    Eqn e = p.eqn();
    return switch (p.primitive()) {
      case ADD, ADD_ANY -> binary(e, ops, arith::add);
      case SUB -> binary(e, ops, arith::sub);
      case MUL -> mul(e, ops);
      case DIV -> rewrites.reciprocal(e)
          ? unary(e, ops, (d, x) -> arith.mul(d, x, reciprocal(e)))
          : rewrites.broadcastReciprocal(e) ? binary(e, ops, this::timesReciprocal) : binary(e, ops, arith::div);
      case REM -> binary(e, ops, arith::rem);
      case MAX -> binary(e, ops, arith::max);
      case MIN -> binary(e, ops, arith::min);
      case AND -> binary(e, ops, arith::and);
      case OR -> binary(e, ops, arith::or);
      case XOR -> binary(e, ops, arith::xor);
      case SHIFT_LEFT -> binary(e, ops, arith::shiftLeft);
      case SHIFT_RIGHT_ARITHMETIC -> binary(e, ops, arith::shiftRightArithmetic);
      case SHIFT_RIGHT_LOGICAL -> binary(e, ops, arith::shiftRightLogical);
      case MULHI -> binary(e, ops, arith::mulhi);
      case NEXTAFTER -> binary(e, ops, arith::nextafter);
      case EQ -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.EQ, x, y, !rawZeroCompares.contains(e)));
      case NE -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.NE, x, y, !rawZeroCompares.contains(e)));
      case LT -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.LT, x, y));
      case LE -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.LE, x, y));
      case GT -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.GT, x, y));
      case GE -> binary(e, ops, (d, x, y) -> arith.compare(d, Arith.Cmp.GE, x, y));
      case EQ_TO, LT_TO, LE_TO -> {
        ElementGenerator g = binary(e, ops, (d, x, y) -> SortTotalOrder.compare(ir, p.primitive(), d, x, y));
        yield idx -> ir.keepingHalfNaNs(() -> g.at(idx));  // NaNs ordered by payload, signalling ones too
      }
      case COMPLEX -> binary(e, ops, (d, x, y) -> Value.complex(x.v(), y.v()));
      case NEG -> unary(e, ops, arith::neg);
      case SIGN -> unary(e, ops, arith::sign);
      case ABS -> unary(e, ops, arith::abs);
      case FLOOR -> unary(e, ops, arith::floor);
      case CEIL -> unary(e, ops, arith::ceil);
      case ROUND -> unary(e, ops, (d, x) -> arith.round(d, x, roundingMethod(e)));
      case IS_FINITE -> unary(e, ops, arith::isFinite);
      case SQUARE -> unary(e, ops, arith::square);
      case INTEGER_POW -> unary(e, ops, (d, x) -> arith.integerPow(d, x, e.params().getLong("y")));
      case RECIPROCAL -> unary(e, ops, arith::reciprocal);
      case NOT -> unary(e, ops, arith::not);
      case POPULATION_COUNT -> unary(e, ops, arith::popcount);
      case CLZ -> unary(e, ops, arith::clz);
      case REAL -> unary(e, ops, (d, x) -> Value.of(x.re()));
      case IMAG -> unary(e, ops, (d, x) -> Value.of(x.im()));
      case CONJ -> unary(e, ops, (d, x) -> d.isComplex()
          ? Value.complex(x.re(), ir.fneg(x.im()))
          : Value.complex(x.v(), ir.constReal(ir.typeOf(x.v()), 0.0)));
      case ZEROS_LIKE -> idx -> arith.zero(dtype(e.outs().get(0)));
      case SELECT_N -> selectN(e, ops);
      case CLAMP -> clamp(e, ops);
      case CONVERT_ELEMENT_TYPE -> unary(e, ops, (d, x) -> Conversions.convert(ir, x, d, dtype(e.outs().get(0))));
      case BITCAST_CONVERT_TYPE -> BitcastLowering.generator(ir, e, ops.get(0));
      case REDUCE_PRECISION -> unary(e, ops, (d, x) -> Value.of(Conversions.reducePrecision(ir, d, x.v(),
          e.params().getInt("exponent_bits"), e.params().getInt("mantissa_bits"))));
      case COPY, DEVICE_PUT, NAME, OPTIMIZATION_BARRIER, PVARY, RESHARD, SHARDING_CONSTRAINT,
          STOP_GRADIENT -> ops.get(p.result());
      case BROADCAST_IN_DIM -> shapes.broadcastInDim(e, ops.get(0));
      case BROADCAST_TO -> shapes.broadcastTo(e, ops.get(0));
      case RESHAPE -> shapes.reshape(e, ops.get(0));
      case SQUEEZE -> shapes.squeeze(e, ops.get(0));
      case TRANSPOSE -> shapes.transpose(e, ops.get(0));
      case REV -> shapes.rev(e, ops.get(0));
      case SLICE -> shapes.slice(e, ops.get(0));
      case PAD -> shapes.pad(e, ops.get(0), ops.get(1));
      case CONCATENATE -> shapes.concatenate(e, ops);
      case IOTA -> shapes.iota(e);
      case DYNAMIC_SLICE -> shapes.dynamicSlice(e, ops);
      case SPLIT -> shapes.split(e, p.result(), ops.get(0));
      case TILE -> shapes.tile(e, ops.get(0));
      case STACK -> shapes.stack(e, ops);
      case UNSTACK -> shapes.unstack(e, p.result(), ops.get(0));
      // Transcendentals: the math library (MathLowering).
      case ACOS, ACOSH, ASIN, ASINH, ATAN, ATANH, CBRT, COS, COSH, DIGAMMA, ERF, ERFC, ERF_INV,
          EXP, EXP2, EXPM1, LGAMMA, LOG, LOG1P, LOGISTIC, RSQRT, SIN, SINH, SQRT, TAN,
          TANH -> unary(e, ops, (d, x) -> math.unary(p.primitive(), d, x));
      case ATAN2 -> binary(e, ops, (d, x, y) -> math.binary(Primitive.ATAN2, d, x, y));
      case POW -> pow(e, ops);
      // Not lowered here: kernels, calls, random, later issues.
      case APPROX_TOP_K, ARGMAX, ARGMIN, BESSEL_I0E, BESSEL_I1E, BITCAST, CALL, CHOLESKY,
          CLOSED_CALL, COND, CONV_GENERAL_DILATED, CORE_CALL, CUMLOGSUMEXP, CUMMAX, CUMMIN,
          CUMPROD, CUMSUM, CUSTOM_JVP_CALL, CUSTOM_LINEAR_SOLVE, CUSTOM_VJP_CALL,
          CUSTOM_VJP_CALL_JAXPR, DOT_GENERAL, DYNAMIC_UPDATE_SLICE, EIGH, FFT, FROM_EDTYPE,
          EIG, GATHER, GEQRF, HESSENBERG, HOUSEHOLDER_PRODUCT, IGAMMA, IGAMMA_GRAD_A, IGAMMAC, JIT, LU, PJIT, PLATFORM_INDEX,
          POLYGAMMA, QR, SCHUR, RANDOM_BITS, RANDOM_CLONE, RANDOM_FOLD_IN, RANDOM_GAMMA,
          RANDOM_GAMMA_GRAD, RANDOM_SEED, RANDOM_SPLIT, RANDOM_UNWRAP, RANDOM_WRAP, REDUCE,
          REDUCE_AND, REDUCE_MAX, REDUCE_MIN, REDUCE_OR, REDUCE_PROD, REDUCE_SUM, REDUCE_WINDOW,
          REDUCE_WINDOW_MAX, REDUCE_WINDOW_MIN, REDUCE_WINDOW_SUM, REDUCE_XOR,
          REGULARIZED_INCOMPLETE_BETA, REMAT2, RNG_BIT_GENERATOR, RNG_UNIFORM, ROLL, SCAN,
          SCATTER, SCATTER_ADD, SCATTER_MAX, SCATTER_MIN, SCATTER_MUL, SCATTER_SUB,
          SELECT_AND_GATHER_ADD, SELECT_AND_SCATTER, SELECT_AND_SCATTER_ADD, SORT, SVD,
          THREEFRY2X32, TO_EDTYPE, TOP_K, TRIANGULAR_SOLVE, TRIDIAGONAL_SOLVE, LU_PIVOTS_TO_PERMUTATION, WHILE, XLA_CALL,
          ZETA -> throw new JaxcException("unsupported primitive " + e.primitive() + " ("
              + Support.of(p.primitive()).detail() + ")", e.span());
    };
  }

  /** Operand k at the output index, by the n-ary broadcasting rule. */
  private Value operand(Eqn e, List<ElementGenerator> ops, int k, Index idx) {
    Shape out = shape(e.outs().get(0));
    return ops.get(k).at(ShapeLowering.broadcastOperand(ir, shape(e.ins().get(k)), out, idx));
  }

  private ElementGenerator unary(Eqn e, List<ElementGenerator> ops, Unary f) {
    DType d = dtype(e.ins().get(0));
    return idx -> f.apply(d, operand(e, ops, 0, idx));
  }

  private ElementGenerator binary(Eqn e, List<ElementGenerator> ops, Binary f) {
    DType d = dtype(e.ins().get(0));
    return idx -> f.apply(d, operand(e, ops, 0, idx), operand(e, ops, 1, idx));
  }

  /** {@code mul[out_dtype=T]} converts both operands to T first (JAX's lowering). */
  private ElementGenerator mul(Eqn e, List<ElementGenerator> ops) {
    if (e.params().isNone("out_dtype")) return binary(e, ops, arith::mul);
    DType to = dtype(e.outs().get(0));
    DType a = dtype(e.ins().get(0));
    DType b = dtype(e.ins().get(1));
    return idx -> arith.mul(to, Conversions.convert(ir, operand(e, ops, 0, idx), a, to),
        Conversions.convert(ir, operand(e, ops, 1, idx), b, to));
  }

  /**
   * {@code pow x y}: an integer exponent is converted to x's dtype first (JAX's lowering); a
   * literal exponent 0, 1, 2, 3 or -1 becomes 1, x, x·x, x·(x·x) or 1/x, as XLA's algebraic
   * simplifier rewrites it (for bf16 after widening to f32, so x·(x·x) is rounded once).
   */
  private ElementGenerator pow(Eqn e, List<ElementGenerator> ops) {
    DType d = dtype(e.ins().get(0));
    DType yd = dtype(e.ins().get(1));
    OptionalLong k = MathLowering.smallIntegerExponent(e.ins().get(1));
    if (k.isPresent()) {
      long n = k.getAsLong();
      return idx -> {
        Value x = operand(e, ops, 0, idx);
        if (n == 0) return arith.one(d);
        if (n == 1) return x;
        if (n == 2) return arith.mul(d, x, x);
        if (n == 3 && d == DType.BF16) {
          Value cube = arith.mul(DType.F32, x, arith.mul(DType.F32, x, x));
          return Value.of(HalfFloats.round(ir, d, cube.v()));
        }
        if (n == 3) return arith.mul(d, x, arith.mul(d, x, x));
        return arith.div(d, arith.one(d), x);
      };
    }
    return idx -> math.binary(Primitive.POW, d, operand(e, ops, 0, idx),
        Conversions.convert(ir, operand(e, ops, 1, idx), yd, d));
  }

  /**
   * {@code select_n which x0 x1 …}: a bool picks x1 when true; an integer picks by a balanced
   * tree of "which < mid" tests, as JAX lowers it (below 0: x0, past the end: the last case).
   */
  private ElementGenerator selectN(Eqn e, List<ElementGenerator> ops) {
    DType which = dtype(e.ins().get(0));
    return idx -> {
      LLVMValueRef w = operand(e, ops, 0, idx).v();
      if (which == DType.BOOL) {
        if (ops.size() == 2) return operand(e, ops, 1, idx);
        return arith.select(w, operand(e, ops, 2, idx), operand(e, ops, 1, idx));
      }
      return pick(e, ops, idx, w, which.kind() == DType.Kind.INT, 0, ops.size() - 1);
    };
  }

  private Value pick(Eqn e, List<ElementGenerator> ops, Index idx, LLVMValueRef w, boolean signed, int lo, int n) {
    if (n == 1) return operand(e, ops, 1 + lo, idx);
    int mid = n / 2;
    LLVMValueRef below = ir.icmp(signed ? LLVMIntSLT : LLVMIntULT, w, ir.constInt(ir.typeOf(w), lo + mid));
    return arith.select(below, pick(e, ops, idx, w, signed, lo, mid), pick(e, ops, idx, w, signed, lo + mid, n - mid));
  }

  /** {@code clamp lo x hi}: lo and hi may be scalars. */
  private ElementGenerator clamp(Eqn e, List<ElementGenerator> ops) {
    DType d = dtype(e.ins().get(1));
    return idx -> arith.clamp(d, operand(e, ops, 0, idx), operand(e, ops, 1, idx), operand(e, ops, 2, idx));
  }

  /** 0 (AWAY_FROM_ZERO) or 1 (TO_NEAREST_EVEN), printed as a number or an enum member. */
  private static long roundingMethod(Eqn e) {
    ParamValue v = e.params().get("rounding_method").orElse(ParamValue.Int.of(0));
    if (v instanceof ParamValue.Int i) return i.value().longValue();
    String word = e.params().getWord("rounding_method").orElse("");
    return word.contains("EVEN") ? 1 : 0;
  }
}
