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
 * the real dtype (f32 for c64: angles from exact integer products t·k < n).
 */
final class FftGemm {
  /** The largest length transformed by one product, and the radix of the four-step recursion. */
  static final long RADIX = 64;

  private final Emitter em;
  private final DType c;
  private final DType real;
  private final boolean inverse;

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
    if (r == 1) return dft(d, s, parts, n);
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

  /** W[t, in, out, k] (real, [r, 2, 2, r]) of the r-point DFT in real form. */
  private Atom dftMatrix(long r) {
    Shape s = Shape.of(r, r);
    // t·k reduced mod r: the angle stays below 2π, where f32 resolves it to 5e-7.
    Atom tk = em.binary("mul", em.iota(DType.I32, s, 0), em.iota(DType.I32, s, 1));
    Atom[] cs = cosSin(em.binary("rem", tk, new Literal(Scalar.Int.of(r), ArrayType.scalar(DType.I32), true, Span.NONE)), s, r);
    Atom wr = cs[0];
    Atom wi = cs[1];
    Atom neg = em.emit("neg", Params.EMPTY, new ArrayType(real, s), wi);
    // W[t, 0, ·, k] = (wr, wi), W[t, 1, ·, k] = (−wi, wr).
    Shape cell = Shape.of(r, 1, 1, r);
    Atom fromRe = em.concatenate(2, em.broadcastInDim(wr, cell, 0, 3), em.broadcastInDim(wi, cell, 0, 3));
    Atom fromIm = em.concatenate(2, em.broadcastInDim(neg, cell, 0, 3), em.broadcastInDim(wr, cell, 0, 3));
    return em.concatenate(1, fromRe, fromIm);
  }

  /** cos and ∓sin of the twiddles w_n^(t2·k1) for t2 < m, k1 < r (each [m, r], real). */
  private Atom[] twiddles(long m, long r, long n) {
    Shape s = Shape.of(m, r);
    return cosSin(em.binary("mul", em.iota(DType.I32, s, 0), em.iota(DType.I32, s, 1)), s, n);
  }

  /** cos and ∓sin of 2π·p/n for the exact integer products p < n (∓: the forward transform's sign). */
  private Atom[] cosSin(Atom p, Shape s, long n) {
    Atom angle = em.binary("mul", em.convert(p, real),
        em.broadcastInDim(literal(real, (inverse ? 2 : -2) * Math.PI / n), s));
    ArrayType t = new ArrayType(real, s);
    Params acc = Emitter.params("accuracy", new ParamValue.None());
    return new Atom[] {em.emit("cos", acc, t, angle), em.emit("sin", acc, t, angle)};
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
