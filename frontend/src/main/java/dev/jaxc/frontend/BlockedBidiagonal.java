package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * Householder bidiagonalisation of a batch of tall [B, m, n] matrices (m ≥ n) by panels of {@link
 * #BLOCK} reflector pairs, as LAPACK's blocked gebrd: each panel (labrd, recorded) generates its
 * left and right reflectors V, U and the matching Y, X from the trailing block without updating
 * it, and the trailing block then takes A − [V X]·[Y U]ᴴ as one product on the packed GEMM
 * kernel. The unblocked algorithm (gebd2) made four masked passes over the whole matrix per
 * column (1024×1024: most of svd's values-only 0.46 s). The last block of at most 2·{@link #BLOCK}
 * columns goes to the unblocked recording. The reflectors are the unblocked algorithm's up to
 * rounding; the panels are unrolled at compile time (static shapes).
 */
final class BlockedBidiagonal {
  /** Reflector pairs per panel: BRD_BLOCK in testdata/expansions_svd.py. */
  static final long BLOCK = 64;

  private BlockedBidiagonal() {}

  /** The recorded pieces the panels use. */
  interface Pieces {
    /**
     * labrd of a trailing [B, rows, cols] block: packed [B, rows, BLOCK], U [B, cols, BLOCK], Y,
     * X [B, rows, BLOCK], d [B, BLOCK], e, τq, τp, V [B, rows, BLOCK].
     */
    List<Atom> panel(Atom a, long rows, long cols);

    /** gebd2 of the last [B, rows, cols] block: d, e, packed, τq, the right reflectors [B, cols, cols], τp. */
    List<Atom> unblocked(Atom a, long rows, long cols);
  }

  /**
   * gebd2's results for the whole matrix: d [B, n], e [B, n] (e[i] couples i − 1 and i, e[0] = 0),
   * the left reflectors packed below the diagonal [B, m, n], their τs [B, n], the right reflectors
   * in the columns of [B, n, n] (v[j + 1] = 1) and their τs [B, n].
   */
  static List<Atom> reduce(Atom a, long batch, long m, long n, DType d, Emitter em, Pieces pieces) {
    DType real = d.isComplex() ? d.realPart() : d;
    List<Atom> ds = new ArrayList<>();
    List<Atom> es = new ArrayList<>();
    es.add(em.broadcastInDim(PanelOps.zero(real, em), Shape.of(batch, 1)));
    List<Atom> tqs = new ArrayList<>();
    List<Atom> tps = new ArrayList<>();
    List<Atom> packed = new ArrayList<>();
    List<Atom> rights = new ArrayList<>();
    Atom trailing = a;
    long k0 = 0;
    for (; n - k0 > 2 * BLOCK; k0 += BLOCK) {
      long rows = m - k0;
      long cols = n - k0;
      List<Atom> p = pieces.panel(trailing, rows, cols);
      packed.add(PanelOps.belowZeros(p.get(0), k0, batch, BLOCK, d, em));
      rights.add(PanelOps.belowZeros(p.get(1), k0, batch, BLOCK, d, em));
      ds.add(p.get(4));
      es.add(p.get(5));
      tqs.add(p.get(6));
      tps.add(p.get(7));
      // A22 − [V X]·[Y U]ᴴ: the panel's left and right updates as one product of inner size 2·BLOCK.
      Atom left = em.concatenate(2, rowsFrom(p.get(8), batch, rows, em), rowsFrom(p.get(3), batch, rows, em));
      Atom right = em.concatenate(2, rowsFrom(p.get(2), batch, cols, em), rowsFrom(p.get(1), batch, cols, em));
      Atom a22 = em.slice(trailing, new long[] {0, BLOCK, BLOCK}, new long[] {batch, rows, cols});
      trailing = PanelOps.minusProduct(a22, left, right, batch, rows - BLOCK, cols - BLOCK, d, em);
    }
    long cols = n - k0;
    List<Atom> last = pieces.unblocked(trailing, m - k0, cols);
    ds.add(last.get(0));
    // The last block's e[0] couples it to the panel before, which set that entry already.
    es.add(em.slice(last.get(1), new long[] {0, 1}, new long[] {batch, cols}));
    packed.add(PanelOps.belowZeros(last.get(2), k0, batch, cols, d, em));
    tqs.add(last.get(3));
    rights.add(PanelOps.belowZeros(last.get(4), k0, batch, cols, d, em));
    tps.add(last.get(5));
    return List.of(cat(1, ds, em), cat(1, es, em), cat(2, packed, em), cat(1, tqs, em), cat(2, rights, em), cat(1, tps, em));
  }

  /** Rows BLOCK… of x [B, rows, BLOCK]. */
  private static Atom rowsFrom(Atom x, long batch, long rows, Emitter em) {
    return em.slice(x, new long[] {0, BLOCK, 0}, new long[] {batch, rows, BLOCK});
  }

  private static Atom cat(int axis, List<Atom> xs, Emitter em) {
    return em.concatenate(axis, xs.toArray(new Atom[0]));
  }
}
