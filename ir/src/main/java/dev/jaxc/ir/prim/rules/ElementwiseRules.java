package dev.jaxc.ir.prim.rules;

import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.ANY;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.BOOL_OR_INT;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.COMPLEX;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.COMPLEX_OR_PART;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.COMPLEX_PART;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.FLOATING;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.INEXACT;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.INTEGER;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.INT_OR_FLOAT;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.NUMBER;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.ORDERED;
import static dev.jaxc.ir.prim.rules.ElementwiseDTypes.SIGNED_NUMBER;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type.KeyType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Type rules of the elementwise primitives, following {@code jax._src.lax.lax}: operands share
 * one dtype (the type pass has inserted conversions and typed the literals before), shapes
 * combine by {@link BroadcastingShapes}, and a result is weak iff every operand is weak.
 */
public final class ElementwiseRules {
  private ElementwiseRules() {}

  // ------------------------------------------------------------------------------------------
  // Unary.

  public static List<Type> unaryInexact(RuleContext ctx) {
    return unary(ctx, INEXACT, UnaryOperator.identity());
  }

  public static List<Type> unaryFloat(RuleContext ctx) {
    return unary(ctx, FLOATING, UnaryOperator.identity());
  }

  /** {@code neg}, {@code sign}, {@code square}. */
  public static List<Type> unaryNumeric(RuleContext ctx) {
    return unary(ctx, NUMBER, UnaryOperator.identity());
  }

  /** {@code clz}, {@code population_count}. */
  public static List<Type> unaryInteger(RuleContext ctx) {
    return unary(ctx, INTEGER, UnaryOperator.identity());
  }

  /** {@code not}: logical on bool, bitwise on integers. */
  public static List<Type> logicalNot(RuleContext ctx) {
    return unary(ctx, BOOL_OR_INT, UnaryOperator.identity());
  }

  /** The magnitude of a complex number is real: {@code abs c64 -> f32}. */
  public static List<Type> abs(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    DType d = RuleOperands.array(ctx, 0).dtype();
    // JAX's abs declines the sub-byte integers (supports_narrow_ints=False).
    if (d == DType.I2 || d == DType.I4)
      throw RuleOperands.error(ctx, 0, "does not support the narrow integer dtype " + d);
    return unary(ctx, SIGNED_NUMBER, DType::realPart);
  }

  /** {@code real}, {@code imag}: complex to its part dtype. */
  public static List<Type> realImag(RuleContext ctx) {
    return unary(ctx, COMPLEX, DType::realPart);
  }

  /** {@code conj[input_dtype=…]}: the result is complex even for a real operand. */
  public static List<Type> conj(RuleContext ctx) {
    return unary(ctx, COMPLEX_OR_PART, d -> d.isComplex() ? d : d.complexOf().orElseThrow());
  }

  public static List<Type> isFinite(RuleContext ctx) {
    return unary(ctx, FLOATING, d -> DType.BOOL);
  }

  /** {@code integer_pow[y=…]}: integers only to non-negative powers. */
  public static List<Type> integerPow(RuleContext ctx) {
    List<Type> r = unary(ctx, NUMBER, UnaryOperator.identity());
    long y = RuleParams.longParam(ctx, "y");
    if (y < 0 && RuleOperands.array(ctx, 0).dtype().isInteger())
      throw RuleOperands.error(ctx, 0, "integers cannot be raised to the negative power " + y
          + ", got " + ctx.in(0).text());
    return r;
  }

  /** {@code reduce_precision[exponent_bits=… mantissa_bits=…]}: rounds, keeps the type. */
  public static List<Type> reducePrecision(RuleContext ctx) {
    List<Type> r = unary(ctx, FLOATING, UnaryOperator.identity());
    long e = RuleParams.longParam(ctx, "exponent_bits");
    long m = RuleParams.longParam(ctx, "mantissa_bits");
    if (e < 1 || e > Integer.MAX_VALUE) throw RuleOperands.error(ctx, "exponent_bits must be positive, got " + e);
    if (m < 0 || m > Integer.MAX_VALUE) throw RuleOperands.error(ctx, "mantissa_bits must be non-negative, got " + m);
    return r;
  }

  // ------------------------------------------------------------------------------------------
  // Binary and n-ary.

  /** add sub mul div rem max min add_any. */
  public static List<Type> arithmetic(RuleContext ctx) {
    switch (ctx.primitive()) {
      case "rem":
        return nary(ctx, 2, INT_OR_FLOAT, null);
      case "max":
      case "min":
        return nary(ctx, 2, ANY, null);
      case "add_any":
        return addAny(ctx);
      case "mul":
        if (!ctx.params().isNone("out_dtype")) return mulWithOutDType(ctx);
        return nary(ctx, 2, NUMBER, null);
      default:
        return nary(ctx, 2, NUMBER, null);
    }
  }

  /** {@code and or xor}. */
  public static List<Type> logical(RuleContext ctx) {
    return nary(ctx, 2, BOOL_OR_INT, null);
  }

  /** {@code shift_left shift_right_arithmetic shift_right_logical}. */
  public static List<Type> shift(RuleContext ctx) {
    return nary(ctx, 2, INTEGER, null);
  }

  /** {@code atan2 nextafter igamma igammac igamma_grad_a zeta polygamma random_gamma_grad}. */
  public static List<Type> binaryFloat(RuleContext ctx) {
    // atan2 is the one member JAX also defines on complex numbers.
    return nary(ctx, 2, ctx.primitive().equals("atan2") ? INEXACT : FLOATING, null);
  }

  /** {@code regularized_incomplete_beta a b x}. */
  public static List<Type> ternaryFloat(RuleContext ctx) {
    return nary(ctx, 3, FLOATING, null);
  }

  /** {@code mulhi}: the high half of an integer product. */
  public static List<Type> binaryInteger(RuleContext ctx) {
    return nary(ctx, 2, INTEGER, null);
  }

  /**
   * {@code eq ne lt le gt ge} → bool. Equality also compares complex numbers and PRNG keys;
   * the orderings take bool, integers and floats.
   */
  public static List<Type> compare(RuleContext ctx) {
    boolean equality = ctx.primitive().equals("eq") || ctx.primitive().equals("ne");
    if (equality && ctx.arity() == 2
        && (ctx.in(0) instanceof KeyType || ctx.in(1) instanceof KeyType)) {
      return compareKeys(ctx);
    }
    return nary(ctx, 2, equality ? ANY : ORDERED, DType.BOOL);
  }

  /**
   * {@code eq_to le_to lt_to}: the total-order comparisons JAX's sort comparators use ({@code
   * _sort_lt_comparator}), typed like {@code eq}/{@code le}/{@code lt}.
   */
  public static List<Type> totalOrderCompare(RuleContext ctx) {
    return nary(ctx, 2, ctx.primitive().equals("eq_to") ? ANY : ORDERED, DType.BOOL);
  }

  /** {@code complex re im}: two f32 make a c64, two f64 a c128. */
  public static List<Type> complex(RuleContext ctx) {
    List<Type> r = nary(ctx, 2, COMPLEX_PART, null);
    ArrayType t = (ArrayType) r.get(0);
    return List.of(t.withDType(t.dtype().complexOf().orElseThrow()));
  }

  /**
   * {@code pow x y}: x is float or complex; y has x's dtype, or is any integer ({@code pow a
   * 3:i32[]} is f32 for an f32 {@code a}).
   */
  public static List<Type> pow(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    DType x = checked(ctx, 0, INEXACT).dtype();
    DType y = checked(ctx, 1, NUMBER).dtype();
    if (x != y && !y.isInteger())
      throw RuleOperands.error(ctx, 1, "the exponent must have the base's dtype " + x
          + " or an integer dtype, got " + y);
    return result(ctx, BroadcastingShapes.broadcast(ctx, 0, 2), x, RuleOperands.allWeak(ctx));
  }

  /**
   * {@code select_n which x0 x1 …}: which is bool (two cases) or an integer, a scalar or the
   * cases' shape; the cases share one type, which is the result's (weak iff all cases are).
   */
  public static List<Type> selectN(RuleContext ctx) {
    RuleOperands.minArity(ctx, 2);
    ArrayType which = RuleOperands.array(ctx, 0);
    if (which.dtype() != DType.BOOL && !which.dtype().isInteger())
      throw RuleOperands.error(ctx, 0, "the predicate must be bool or an integer, got " + which.text());
    if (which.dtype() == DType.BOOL && ctx.arity() > 3)
      throw RuleOperands.error(ctx, 0, "a bool predicate selects between 2 cases, got "
          + (ctx.arity() - 1));
    Type first = RuleOperands.arrayLike(ctx, 1);
    for (int i = 2; i < ctx.arity(); i++) {
      Type c = RuleOperands.arrayLike(ctx, i);
      if (!RuleOperands.element(c).equals(RuleOperands.element(first)))
        throw RuleOperands.error(ctx, i, "cases have different dtypes " + RuleOperands.element(first)
            + " and " + RuleOperands.element(c));
      if (!RuleDims.sameShape(RuleOperands.shapeOf(c), RuleOperands.shapeOf(first)))
        throw RuleOperands.error(ctx, i, "cases have different shapes " + first.text() + " and "
            + c.text());
    }
    Shape s = RuleOperands.shapeOf(first);
    if (which.rank() != 0 && !RuleDims.sameShape(which.shape(), s))
      throw RuleOperands.error(ctx, 0, "the predicate must be a scalar or have the cases' shape "
          + s.text() + ", got " + which.text());
    return List.of(RuleOperands.reshaped(first, s, RuleOperands.allWeak(ctx, 1, ctx.arity())));
  }

  /** {@code clamp lo x hi}: lo and hi are scalars or have x's shape; one dtype. */
  public static List<Type> clamp(RuleContext ctx) {
    RuleOperands.arity(ctx, 3);
    ArrayType x = checked(ctx, 1, ANY);
    for (int i : new int[] {0, 2}) {
      ArrayType bound = checked(ctx, i, ANY);
      if (bound.dtype() != x.dtype())
        throw RuleOperands.error(ctx, i, "operands have different dtypes " + bound.dtype() + " and "
            + x.dtype());
      if (bound.rank() != 0 && !RuleDims.sameShape(bound.shape(), x.shape()))
        throw RuleOperands.error(ctx, i, (i == 0 ? "lo" : "hi") + " must be a scalar or have the shape "
            + x.shape().text() + " of x, got " + bound.text());
    }
    return List.of(x.withWeak(RuleOperands.allWeak(ctx)));
  }

  // ------------------------------------------------------------------------------------------
  // Conversions.

  /** {@code convert_element_type[new_dtype=… weak_type=…]}: the weak flag is the param's. */
  public static List<Type> convertElementType(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    DType to = RuleParams.dtypeParam(ctx, "new_dtype");
    return List.of(x.withDType(to).withWeak(RuleParams.boolOr(ctx, "weak_type", false)));
  }

  public static List<Type> bitcastConvertType(RuleContext ctx) {
    return ElementwiseBitcasts.bitcastConvertType(ctx);
  }

  /** Pallas {@code bitcast}: TPU ({@code ty=}) or SparseCore ({@code dtype=}). */
  public static List<Type> bitcast(RuleContext ctx) {
    return ElementwiseBitcasts.pallasBitcast(ctx);
  }

  // ------------------------------------------------------------------------------------------

  private static List<Type> unary(
      RuleContext ctx, ElementwiseDTypes accepted, UnaryOperator<DType> out) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = checked(ctx, 0, accepted);
    return List.of(x.withDType(out.apply(x.dtype())));
  }

  /**
   * The n-ary rule: {@code arity} operands of dtypes in {@code accepted}, all one dtype, shapes
   * broadcast; the result has dtype {@code out} (the operands' if null).
   */
  private static List<Type> nary(
      RuleContext ctx, int arity, ElementwiseDTypes accepted, DType out) {
    RuleOperands.arity(ctx, arity);
    DType d = checked(ctx, 0, accepted).dtype();
    for (int i = 1; i < arity; i++) {
      DType di = checked(ctx, i, accepted).dtype();
      if (di != d)
        throw RuleOperands.error(ctx, i, "operands have different dtypes " + d + " and " + di);
    }
    Shape s = BroadcastingShapes.broadcast(ctx, 0, arity);
    return result(ctx, s, out == null ? d : out, RuleOperands.allWeak(ctx));
  }

  /** {@code add_any} (autodiff's sum of cotangents): two values of one type, not broadcast. */
  private static List<Type> addAny(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType x = RuleOperands.array(ctx, 0);
    ArrayType y = RuleOperands.array(ctx, 1);
    if (x.dtype() != y.dtype() || !RuleDims.sameShape(x.shape(), y.shape()))
      throw RuleOperands.error(ctx, 1, "operands must have one type, got " + x.text() + " and "
          + y.text());
    return List.of(x);
  }

  /** {@code mul[out_dtype=…]} (0.10+): the operands may differ; the product has out_dtype. */
  private static List<Type> mulWithOutDType(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    checked(ctx, 0, NUMBER);
    checked(ctx, 1, NUMBER);
    DType out = RuleParams.dtypeParam(ctx, "out_dtype");
    return result(ctx, BroadcastingShapes.broadcast(ctx, 0, 2), out, RuleOperands.allWeak(ctx));
  }

  private static List<Type> compareKeys(RuleContext ctx) {
    Type a = RuleOperands.arrayLike(ctx, 0);
    Type b = RuleOperands.arrayLike(ctx, 1);
    if (!RuleOperands.element(a).equals(RuleOperands.element(b)))
      throw RuleOperands.error(ctx, 1, "operands have different dtypes " + RuleOperands.element(a) + " and "
          + RuleOperands.element(b));
    return List.of(new ArrayType(DType.BOOL, BroadcastingShapes.broadcast(ctx, 0, 2)));
  }

  private static ArrayType checked(RuleContext ctx, int i, ElementwiseDTypes accepted) {
    ArrayType a = RuleOperands.array(ctx, i);
    if (!accepted.accepts(a.dtype()))
      throw RuleOperands.error(ctx, i, "operand " + i + " has dtype " + a.dtype() + ", expected "
          + accepted.description());
    return a;
  }

  /**
   * A result of the given shape and dtype; memory space and varying-axes annotations come from
   * the first operand of the result's rank.
   */
  private static List<Type> result(RuleContext ctx, Shape s, DType d, boolean weak) {
    ArrayType ref = RuleOperands.array(ctx, 0);
    for (int i = 0; i < ctx.arity(); i++) {
      if (ctx.in(i) instanceof ArrayType a && a.rank() == s.rank()) {
        ref = a;
        break;
      }
    }
    return List.of(ref.withShape(s).withDType(d).withWeak(weak));
  }
}
