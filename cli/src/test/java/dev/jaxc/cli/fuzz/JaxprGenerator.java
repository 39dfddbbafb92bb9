package dev.jaxc.cli.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Writes random jaxprs in JAX 0.10's printed form: well-formed programs of random primitives,
 * shapes, dtypes and params, with nested {@code cond}, {@code while}, {@code scan} and {@code pjit}
 * bodies. Most equations are well typed (their declared types are what JAX would print); a few
 * per program are deliberately wrong (a dim, a dtype, an axis off by one) so the type pass's
 * rejections are exercised on otherwise sensible programs.
 */
public final class JaxprGenerator {
  private static final String[] FLOATS = {"f32", "f32", "f32", "f64", "f16", "bf16"};
  private static final String[] INTS = {"i32", "i32", "i64", "i8", "u8", "u32", "i16"};
  private static final String[] UNARY_FLOAT = {"sin", "cos", "exp", "log", "tanh", "logistic", "sqrt", "rsqrt",
      "neg", "abs", "floor", "ceil", "round", "sign", "exp2", "log1p", "expm1", "erf", "tan", "atan", "is_finite",
      "square", "cbrt", "erf_inv", "lgamma", "digamma", "asinh", "stop_gradient", "copy"};
  private static final String[] UNARY_INT = {"neg", "abs", "not", "sign", "population_count", "clz", "square", "copy"};
  private static final String[] UNARY_UNSIGNED = {"not", "population_count", "clz", "square", "copy"};
  private static final String[] UNARY_BOOL = {"not", "copy", "stop_gradient"};
  private static final String[] ARITHMETIC = {"add", "sub", "mul", "div", "max", "min", "rem", "add_any"};
  private static final String[] FLOAT_BINARY = {"pow", "atan2", "nextafter"};
  private static final String[] BITWISE = {"and", "or", "xor"};
  private static final String[] SHIFT = {"shift_left", "shift_right_logical", "shift_right_arithmetic"};
  private static final String[] COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"};
  private static final String[] REDUCE = {"reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "argmax",
      "argmin", "reduce_and", "reduce_or"};

  private final Random r;
  private int nextName;
  private int depth;
  /** The column of the equation being written (continuation lines start there). */
  private int eqnIndent;

  /** A value in scope: its name, dtype and dims. */
  private record Val(String name, String dtype, int[] dims) {
    String type() {
      return dtype + dimsText(dims);
    }

    int rank() {
      return dims.length;
    }
  }

  public JaxprGenerator(Random r) {
    this.r = r;
  }

  /** One printout: a top-level jaxpr, sometimes with a shared {@code let} jaxpr before it. */
  public String program() {
    nextName = 0;
    depth = 0;
    StringBuilder sb = new StringBuilder();
    int nIn = 1 + r.nextInt(4);
    List<Val> ins = new ArrayList<>();
    for (int i = 0; i < nIn; i++) ins.add(new Val(fresh(), dtype(), dims(3)));
    int nConst = r.nextInt(5) == 0 ? 1 : 0;
    List<Val> consts = new ArrayList<>();
    for (int i = 0; i < nConst; i++) consts.add(new Val(fresh(), dtype(), dims(2)));
    jaxpr(sb, consts, ins, 2 + r.nextInt(10), 0, -1);
    sb.append('\n');
    return sb.toString();
  }

  /**
   * Appends {@code { lambda consts ; ins . let … in (outs) }} with about {@code n} equations and
   * returns the output values. {@code nOuts} below 0 means a random count.
   */
  private List<Val> jaxpr(StringBuilder sb, List<Val> consts, List<Val> ins, int n, int indent, int nOuts) {
    return jaxpr(sb, consts, ins, n, indent, nOuts, null);
  }

  private List<Val> jaxpr(StringBuilder sb, List<Val> consts, List<Val> ins, int n, int indent, int nOuts,
      List<Val> wantOuts) {
    depth++;
    sb.append("{ lambda ");
    binders(sb, consts);
    sb.append("; ");
    binders(sb, ins);
    sb.append(". let\n");
    List<Val> scope = new ArrayList<>(consts);
    scope.addAll(ins);
    for (int i = 0; i < n; i++) {
      String pad = " ".repeat(indent + 4);
      sb.append(pad);
      eqnIndent = indent + 4;
      Val v = equation(sb, scope, indent + 4);
      sb.append('\n');
      if (v != null) scope.add(v);
    }
    List<Val> outs = new ArrayList<>();
    if (wantOuts != null) {
      for (Val w : wantOuts) outs.add(matching(scope, w));
    } else {
      int k = nOuts >= 0 ? nOuts : 1 + r.nextInt(Math.min(3, scope.size()));
      for (int i = 0; i < k; i++) outs.add(scope.get(scope.size() - 1 - r.nextInt(Math.min(scope.size(), 4))));
    }
    sb.append(" ".repeat(indent + 2)).append("in (");
    for (int i = 0; i < outs.size(); i++) sb.append(i > 0 ? ", " : "").append(outs.get(i).name);
    sb.append(outs.size() == 1 ? ",) }" : ") }");
    depth--;
    return outs;
  }

  /** A value of {@code w}'s type from scope, or {@code w}'s own name's first match by type. */
  private static Val matching(List<Val> scope, Val w) {
    for (int i = scope.size() - 1; i >= 0; i--) if (scope.get(i).type().equals(w.type())) return scope.get(i);
    return scope.get(scope.size() - 1);
  }

  private void binders(StringBuilder sb, List<Val> vs) {
    for (Val v : vs) sb.append(v.name).append(':').append(v.type()).append(' ');
  }

  /** Appends one equation; returns its (first) result, or null when it has none worth reusing. */
  private Val equation(StringBuilder sb, List<Val> scope, int indent) {
    Val x = pick(scope);
    int kind = r.nextInt(100);
    if (depth < 3 && kind >= 94) return control(sb, scope, indent);
    if (kind < 22) return unary(sb, x);
    if (kind < 40) return binary(sb, scope, x);
    if (kind < 46) return emit(sb, new Val(fresh(), "bool", x.dims), pick(COMPARE), "", x.name, operand(scope, x));
    if (kind < 52) return reduce(sb, x);
    if (kind < 56) {
      String to = other(x.dtype);
      return emit(sb, new Val(fresh(), to, x.dims), "convert_element_type", "[new_dtype=" + numpy(to) + " weak_type=False]", x.name);
    }
    if (kind < 62) return broadcast(sb, x);
    if (kind < 66) return reshape(sb, x);
    if (kind < 70) return transpose(sb, x);
    if (kind < 74) return dot(sb, scope, x);
    if (kind < 77) return slice(sb, x);
    if (kind < 80) return concatenate(sb, x);
    if (kind < 82) return iota(sb);
    if (kind < 84) return cumulative(sb, x);
    if (kind < 86) return emit(sb, new Val(fresh(), x.dtype, x.dims), "rev", "[dimensions=" + axes(x) + "]", x.name);
    if (kind < 88) return pad(sb, x);
    if (kind < 90 && !x.dtype.equals("bool")) return emit(sb, new Val(fresh(), x.dtype, x.dims), "integer_pow", "[y=" + (r.nextInt(7) - 2) + "]", x.name);
    if (kind < 92) return select(sb, scope, x);
    if (kind < 94) return more(sb, scope, x);
    return unary(sb, x);
  }

  /** Rarer primitives: clamp, dynamic_update_slice, sort, top_k, reduce_window_sum, reduce_precision, squeeze, dynamic_slice. */
  private Val more(StringBuilder sb, List<Val> scope, Val x) {
    switch (r.nextInt(8)) {
      case 0:
        if (x.dtype.equals("bool")) return unary(sb, x);
        return emit(sb, new Val(fresh(), x.dtype, x.dims), "clamp", "", literal(x.dtype), x.name, literal(x.dtype));
      case 1: {
        String[] ops = new String[x.rank() + 2];
        ops[0] = x.name;
        ops[1] = x.name;
        for (int i = 0; i < x.rank(); i++) ops[i + 2] = (r.nextInt(5) - 2) + ":i32[]";
        return emit(sb, new Val(fresh(), x.dtype, x.dims), "dynamic_update_slice", "", ops);
      }
      case 2:
        if (x.rank() == 0) return unary(sb, x);
        return emit(sb, new Val(fresh(), x.dtype, x.dims), "sort",
            "[dimension=" + r.nextInt(x.rank()) + " is_stable=True num_keys=1]", x.name);
      case 3: {
        if (x.rank() == 0 || x.dtype.equals("bool")) return unary(sb, x);
        int[] d = x.dims.clone();
        int k = d[d.length - 1] == 0 ? 0 : 1 + r.nextInt(d[d.length - 1]);
        d[d.length - 1] = k;
        Val idx = new Val(r.nextBoolean() ? "_" : fresh(), "i32", d);
        Val v = new Val(fresh(), x.dtype, d);
        sb.append(v.name).append(':').append(v.type()).append(' ').append(idx.name).append(':').append(idx.type())
            .append(" = top_k[axis=").append(x.rank() - 1).append(" k=").append(k).append("] ").append(x.name);
        return v;
      }
      case 4: {
        if (x.rank() == 0 || !isFloat(x.dtype)) return unary(sb, x);
        int[] win = new int[x.rank()];
        int[] out = new int[x.rank()];
        for (int i = 0; i < win.length; i++) {
          win[i] = 1 + r.nextInt(Math.max(1, Math.min(2, x.dims[i])));
          out[i] = Math.max(0, x.dims[i] - win[i] + 1);
        }
        int[] ones = new int[x.rank()];
        Arrays.fill(ones, 1);
        StringBuilder pad = new StringBuilder("(");
        for (int i = 0; i < x.rank(); i++) pad.append("(0, 0)").append(x.rank() == 1 ? "," : i + 1 < x.rank() ? ", " : "");
        pad.append(')');
        return emit(sb, new Val(fresh(), x.dtype, out), "reduce_window_sum",
            "[base_dilation=" + tuple(ones) + " padding=" + pad + " window_dilation=" + tuple(ones)
                + " window_dimensions=" + tuple(win) + " window_strides=" + tuple(ones) + "]", x.name);
      }
      case 5:
        if (!isFloat(x.dtype)) return unary(sb, x);
        return emit(sb, new Val(fresh(), x.dtype, x.dims), "reduce_precision",
            "[exponent_bits=" + (1 + r.nextInt(11)) + " mantissa_bits=" + r.nextInt(24) + "]", x.name);
      case 6: {
        int at = -1;
        for (int i = 0; i < x.rank(); i++) if (x.dims[i] == 1) at = i;
        if (at < 0) return reshape(sb, x);
        return emit(sb, new Val(fresh(), x.dtype, remove(x.dims, at)), "squeeze", "[dimensions=(" + at + ",)]", x.name);
      }
      default:
        return dynamicSlice(sb, x);
    }
  }

  private Val unary(StringBuilder sb, Val x) {
    String p = isFloat(x.dtype) ? pick(UNARY_FLOAT)
        : x.dtype.equals("bool") ? pick(UNARY_BOOL)
        : x.dtype.startsWith("u") ? pick(UNARY_UNSIGNED) : pick(UNARY_INT);
    String dt = p.equals("is_finite") ? "bool" : x.dtype;
    return emit(sb, new Val(fresh(), dt, x.dims), p, "", x.name);
  }

  private Val binary(StringBuilder sb, List<Val> scope, Val x) {
    String p = x.dtype.equals("bool") ? pick(BITWISE)
        : isFloat(x.dtype) ? (r.nextInt(4) == 0 ? pick(FLOAT_BINARY) : pick(ARITHMETIC))
        : r.nextInt(3) == 0 ? pick(r.nextBoolean() ? BITWISE : SHIFT) : pick(ARITHMETIC);
    String y = p.equals("add_any") ? x.name : operand(scope, x);
    boolean swap = r.nextBoolean();
    return emit(sb, new Val(fresh(), x.dtype, x.dims), p, "", swap ? y : x.name, swap ? x.name : y);
  }

  /** Another value of {@code x}'s type, or a scalar literal of its dtype. */
  private String operand(List<Val> scope, Val x) {
    if (r.nextInt(3) > 0) {
      for (int i = scope.size() - 1; i >= 0; i--) {
        if (scope.get(i) != x && scope.get(i).type().equals(x.type()) && r.nextBoolean()) return scope.get(i).name;
      }
    }
    return literal(x.dtype);
  }

  private Val reduce(StringBuilder sb, Val x) {
    if (x.rank() == 0) return unary(sb, x);
    String p = pick(REDUCE);
    if ((p.equals("reduce_and") || p.equals("reduce_or")) != x.dtype.equals("bool")) p = "reduce_max";
    int axis = r.nextInt(x.rank());
    int[] out = remove(x.dims, axis);
    if (p.startsWith("arg")) {
      return emit(sb, new Val(fresh(), "i32", out), p, "[axes=(" + axis + ",) index_dtype=int32]", x.name);
    }
    String dt = p.equals("reduce_and") || p.equals("reduce_or") ? "bool" : x.dtype;
    String extra = p.equals("reduce_sum") ? " out_sharding=None" : "";
    return emit(sb, new Val(fresh(), dt, out), p, "[axes=(" + axis + ",)" + extra + "]", x.name);
  }

  private Val broadcast(StringBuilder sb, Val x) {
    int[] out = new int[x.rank() + r.nextInt(2)];
    int lead = out.length - x.rank();
    for (int i = 0; i < lead; i++) out[i] = 1 + r.nextInt(4);
    StringBuilder bd = new StringBuilder("(");
    for (int i = 0; i < x.rank(); i++) {
      out[lead + i] = x.dims[i];
      bd.append(lead + i).append(x.rank() == 1 ? "," : i + 1 < x.rank() ? ", " : "");
    }
    bd.append(')');
    return emit(sb, new Val(fresh(), x.dtype, out), "broadcast_in_dim",
        "[broadcast_dimensions=" + bd + " shape=" + tuple(out) + " sharding=None]", x.name);
  }

  private Val reshape(StringBuilder sb, Val x) {
    int n = 1;
    for (int d : x.dims) n *= d;
    int[] out = r.nextBoolean() ? new int[] {n} : new int[] {1, n};
    return emit(sb, new Val(fresh(), x.dtype, out), "reshape",
        "[dimensions=None new_sizes=" + tuple(out) + " sharding=None]", x.name);
  }

  private Val transpose(StringBuilder sb, Val x) {
    int[] perm = new int[x.rank()];
    for (int i = 0; i < perm.length; i++) perm[i] = perm.length - 1 - i;
    int[] out = new int[x.rank()];
    for (int i = 0; i < out.length; i++) out[i] = x.dims[perm[i]];
    return emit(sb, new Val(fresh(), x.dtype, out), "transpose", "[permutation=" + tuple(perm) + "]", x.name);
  }

  private Val dot(StringBuilder sb, List<Val> scope, Val x) {
    if (x.rank() != 2 || !isFloat(x.dtype)) return unary(sb, x);
    int n = 1 + r.nextInt(5);
    Val y = new Val(fresh(), x.dtype, new int[] {x.dims[1], n});
    sb.append(y.name).append(':').append(y.type()).append(" = broadcast_in_dim[broadcast_dimensions=() shape=")
        .append(tuple(y.dims)).append(" sharding=None] ").append(literal(x.dtype)).append('\n')
        .append(" ".repeat(eqnIndent));
    scope.add(y);
    return emit(sb, new Val(fresh(), x.dtype, new int[] {x.dims[0], n}), "dot_general",
        "[dimension_numbers=(([1], [0]), ([], [])) precision=None preferred_element_type=" + numpy(x.dtype) + "]",
        x.name, y.name);
  }

  private Val slice(StringBuilder sb, Val x) {
    int[] start = new int[x.rank()];
    int[] limit = x.dims.clone();
    int[] strides = new int[x.rank()];
    int[] out = new int[x.rank()];
    for (int i = 0; i < x.rank(); i++) {
      start[i] = x.dims[i] > 1 ? r.nextInt(x.dims[i] - 1) : 0;
      strides[i] = 1 + r.nextInt(2);
      out[i] = Math.max(0, (limit[i] - start[i] + strides[i] - 1) / strides[i]);
    }
    return emit(sb, new Val(fresh(), x.dtype, out), "slice",
        "[limit_indices=" + tuple(limit) + " start_indices=" + tuple(start) + " strides=" + tuple(strides) + "]", x.name);
  }

  private Val concatenate(StringBuilder sb, Val x) {
    if (x.rank() == 0) return unary(sb, x);
    int axis = r.nextInt(x.rank());
    int[] out = x.dims.clone();
    out[axis] *= 2;
    return emit(sb, new Val(fresh(), x.dtype, out), "concatenate", "[dimension=" + axis + "]", x.name, x.name);
  }

  private Val iota(StringBuilder sb) {
    int[] d = dims(2);
    if (d.length == 0) d = new int[] {3};
    String dt = pick(INTS);
    return emit(sb, new Val(fresh(), dt, d), "iota",
        "[dimension=" + r.nextInt(d.length) + " dtype=" + numpy(dt) + " shape=" + tuple(d) + " sharding=None]");
  }

  private Val cumulative(StringBuilder sb, Val x) {
    if (x.rank() == 0 || x.dtype.equals("bool")) return unary(sb, x);
    String p = pick(new String[] {"cumsum", "cummax", "cummin", "cumprod", "cumlogsumexp"});
    return emit(sb, new Val(fresh(), x.dtype, x.dims), p,
        "[axis=" + r.nextInt(x.rank()) + " reverse=" + (r.nextBoolean() ? "True" : "False") + "]", x.name);
  }

  private Val pad(StringBuilder sb, Val x) {
    StringBuilder cfg = new StringBuilder("(");
    int[] out = new int[x.rank()];
    for (int i = 0; i < x.rank(); i++) {
      int lo = r.nextInt(3) - 1;
      int hi = r.nextInt(3);
      int in = r.nextInt(2);
      out[i] = Math.max(0, lo + hi + x.dims[i] + Math.max(0, x.dims[i] - 1) * in);
      cfg.append('(').append(lo).append(", ").append(hi).append(", ").append(in).append(')')
          .append(x.rank() == 1 ? "," : i + 1 < x.rank() ? ", " : "");
    }
    cfg.append(')');
    return emit(sb, new Val(fresh(), x.dtype, out), "pad", "[padding_config=" + cfg + "]", x.name, literal(x.dtype));
  }

  private Val select(StringBuilder sb, List<Val> scope, Val x) {
    Val p = new Val(fresh(), "bool", x.dims);
    sb.append(p.name).append(':').append(p.type()).append(" = lt ").append(x.name).append(' ')
        .append(literal(x.dtype)).append('\n').append(" ".repeat(eqnIndent));
    scope.add(p);
    String other = x.name;
    for (int i = scope.size() - 1; i >= 0; i--) if (scope.get(i).type().equals(x.type())) other = scope.get(i).name;
    return emit(sb, new Val(fresh(), x.dtype, x.dims), "select_n", "", p.name, x.name, other);
  }

  private Val dynamicSlice(StringBuilder sb, Val x) {
    int[] sizes = new int[x.rank()];
    String[] ops = new String[x.rank() + 1];
    ops[0] = x.name;
    for (int i = 0; i < x.rank(); i++) {
      sizes[i] = 1 + r.nextInt(x.dims[i] == 0 ? 1 : x.dims[i]);
      ops[i + 1] = (r.nextInt(5) - 2) + ":i32[]";
    }
    return emit(sb, new Val(fresh(), x.dtype, sizes), "dynamic_slice", "[slice_sizes=" + tuple(sizes) + "]", ops);
  }

  /** cond, while, scan or pjit over a few values in scope. */
  private Val control(StringBuilder sb, List<Val> scope, int indent) {
    List<Val> args = new ArrayList<>();
    for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) args.add(pick(scope));
    String in = " ".repeat(indent + 2);
    int which = r.nextInt(4);
    if (which == 0) { // pjit / jit
      StringBuilder body = new StringBuilder();
      List<Val> outs = jaxpr(body, List.of(), renamed(args), 1 + r.nextInt(4), indent + 2, -1);
      List<Val> res = results(outs);
      binderList(sb, res);
      sb.append(" = ").append(r.nextBoolean() ? "pjit" : "jit").append("[\n").append(in).append("jaxpr=")
          .append(body).append('\n').append(in).append("name=f\n").append(" ".repeat(indent)).append("] ");
      names(sb, args);
      return res.get(0);
    }
    if (which == 1) { // cond: every branch returns values of the first branch's output types
      StringBuilder first = new StringBuilder();
      List<Val> outs = jaxpr(first, List.of(), renamed(args), 1 + r.nextInt(3), indent + 4, -1);
      StringBuilder second = new StringBuilder();
      jaxpr(second, List.of(), renamed(args), 1 + r.nextInt(3), indent + 4, outs.size(), outs);
      List<Val> res = results(outs);
      binderList(sb, res);
      sb.append(" = cond[\n").append(in).append("branches=(\n").append(in).append("  ").append(first).append('\n')
          .append(in).append("  ").append(second).append('\n').append(in).append(")\n")
          .append(" ".repeat(indent)).append("] ").append(r.nextInt(3) - 1).append(":i32[] ");
      names(sb, args);
      return res.get(0);
    }
    if (which == 2) { // while with an i32 counter carried first
      Val counter = new Val(fresh(), "i32", new int[0]);
      List<Val> carry = new ArrayList<>();
      carry.add(counter);
      carry.addAll(renamed(args));
      StringBuilder cond = new StringBuilder();
      List<Val> cin = renamed(carry);
      String pred = fresh();
      cond.append("{ lambda ; ");
      binders(cond, cin);
      cond.append(". let ").append(pred).append(":bool[] = lt ").append(cin.get(0).name).append(' ')
          .append(r.nextInt(6) - 1).append(":i32[] in (").append(pred).append(",) }");
      StringBuilder body = new StringBuilder();
      List<Val> bin = renamed(carry);
      jaxpr(body, List.of(), bin, 1 + r.nextInt(3), indent + 4, carry.size(), carry);
      List<Val> res = results(carry);
      binderList(sb, res);
      sb.append(" = while[\n").append(in).append("body_jaxpr=").append(body).append('\n').append(in)
          .append("body_nconsts=0\n").append(in).append("cond_jaxpr=").append(cond).append('\n').append(in)
          .append("cond_nconsts=0\n").append(" ".repeat(indent)).append("] ").append(r.nextInt(3)).append(":i32[] ");
      names(sb, args);
      return res.get(res.size() - 1);
    }
    // scan over the leading axis of one array, carrying a scalar-free copy of another
    Val xs = pick(scope);
    if (xs.rank() == 0) return unary(sb, xs);
    int length = xs.dims[0];
    Val x = new Val(fresh(), xs.dtype, Arrays.copyOfRange(xs.dims, 1, xs.rank()));
    Val carry = new Val(fresh(), args.get(0).dtype, args.get(0).dims);
    StringBuilder body = new StringBuilder();
    List<Val> outs = jaxpr(body, List.of(), List.of(carry, x), 1 + r.nextInt(3), indent + 2, 2, List.of(carry, x));
    List<Val> res = new ArrayList<>();
    res.add(new Val(fresh(), carry.dtype, carry.dims));
    int[] ys = new int[outs.get(1).rank() + 1];
    ys[0] = length;
    System.arraycopy(outs.get(1).dims, 0, ys, 1, ys.length - 1);
    res.add(new Val(fresh(), outs.get(1).dtype, ys));
    binderList(sb, res);
    sb.append(" = scan[\n").append(in).append("_split_transpose=False\n").append(in).append("jaxpr=").append(body)
        .append('\n').append(in).append("length=").append(length).append('\n').append(in)
        .append("linear=(False, False)\n").append(in).append("num_carry=1\n").append(in).append("num_consts=0\n")
        .append(in).append("reverse=").append(r.nextBoolean() ? "True" : "False").append('\n').append(in)
        .append("unroll=1\n").append(" ".repeat(indent)).append("] ").append(args.get(0).name).append(' ')
        .append(xs.name);
    return res.get(1);
  }

  private List<Val> renamed(List<Val> vs) {
    List<Val> r2 = new ArrayList<>();
    for (Val v : vs) r2.add(new Val(fresh(), v.dtype, v.dims));
    return r2;
  }

  private List<Val> results(List<Val> outs) {
    List<Val> r2 = new ArrayList<>();
    for (Val v : outs) r2.add(new Val(r.nextInt(8) == 0 ? "_" : fresh(), v.dtype, v.dims));
    if (r2.get(0).name.equals("_")) r2.set(0, new Val(fresh(), r2.get(0).dtype, r2.get(0).dims));
    return r2;
  }

  private static void binderList(StringBuilder sb, List<Val> vs) {
    for (int i = 0; i < vs.size(); i++) sb.append(i > 0 ? " " : "").append(vs.get(i).name).append(':').append(vs.get(i).type());
  }

  private static void names(StringBuilder sb, List<Val> vs) {
    for (int i = 0; i < vs.size(); i++) sb.append(i > 0 ? " " : "").append(vs.get(i).name);
  }

  /** {@code name:type = prim[params] ops}, with a rare deliberate error in the declared type. */
  private Val emit(StringBuilder sb, Val out, String prim, String params, String... ops) {
    Val declared = out;
    if (r.nextInt(40) == 0) {
      declared = r.nextBoolean() || out.rank() == 0
          ? new Val(out.name, other(out.dtype), out.dims)
          : new Val(out.name, out.dtype, bump(out.dims));
    }
    sb.append(declared.name).append(':').append(declared.type()).append(" = ").append(prim).append(params);
    for (String o : ops) sb.append(' ').append(o);
    return declared;
  }

  private int[] bump(int[] d) {
    int[] c = d.clone();
    c[r.nextInt(c.length)] += 1;
    return c;
  }

  private String fresh() {
    int n = nextName++;
    // JAX's names: a … z, ba … bz, ca …; no name but `a` starts with `a`.
    if (n < 26) return String.valueOf((char) ('a' + n));
    StringBuilder sb = new StringBuilder();
    while (n > 0) {
      sb.append((char) ('a' + n % 26));
      n /= 26;
    }
    return sb.reverse().toString();
  }

  private String dtype() {
    int k = r.nextInt(10);
    return k < 6 ? pick(FLOATS) : k < 9 ? pick(INTS) : "bool";
  }

  private String other(String dt) {
    String o = dtype();
    return o.equals(dt) ? (dt.equals("f32") ? "i32" : "f32") : o;
  }

  private int[] dims(int maxRank) {
    int[] d = new int[r.nextInt(maxRank + 1)];
    for (int i = 0; i < d.length; i++) d[i] = r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(6);
    return d;
  }

  private String axes(Val x) {
    if (x.rank() == 0) return "()";
    return "(" + r.nextInt(x.rank()) + ",)";
  }

  private String literal(String dt) {
    if (dt.equals("bool")) return (r.nextBoolean() ? "True" : "False") + ":bool[]";
    if (isFloat(dt)) {
      String[] v = {"0.0", "1.0", "-2.5", "inf", "-inf", "nan", "1e-07", "3.4028234663852886e+38", "-0.0"};
      return pick(v) + ":" + dt + "[]";
    }
    // In range for every integer dtype but, rarely, one that is not (a rejection to exercise).
    String[] v = r.nextInt(30) == 0 ? new String[] {"-1", "255", "-2147483648", "2147483647", "65536"}
        : dt.startsWith("u") ? new String[] {"0", "1", "7", "100"} : new String[] {"0", "1", "-1", "7", "-100"};
    return pick(v) + ":" + dt + "[]";
  }

  private static boolean isFloat(String dt) {
    return dt.startsWith("f") || dt.startsWith("bf");
  }

  private static String numpy(String dt) {
    return switch (dt) {
      case "f32" -> "float32";
      case "f64" -> "float64";
      case "f16" -> "float16";
      case "bf16" -> "bfloat16";
      case "i32" -> "int32";
      case "i64" -> "int64";
      case "i8" -> "int8";
      case "i16" -> "int16";
      case "u8" -> "uint8";
      case "u32" -> "uint32";
      case "bool" -> "bool";
      default -> dt;
    };
  }

  private static int[] remove(int[] d, int axis) {
    int[] o = new int[d.length - 1];
    for (int i = 0, j = 0; i < d.length; i++) if (i != axis) o[j++] = d[i];
    return o;
  }

  static String dimsText(int[] d) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < d.length; i++) sb.append(i > 0 ? "," : "").append(d[i]);
    return sb.append(']').toString();
  }

  private static String tuple(int[] d) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < d.length; i++) sb.append(i > 0 ? ", " : "").append(d[i]);
    return sb.append(d.length == 1 ? ",)" : ")").toString();
  }

  private Val pick(List<Val> xs) {
    return xs.get(r.nextInt(xs.size()));
  }

  private String pick(String[] xs) {
    return xs[r.nextInt(xs.length)];
  }
}
