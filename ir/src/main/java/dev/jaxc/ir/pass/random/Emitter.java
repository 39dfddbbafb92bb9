package dev.jaxc.ir.pass.random;

import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Appends the equations that replace one source equation. Every new equation carries the source
 * equation's spans, so later errors point at what the user wrote. Params are spelled as JAX
 * spells them.
 */
public final class Emitter {
  private final FreshNames names;
  private final List<Eqn> out;
  private final Eqn source;

  public Emitter(FreshNames names, List<Eqn> out, Eqn source) {
    this.names = names;
    this.out = out;
    this.source = source;
  }

  Eqn source() {
    return source;
  }

  /** Adds {@code outs = prim[params] ins} with the source's spans. */
  public void add(List<Var> outs, String prim, Params params, List<Atom> ins) {
    out.add(new Eqn(outs, prim, params, ins, source.span(), source.primSpan()));
  }

  /**
   * The source equation itself with new results, params and operands; operand use sites are
   * kept, and an operand added at the end has none.
   */
  void rewritten(List<Var> outs, Params params, List<Atom> ins) {
    List<Span> spans = new ArrayList<>(source.inSpans());
    while (!spans.isEmpty() && spans.size() < ins.size()) spans.add(Span.NONE);
    out.add(new Eqn(outs, source.primitive(), params, ins, source.span(), source.primSpan(),
        spans));
  }

  public Var fresh(Type t) {
    return new Var(names.next(), t);
  }

  /** One equation with one result of type {@code t}. */
  public Var emit(String prim, Params params, Type t, Atom... ins) {
    Var r = fresh(t);
    add(List.of(r), prim, params, List.of(ins));
    return r;
  }

  /** The sizes of {@code s}; the expansion needs them known. */
  long[] sizes(Shape s) {
    if (!s.isStatic())
      throw new JaxcException(
          source.primitive() + " on PRNG keys of the symbolic shape " + s.text()
              + " is not supported",
          source.primSpan());
    return s.sizes();
  }

  public static Literal literal(DType d, long value) {
    return new Literal(Scalar.Int.of(value), ArrayType.scalar(d), true, Span.NONE);
  }

  static ArrayType array(Atom a) {
    return (ArrayType) a.type();
  }

  // ---- the primitives the expansion emits ----

  /** {@code x[start:limit]} (unit strides). */
  public Var slice(Atom x, long[] start, long[] limit) {
    Shape s = Shape.of(minus(limit, start));
    return emit("slice", params("start_indices", ints(start), "limit_indices", ints(limit),
        "strides", new ParamValue.None()), array(x).withShape(s), x);
  }

  Var squeeze(Atom x, int dim) {
    List<Dim> dims = new ArrayList<>(array(x).shape().dims());
    dims.remove(dim);
    return emit("squeeze", params("dimensions", ints(dim)), array(x).withShape(new Shape(dims)), x);
  }

  public Var reshape(Atom x, Shape to) {
    return emit("reshape", params("new_sizes", ints(sizes(to)), "dimensions",
        new ParamValue.None(), "sharding", new ParamValue.None()), array(x).withShape(to), x);
  }

  public Var broadcastInDim(Atom x, Shape to, long... dims) {
    return emit("broadcast_in_dim", params("shape", ints(sizes(to)), "broadcast_dimensions",
        ints(dims), "sharding", new ParamValue.None()), array(x).withShape(to).withWeak(false), x);
  }

  public Var concatenate(int dim, Atom... xs) {
    List<Dim> dims = new ArrayList<>(array(xs[0]).shape().dims());
    long n = 0;
    for (Atom x : xs) n += sizes(array(x).shape())[dim];
    dims.set(dim, Dim.of(n));
    return emit("concatenate", params("dimension", ParamValue.Int.of(dim)),
        array(xs[0]).withShape(new Shape(dims)), xs);
  }

  public Var convert(Atom x, DType to) {
    return emit("convert_element_type", params("new_dtype", new ParamValue.DTypeValue(to),
        "weak_type", new ParamValue.Bool(false), "sharding", new ParamValue.None()),
        array(x).withDType(to).withWeak(false), x);
  }

  public Var iota(DType d, Shape s, int dim) {
    return emit("iota", params("dtype", new ParamValue.DTypeValue(d), "shape", ints(sizes(s)),
        "dimension", ParamValue.Int.of(dim), "sharding", new ParamValue.None()),
        new ArrayType(d, s), new Atom[0]);
  }

  public Var transpose(Atom x, long... perm) {
    long[] from = sizes(array(x).shape());
    long[] to = new long[perm.length];
    for (int i = 0; i < perm.length; i++) to[i] = from[(int) perm[i]];
    return emit("transpose", params("permutation", ints(perm)), array(x).withShape(Shape.of(to)), x);
  }

  /** An elementwise binary op whose operands share a dtype; a scalar joins the other's shape. */
  public Var binary(String prim, Atom a, Atom b) {
    ArrayType t = array(a).rank() > 0 ? array(a) : array(b);
    return emit(prim, Params.EMPTY, new ArrayType(t.dtype(), t.shape()), a, b);
  }

  // ---- params ----

  public static Params params(Object... kv) {
    Map<String, ParamValue> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (ParamValue) kv[i + 1]);
    return new Params(m);
  }

  public static ParamValue.Tuple ints(long... xs) {
    List<ParamValue> items = new ArrayList<>(xs.length);
    for (long x : xs) items.add(ParamValue.Int.of(x));
    return new ParamValue.Tuple(items);
  }

  static ParamValue.Tuple ints(int x) {
    return ints(new long[] {x});
  }

  /** {@code 0, 1, …, n-1} shifted by {@code from}. */
  static long[] range(int from, int n) {
    long[] r = new long[n];
    for (int i = 0; i < n; i++) r[i] = from + i;
    return r;
  }

  static long[] append(long[] xs, long x) {
    long[] r = Arrays.copyOf(xs, xs.length + 1);
    r[xs.length] = x;
    return r;
  }

  private static long[] minus(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[i] - b[i];
    return r;
  }
}
