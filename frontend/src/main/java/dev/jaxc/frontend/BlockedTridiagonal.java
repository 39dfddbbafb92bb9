package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * Reduction of a batch of Hermitian [B, n, n] matrices to real symmetric tridiagonal form by panels
 * of {@link #BLOCK} reflectors, as LAPACK's blocked hetrd (lower): each panel (latrd, recorded)
 * generates its reflectors V and the matching W from the trailing block without updating it, and
 * the trailing block then takes A − V·Wᴴ − W·Vᴴ as one product on the packed GEMM kernel. The
 * unblocked algorithm (hetd2) spent a masked rank-2 pass over the whole matrix on every reflector
 * (1024×1024: 0.2 s of eigh's 0.35). The last block of at most 2·{@link #BLOCK} rows goes to the
 * unblocked recording. The reflectors are the unblocked algorithm's up to rounding; the panels are
 * unrolled at compile time (static shapes).
 */
final class BlockedTridiagonal {
  /** Reflectors per panel; matrices of up to twice this go to the unblocked algorithm whole. */
  static final long BLOCK = 64;

  private BlockedTridiagonal() {}

  /** The recorded pieces the panels use. */
  interface Pieces {
    /** latrd of a trailing [B, rows, rows] block: packed [B, rows, cols], V, W, d [B, cols], e, τs. */
    List<Atom> panel(Atom a, long rows, long cols);

    /** hetd2 of the last [B, rows, rows] block: d [B, rows], e, packed [B, rows, rows], τs [B, rows − 1]. */
    List<Atom> unblocked(Atom a, long rows);
  }

  /**
   * d [B, n], e [B, n] (e[n − 1] = 0), the reflectors packed below the subdiagonal [B, n, n] and
   * their n − 1 τs [B, n − 1] of the whole Hermitian {@code a} (both triangles set).
   */
  static List<Atom> reduce(Atom a, long batch, long n, DType d, Emitter em, Pieces pieces) {
    List<Atom> ds = new ArrayList<>();
    List<Atom> es = new ArrayList<>();
    List<Atom> taus = new ArrayList<>();
    List<Atom> columns = new ArrayList<>();
    Atom trailing = a;
    long k0 = 0;
    for (; n - k0 > 2 * BLOCK; k0 += BLOCK) {
      long rows = n - k0;
      long rest = rows - BLOCK;
      List<Atom> p = pieces.panel(trailing, rows, BLOCK);
      columns.add(PanelOps.belowZeros(p.get(0), k0, batch, BLOCK, d, em));
      ds.add(p.get(3));
      es.add(p.get(4));
      taus.add(p.get(5));
      Atom v = em.slice(p.get(1), new long[] {0, BLOCK, 0}, new long[] {batch, rows, BLOCK});
      Atom w = em.slice(p.get(2), new long[] {0, BLOCK, 0}, new long[] {batch, rows, BLOCK});
      // A22 − [V W]·[W V]ᴴ: her2k as one product of inner size 2·BLOCK.
      Atom a22 = em.slice(trailing, new long[] {0, BLOCK, BLOCK}, new long[] {batch, rows, rows});
      trailing = PanelOps.minusProduct(a22, em.concatenate(2, v, w), em.concatenate(2, w, v), batch, rest, rest, d, em);
    }
    List<Atom> last = pieces.unblocked(trailing, n - k0);
    ds.add(last.get(0));
    es.add(last.get(1));
    columns.add(PanelOps.belowZeros(last.get(2), k0, batch, n - k0, d, em));
    taus.add(last.get(3));
    return List.of(em.concatenate(1, ds.toArray(new Atom[0])), em.concatenate(1, es.toArray(new Atom[0])),
        em.concatenate(2, columns.toArray(new Atom[0])), em.concatenate(1, taus.toArray(new Atom[0])));
  }
}
