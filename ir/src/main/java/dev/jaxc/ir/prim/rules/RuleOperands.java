package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type.KeyType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Operand access and type comparison for every type rule, and the errors they report ({@code
 * prim: what}, at an operand where one is to blame). Array-like operands are dense arrays or PRNG
 * key arrays ({@code key<fry>[2]}), which the shape and indexing primitives move around like any
 * element type.
 */
final class RuleOperands {
  private RuleOperands() {}

  static TypeRuleException error(RuleContext ctx, String message) {
    return new TypeRuleException(ctx.primitive() + ": " + message);
  }

  static TypeRuleException error(RuleContext ctx, int operand, String message) {
    return new TypeRuleException(ctx.primitive() + ": " + message, operand);
  }

  /** Requires exactly {@code n} operands. */
  static void arity(RuleContext ctx, int n) {
    if (ctx.arity() != n)
      throw error(ctx, "expects " + n + " operand" + (n == 1 ? "" : "s") + ", got " + ctx.arity());
  }

  static void minArity(RuleContext ctx, int n) {
    if (ctx.arity() < n)
      throw error(ctx, "expects at least " + n + " operand" + (n == 1 ? "" : "s") + ", got "
          + ctx.arity());
  }

  /** Operand {@code i} as a dense array; a key, token or opaque value is an error at it. */
  static ArrayType array(RuleContext ctx, int i) {
    if (ctx.in(i) instanceof ArrayType a) return a;
    throw error(ctx, i, "operand " + i + " must be an array, got " + ctx.in(i).text());
  }

  /** Operand {@code i} as an array or key array. */
  static Type arrayLike(RuleContext ctx, int i) {
    Type t = ctx.in(i);
    if (t instanceof ArrayType || t instanceof KeyType) return t;
    throw error(ctx, i, "operand " + i + " must be an array, got " + t.text());
  }

  /** Operand {@code i} as a typed PRNG key array. */
  static KeyType key(RuleContext ctx, int i) {
    if (ctx.in(i) instanceof KeyType k) return k;
    throw error(ctx, i, "operand " + i + " must be a PRNG key array (key<impl>[...]), got "
        + ctx.in(i).text());
  }

  static Shape shape(RuleContext ctx, int i) {
    return shapeOf(arrayLike(ctx, i));
  }

  static Shape shapeOf(Type t) {
    if (t instanceof ArrayType a) return a.shape();
    if (t instanceof KeyType k) return k.shape();
    throw new IllegalArgumentException("not an array: " + t.text());
  }

  /** What two operands must share to be joined: the dtype, or the key implementation. */
  static String element(Type t) {
    if (t instanceof ArrayType a) return a.dtype().shortName();
    if (t instanceof KeyType k) return "key<" + k.impl() + ">";
    return t.text();
  }

  static boolean weak(Type t) {
    return t instanceof ArrayType a && a.weak();
  }

  /** Same element type and annotations, another shape and weak flag. */
  static Type reshaped(Type t, Shape s, boolean weak) {
    if (t instanceof ArrayType a) return a.withShape(s).withWeak(weak);
    if (t instanceof KeyType k) return new KeyType(k.impl(), s);
    throw new IllegalArgumentException("not an array: " + t.text());
  }

  static boolean allWeak(RuleContext ctx, int from, int to) {
    for (int i = from; i < to; i++) if (!weak(ctx.in(i))) return false;
    return true;
  }

  static boolean allWeak(RuleContext ctx) {
    return allWeak(ctx, 0, ctx.arity());
  }

  static boolean isIntegerArray(Type t) {
    return t instanceof ArrayType a && a.dtype().isInteger();
  }

  /** A strong (not weak) array type without annotations. */
  static ArrayType strong(DType dtype, Shape shape) {
    return new ArrayType(dtype, shape);
  }

  /** The declared shape of result {@code out}, if the text declared an array-like there. */
  static Optional<Shape> declaredShape(RuleContext ctx, int out) {
    if (out >= ctx.declaredOut().size()) return Optional.empty();
    Type t = ctx.declaredOut().get(out);
    return t instanceof ArrayType || t instanceof KeyType
        ? Optional.of(shapeOf(t))
        : Optional.empty();
  }

  /**
   * JAX's {@code typematch}: equal dtype, sizes and memory space, ignoring weak flags, mesh-axis
   * sharding of dims and the varying-axes suffix (which only annotate the same values).
   */
  static boolean sameType(Type a, Type b) {
    if (a instanceof ArrayType x && b instanceof ArrayType y)
      return x.dtype() == y.dtype()
          && x.shape().sameSizes(y.shape())
          && java.util.Objects.equals(x.memorySpace(), y.memorySpace());
    if (a instanceof KeyType x && b instanceof KeyType y)
      return x.impl().equals(y.impl()) && x.shape().sameSizes(y.shape());
    return a.equals(b);
  }

  /** {@link #sameType} element by element, and equal lengths. */
  static boolean sameTypes(List<Type> a, List<Type> b) {
    if (a.size() != b.size()) return false;
    for (int i = 0; i < a.size(); i++) if (!sameType(a.get(i), b.get(i))) return false;
    return true;
  }

  /**
   * Operands {@code from …} must have the types a nested jaxpr's binders expect; the error names
   * the first operand that does not ({@code what}: "cond branches take").
   */
  static void matchOperands(RuleContext ctx, int from, List<Type> expected, String what) {
    for (int i = 0; i < expected.size(); i++) {
      Type actual = ctx.in(from + i);
      if (!sameType(expected.get(i), actual))
        throw error(ctx, from + i, what + " " + expected.get(i).text() + " at operand "
            + (from + i) + ", got " + actual.text());
    }
  }

  /** {@code (f32[3], i32[])}: a list of types for messages. */
  static String text(List<Type> types) {
    return types.stream().map(Type::text).collect(Collectors.joining(", ", "(", ")"));
  }
}
