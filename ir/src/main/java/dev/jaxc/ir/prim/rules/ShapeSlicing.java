package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Dim;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Shape primitives that cut arrays apart or join them (see {@link ShapeRules}). */
final class ShapeSlicing {
  private ShapeSlicing() {}

  /** {@code concatenate[dimension=…]}: one element type and rank; sizes add up along the dim. */
  static List<Type> concatenate(RuleContext ctx) {
    RuleOperands.minArity(ctx, 1);
    Type first = RuleOperands.arrayLike(ctx, 0);
    Shape s0 = RuleOperands.shapeOf(first);
    long dim = RuleParams.longParam(ctx, "dimension");
    if (dim < 0 || dim >= s0.rank())
      throw RuleOperands.error(ctx, "dimension " + dim + " is out of range for " + first.text());
    long total = 0;
    boolean symbolic = false;
    StringBuilder expr = new StringBuilder();
    for (int i = 0; i < ctx.arity(); i++) {
      Type t = RuleOperands.arrayLike(ctx, i);
      Shape s = RuleOperands.shapeOf(t);
      if (!RuleOperands.element(t).equals(RuleOperands.element(first)))
        throw RuleOperands.error(ctx, i, "operands have different dtypes " + RuleOperands.element(first)
            + " and " + RuleOperands.element(t));
      if (s.rank() != s0.rank())
        throw RuleOperands.error(ctx, i, "operands have different ranks: " + first.text() + " and "
            + t.text());
      for (int k = 0; k < s.rank(); k++) {
        if (k != dim && !RuleDims.sameDim(s.dims().get(k), s0.dims().get(k)))
          throw RuleOperands.error(ctx, i, "operands " + first.text() + " and " + t.text()
              + " differ outside dimension " + dim);
      }
      Dim d = s.dims().get((int) dim);
      OptionalLong n = RuleDims.known(d);
      if (n.isPresent()) total += n.getAsLong();
      else symbolic = true;
      expr.append(i > 0 ? " + " : "").append(d.text());
    }
    List<Dim> dims = new ArrayList<>(s0.dims());
    dims.set((int) dim,
        symbolic ? RuleDims.derived(ctx, 0, (int) dim, expr.toString()) : Dim.of(total));
    return List.of(RuleOperands.reshaped(first, new Shape(dims), RuleOperands.allWeak(ctx)));
  }

  /**
   * {@code pad x v[padding_config=((lo, hi, interior), …)]}: v is a scalar of x's dtype; lo and
   * hi may be negative (cropping), interior not; size = lo + hi + n + (n-1)·interior.
   */
  static List<Type> pad(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Type v = RuleOperands.arrayLike(ctx, 1);
    if (!RuleOperands.element(v).equals(RuleOperands.element(x)))
      throw RuleOperands.error(ctx, 1, "the padding value's dtype " + RuleOperands.element(v)
          + " differs from the operand's " + RuleOperands.element(x));
    if (RuleOperands.shapeOf(v).rank() != 0)
      throw RuleOperands.error(ctx, 1, "the padding value must be a scalar, got " + v.text());
    Shape in = RuleOperands.shapeOf(x);
    long[][] config = paddingConfig(ctx);
    if (config.length != in.rank())
      throw RuleOperands.error(ctx, "padding_config has " + config.length + " entries for the "
          + in.rank() + " dims of " + x.text());
    List<Dim> dims = new ArrayList<>();
    for (int i = 0; i < config.length; i++) {
      long lo = config[i][0];
      long hi = config[i][1];
      long interior = config[i][2];
      if (interior < 0)
        throw RuleOperands.error(ctx, "interior padding must be non-negative, got " + interior);
      OptionalLong n = RuleDims.known(in.dims().get(i));
      if (n.isEmpty()) {
        dims.add(RuleDims.derived(ctx, 0, i, paddedExpr(in.dims().get(i).text(), lo + hi, interior)));
        continue;
      }
      long size = n.getAsLong();
      long out = lo + hi + (size == 0 ? 0 : size + (size - 1) * interior);
      if (out < 0)
        throw RuleOperands.error(ctx, "padding " + lo + ", " + hi + ", " + interior + " leaves dim "
            + i + " of " + x.text() + " with size " + out);
      dims.add(Dim.of(out));
    }
    return List.of(RuleOperands.reshaped(x, new Shape(dims), RuleOperands.allWeak(ctx)));
  }

  /**
   * {@code slice[start_indices=… limit_indices=… strides=…]}: 0 ≤ start ≤ limit ≤ size;
   * the result has ceil((limit − start) / stride) elements per dim.
   */
  static List<Type> slice(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    long[] start = RuleParams.longs(ctx, "start_indices");
    long[] limit = RuleParams.longs(ctx, "limit_indices");
    long[] strides = RuleParams.longsOr(ctx, "strides", null);
    if (start.length != in.rank() || limit.length != in.rank())
      throw RuleOperands.error(ctx, "start_indices " + RuleParams.tuple(start) + " and limit_indices "
          + RuleParams.tuple(limit) + " need one entry per dim of " + x.text());
    if (strides != null && strides.length != in.rank())
      throw RuleOperands.error(ctx, "strides " + RuleParams.tuple(strides) + " need one entry per dim of "
          + x.text());
    List<Dim> dims = new ArrayList<>();
    for (int i = 0; i < start.length; i++) {
      OptionalLong n = RuleDims.known(in.dims().get(i));
      if (start[i] < 0 || limit[i] < start[i] || (n.isPresent() && limit[i] > n.getAsLong()))
        throw RuleOperands.error(ctx, 0, "start " + start[i] + " and limit " + limit[i]
            + " are out of range for dim " + i + " of " + x.text());
      long stride = strides == null ? 1 : strides[i];
      if (stride <= 0) throw RuleOperands.error(ctx, "strides " + RuleParams.tuple(strides)
          + " must be positive");
      dims.add(Dim.of(Math.floorDiv(limit[i] - start[i] - 1, stride) + 1));
    }
    return List.of(RuleOperands.reshaped(x, new Shape(dims), RuleOperands.weak(x)));
  }

  /**
   * {@code dynamic_slice x i0 i1 …[slice_sizes=…]}: one scalar index per dim, all of one
   * integer dtype; the result is weak iff x is.
   */
  static List<Type> dynamicSlice(RuleContext ctx) {
    RuleOperands.minArity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    checkIndices(ctx, 1, in.rank());
    List<Dim> sizes = RuleParams.dimsParam(ctx, "slice_sizes");
    if (sizes.size() != in.rank())
      throw RuleOperands.error(ctx, "slice_sizes " + RuleParams.tuple(sizes) + " need one entry per dim of "
          + x.text());
    for (int i = 0; i < sizes.size(); i++) {
      OptionalLong s = RuleDims.known(sizes.get(i));
      OptionalLong n = RuleDims.known(in.dims().get(i));
      if (s.isPresent() && n.isPresent() && s.getAsLong() > n.getAsLong())
        throw RuleOperands.error(ctx, 0, "slice_sizes " + RuleParams.tuple(sizes) + " exceed the shape of "
            + x.text());
    }
    return List.of(RuleOperands.reshaped(x, new Shape(sizes), RuleOperands.weak(x)));
  }

  /** {@code dynamic_update_slice x update i0 i1 …}: the result is x's type. */
  static List<Type> dynamicUpdateSlice(RuleContext ctx) {
    RuleOperands.minArity(ctx, 2);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Type update = RuleOperands.arrayLike(ctx, 1);
    Shape in = RuleOperands.shapeOf(x);
    Shape up = RuleOperands.shapeOf(update);
    if (!RuleOperands.element(update).equals(RuleOperands.element(x)))
      throw RuleOperands.error(ctx, 1, "the update's dtype " + RuleOperands.element(update)
          + " differs from the operand's " + RuleOperands.element(x));
    if (up.rank() != in.rank())
      throw RuleOperands.error(ctx, 1, "the update " + update.text() + " must have the rank of "
          + x.text());
    for (int i = 0; i < up.rank(); i++) {
      OptionalLong u = RuleDims.known(up.dims().get(i));
      OptionalLong n = RuleDims.known(in.dims().get(i));
      if (u.isPresent() && n.isPresent() && u.getAsLong() > n.getAsLong())
        throw RuleOperands.error(ctx, 1, "the update " + update.text() + " is larger than the operand "
            + x.text());
    }
    checkIndices(ctx, 2, in.rank());
    return List.of(RuleOperands.reshaped(x, in, RuleOperands.allWeak(ctx)));
  }

  /** {@code split[axis=… sizes=…]} (0.4.38+): one result per size, the sizes summing to the dim. */
  static List<Type> split(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    int axis = RuleDims.axis(ctx, RuleParams.longParam(ctx, "axis"), in.rank(), "axis");
    long[] sizes = RuleParams.longs(ctx, "sizes");
    long sum = 0;
    for (long s : sizes) {
      if (s < 0) throw RuleOperands.error(ctx, "sizes " + RuleParams.tuple(sizes) + " must be non-negative");
      sum += s;
    }
    OptionalLong n = RuleDims.known(in.dims().get(axis));
    if (n.isPresent() && n.getAsLong() != sum)
      throw RuleOperands.error(ctx, 0, "sizes " + RuleParams.tuple(sizes) + " sum to " + sum
          + ", not to dim " + axis + " of " + x.text());
    List<Type> out = new ArrayList<>();
    for (long s : sizes) {
      List<Dim> dims = new ArrayList<>(in.dims());
      dims.set(axis, Dim.of(s));
      out.add(RuleOperands.reshaped(x, new Shape(dims), RuleOperands.weak(x)));
    }
    return out;
  }

  /** {@code stack[axis=…]} (0.10.1+): equal-typed operands joined along a new dim. */
  static List<Type> stack(RuleContext ctx) {
    RuleOperands.minArity(ctx, 1);
    Type first = RuleOperands.arrayLike(ctx, 0);
    Shape s0 = RuleOperands.shapeOf(first);
    for (int i = 1; i < ctx.arity(); i++) {
      Type t = RuleOperands.arrayLike(ctx, i);
      if (!RuleOperands.element(t).equals(RuleOperands.element(first)))
        throw RuleOperands.error(ctx, i, "operands have different dtypes " + RuleOperands.element(first)
            + " and " + RuleOperands.element(t));
      if (!RuleDims.sameShape(RuleOperands.shapeOf(t), s0))
        throw RuleOperands.error(ctx, i, "operands have different shapes " + first.text() + " and "
            + t.text());
    }
    long axis = RuleParams.longParam(ctx, "axis");
    if (axis < 0 || axis > s0.rank())
      throw RuleOperands.error(ctx, "axis " + axis + " is out of range for stacking " + first.text());
    List<Dim> dims = new ArrayList<>(s0.dims());
    dims.add((int) axis, Dim.of(ctx.arity()));
    return List.of(RuleOperands.reshaped(first, new Shape(dims), RuleOperands.allWeak(ctx)));
  }

  /** {@code unstack[axis=…]} (0.10.1+): one result per index along the dim, which is dropped. */
  static List<Type> unstack(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    Type x = RuleOperands.arrayLike(ctx, 0);
    Shape in = RuleOperands.shapeOf(x);
    if (in.rank() == 0) throw RuleOperands.error(ctx, 0, "cannot unstack the scalar " + x.text());
    int axis = RuleDims.axis(ctx, RuleParams.longParam(ctx, "axis"), in.rank(), "axis");
    OptionalLong n = RuleDims.known(in.dims().get(axis));
    if (n.isEmpty())
      throw RuleOperands.error(ctx, 0, "cannot unstack the symbolic dim " + axis + " of " + x.text());
    Type piece = RuleOperands.reshaped(x, RuleDims.dropAxes(in, new long[] {axis}), RuleOperands.weak(x));
    return java.util.Collections.nCopies((int) n.getAsLong(), piece);
  }

  /** {@code lo + hi + n + (n-1)·interior} for a symbolic n, in JAX's style: {@code 2*b + 1}. */
  private static String paddedExpr(String n, long loHi, long interior) {
    long constant = loHi - interior;
    String scaled = interior == 0 ? n : (interior + 1) + "*" + n;
    if (constant == 0) return scaled;
    return scaled + (constant > 0 ? " + " + constant : " - " + -constant);
  }

  /** Operands from {@code first} on: {@code count} integer scalars of one dtype. */
  private static void checkIndices(RuleContext ctx, int first, int count) {
    if (ctx.arity() - first != count)
      throw RuleOperands.error(ctx, "expects " + count + " start indices, got " + (ctx.arity() - first));
    for (int i = first; i < ctx.arity(); i++) {
      Type t = ctx.in(i);
      if (!(t instanceof ArrayType a && a.rank() == 0 && a.dtype().isInteger()))
        throw RuleOperands.error(ctx, i, "start indices must be integer scalars, got " + t.text());
      if (!RuleOperands.element(t).equals(RuleOperands.element(ctx.in(first))))
        throw RuleOperands.error(ctx, i, "start indices must have one dtype, got "
            + RuleOperands.element(ctx.in(first)) + " and " + RuleOperands.element(t));
    }
  }

  /** ((lo, hi, interior), …) */
  private static long[][] paddingConfig(RuleContext ctx) {
    ParamValue v = ctx.params().get("padding_config")
        .orElseThrow(() -> RuleOperands.error(ctx, "missing parameter 'padding_config'"));
    if (!(v instanceof ParamValue.Tuple t))
      throw RuleOperands.error(ctx, "padding_config must be a tuple of (lo, hi, interior), got " + v);
    long[][] config = new long[t.items().size()][];
    for (int i = 0; i < config.length; i++) {
      try {
        config[i] = Params.asLongs("padding_config", t.items().get(i));
      } catch (Params.ParamException e) {
        throw RuleOperands.error(ctx, e.getMessage());
      }
      if (config[i].length != 3)
        throw RuleOperands.error(ctx, "padding_config entries must be (lo, hi, interior), got " + v);
    }
    return config;
  }
}
