package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.random.Emitter;

/**
 * Bluestein's algorithm: the n-point DFT of each row of a complex [B, n] as a circular
 * convolution of length M (the least power of two ≥ 2n − 1), run by {@link FftGemm}'s transforms
 * of length M, for lengths whose dense DFT matrix would cost more (a large prime, or a factor
 * left after the radices). With t·k = (t² + k² − (k − t)²)/2 and w = e^(∓πi/n):
 * X[k] = w^(k²) · Σ_t (x[t]·w^(t²)) · w^(−(k−t)²), the sum a convolution with the chirp
 * w^(−j²) for |j| < n. The chirps' angles π·(j² mod 2n)/n are reduced exactly in 64-bit
 * integers; the chirp's transform is computed once per call, not per row.
 */
final class FftBluestein {
  private final Emitter em;
  private final DType c;
  private final DType real;
  private final boolean inverse;

  FftBluestein(Emitter em, DType c, boolean inverse) {
    this.em = em;
    this.c = c;
    this.real = c == DType.C128 ? DType.F64 : DType.F32;
    this.inverse = inverse;
  }

  /** The convolution length for n: the least power of two at least 2n − 1. */
  static long convolutionLength(long n) {
    long m = 1;
    while (m < 2 * n - 1) m *= 2;
    return m;
  }

  /** The unscaled transform of each row of x: c[b, n] → c[b, n]. */
  Atom rows(Atom x, long b, long n) {
    long m = convolutionLength(n);
    // a[t] = x[t]·w^(t²), zero-padded to M.
    Atom a = em.binary("mul", x, em.broadcastInDim(chirp(n, n, false), Shape.of(b, n), 1));
    Atom zeros = em.broadcastInDim(em.convert(literal(0.0), c), Shape.of(b, m - n));
    a = em.concatenate(1, a, zeros);
    // The filter w^(−j²) at j and M − j for j < n, zero between.
    Atom filter = em.reshape(chirp(n, m, true), Shape.of(1, m));
    Atom fa = new FftGemm(em, c, false).rows(a, b, m);
    Atom ff = em.reshape(new FftGemm(em, c, false).rows(filter, 1, m), Shape.of(m));
    Atom prod = em.binary("mul", fa, em.broadcastInDim(ff, Shape.of(b, m), 1));
    Atom conv = new FftGemm(em, c, true).rows(prod, b, m);
    Atom head = em.slice(conv, new long[] {0, 0}, new long[] {b, n});
    return em.binary("mul", head, em.broadcastInDim(chirp(n, n, false), Shape.of(b, n), 1));
  }

  /**
   * The chirp over {@code size} positions: w^(j²) (or w^(−j²) with {@code conjugate}) at
   * j = min(p, size − p) for position p; with size &gt; n, zero where that j is n or more
   * (the circular filter).
   */
  private Atom chirp(long n, long size, boolean conjugate) {
    Shape s = Shape.of(size);
    Atom p = em.iota(DType.I64, s, 0);
    Atom j = p;
    if (size > n) j = em.binary("min", p, em.binary("sub", em.broadcastInDim(int64(size), s), p));
    // π·j²/n = 2π·(j² mod 2n)/(2n): exact while j² fits 63 bits.
    Atom q = em.convert(em.binary("rem", em.binary("mul", j, j), int64(2 * n)), DType.I32);
    // Forward: w = e^(−πi/n), so w^(j²) has angle −π·j²/n; the inverse and the conjugate flip it.
    boolean negative = !inverse ^ conjugate;
    Atom[] cs = FftGemm.turns(em, real, q, s, 2 * n, negative);
    Atom w = em.emit("complex", Params.EMPTY, new ArrayType(c, s), cs[0], cs[1]);
    if (size <= n) return w;
    Atom inside = em.emit("lt", Params.EMPTY, new ArrayType(DType.BOOL, s), j, int64(n));
    Atom zero = em.broadcastInDim(em.convert(literal(0.0), c), s);
    return em.emit("select_n", Params.EMPTY, new ArrayType(c, s), inside, zero, w);
  }

  private Literal literal(double v) {
    return new Literal(new Scalar.Float(v), ArrayType.scalar(real), true, Span.NONE);
  }

  private static Literal int64(long v) {
    return new Literal(Scalar.Int.of(v), ArrayType.scalar(DType.I64), true, Span.NONE);
  }
}
