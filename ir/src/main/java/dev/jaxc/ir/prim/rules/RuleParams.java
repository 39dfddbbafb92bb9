package dev.jaxc.ir.prim.rules;

import static dev.jaxc.ir.prim.rules.RuleOperands.declaredShape;
import static dev.jaxc.ir.prim.rules.RuleOperands.error;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Scalar and tuple params read by the type rules, reporting through {@link
 * dev.jaxc.ir.prim.TypeRuleException} ({@link Params}'s accessors throw {@link
 * Params.ParamException}); the structured params (dimension numbers, windows) are the records of
 * {@code dev.jaxc.ir.prim.params}. Also the tuple text that messages quote params in.
 */
final class RuleParams {
  private RuleParams() {}

  /** A param record of {@code dev.jaxc.ir.prim.params}, its decoding errors as rule errors. */
  static <T> T decoded(RuleContext ctx, Function<Params, T> decoder) {
    try {
      return decoder.apply(ctx.params());
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  static long[] longs(RuleContext ctx, String key) {
    try {
      return ctx.params().getLongs(key);
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  static long[] longsOr(RuleContext ctx, String key, long[] dflt) {
    return ctx.params().isNone(key) ? dflt : longs(ctx, key);
  }

  static long longParam(RuleContext ctx, String key) {
    try {
      return ctx.params().getLong(key);
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  static long longOr(RuleContext ctx, String key, long dflt) {
    try {
      return ctx.params().getLong(key, dflt);
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  static boolean boolOr(RuleContext ctx, String key, boolean dflt) {
    try {
      return ctx.params().getBool(key, dflt);
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  static double doubleParam(RuleContext ctx, String key) {
    try {
      return ctx.params().getDouble(key);
    } catch (Params.ParamException e) {
      throw error(ctx, e.getMessage());
    }
  }

  /**
   * A dtype param. Besides NumPy names, accepts the class repr a JAX scalar type prints as
   * ({@code out_dtype=<class 'jax.numpy.int32'>}).
   */
  static DType dtypeParam(RuleContext ctx, String key) {
    ParamValue v =
        ctx.params().get(key).orElseThrow(() -> error(ctx, "missing parameter '" + key + "'"));
    if (v instanceof ParamValue.DTypeValue d) return d.dtype();
    String text = v instanceof ParamValue.Text t ? t.text().trim() : null;
    if (v instanceof ParamValue.Str s) text = s.value();
    if (text != null) {
      String name = text.replaceFirst("^<class '(?:[\\w.]*\\.)?(\\w+)'>$", "$1");
      Optional<DType> d = DType.fromNumpyName(name).or(() -> DType.fromShortName(name));
      if (d.isPresent()) return d.get();
    }
    throw error(ctx, "parameter '" + key + "' must be a dtype, got " + v);
  }

  /**
   * A tuple param of dimension sizes, such as {@code new_sizes=(3, 2)}. Items may be symbolic
   * ({@code 2*b}, kept as text) or {@code None} (dynamic shapes), which become null.
   */
  static List<Dim> dimsParam(RuleContext ctx, String key) {
    ParamValue v =
        ctx.params().get(key).orElseThrow(() -> error(ctx, "missing parameter '" + key + "'"));
    List<ParamValue> items;
    if (v instanceof ParamValue.Tuple t) items = t.items();
    else if (v instanceof ParamValue.Int) items = List.of(v);
    else if (v instanceof ParamValue.Text t && t.text().trim().startsWith("("))
      items = splitTuple(t.text().trim());
    else throw error(ctx, "parameter '" + key + "' must be a tuple of sizes, got " + v);
    List<Dim> dims = new ArrayList<>(items.size());
    for (ParamValue item : items) {
      if (item instanceof ParamValue.Int i) {
        if (i.value().signum() < 0)
          throw error(ctx, "parameter '" + key + "' has a negative size " + i.value());
        if (i.value().bitLength() > 62)
          throw error(ctx, "parameter '" + key + "' has a size too large for an array: " + i.value());
        dims.add(Dim.of(i.value().longValueExact()));
      } else if (item instanceof ParamValue.None) {
        dims.add(null);
      } else if (item instanceof ParamValue.Text t) {
        dims.add(new Dim.Symbolic(t.text().trim()));
      } else if (item instanceof ParamValue.Str s) {
        dims.add(new Dim.Symbolic(s.value()));
      } else {
        throw error(ctx, "parameter '" + key + "' must be a tuple of sizes, got " + v);
      }
    }
    return dims;
  }

  /**
   * The items of a tuple of sizes kept as text because a symbolic size defeated the param
   * parser: {@code (2*b, max(c, 4), 3)}.
   */
  private static List<ParamValue> splitTuple(String text) {
    List<ParamValue> items = new ArrayList<>();
    int depth = 0;
    int start = 1;
    for (int i = 1; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean end = i == text.length() - 1;
      if (c == '(') depth++;
      else if (c == ')' && !end) depth--;
      if ((c == ',' && depth == 0) || end) {
        String item = text.substring(start, i).trim();
        start = i + 1;
        if (item.isEmpty()) continue;
        if (item.matches("-?\\d+")) items.add(new ParamValue.Int(new java.math.BigInteger(item)));
        else if (item.equals("None")) items.add(new ParamValue.None());
        else items.add(new ParamValue.Text(item));
      }
    }
    return items;
  }

  /**
   * A shape param whose {@code None} items (dynamic shapes) come from the declared result; a
   * missing param comes from the declared result too, or is an error.
   */
  static Shape shapeParamOrDeclared(RuleContext ctx, String key, int out) {
    Optional<Shape> declared = declaredShape(ctx, out);
    if (!ctx.params().has(key)) {
      return declared.orElseThrow(
          () -> error(ctx, "missing parameter '" + key + "' and no declared result type"));
    }
    List<Dim> dims = dimsParam(ctx, key);
    for (int i = 0; i < dims.size(); i++) {
      if (dims.get(i) != null) continue;
      if (declared.isEmpty() || declared.get().rank() != dims.size())
        throw error(ctx, "parameter '" + key + "' has a dynamic size and no declared result type");
      dims.set(i, declared.get().dims().get(i));
    }
    return new Shape(dims);
  }

  /** Python tuple text, as JAX prints params: {@code (1,)}, {@code (3, 5)}. */
  static String tuple(long[] xs) {
    if (xs.length == 1) return "(" + xs[0] + ",)";
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < xs.length; i++) sb.append(i > 0 ? ", " : "").append(xs[i]);
    return sb.append(')').toString();
  }

  static String tuple(List<Dim> dims) {
    if (dims.size() == 1) return "(" + dims.get(0).text() + ",)";
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < dims.size(); i++) sb.append(i > 0 ? ", " : "").append(dims.get(i).text());
    return sb.append(')').toString();
  }
}
