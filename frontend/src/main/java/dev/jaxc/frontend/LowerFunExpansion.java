package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.pass.random.Emitter;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expands the special functions JAX lowers with {@code mlir.lower_fun} — igamma, igammac,
 * igamma_grad_a, random_gamma_grad, regularized_incomplete_beta and bessel_i0e — into the very
 * equations JAX's lowering traces and XLA compiles, so jaxc computes what XLA computes, series,
 * continued fractions and loop counts included (random_gamma too: {@link #gamma}); and bessel_i1e,
 * zeta and polygamma, which JAX hands
 * to XLA as CHLO ops, into XLA's decompositions of them, written in JAX and recorded once checked
 * bit for bit.
 *
 * <p>The equations are JAX's own, recorded by {@code testdata/generate_expansions.py} as jaxprs
 * traced on f32 and f64 operands of shape [9973] (resources {@code expansions/NAME_f32.jaxpr},
 * {@code NAME_f64.jaxpr}); the script proves the operand size a free parameter of the trace. Each
 * equation {@code r = P a b …} of shape S becomes what {@code _up_and_broadcast} does around the
 * trace: operands broadcast to S, f16 and bf16 computed in f32, flattened to [n] (n the size of
 * S), a call of the recorded jaxpr with 9973 read as n, and the result reshaped and converted
 * back. The call is inlined by the canonical pipeline like any other {@code jit}. Nested jaxprs
 * are rewritten too.
 *
 * <p>Run it on a typed program (after the type pass); its result type-checks again.
 */
public final class LowerFunExpansion extends EqnRewriter {
  /** The primitives expanded here. */
  public static final Set<String> PRIMITIVES = Set.of("igamma", "igammac", "igamma_grad_a", "random_gamma_grad",
      "regularized_incomplete_beta", "bessel_i0e", "bessel_i1e", "zeta", "polygamma", "random_gamma", "cholesky", "triangular_solve", "fft", "lu", "tridiagonal_solve",
      "lu_pivots_to_permutation", "qr", "eigh", "svd");
  /** The operand size the recorded jaxprs were traced at. */
  private static final String TRACED = "9973";
  /** random_gamma's trace: 9967 keys, each split 9973 ways (their product first, then each). */
  private static final long GAMMA_KEYS = 9967;
  private static final long GAMMA_SPLIT = 9973;
  private static final Map<String, String> TEXTS = new HashMap<>();

  private final FreshNames names;
  /** Typed instances by primitive, dtype and size: a model's repeated uses share one. */
  private final Map<String, Jaxpr> instances = new HashMap<>();

  private LowerFunExpansion(FreshNames names) {
    this.names = names;
  }

  public static Program run(Program p) {
    return p.withMain(new LowerFunExpansion(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!PRIMITIVES.contains(e.primitive())) {
      keep(e, ins, out);
    } else if (e.primitive().equals("lu") || e.primitive().equals("qr") || e.primitive().equals("eigh")
        || e.primitive().equals("svd")) {
      Emitter em = new Emitter(names, out, e);
      List<Atom> r = e.primitive().equals("lu") ? lu(e, ins, em) : e.primitive().equals("qr") ? qr(e, ins, em)
          : e.primitive().equals("eigh") ? eigh(e, ins, em) : svd(e, ins, em);
      for (int i = 0; i < r.size(); i++) scope.put(e.outs().get(i), r.get(i));
    } else {
      scope.put(e.outs().get(0), expand(e, ins, new Emitter(names, out, e)));
    }
  }

  /** What {@code _up_and_broadcast} and the lowering's trace compute for {@code e}. */
  private Atom expand(Eqn e, List<Atom> ins, Emitter em) {
    if (e.primitive().equals("random_gamma")) return gamma(e, ins, em);
    if (e.primitive().equals("cholesky") || e.primitive().equals("triangular_solve")) return linalg(e, ins, em);
    if (e.primitive().equals("fft")) return fft(e, ins, em);
    if (e.primitive().equals("tridiagonal_solve") || e.primitive().equals("lu_pivots_to_permutation"))
      return generic(e, ins, em);
    ArrayType t = (ArrayType) e.outs().get(0).type();
    DType d = t.dtype();
    DType c = switch (d) {
      case F16, BF16, F32 -> DType.F32;
      case F64 -> DType.F64;
      default -> throw new JaxcException(e.primitive() + " of " + d.shortName() + " (JAX takes floats only)", e.primSpan());
    };
    if (!t.shape().isStatic())
      throw new JaxcException(e.primitive() + " of the symbolic shape " + t.shape().text() + " is not supported", e.primSpan());
    Shape s = t.shape();
    long n = s.elementCount();
    Shape flat = Shape.of(n);
    List<Atom> args = new ArrayList<>();
    for (Atom a : ins) {
      ArrayType at = (ArrayType) a.type();
      Atom x = a;
      if (!at.shape().equals(s)) x = em.broadcastInDim(x, s, leading(at.rank()));
      if (at.dtype() != c) x = em.convert(x, c);
      if (!s.equals(flat)) x = em.reshape(x, flat);
      args.add(x);
    }
    String tag = c == DType.F64 ? "f64" : "f32";
    Jaxpr body = instance(e.primitive() + "_" + tag, c == DType.F64, List.<String[]>of(new String[] {TRACED, Long.toString(n)}));
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom r = em.emit("jit", call, new ArrayType(c, flat), args.toArray(new Atom[0]));
    if (!s.equals(flat)) r = em.reshape(r, s);
    if (c != d) r = em.convert(r, d);
    return r;
  }

  private static long[] leading(int rank) {
    long[] r = new long[rank];
    for (int i = 0; i < rank; i++) r[i] = i;
    return r;
  }

  /**
   * random_gamma as its lowering traces it ({@code _gamma_impl}, threefry keys): the keys
   * flattened to [K], the shape parameters to [K, S] (each key split S ways), in the dtype of the
   * shape parameters; the result reshaped back.
   */
  private Atom gamma(Eqn e, List<Atom> ins, Emitter em) {
    if (!(ins.get(0).type() instanceof Type.KeyType key) || !key.impl().equals("fry"))
      throw new JaxcException("random_gamma: only threefry keys are supported (got " + ins.get(0).type().text() + ")",
          e.primSpan());
    ArrayType at = (ArrayType) ins.get(1).type();
    if (!at.shape().isStatic() || !key.shape().isStatic())
      throw new JaxcException("random_gamma of a symbolic shape is not supported", e.primSpan());
    long[] dims = at.shape().sizes();
    int kr = key.shape().rank();
    long k = 1;
    long s = 1;
    for (int i = 0; i < dims.length; i++) {
      if (i < kr) k *= dims[i];
      else s *= dims[i];
    }
    DType d = at.dtype();
    String tag = switch (d) {
      case F32 -> "f32";
      case F64 -> "f64";
      case F16 -> "f16";
      case BF16 -> "bf16";
      default -> throw new JaxcException("random_gamma of " + d.shortName() + " (JAX takes floats only)", e.primSpan());
    };
    Atom keys = ins.get(0);
    if (!key.shape().equals(Shape.of(k)))
      keys = em.emit("reshape", Emitter.params("new_sizes", ints(k), "dimensions", new ParamValue.None(), "sharding",
          new ParamValue.None()), new Type.KeyType(key.impl(), Shape.of(k)), keys);
    Shape grid = Shape.of(k, s);
    Atom alphas = at.shape().equals(grid) ? ins.get(1) : em.reshape(ins.get(1), grid);
    boolean log = e.params().getBool("log_space", false);
    Jaxpr body = instance("random_gamma_" + (log ? "log" : "linear") + "_" + tag, d == DType.F64, List.of(
        new String[] {Long.toString(GAMMA_KEYS * GAMMA_SPLIT), Long.toString(k * s)},
        new String[] {Long.toString(GAMMA_KEYS), Long.toString(k)},
        new String[] {Long.toString(GAMMA_SPLIT), Long.toString(s)}));
    Params call = Emitter.params("name", new ParamValue.Str("random_gamma"), "jaxpr", new ParamValue.JaxprValue(body));
    Atom r = em.emit("jit", call, new ArrayType(d, grid), keys, alphas);
    return at.shape().equals(grid) ? r : em.reshape(r, at.shape());
  }

  /** The batch, matrix size and right-hand-side count the linear algebra was traced at. */
  private static final long LA_B = 9967;
  private static final long LA_M = 9973;
  private static final long LA_K = 9949;

  /**
   * cholesky and triangular_solve: jaxc's own algorithms, written in JAX and recorded like the
   * others (generate_expansions.py), for a batch of B matrices of size m (and k right-hand sides):
   * the batch dimensions flattened to B, the result reshaped back.
   */
  private Atom linalg(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException(e.primitive() + " of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException(e.primitive() + " of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    String name;
    long k = 1;
    Shape bShape = null;
    ArrayType resultType = (ArrayType) e.outs().get(0).type();
    if (e.primitive().equals("cholesky")) {
      name = "cholesky";
    } else {
      boolean left = e.params().getBool("left_side", false);
      long[] b = ((ArrayType) ins.get(1).type()).shape().sizes();
      k = left ? b[r - 1] : b[r - 2];
      bShape = left ? Shape.of(batch, m, k) : Shape.of(batch, k, m);
      name = "triangular_solve_" + (left ? "l" : "r") + (e.params().getBool("lower", false) ? "lo" : "up")
          + (e.params().getBool("transpose_a", false) ? "t" : "n") + (e.params().getBool("unit_diagonal", false) ? "u" : "d");
    }
    String tag = d.shortName();
    Shape flatA = Shape.of(batch, m, m);
    List<Atom> args = new ArrayList<>();
    Atom a0 = ins.get(0);
    // conjugate_a: the solve of conj(a) (then transposed as transpose_a says), a no-op on reals.
    if (e.primitive().equals("triangular_solve") && d.isComplex() && e.params().getBool("conjugate_a", false))
      a0 = em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)), at, a0);
    args.add(at.shape().equals(flatA) ? a0 : em.reshape(a0, flatA));
    if (bShape != null) {
      Atom b = ins.get(1);
      args.add(((ArrayType) b.type()).shape().equals(bShape) ? b : em.reshape(b, bShape));
    }
    long bb = batch;
    long kk = k;
    Jaxpr body = instance(name + "_" + tag, d == DType.F64 || d == DType.C128, laPairs(bb, m, kk));
    Shape flatOut = bShape != null ? bShape : flatA;
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom out = em.emit("jit", call, new ArrayType(d, flatOut), args.toArray(new Atom[0]));
    return resultType.shape().equals(flatOut) ? out : em.reshape(out, resultType.shape());
  }

  /** The batch and lengths the FFT was traced at (a direct DFT of N1, or four steps of N1·N2). */
  private static final long FFT_B = 9967;
  private static final long FFT_N1 = 9973;
  private static final long FFT_N2 = 9949;
  /** Lengths up to this are transformed directly (one product with the twiddle matrix). */
  private static final long DIRECT = 64;

  /**
   * fft: along each of the last axes in turn, a transform of length n (the inverse divided by n):
   * directly for short or prime n, else in four steps n = n1·n2 (n1 the largest divisor up to √n).
   * RFFT transforms the real input along the last axis and keeps n/2 + 1 values before the other
   * axes; IRFFT transforms the other axes first, then rebuilds the Hermitian spectrum of the last
   * and keeps the real part.
   */
  private Atom fft(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType in = (ArrayType) ins.get(0).type();
    ArrayType out = (ArrayType) e.outs().get(0).type();
    int type = fftType(e);
    long[] lengths = e.params().getLongs("fft_lengths");
    if (!in.shape().isStatic()) throw new JaxcException("fft of a symbolic shape is not supported", e.primSpan());
    DType c = in.dtype() == DType.F64 || in.dtype() == DType.C128 ? DType.C128 : DType.C64;
    int r = in.rank();
    int first = r - lengths.length;
    Atom x = ins.get(0);
    switch (type) {
      case 0, 1 -> {
        for (int ax = first; ax < r; ax++) x = along(em, x, ax, type == 1, c);
      }
      case 2 -> {
        x = em.convert(x, c);
        x = along(em, x, r - 1, false, c);
        long n = lengths[lengths.length - 1];
        x = sliceLast(em, x, 0, n / 2 + 1);
        for (int ax = first; ax < r - 1; ax++) x = along(em, x, ax, false, c);
      }
      case 3 -> {
        for (int ax = first; ax < r - 1; ax++) x = along(em, x, ax, true, c);
        long n = lengths[lengths.length - 1];
        long h = ((ArrayType) x.type()).shape().sizes()[r - 1];
        if (h != n / 2 + 1) x = sliceLast(em, x, 0, Math.min(h, n / 2 + 1));
        // The Hermitian rest: x[n − k] conjugated for k from n/2 + 1 to n − 1.
        long rest = n - (n / 2 + 1);
        if (rest > 0) {
          Atom tail = sliceLast(em, x, 1, 1 + rest);
          ArrayType tt = (ArrayType) tail.type();
          tail = em.emit("rev", Emitter.params("dimensions", ints(r - 1)), tt, tail);
          tail = em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(c)), tt, tail);
          x = em.concatenate(r - 1, x, tail);
        }
        x = along(em, x, r - 1, true, c);
        x = em.emit("real", Params.EMPTY, ((ArrayType) x.type()).withDType(c == DType.C128 ? DType.F64 : DType.F32), x);
      }
      default -> throw new JaxcException("fft: unknown fft_type " + type, e.primSpan());
    }
    return x.type().equals(out) ? x : em.convert(x, out.dtype());
  }

  /** fft_type as a number: 0 FFT, 1 IFFT, 2 RFFT, 3 IRFFT (older JAX prints FftType.NAME). */
  private static int fftType(Eqn e) {
    ParamValue v = e.params().get("fft_type").orElseThrow(() -> new JaxcException("fft: no fft_type", e.primSpan()));
    if (v instanceof ParamValue.Int i) return i.value().intValue();
    String s = v instanceof ParamValue.Enum en ? en.member() : v instanceof ParamValue.Text t ? t.text() : v.toString();
    s = s.substring(s.lastIndexOf('.') + 1);
    return switch (s) {
      case "FFT" -> 0;
      case "IFFT" -> 1;
      case "RFFT" -> 2;
      case "IRFFT" -> 3;
      default -> throw new JaxcException("fft: unknown fft_type " + s, e.primSpan());
    };
  }

  private static Atom sliceLast(Emitter em, Atom x, long from, long to) {
    long[] sizes = ((ArrayType) x.type()).shape().sizes();
    long[] start = new long[sizes.length];
    long[] limit = sizes.clone();
    start[sizes.length - 1] = from;
    limit[sizes.length - 1] = to;
    return em.emit("slice", Emitter.params("start_indices", ints(start), "limit_indices", ints(limit), "strides",
        new ParamValue.None()), ((ArrayType) x.type()).withShape(Shape.of(minus(limit, start))), x);
  }

  /** The transform of length n along axis {@code axis} of x (complex). */
  private Atom along(Emitter em, Atom x, int axis, boolean inverse, DType c) {
    ArrayType t = (ArrayType) x.type();
    long[] sizes = t.shape().sizes();
    int r = sizes.length;
    long n = sizes[axis];
    if (n == 0) return x;
    int[] perm = new int[r];
    for (int i = 0, j = 0; i < r; i++) if (i != axis) perm[j++] = i;
    perm[r - 1] = axis;
    boolean moved = axis != r - 1;
    long[] movedSizes = new long[r];
    for (int i = 0; i < r; i++) movedSizes[i] = sizes[perm[i]];
    Atom y = moved ? em.emit("transpose", Emitter.params("permutation", ints(toLongs(perm))), t.withShape(Shape.of(movedSizes)), x) : x;
    long batch = 1;
    for (int i = 0; i < r - 1; i++) batch *= movedSizes[i];
    Shape flat = Shape.of(batch, n);
    if (!Shape.of(movedSizes).equals(flat)) y = em.reshape(y, flat);
    String way = inverse ? "inv" : "fwd";
    String tag = c == DType.C128 ? "c128" : "c64";
    long n1 = 1;
    if (n > DIRECT) for (long d = 2; d * d <= n; d++) if (n % d == 0) n1 = d;
    Jaxpr body;
    if (n1 == 1) {
      body = instance("dft_" + way + "_" + tag, c == DType.C128, List.of(pair(FFT_B * FFT_N1, batch * n),
          pair(FFT_N1 * FFT_N1, n * n), pair(FFT_B, batch), pair(FFT_N1, n)));
    } else {
      long n2 = n / n1;
      body = instance("fft4_" + way + "_" + tag, c == DType.C128, List.of(pair(FFT_B * FFT_N1 * FFT_N2, batch * n),
          pair(FFT_N1 * FFT_N1, n1 * n1), pair(FFT_N2 * FFT_N2, n2 * n2), pair(FFT_N1 * FFT_N2, n),
          pair(FFT_B * FFT_N1, batch * n1), pair(FFT_B * FFT_N2, batch * n2), pair(FFT_B, batch), pair(FFT_N1, n1),
          pair(FFT_N2, n2)));
    }
    Params call = Emitter.params("name", new ParamValue.Str("fft"), "jaxpr", new ParamValue.JaxprValue(body));
    y = em.emit("jit", call, new ArrayType(c, flat), y);
    if (!Shape.of(movedSizes).equals(flat)) y = em.reshape(y, Shape.of(movedSizes));
    if (!moved) return y;
    int[] back = new int[r];
    for (int i = 0; i < r; i++) back[perm[i]] = i;
    return em.emit("transpose", Emitter.params("permutation", ints(toLongs(back))), t, y);
  }

  private static long[] toLongs(int[] xs) {
    long[] r = new long[xs.length];
    for (int i = 0; i < xs.length; i++) r[i] = xs[i];
    return r;
  }

  private static long[] minus(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[i] - b[i];
    return r;
  }

  /**
   * lu: LU with partial pivoting as LAPACK's getrf pivots (jaxc's own algorithm, written in JAX),
   * of a batch of m×n matrices: the tall form (m ≥ n) or the wide one; results (lu, pivots,
   * permutation) reshaped back.
   */
  private List<Atom> lu(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("lu of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("lu of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long k = Math.min(m, n);
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean tall = m >= n;
    long big = tall ? m : n;  // the traced 9973
    long small = tall ? n : m;  // the traced 9949
    Jaxpr body = instance("lu_" + (tall ? "tall" : "wide") + "_" + d.shortName(), d == DType.F64 || d == DType.C128,
        laPairs(batch, big, small));
    Shape flat = Shape.of(batch, m, n);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    List<Var> ys = List.of(em.fresh(new ArrayType(d, flat)), em.fresh(new ArrayType(DType.I32, Shape.of(batch, k))),
        em.fresh(new ArrayType(DType.I32, Shape.of(batch, m))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("lu"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    List<Atom> r2 = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ArrayType want = (ArrayType) e.outs().get(i).type();
      r2.add(want.shape().equals(((ArrayType) ys.get(i).type()).shape()) ? ys.get(i) : em.reshape(ys.get(i), want.shape()));
    }
    return r2;
  }

  /**
   * tridiagonal_solve (the Thomas algorithm) and lu_pivots_to_permutation (swaps in a loop) as
   * JAX's own generic lowerings trace them: for a batch of B systems of size m with k right-hand
   * sides (b [.., m, k]), or B rows of k pivots into permutations of size m.
   */
  private Atom generic(Eqn e, List<Atom> ins, Emitter em) {
    boolean tri = e.primitive().equals("tridiagonal_solve");
    ArrayType first = (ArrayType) ins.get(0).type();
    ArrayType result = (ArrayType) e.outs().get(0).type();
    if (!first.shape().isStatic() || !result.shape().isStatic())
      throw new JaxcException(e.primitive() + " of a symbolic shape is not supported", e.primSpan());
    if (tri && e.params().getBool("perturb_singular", false))
      throw new JaxcException("tridiagonal_solve: perturb_singular=True is not supported (as on JAX's CPU)", e.primSpan());
    long[] res = result.shape().sizes();
    int r = res.length;
    long batch = 1;
    long m;
    long k;
    List<Shape> flat = new ArrayList<>();
    Shape out;
    String name;
    if (tri) {
      DType d = result.dtype();
      if (!d.isFloating() && !d.isComplex())
        throw new JaxcException("tridiagonal_solve of " + d.shortName(), e.primSpan());
      for (int i = 0; i < r - 2; i++) batch *= res[i];
      m = res[r - 2];
      k = res[r - 1];
      for (int i = 0; i < 3; i++) flat.add(Shape.of(batch, m));
      out = Shape.of(batch, m, k);
      flat.add(out);
      name = "tridiagonal_solve_" + d.shortName();
    } else {
      long[] piv = first.shape().sizes();
      for (int i = 0; i < piv.length - 1; i++) batch *= piv[i];
      k = piv[piv.length - 1];
      m = res[r - 1];
      flat.add(Shape.of(batch, k));
      out = Shape.of(batch, m);
      name = "lu_pivots_to_permutation_i32";
    }
    List<Atom> args = new ArrayList<>();
    for (int i = 0; i < ins.size(); i++) {
      Atom x = ins.get(i);
      args.add(((ArrayType) x.type()).shape().equals(flat.get(i)) ? x : em.reshape(x, flat.get(i)));
    }
    boolean x64 = result.dtype() == DType.F64 || result.dtype() == DType.C128;
    Jaxpr body = instance(name, x64, List.of(pair(LA_B * LA_M * LA_K, batch * m * k),
        pair(LA_B * (LA_M - 1) * LA_K, batch * (m - 1) * k), pair(LA_M * LA_K, m * k), pair((LA_M - 1) * LA_K, (m - 1) * k),
        pair(LA_B * LA_M, batch * m), pair(LA_B * (LA_M - 1), batch * (m - 1)), pair(LA_B * LA_K, batch * k),
        pair(LA_B, batch), pair(LA_M, m), pair(LA_M - 1, m - 1), pair(LA_K, k)));
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom y = em.emit("jit", call, new ArrayType(result.dtype(), out), args.toArray(new Atom[0]));
    return result.shape().equals(out) ? y : em.reshape(y, result.shape());
  }

  /**
   * The replacements of the linear algebra templates traced at batch LA_B, sizes LA_M and LA_K
   * (products first, as generate_expansions.py's check orders them).
   */
  private static List<String[]> laPairs(long b, long m, long k) {
    return List.of(pair(LA_B * LA_M * LA_M, b * m * m), pair(LA_B * LA_M * LA_K, b * m * k),
        pair(LA_B * LA_K * LA_K, b * k * k), pair(LA_M * LA_M, m * m), pair(LA_M * LA_K, m * k), pair(LA_K * LA_K, k * k),
        pair(LA_B * LA_M, b * m), pair(LA_B * LA_K, b * k), pair(LA_B, b), pair(LA_M, m), pair(LA_K, k),
        pair(LA_K - 1, k - 1), pair(LA_M - 1, m - 1));
  }

  /**
   * qr: Householder QR as LAPACK's geqrf and orgqr/ungqr (the same reflectors, so the same signs),
   * jaxc's own algorithm written in JAX, for a batch of m×n matrices: tall or wide, full or
   * reduced; results reshaped back. Column pivoting is not supported.
   */
  private List<Atom> qr(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("qr of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (e.params().getBool("pivoting", false))
      throw new JaxcException("qr with pivoting=True is not supported yet", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("qr of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean full = e.params().getBool("full_matrices", false);
    boolean tall = m >= n;
    String name = "qr_" + (tall ? "tall" : "wide") + "_" + (full ? "full" : "reduced") + "_" + d.shortName();
    Jaxpr body = instance(name, d == DType.F64 || d == DType.C128, laPairs(batch, tall ? m : n, tall ? n : m));
    Shape flat = Shape.of(batch, m, n);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    long k = Math.min(m, n);
    List<Var> ys = List.of(em.fresh(new ArrayType(d, Shape.of(batch, m, full ? m : k))),
        em.fresh(new ArrayType(d, Shape.of(batch, full ? m : k, n))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("qr"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    List<Atom> out = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ArrayType want = (ArrayType) e.outs().get(i).type();
      out.add(want.shape().equals(((ArrayType) ys.get(i).type()).shape()) ? ys.get(i) : em.reshape(ys.get(i), want.shape()));
    }
    return out;
  }

  /**
   * eigh of real symmetric matrices: cyclic Jacobi rotations (jaxc's own algorithm, written in
   * JAX), eigenvalues ascending, the eigenvectors' signs the rotations' (JAX leaves them
   * unspecified; LAPACK's may differ); subset_by_index slices the results. Complex: not yet.
   */
  private List<Atom> eigh(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64)
      throw new JaxcException("eigh of " + d.shortName() + " is not supported yet (f32 and f64 are)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("eigh of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean lower = e.params().getBool("lower", true);
    Jaxpr body = instance("eigh_" + (lower ? "lower" : "upper") + "_" + d.shortName(), d == DType.F64, laPairs(batch, m, 1));
    Shape flat = Shape.of(batch, m, m);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    List<Var> ys = List.of(em.fresh(new ArrayType(d, flat)), em.fresh(new ArrayType(d, Shape.of(batch, m))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("eigh"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    Atom v = ys.get(0);
    Atom w = ys.get(1);
    long[] subset = e.params().getLongsOpt("subset_by_index").orElse(null);
    if (subset != null && subset.length == 2 && (subset[0] != 0 || subset[1] != m)) {
      v = em.emit("slice", Emitter.params("start_indices", ints(0, 0, subset[0]), "limit_indices", ints(batch, m, subset[1]),
          "strides", new ParamValue.None()), new ArrayType(d, Shape.of(batch, m, subset[1] - subset[0])), v);
      w = em.emit("slice", Emitter.params("start_indices", ints(0, subset[0]), "limit_indices", ints(batch, subset[1]),
          "strides", new ParamValue.None()), new ArrayType(d, Shape.of(batch, subset[1] - subset[0])), w);
    }
    List<Atom> out = new ArrayList<>();
    Atom[] got = {v, w};
    for (int i = 0; i < 2; i++) {
      ArrayType want = (ArrayType) e.outs().get(i).type();
      out.add(want.shape().equals(((ArrayType) got[i].type()).shape()) ? got[i] : em.reshape(got[i], want.shape()));
    }
    return out;
  }

  /**
   * svd of real matrices: one-sided Jacobi (jaxc's own algorithm, written in JAX) on the tall form
   * (a wide matrix transposed, U and Vᴴ swapped back), singular values descending, the vector pairs'
   * signs the rotations'; U (or, wide, Vᴴ) made orthonormal and, with full_matrices, completed
   * through Householder QR. No subsets yet.
   */
  private List<Atom> svd(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64)
      throw new JaxcException("svd of " + d.shortName() + " is not supported yet (f32 and f64 are)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("svd of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    boolean uv = e.params().getBool("compute_uv", true);
    boolean full = uv && e.params().getBool("full_matrices", true) && m != n;
    if (e.params().getLongsOpt("subset_by_index").isPresent())
      throw new JaxcException("svd with subset_by_index is not supported yet", e.primSpan());
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean tall = m >= n;
    long big = tall ? m : n;
    long small = tall ? n : m;
    Atom x = at.shape().equals(Shape.of(batch, m, n)) ? ins.get(0) : em.reshape(ins.get(0), Shape.of(batch, m, n));
    if (!tall) x = em.emit("transpose", Emitter.params("permutation", ints(0, 2, 1)), new ArrayType(d, Shape.of(batch, n, m)), x);
    Jaxpr body = instance("svd_" + (uv ? full ? "uv_full" : "uv" : "s") + "_" + d.shortName(), d == DType.F64,
        laPairs(batch, big, small));
    List<Var> ys = new ArrayList<>();
    ys.add(em.fresh(new ArrayType(d, Shape.of(batch, small))));
    long uCols = full ? big : small;
    if (uv) {
      ys.add(em.fresh(new ArrayType(d, Shape.of(batch, big, uCols))));
      ys.add(em.fresh(new ArrayType(d, Shape.of(batch, small, small))));
    }
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("svd"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    List<Atom> got = new ArrayList<>(ys);
    if (uv && !tall) {
      // Aᵀ = U'·S·V'ᴴ, so A = V'·S·U'ᴴ: u = (V'ᴴ)ᵀ, vᴴ = U'ᵀ.
      Atom u = em.emit("transpose", Emitter.params("permutation", ints(0, 2, 1)), new ArrayType(d, Shape.of(batch, small, small)),
          ys.get(2));
      Atom vt = em.emit("transpose", Emitter.params("permutation", ints(0, 2, 1)), new ArrayType(d, Shape.of(batch, uCols, big)),
          ys.get(1));
      got = List.of(ys.get(0), u, vt);
    }
    List<Atom> out = new ArrayList<>();
    for (int i = 0; i < got.size(); i++) {
      ArrayType want = (ArrayType) e.outs().get(i).type();
      Atom g = got.get(i);
      out.add(want.shape().equals(((ArrayType) g.type()).shape()) ? g : em.reshape(g, want.shape()));
    }
    return out;
  }

  private static String[] pair(long traced, long value) {
    return new String[] {Long.toString(traced), Long.toString(value)};
  }

  private static ParamValue.Tuple ints(long... xs) {
    List<ParamValue> items = new ArrayList<>();
    for (long x : xs) items.add(ParamValue.Int.of(x));
    return new ParamValue.Tuple(items);
  }

  /**
   * The recorded jaxpr {@code name}, typed, with each traced number replaced by its value here
   * ({@code replacements}: pairs, in order).
   */
  private Jaxpr instance(String name, boolean x64, List<String[]> replacements) {
    StringBuilder key = new StringBuilder(name);
    for (String[] r : replacements) key.append('_').append(r[1]);
    return instances.computeIfAbsent(key.toString(), k -> {
      // Through placeholders, so that no value written in can be taken for a traced number.
      String text = text(name);
      for (int i = 0; i < replacements.size(); i++) text = text.replace(replacements.get(i)[0], "\u0000" + i + "\u0000");
      for (int i = 0; i < replacements.size(); i++) text = text.replace("\u0000" + i + "\u0000", replacements.get(i)[1]);
      Program p = JaxprParser.parse("expansions/" + name + ".jaxpr", text);
      Jaxpr j = TypePass.run(p, new TypeConfig(x64, PromotionMode.STANDARD), new Diagnostics()).main();
      if (!j.constvars().isEmpty()) throw new IllegalStateException("expansions/" + name + ".jaxpr closes over constants");
      return j;
    });
  }

  private static synchronized String text(String name) {
    return TEXTS.computeIfAbsent(name, k -> {
      try (InputStream in = LowerFunExpansion.class.getResourceAsStream("expansions/" + k + ".jaxpr")) {
        if (in == null) throw new IllegalStateException("missing resource expansions/" + k + ".jaxpr");
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    });
  }
}
