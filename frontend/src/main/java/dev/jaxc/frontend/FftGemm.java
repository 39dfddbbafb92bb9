package dev.jaxc.frontend;

import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * The discrete Fourier transform of each row of a complex [B, n] as real matrix products, so it
 * runs on the packed GEMM kernel: a length r ≤ {@link #RADIX} (or a length with no divisor up to
 * it) is one product with the DFT matrix written in real form (re and im of the input against re
 * and im of the output: a [2r, 2r] real matrix); a longer one is Bailey's four steps n = r·m,
 * recursively: a DFT of length r down the columns of [B, r, m] (one product), the twiddles
 * w_n^(t·k), the m-point transforms of the rows (recursively), and the transpose that puts
 * X[k1 + r·k2] in order. Work: about 4·n·Σr real multiply-adds per row (r the radices), a few
 * times an FFT's count but at the GEMM's speed; twiddles are computed at run time from iota in
 * the real dtype (f32 for c64: angles from exact integer products t·k < n). A length above
 * {@link #BLUESTEIN_FROM} with no divisor up to RADIX goes through {@link FftBluestein}.
 */
final class FftGemm {
  /** The largest length transformed by one product, and the radix of the four-step recursion. */
  static final long RADIX = 64;

  private final Emitter em;
  private final DType c;
  private final DType real;
  private final boolean inverse;
  /** The DFT matrices emitted so far, by length (levels of the same radix share one). */
  private final java.util.Map<Long, Atom> matrices = new java.util.HashMap<>();

  FftGemm(Emitter em, DType c, boolean inverse) {
    this.em = em;
    this.c = c;
    this.real = c == DType.C128 ? DType.F64 : DType.F32;
    this.inverse = inverse;
  }

  /** The transform of each row of x: c[b, n] → c[b, n], the inverse divided by n. */
  Atom rows(Atom x, long b, long n) {
    if (n == 1) return x;
    // Real form [b, n, 2] (re, im last); each level keeps the data real, its re/im axis second to
    // last after the first product.
    Shape s = Shape.of(b, n);
    Shape one = Shape.of(b, n, 1);
    Atom re = em.reshape(em.emit("real", Params.EMPTY, new ArrayType(real, s), x), one);
    Atom im = em.reshape(em.emit("imag", Params.EMPTY, new ArrayType(real, s), x), one);
    Atom d = em.concatenate(2, re, im);
    Atom y = level(d, Shape.of(b, n, 2), 2, n);
    // y [b, k1, …, kL-1, 2, kL] (real) holds X[k1 + r1·(k2 + r2·(…))]: the digits reversed.
    long[] ys = ((ArrayType) y.type()).shape().sizes();
    int rank = ys.length;
    long[] ks = new long[rank - 1];
    System.arraycopy(ys, 0, ks, 0, rank - 2);
    ks[rank - 2] = ys[rank - 1];
    Atom yr = em.reshape(part(y, ys, rank - 2, 0), Shape.of(ks));
    Atom yi = em.reshape(part(y, ys, rank - 2, 1), Shape.of(ks));
    Atom z = em.emit("complex", Params.EMPTY, new ArrayType(c, Shape.of(ks)), yr, yi);
    if (ks.length > 2) {
      long[] perm = new long[ks.length];
      long[] to = new long[ks.length];
      perm[0] = 0;
      to[0] = b;
      for (int i = 1; i < ks.length; i++) {
        perm[i] = ks.length - i;
        to[i] = ks[ks.length - i];
      }
      z = em.emit("transpose", Emitter.params("permutation", longs(perm)), new ArrayType(c, Shape.of(to)), z);
    }
    z = em.reshape(z, s);
    if (!inverse) return z;
    Atom count = em.broadcastInDim(em.convert(literal(real, n), c), s);
    return em.binary("div", z, count);
  }

  /**
   * The n-point transform along axis 1 of the real-form d (sizes {@code s}, re/im on axis
   * {@code parts}): axis 1 and the re/im axis go, and [2, k] (re/im, then the frequency) are
   * appended; a four-step level leaves its k1 before the rest's.
   */
  private Atom level(Atom d, Shape s, int parts, long n) {
    long r = radix(n);
    if (r == 1) return n > BLUESTEIN_FROM ? bluestein(d, s, parts, n) : dft(d, s, parts, n);
    long m = n / r;
    long[] sizes = s.sizes();
    // t = t1·m + t2: axis 1 becomes (t1, t2).
    long[] split = new long[sizes.length + 1];
    split[0] = sizes[0];
    split[1] = r;
    split[2] = m;
    System.arraycopy(sizes, 2, split, 3, sizes.length - 2);
    Atom a = em.reshape(d, Shape.of(split));
    Atom y = dft(a, Shape.of(split), parts + 1, r);  // [b, t2, rest…, 2, k1]
    long[] ys = ((ArrayType) y.type()).shape().sizes();
    int rank = ys.length;
    // The twiddles w_n^(t2·k1), in real form: (yr·tr − yi·ti, yr·ti + yi·tr).
    Atom[] t = twiddles(m, r, n);
    long[] half = ys.clone();
    half[rank - 2] = 1;
    Shape h = Shape.of(half);
    Atom tr = em.broadcastInDim(t[0], h, 1, rank - 1);
    Atom ti = em.broadcastInDim(t[1], h, 1, rank - 1);
    Atom yr = part(y, ys, rank - 2, 0);
    Atom yi = part(y, ys, rank - 2, 1);
    Atom zr = em.binary("sub", em.binary("mul", yr, tr), em.binary("mul", yi, ti));
    Atom zi = em.binary("add", em.binary("mul", yr, ti), em.binary("mul", yi, tr));
    Atom z = em.concatenate(rank - 2, zr, zi);
    return level(z, Shape.of(ys), rank - 2, m);
  }

  /**
   * The longest length without a divisor up to RADIX transformed by one dense product (4·n² real
   * multiply-adds per row); a longer one goes through Bluestein's convolution (two transforms of
   * a power of two about 2n long: about 8·M·ΣM's radices), which costs less from about here.
   */
  static final long BLUESTEIN_FROM = 1024;

  /**
   * {@link #dft}'s result by Bluestein's algorithm ({@link FftBluestein}): the real form taken
   * back to complex rows and the result put in dft's layout (x's other axes, then [2, n]).
   */
  private Atom bluestein(Atom d, Shape s, int parts, long n) {
    long[] sizes = s.sizes();
    int rank = sizes.length;
    long[] perm = new long[rank];
    long[] moved = new long[rank];
    long b = 1;
    for (int i = 0, j = 0; i < rank; i++) {
      if (i == 1 || i == parts) continue;
      perm[j] = i;
      moved[j++] = sizes[i];
      b *= sizes[i];
    }
    perm[rank - 2] = parts;
    perm[rank - 1] = 1;
    moved[rank - 2] = 2;
    moved[rank - 1] = n;
    Atom t = em.emit("transpose", Emitter.params("permutation", longs(perm)), new ArrayType(real, Shape.of(moved)), d);
    Atom re = em.reshape(part(t, moved, rank - 2, 0), Shape.of(b, n));
    Atom im = em.reshape(part(t, moved, rank - 2, 1), Shape.of(b, n));
    Atom z = em.emit("complex", Params.EMPTY, new ArrayType(c, Shape.of(b, n)), re, im);
    Atom y = new FftBluestein(em, c, inverse).rows(z, b, n);
    long[] one = moved.clone();
    one[rank - 2] = 1;
    Atom yr = em.reshape(em.emit("real", Params.EMPTY, new ArrayType(real, Shape.of(b, n)), y), Shape.of(one));
    Atom yi = em.reshape(em.emit("imag", Params.EMPTY, new ArrayType(real, Shape.of(b, n)), y), Shape.of(one));
    return em.concatenate(rank - 2, yr, yi);
  }

  /** A length of n up to RADIX is transformed at once; else its largest divisor up to RADIX (1: none). */
  private static long radix(long n) {
    if (n <= RADIX) return 1;
    for (long d = RADIX; d >= 2; d--) if (n % d == 0) return d;
    return 1;
  }

  /**
   * The r-point DFT along axis 1 of the real-form x (sizes {@code s}, re/im on axis {@code parts}):
   * one product contracting (axis 1, re/im) with W[t, in, out, k] (in, out: 0 re, 1 im), W =
   * [[wr, wi], [−wi, wr]] for w = e^(∓2πi·t·k/r); the result has x's other axes in order, then
   * [2, r].
   */
  private Atom dft(Atom x, Shape s, int parts, long r) {
    long[] sizes = s.sizes();
    int rank = sizes.length;
    Atom w = dftMatrix(r);
    List<Long> outSizes = new ArrayList<>();
    for (int i = 0; i < rank; i++) if (i != 1 && i != parts) outSizes.add(sizes[i]);
    long[] out = new long[outSizes.size() + 2];
    for (int i = 0; i < outSizes.size(); i++) out[i] = outSizes.get(i);
    out[out.length - 2] = 2;
    out[out.length - 1] = r;
    Params dn = Emitter.params(
        "dimension_numbers", new ParamValue.Tuple(List.of(
            new ParamValue.Tuple(List.of(longs(1, parts), longs(0, 1))),
            new ParamValue.Tuple(List.of(longs(), longs())))),
        "precision", new ParamValue.None(),
        "preferred_element_type", new ParamValue.DTypeValue(real));
    return em.emit("dot_general", dn, new ArrayType(real, Shape.of(out)), x, w);
  }

  /** y[…, p, …] on axis {@code axis} of y (sizes {@code sizes}), that axis kept (size 1). */
  private Atom part(Atom y, long[] sizes, int axis, int p) {
    long[] start = new long[sizes.length];
    long[] limit = sizes.clone();
    start[axis] = p;
    limit[axis] = p + 1;
    long[] size = sizes.clone();
    size[axis] = 1;
    return em.emit("slice", Emitter.params("start_indices", longs(start), "limit_indices", longs(limit), "strides",
        new ParamValue.None()), new ArrayType(real, Shape.of(size)), y);
  }

  /**
   * W[t, in, out, k] (real, [r, 2, 2, r]) of the r-point DFT in real form, one per r: wr = cos θ,
   * wi = sin θ and −wi are cos(θ + (in − out)·π/2), so each entry is one cosine of an angle
   * reduced exactly in integers (units of 2π/4r), with no concatenation.
   */
  private Atom dftMatrix(long r) {
    Atom known = matrices.get(r);
    if (known != null) return known;
    Shape s = Shape.of(r, 2, 2, r);
    Atom tk = em.binary("rem", em.binary("mul", em.iota(DType.I32, s, 0), em.iota(DType.I32, s, 3)), int32(r));
    Atom quarter = em.binary("mul", em.binary("sub", em.iota(DType.I32, s, 1), em.iota(DType.I32, s, 2)), int32(r));
    Atom turn = em.binary("mul", tk, int32(inverse ? 4 : -4));
    Atom q = em.binary("rem", em.binary("add", em.binary("add", turn, quarter), int32(8 * r)), int32(4 * r));
    Atom w = turns(q, s, 4 * r, false)[0];
    matrices.put(r, w);
    return w;
  }

  private static Literal int32(long v) {
    return new Literal(Scalar.Int.of(v), ArrayType.scalar(DType.I32), true, Span.NONE);
  }

  /** cos and ∓sin of the twiddles w_n^(t2·k1) for t2 < m, k1 < r (each [m, r], real). */
  private Atom[] twiddles(long m, long r, long n) {
    Shape s = Shape.of(m, r);
    return turns(em.binary("mul", em.iota(DType.I32, s, 0), em.iota(DType.I32, s, 1)), s, n, !inverse);
  }

  /** The Taylor terms of sin and cos on [0, π/4]: through x^19 and x^18 (below 1e-19 there). */
  private static final int SIN_TERMS = 10;

  private static final int COS_TERMS = 10;

  /**
   * cos θ and sin θ (−sin θ with {@code negateSin}) of θ = 2π·q/units for integers 0 ≤ q < units,
   * without the math library's sin and cos: their argument reduction (Payne–Hanek, gathers from a
   * table) took most of a small FFT's time. The octant k = ⌊8q/units⌋ and the angle into it are
   * exact integer arithmetic; the angle ψ ∈ [0, π/4] (from the octant's nearer edge) goes into
   * short Taylor series, and the octant's symmetries swap and negate the pair.
   */
  static Atom[] turns(Emitter em, DType real, Atom q, Shape s, long units, boolean negateSin) {
    return new FftGemm(em, real == DType.F64 ? DType.C128 : DType.C64, false).turns(q, s, units, negateSin);
  }

  private Atom[] turns(Atom q, Shape s, long units, boolean negateSin) {
    if (8 * units >= Integer.MAX_VALUE) throw new IllegalStateException("fft length too large: " + units);
    ArrayType it = new ArrayType(DType.I32, s);
    ArrayType bt = new ArrayType(DType.BOOL, s);
    ArrayType ft = new ArrayType(real, s);
    Atom e = em.binary("mul", q, int32(8));
    Atom k = em.binary("div", e, int32(units));
    Atom v = em.binary("sub", e, em.binary("mul", k, int32(units)));
    Atom odd = em.emit("ne", Params.EMPTY, bt, em.emit("and", Params.EMPTY, it, k, int32(1)), int32(0));
    Atom w = select(odd, v, em.binary("sub", em.broadcastInDim(int32(units), s), v), ft.withDType(DType.I32));
    Atom psi = em.binary("mul", em.convert(w, real), em.broadcastInDim(literal(real, Math.PI / 4 / units), s));
    Atom x2 = em.binary("mul", psi, psi);
    // sin ψ = ψ·Σ (−1)^j ψ^(2j) / (2j+1)!, cos ψ = Σ (−1)^j ψ^(2j) / (2j)!, by Horner in ψ².
    Atom sp = em.broadcastInDim(literal(real, taylor(2 * SIN_TERMS - 1)), s);
    for (int j = SIN_TERMS - 2; j >= 0; j--) sp = em.binary("add", em.binary("mul", sp, x2), em.broadcastInDim(literal(real, taylor(2 * j + 1)), s));
    Atom sn = em.binary("mul", sp, psi);
    Atom cs = em.broadcastInDim(literal(real, taylor(2 * COS_TERMS - 2)), s);
    for (int j = COS_TERMS - 2; j >= 0; j--) cs = em.binary("add", em.binary("mul", cs, x2), em.broadcastInDim(literal(real, taylor(2 * j)), s));
    // Octants 1, 2, 5, 6 swap cos and sin; 2–5 negate cos; 4–7 negate sin.
    Atom swap = em.emit("ne", Params.EMPTY, bt, em.emit("and", Params.EMPTY, it, em.binary("add", k, int32(1)), int32(2)), int32(0));
    Atom cosNeg = em.emit("ne", Params.EMPTY, bt, em.emit("and", Params.EMPTY, it, em.binary("add", k, int32(2)), int32(4)), int32(0));
    Atom sinNeg = em.emit(negateSin ? "eq" : "ne", Params.EMPTY, bt, em.emit("and", Params.EMPTY, it, k, int32(4)), int32(0));
    Atom c = select(swap, cs, sn, ft);
    Atom si = select(swap, sn, cs, ft);
    c = select(cosNeg, c, em.emit("neg", Params.EMPTY, ft, c), ft);
    si = select(sinNeg, si, em.emit("neg", Params.EMPTY, ft, si), ft);
    return new Atom[] {c, si};
  }

  /** (−1)^(d/2 rounded down)/d!: the Taylor coefficient of ψ^d in sin (d odd) or cos (d even). */
  private static double taylor(int d) {
    double f = 1;
    for (int i = 2; i <= d; i++) f *= i;
    return ((d / 2) % 2 == 0 ? 1 : -1) / f;
  }

  /** {@code pred ? whenTrue : whenFalse}. */
  private Atom select(Atom pred, Atom whenFalse, Atom whenTrue, ArrayType t) {
    return em.emit("select_n", Params.EMPTY, t, pred, whenFalse, whenTrue);
  }

  private static Literal literal(DType d, double v) {
    return new Literal(new Scalar.Float(v), ArrayType.scalar(d), true, Span.NONE);
  }

  private static Literal literal(DType d, long v) {
    return new Literal(new Scalar.Float(v), ArrayType.scalar(d), true, Span.NONE);
  }

  private static ParamValue.Tuple longs(long... xs) {
    List<ParamValue> items = new ArrayList<>();
    for (long x : xs) items.add(ParamValue.Int.of(x));
    return new ParamValue.Tuple(items);
  }
}
