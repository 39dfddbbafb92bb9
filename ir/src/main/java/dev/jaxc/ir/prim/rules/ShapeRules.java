package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Type rules of the shape primitives. They keep the element type (so they also move PRNG key
 * arrays around) and, as JAX's {@code standard_primitive}s do, give a weak result iff every
 * operand is weak. The slicing and joining ones are in {@link ShapeSlicing}.
 */
public final class ShapeRules {
  private ShapeRules() {}

  /**
   * {@code broadcast_in_dim[broadcast_dimensions=… shape=…]}: operand dim i becomes result dim
   * bd[i], being 1 or that size. Since 0.9.1 the printer hides {@code shape}, so the declared
   * result gives it. Old dynamic-shape jaxprs pass the sizes as extra {@code i32[]} operands.
   */
  public static List<Type> broadcastInDim(RuleContext ctx) {
    RuleOperands.minArity(ctx, 1);
    for (int i = 1; i < ctx.arity(); i++) {
      if (!(ctx.in(i) instanceof ArrayType a && a.rank() == 0 && a.dtype().isInteger()))
        throw RuleOperands.error(ctx, i, "extra operands must be integer scalars (dynamic sizes), got "
            + ctx.in(i).text());
    }
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    long[] bd = RuleParams.longsOr(ctx, "broadcast_dimensions", new long[0]);
    Shape out = RuleParams.shapeParamOrDeclared(ctx, "shape", 0);
    if (bd.length != in.rank())
      throw RuleOperands.error(ctx, "broadcast_dimensions " + RuleParams.tuple(bd)
          + " must have one entry per operand dim of " + x.text());
    if (out.rank() < in.rank())
      throw RuleOperands.error(ctx, "the result shape " + out.text() + " has a lower rank than "
          + x.text());
    RuleDims.axesInRange(ctx, bd, out.rank(), "broadcast_dimensions");
    for (int i = 0; i < bd.length; i++) {
      Dim d = in.dims().get(i);
      Dim o = out.dims().get((int) bd[i]);
      if (!RuleDims.isKnown(d, 1) && !RuleDims.sameDim(d, o))
        throw RuleOperands.error(ctx, 0, "operand dim " + i + " of " + x.text() + " must be 1 or "
            + o.text() + " (result dim " + bd[i] + " of " + out.text() + ")");
    }
    return List.of(RuleOperands.reshaped(x, out, RuleOperands.weak(x)));
  }

  /**
   * The Pallas/state {@code broadcast_to[shape=…]} (implemented from its definition): NumPy
   * broadcasting to {@code shape}; the result is never weak.
   */
  public static List<Type> broadcastTo(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    Shape out = RuleParams.shapeParamOrDeclared(ctx, "shape", 0);
    int lead = out.rank() - x.rank();
    if (lead < 0)
      throw RuleOperands.error(ctx, 0, "cannot broadcast " + x.text() + " to the lower rank "
          + out.text());
    for (int i = 0; i < x.rank(); i++) {
      Dim d = x.shape().dims().get(i);
      if (!RuleDims.isKnown(d, 1) && !RuleDims.sameDim(d, out.dims().get(lead + i)))
        throw RuleOperands.error(ctx, 0, "cannot broadcast " + x.text() + " to " + out.text());
    }
    return List.of(x.withShape(out).withWeak(false));
  }

  /**
   * {@code reshape[new_sizes=… dimensions=…]}: same element count; {@code dimensions}, when not
   * None, is a permutation applied first (JAX ≥ 0.4.x always prints None).
   */
  public static List<Type> reshape(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    Shape out = RuleParams.shapeParamOrDeclared(ctx, "new_sizes", 0);
    if (!ctx.params().isNone("dimensions")) {
      long[] perm = RuleParams.longs(ctx, "dimensions");
      checkPermutation(ctx, perm, in.rank(), "dimensions", x);
    }
    if (in.isStatic() && out.isStatic() && in.elementCount() != out.elementCount())
      throw RuleOperands.error(ctx, 0, "new_sizes " + RuleParams.tuple(out.dims()) + " has "
          + out.elementCount() + " elements but the operand " + x.text() + " has "
          + in.elementCount());
    return List.of(RuleOperands.reshaped(x, out, RuleOperands.weak(x)));
  }

  /** {@code transpose[permutation=…]}: result dim i is operand dim perm[i]. */
  public static List<Type> transpose(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    long[] perm = RuleParams.longs(ctx, "permutation");
    checkPermutation(ctx, perm, in.rank(), "permutation", x);
    List<Dim> dims = new ArrayList<>();
    for (long p : perm) dims.add(in.dims().get((int) p));
    return List.of(RuleOperands.reshaped(x, new Shape(dims), RuleOperands.weak(x)));
  }

  /** {@code squeeze[dimensions=…]}: drops those size-1 dims (negative indices count back). */
  public static List<Type> squeeze(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    long[] dims = RuleParams.longs(ctx, "dimensions");
    long[] norm = new long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      norm[i] = RuleDims.axis(ctx, dims[i], in.rank(), "dimension");
    }
    RuleDims.axesInRange(ctx, norm, in.rank(), "dimensions");
    for (long d : norm) {
      if (!RuleDims.isKnown(in.dims().get((int) d), 1))
        throw RuleOperands.error(ctx, 0, "cannot squeeze dim " + d + " of " + x.text()
            + ": its size is not 1");
    }
    return List.of(RuleOperands.reshaped(x, RuleDims.dropAxes(in, norm), RuleOperands.weak(x)));
  }

  /** {@code rev[dimensions=…]}: reverses along those dims; same type. */
  public static List<Type> rev(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    RuleDims.axesInRange(ctx, RuleParams.longs(ctx, "dimensions"), RuleOperands.shapeOf(x).rank(),
        "dimensions");
    return List.of(x);
  }

  /** {@code tile[reps=…]} (0.9+): each dim times its repetition count. */
  public static List<Type> tile(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    long[] reps = RuleParams.longs(ctx, "reps");
    if (reps.length != in.rank())
      throw RuleOperands.error(ctx, "reps " + RuleParams.tuple(reps) + " must have one entry per dim of "
          + x.text());
    List<Dim> dims = new ArrayList<>();
    for (int i = 0; i < reps.length; i++) {
      if (reps[i] < 0) throw RuleOperands.error(ctx, "reps " + RuleParams.tuple(reps) + " is negative");
      Dim d = in.dims().get(i);
      OptionalLong n = RuleDims.known(d);
      if (n.isPresent()) dims.add(Dim.of(n.getAsLong() * reps[i]));
      else if (reps[i] == 1) dims.add(d);
      else if (reps[i] == 0) dims.add(Dim.of(0));
      else dims.add(RuleDims.derived(ctx, 0, i, reps[i] + "*" + d.text()));
    }
    return List.of(RuleOperands.reshaped(x, new Shape(dims), RuleOperands.weak(x)));
  }

  /** {@code iota[dtype=… shape=… dimension=… sharding=…]}: no operands, a strong number array. */
  public static List<Type> iota(RuleContext ctx) {
    // Dynamic-shape jaxprs (≤ 0.8) pass sizes as integer scalar operands.
    for (int i = 0; i < ctx.arity(); i++) {
      if (!(ctx.in(i) instanceof ArrayType a && a.rank() == 0 && a.dtype().isInteger()))
        throw RuleOperands.error(ctx, i, "takes no array operands, got " + ctx.in(i).text());
    }
    DType d = RuleParams.dtypeParam(ctx, "dtype");
    if (!ElementwiseDTypes.NUMBER.accepts(d))
      throw RuleOperands.error(ctx, "dtype must be an integer, floating or complex dtype, got " + d);
    Shape s = RuleParams.shapeParamOrDeclared(ctx, "shape", 0);
    long dim = RuleParams.longParam(ctx, "dimension");
    if (dim < 0 || dim >= s.rank())
      throw RuleOperands.error(ctx, "dimension " + dim + " is out of range for the shape " + s.text());
    return List.of(new ArrayType(d, s));
  }

  /**
   * The Pallas TPU {@code roll x shift[axis=… stride=… stride_axis=…]} (implemented from its
   * abstract eval): the result is x's type.
   */
  public static List<Type> roll(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType x = RuleOperands.array(ctx, 0);
    ArrayType shift = RuleOperands.array(ctx, 1);
    if (shift.rank() != 0 || !shift.dtype().isInteger())
      throw RuleOperands.error(ctx, 1, "shift must be an integer scalar, got " + shift.text());
    RuleDims.axis(ctx, RuleParams.longParam(ctx, "axis"), x.rank(), "axis");
    if (!ctx.params().isNone("stride_axis"))
      RuleDims.axis(ctx, RuleParams.longParam(ctx, "stride_axis"), x.rank(), "stride_axis");
    return List.of(x);
  }

  public static List<Type> concatenate(RuleContext ctx) {
    return ShapeSlicing.concatenate(ctx);
  }

  public static List<Type> pad(RuleContext ctx) {
    return ShapeSlicing.pad(ctx);
  }

  public static List<Type> slice(RuleContext ctx) {
    return ShapeSlicing.slice(ctx);
  }

  public static List<Type> dynamicSlice(RuleContext ctx) {
    return ShapeSlicing.dynamicSlice(ctx);
  }

  public static List<Type> dynamicUpdateSlice(RuleContext ctx) {
    return ShapeSlicing.dynamicUpdateSlice(ctx);
  }

  public static List<Type> split(RuleContext ctx) {
    return ShapeSlicing.split(ctx);
  }

  public static List<Type> stack(RuleContext ctx) {
    return ShapeSlicing.stack(ctx);
  }

  public static List<Type> unstack(RuleContext ctx) {
    return ShapeSlicing.unstack(ctx);
  }

  private static void checkPermutation(
      RuleContext ctx, long[] perm, int rank, String what, Type x) {
    if (perm.length != rank)
      throw RuleOperands.error(ctx, what + " " + RuleParams.tuple(perm) + " is not a permutation of the "
          + rank + " dims of " + x.text());
    RuleDims.axesInRange(ctx, perm, rank, what);
  }
}
