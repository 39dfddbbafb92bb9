package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Params.ParamException;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type.KeyType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Type rules of the PRNG primitives. Typed keys ({@code key<fry>[S]}) are arrays of keys; their
 * data is {@code u32[S, *key_shape]} (see {@link RandomImpls}).
 */
public final class RandomRules {
  private RandomRules() {}

  /** random_bits' result dtype by {@code bit_width}. */
  private static final Map<Long, DType> BITS =
      Map.of(8L, DType.U8, 16L, DType.U16, 32L, DType.U32, 64L, DType.U64);

  /** {@code random_bits[bit_width shape] keys}: {@code uN[*keys.shape, *shape]}. */
  public static List<Type> randomBits(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    KeyType key = RuleOperands.key(ctx, 0);
    long width = ctx.params().getLong("bit_width");
    DType dtype = BITS.get(width);
    if (dtype == null)
      throw new TypeRuleException("random_bits bit_width must be 8, 16, 32 or 64, got " + width);
    return List.of(RuleOperands.strong(dtype, append(key.shape(), ctx.params().getLongs("shape"))));
  }

  /** {@code random_clone keys}: the same keys. */
  public static List<Type> randomClone(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    return List.of(RuleOperands.key(ctx, 0));
  }

  /** {@code random_fold_in keys msgs}: keys of the broadcast shape of keys and msgs. */
  public static List<Type> randomFoldIn(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    KeyType key = RuleOperands.key(ctx, 0);
    ArrayType msgs = RuleOperands.array(ctx, 1);
    Shape shape = RuleDims.broadcast(List.of(key.shape(), msgs.shape()), ctx.primitive());
    return List.of(new KeyType(key.impl(), shape));
  }

  /**
   * {@code random_gamma[log_space] key alpha}: samples of alpha's float type (the key need not have
   * alpha's shape).
   */
  public static List<Type> randomGamma(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    if (!(ctx.in(0) instanceof KeyType
        || ctx.in(0) instanceof ArrayType k && k.dtype() == DType.U32))
      throw new TypeRuleException(
          "random_gamma operand 0 must be a PRNG key, got " + ctx.in(0).text(), 0);
    ArrayType alpha = RuleOperands.array(ctx, 1);
    if (!alpha.dtype().isFloating())
      throw new TypeRuleException(
          "random_gamma alpha must be a float array, got " + alpha.text(), 1);
    return List.of(RuleOperands.strong(alpha.dtype(), alpha.shape()));
  }

  /** {@code random_seed[impl] seeds}: one key per integer seed, {@code key<impl>[seeds.shape]}. */
  public static List<Type> randomSeed(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType seeds = RuleOperands.array(ctx, 0);
    if (!seeds.dtype().isInteger())
      throw new TypeRuleException("random_seed seeds must be integers, got " + seeds.text(), 0);
    return List.of(new KeyType(impl(ctx).tag(), seeds.shape()));
  }

  /** {@code random_split[shape] keys}: {@code key[*keys.shape, *shape]}. */
  public static List<Type> randomSplit(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    KeyType key = RuleOperands.key(ctx, 0);
    return List.of(new KeyType(key.impl(), append(key.shape(), ctx.params().getLongs("shape"))));
  }

  /** {@code random_unwrap keys}: the key data, {@code u32[*keys.shape, *key_shape]}. */
  public static List<Type> randomUnwrap(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    KeyType key = RuleOperands.key(ctx, 0);
    List<Dim> dims = new ArrayList<>(key.shape().dims());
    dims.addAll(RandomImpls.of(key.impl(), ctx.primitive(), 0).keyShape());
    return List.of(RuleOperands.strong(DType.U32, new Shape(dims)));
  }

  /**
   * {@code random_wrap[impl] data}: {@code u32[*S, *key_shape]} (or a float0 tangent) to {@code
   * key<impl>[S]}.
   */
  public static List<Type> randomWrap(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType data = RuleOperands.array(ctx, 0);
    RandomImpls.Impl impl = impl(ctx);
    List<Dim> keyShape = impl.keyShape();
    int lead = data.rank() - keyShape.size();
    if (data.dtype() != DType.U32 && data.dtype() != DType.FLOAT0)
      throw new TypeRuleException("random_wrap key data must be u32, got " + data.text(), 0);
    boolean fits = lead >= 0;
    for (int i = 0; fits && i < keyShape.size(); i++)
      fits = RuleDims.sameDim(data.shape().dims().get(lead + i), keyShape.get(i));
    if (!fits)
      throw new TypeRuleException(
          "random_wrap key data for impl "
              + impl.tag()
              + " must end with "
              + new Shape(keyShape).text()
              + ", got "
              + data.text(),
          0);
    return List.of(new KeyType(impl.tag(), new Shape(data.shape().dims().subList(0, lead))));
  }

  /**
   * {@code rng_bit_generator[algorithm dtype shape] key}: the new key (the operand's type) and
   * {@code dtype[shape]} random bits of an unsigned dtype.
   */
  public static List<Type> rngBitGenerator(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType key = RuleOperands.array(ctx, 0);
    DType dtype = ctx.params().getDType("dtype");
    if (!dtype.isUnsigned())
      throw new TypeRuleException(
          "rng_bit_generator dtype must be unsigned, got " + dtype.numpyName());
    return List.of(
        RuleOperands.strong(key.dtype(), key.shape()),
        RuleOperands.strong(dtype, RuleDims.shape(ctx.params().getLongs("shape"))));
  }

  /** {@code rng_uniform[shape] lo hi}: scalars of one dtype to {@code T[shape]}. */
  public static List<Type> rngUniform(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType lo = RuleOperands.array(ctx, 0);
    ArrayType hi = RuleOperands.array(ctx, 1);
    if (lo.dtype() != hi.dtype())
      throw new TypeRuleException(
          "rng_uniform operands must have one dtype, got " + lo.dtype() + " and " + hi.dtype(), 1);
    if (lo.rank() != 0 || hi.rank() != 0)
      throw new TypeRuleException(
          "rng_uniform operands must be scalars, got " + lo.text() + " and " + hi.text(),
          lo.rank() != 0 ? 0 : 1);
    Shape shape = RuleDims.shape(ctx.params().getLongs("shape"));
    return List.of(new ArrayType(lo.dtype(), shape, lo.weak() && hi.weak()));
  }

  /**
   * {@code threefry2x32 k1 k2 x1 x2}: four u32 arrays that broadcast together (scalars join any
   * shape); two u32 results of the broadcast shape.
   */
  public static List<Type> threefry2x32(RuleContext ctx) {
    RuleOperands.arity(ctx, 4);
    List<Shape> shapes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ArrayType a = RuleOperands.array(ctx, i);
      if (a.dtype() != DType.U32)
        throw new TypeRuleException("threefry2x32 operands must be u32, got " + a.text(), i);
      shapes.add(a.shape());
    }
    ArrayType out = RuleOperands.strong(DType.U32, RuleDims.broadcast(shapes, ctx.primitive()));
    return List.of(out, out);
  }

  private static RandomImpls.Impl impl(RuleContext ctx) {
    String word =
        ctx.params()
            .getWord("impl")
            .orElseThrow(() -> new ParamException("missing parameter 'impl'"));
    return RandomImpls.of(word, ctx.primitive(), -1);
  }

  private static Shape append(Shape s, long[] more) {
    List<Dim> dims = new ArrayList<>(s.dims());
    dims.addAll(RuleDims.shape(more).dims());
    return new Shape(dims);
  }
}
