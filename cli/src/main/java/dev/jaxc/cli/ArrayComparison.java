package dev.jaxc.cli;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.ir.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;

/**
 * The golden-case comparison of one output (architecture.md): dtype and shape equal; integers
 * and booleans exactly; floats (each part of a complex) within {@code atol + rtol·|expected|},
 * infinities exactly, and NaN exactly where NaN is expected. Two refinements keep a wrong output
 * from passing: with no tolerance at all (rtol = atol = 0) floats must have the same bits (so
 * −0 ≠ +0; NaN payloads may differ), and an output whose every value lies below atol is compared
 * relative to its own scale ({@link #scaledAtol}).
 */
final class ArrayComparison {
  private ArrayComparison() {}

  /** Empty if {@code actual} matches {@code expected}, else why not (first difference, count). */
  static Optional<String> compare(NpyArray expected, NpyArray actual, double rtol, double atol) {
    if (expected.dtype() != actual.dtype() || !Arrays.equals(expected.shape(), actual.shape()))
      return Optional.of("got " + actual.describe() + ", expected " + expected.describe());
    DType d = expected.dtype();
    int parts = d.isComplex() ? 2 : 1;
    int width = d.byteSize() / parts;
    ByteBuffer e = ByteBuffer.wrap(expected.data()).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer a = ByteBuffer.wrap(actual.data()).order(ByteOrder.LITTLE_ENDIAN);
    long n = expected.elementCount();
    // No tolerance: the same bits (a zero's sign included; any NaN matches any NaN).
    boolean exact = !d.isInexact() || (rtol == 0 && atol == 0);
    double scaledAtol = d.isInexact() ? scaledAtol(d, e, n * parts, width, rtol, atol) : atol;
    long bad = 0;
    String first = null;
    for (long i = 0; i < n; i++) {
      for (int p = 0; p < parts; p++) {
        int at = (int) ((i * parts + p) * width);
        boolean ok = !exact ? close(decode(d, e, at), decode(d, a, at), rtol, scaledAtol)
            : sameBytes(e, a, at, width) || (d.isInexact() && Double.isNaN(decode(d, e, at)) && Double.isNaN(decode(d, a, at)));
        if (!ok) {
          if (first == null) {
            first = "first at flat index " + i + (parts == 2 ? (p == 0 ? " (real)" : " (imag)") : "")
                + ": got " + text(d, a, at) + ", expected " + text(d, e, at);
          }
          bad++;
          break;
        }
      }
    }
    return bad == 0 ? Optional.empty() : Optional.of(bad + " of " + n + " elements differ; " + first);
  }

  /**
   * The absolute tolerance an output is compared with: {@code atol}, unless every finite expected
   * value lies below it — then atol alone would accept any small output (zeros for a gradient of
   * magnitude 1e-7) — and the tolerance becomes relative to the output's own scale, {@code rtol}
   * times its largest magnitude, plus the dtype's smallest normal (an all-zero output must then be
   * zero to that).
   */
  static double scaledAtol(DType d, ByteBuffer e, long parts, int width, double rtol, double atol) {
    double max = 0;
    for (long i = 0; i < parts; i++) {
      double x = Math.abs(decode(d, e, (int) (i * width)));
      if (Double.isFinite(x)) max = Math.max(max, x);
    }
    return max >= atol ? atol : Math.min(atol, rtol * max + smallestNormal(d));
  }

  private static double smallestNormal(DType d) {
    return switch (d) {
      case F16 -> 0x1p-14;
      case BF16, F32, C64 -> 0x1p-126;
      default -> Double.MIN_NORMAL;
    };
  }

  private static boolean sameBytes(ByteBuffer e, ByteBuffer a, int at, int width) {
    for (int k = 0; k < width; k++) if (e.get(at + k) != a.get(at + k)) return false;
    return true;
  }

  static boolean close(double expected, double actual, double rtol, double atol) {
    if (Double.isNaN(expected) || Double.isNaN(actual)) return Double.isNaN(expected) && Double.isNaN(actual);
    if (Double.isInfinite(expected) || Double.isInfinite(actual)) return expected == actual;
    return Math.abs(actual - expected) <= atol + rtol * Math.abs(expected);
  }

  /** One float part at byte offset {@code at}. */
  static double decode(DType d, ByteBuffer b, int at) {
    return switch (d) {
      case F16 -> halfToDouble(b.getShort(at) & 0xFFFF);
      case BF16 -> Float.intBitsToFloat((b.getShort(at) & 0xFFFF) << 16);
      case F32, C64 -> b.getFloat(at);
      case F64, C128 -> b.getDouble(at);
      default -> throw new IllegalArgumentException(d.toString());
    };
  }

  static double halfToDouble(int h) {
    int exp = (h >> 10) & 0x1F;
    int mant = h & 0x3FF;
    double sign = (h & 0x8000) != 0 ? -1 : 1;
    if (exp == 31) return mant == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
    if (exp == 0) return sign * mant * 0x1p-24;
    return sign * (1024 + mant) * Math.scalb(1.0, exp - 25);
  }

  private static String text(DType d, ByteBuffer b, int at) {
    if (d.isInexact()) return Double.toString(decode(d, b, at));
    return switch (d) {
      case BOOL -> b.get(at) != 0 ? "True" : "False";
      case I8 -> Byte.toString(b.get(at));
      case U8 -> Integer.toString(b.get(at) & 0xFF);
      case I16 -> Short.toString(b.getShort(at));
      case U16 -> Integer.toString(b.getShort(at) & 0xFFFF);
      case I32 -> Integer.toString(b.getInt(at));
      case U32 -> Integer.toUnsignedString(b.getInt(at));
      case I64 -> Long.toString(b.getLong(at));
      case U64 -> Long.toUnsignedString(b.getLong(at));
      default -> throw new IllegalArgumentException(d.toString());
    };
  }
}
