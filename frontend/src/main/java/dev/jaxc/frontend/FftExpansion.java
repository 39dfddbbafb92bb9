package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.List;

/**
 * fft as {@link LowerFunExpansion} expands it: along each transformed axis in turn, the
 * transform of every line by real matrix products ({@link FftGemm}).
 */
final class FftExpansion {
  /** The longest transformed axis: 2^26 points (a c64 row of 512 MiB). */
  static final long MAX_LENGTH = 1L << 26;

  /**
   * fft: along each of the last axes in turn, a transform of length n (the inverse divided by n):
   * at once for short n, in four steps recursively, and through Bluestein's convolution for a
   * long prime factor ({@link FftGemm}).
   * RFFT transforms the real input along the last axis and keeps n/2 + 1 values before the other
   * axes; IRFFT transforms the other axes first, then rebuilds the Hermitian spectrum of the last
   * and keeps the real part.
   */
  Atom fft(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType in = (ArrayType) ins.get(0).type();
    ArrayType out = (ArrayType) e.outs().get(0).type();
    int type = fftType(e);
    long[] lengths = e.params().getLongs("fft_lengths");
    if (!in.shape().isStatic()) throw new JaxcException("fft of a symbolic shape is not supported", e.primSpan());
    DType c = in.dtype() == DType.F64 || in.dtype() == DType.C128 ? DType.C128 : DType.C64;
    for (long n : lengths) {
      // Twiddle angles are exact int32 arithmetic in eighths of a turn, over Bluestein's 4n too.
      if (n > MAX_LENGTH)
        throw new JaxcException("fft of length " + n + " is not supported (at most " + MAX_LENGTH + " points per axis)", e.primSpan());
    }
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
    long[] limit = ((ArrayType) x.type()).shape().sizes().clone();
    long[] start = new long[limit.length];
    start[limit.length - 1] = from;
    limit[limit.length - 1] = to;
    return em.slice(x, start, limit);
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
    y = new FftGemm(em, c, inverse).rows(y, batch, n);
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
}
