package dev.jaxc.backend.llvm.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a convolution whose skipped terms keep it off the packed GEMM (lhs-dilated ones, where
 * XLA:CPU skips dilation holes and padding, and those of dtypes whose padding XLA skips) into
 * pieces that are plain GEMMs and a border that keeps the skipping loop nest.
 *
 * <p>Along a spatial axis, output position y meets window position k at {@code q = y·s + k·rd −
 * lo} of the padded, lhs-dilated input; the term is real where q is a multiple of the lhs
 * dilation ld inside the input. Which k give multiples depends only on y modulo {@code P = ld /
 * gcd(s, ld)} (the phase): for each phase the taps are an arithmetic progression, and y = y0 +
 * P·t with tap k = k0 + ks·j reads input {@code t·A + j·B + C}, an undilated convolution
 * (polyphase form; a transposed convolution of stride 2 is four stride-1 convolutions with 2 × 2,
 * 2 × 1, 1 × 2 and 1 × 1 kernels). In the interior, where every tap of every phase lands inside
 * the input, nothing is skipped: each phase there is a {@linkplain ConvView#interior() piece}
 * whose every term is real, summed in the same order as the whole convolution sums it. The
 * outputs outside the interior (a frame a few positions wide) are border boxes computed as before.
 */
final class ConvPieces {
  /**
   * Interior pieces at most (phases multiplied over the axes): each is a GEMM of its own in the
   * module, and a transposed convolution of stride 8 in 2-D already has 64.
   */
  static final long MAX_PIECES = 64;

  private ConvPieces() {}

  /** One spatial axis: output and input extents, window size, stride, lhs and rhs dilation, low padding. */
  record Axis(long out, long in, long window, long stride, long lhsDilation, long rhsDilation, long padLow) {
    long phases() {
      return lhsDilation / gcd(stride, lhsDilation);
    }

    /** Whether window position k of output y is a real input position (possibly outside the input). */
    boolean onGrid(long y, long k) {
      return Math.floorMod(y * stride + k * rhsDilation - padLow, lhsDilation) == 0;
    }

    /** Whether input position q (lhs-dilated coordinates) lies inside the input. */
    boolean inside(long q) {
      return q >= 0 && q <= (in - 1) * lhsDilation;
    }

    /** The taps of output y's phase as {start, step, count} (count 0: none). */
    long[] taps(long y) {
      long first = -1;
      long count = 0;
      for (long k = 0; k < window; k++) {
        if (!onGrid(y, k)) continue;
        if (first < 0) first = k;
        count++;
      }
      // The solutions of k·rd ≡ lo − y·s (mod ld) lie ld / gcd(rd, ld) apart.
      return new long[] {Math.max(first, 0), lhsDilation / gcd(rhsDilation, lhsDilation), count};
    }

    /** Whether output y, whose phase's taps are {@code t} ({@link #taps}), has taps that all land inside the input. */
    boolean interior(long y, long[] t) {
      if (t[2] == 0 || in == 0) return false;
      long last = t[0] + t[1] * (t[2] - 1);
      return inside(y * stride + t[0] * rhsDilation - padLow) && inside(y * stride + last * rhsDilation - padLow);
    }

    boolean interior(long y) {
      return interior(y, taps(y));
    }

    /** The longest run [lo, hi) of interior outputs ({0, 0}: none); each phase's taps found once. */
    long[] interiorRun() {
      long p = phases();
      long[][] byPhase = new long[(int) p][];
      for (int f = 0; f < p; f++) byPhase[f] = taps(f);
      long bestLo = 0;
      long bestHi = 0;
      long lo = -1;
      for (long y = 0; y <= out; y++) {
        boolean in = y < out && interior(y, byPhase[(int) (y % p)]);
        if (in && lo < 0) lo = y;
        if (!in && lo >= 0) {
          if (y - lo > bestHi - bestLo) {
            bestLo = lo;
            bestHi = y;
          }
          lo = -1;
        }
      }
      return new long[] {bestLo, bestHi};
    }
  }

  /**
   * The pieces of a convolution with spatial axes {@code axes}, interior ones first, or null where
   * some axis has no interior (nothing to gain). Every output position lies in exactly one piece.
   */
  static List<ConvView> plan(Axis[] axes) {
    int d = axes.length;
    if (d == 0) return null;
    long combos = 1;
    for (Axis a : axes) combos *= Math.min(a.phases(), MAX_PIECES + 1);
    if (combos > MAX_PIECES) return null;
    long[][] win = new long[d][];
    for (int i = 0; i < d; i++) {
      win[i] = axes[i].interiorRun();
      if (win[i][1] <= win[i][0]) return null;
    }
    List<ConvView> pieces = new ArrayList<>();
    long[] phases = new long[d];
    for (int i = 0; i < d; i++) phases[i] = axes[i].phases();
    for (long c = 0; c < combos; c++) {
      Axes v = new Axes(d);
      boolean empty = false;
      long rest = c;
      for (int i = d - 1; i >= 0 && !empty; i--) {
        long p = phases[i];
        long phase = rest % p;
        rest /= p;
        long lo = win[i][0];
        long hi = win[i][1];
        long y0 = lo + Math.floorMod(phase - lo, p);
        empty = y0 >= hi;
        long[] t = axes[i].taps(y0);
        v.set(i, y0, p, (hi - y0 + p - 1) / p, t);
      }
      if (!empty) pieces.add(v.view(true));
    }
    // The frame: along axis i the outputs before and after its window, the axes before i inside
    // their windows, the axes after i whole.
    for (int i = 0; i < d; i++) {
      long[][] ranges = {{0, win[i][0]}, {win[i][1], axes[i].out()}};
      for (long[] r : ranges) {
        if (r[1] <= r[0]) continue;
        Axes v = new Axes(d);
        for (int j = 0; j < d; j++) {
          long lo = j < i ? win[j][0] : j == i ? r[0] : 0;
          long hi = j < i ? win[j][1] : j == i ? r[1] : axes[j].out();
          v.set(j, lo, 1, hi - lo, new long[] {0, 1, axes[j].window()});
        }
        pieces.add(v.view(false));
      }
    }
    return pieces;
  }

  /** A {@link ConvView} being filled in, axis by axis. */
  private static final class Axes {
    final long[] outStart;
    final long[] outStep;
    final long[] outCount;
    final long[] tapStart;
    final long[] tapStep;
    final long[] tapCount;

    Axes(int d) {
      outStart = new long[d];
      outStep = new long[d];
      outCount = new long[d];
      tapStart = new long[d];
      tapStep = new long[d];
      tapCount = new long[d];
    }

    /** Axis i: outputs y0, y0 + step, … ({@code count}), taps {@code t} = {start, step, count}. */
    void set(int i, long y0, long step, long count, long[] t) {
      outStart[i] = y0;
      outStep[i] = step;
      outCount[i] = count;
      tapStart[i] = t[0];
      tapStep[i] = t[1];
      tapCount[i] = t[2];
    }

    ConvView view(boolean interior) {
      return new ConvView(outStart, outStep, outCount, tapStart, tapStep, tapCount, interior);
    }
  }

  static long gcd(long a, long b) {
    return b == 0 ? Math.abs(a) : gcd(b, a % b);
  }
}
