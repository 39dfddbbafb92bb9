package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * Hessenberg reduction (gehrd) of a batch of [B, n, n] matrices by panels of {@link #BLOCK}
 * reflectors, as LAPACK's blocked gehrd: each panel (lahr2, recorded) generates its reflectors V,
 * T (Q = I − V·T·Vᴴ) and Y = A·V·T from the trailing block without updating it; the trailing
 * columns then take (I − V·Tᴴ·Vᴴ)·(A − Y·Vᴴ) and the rows above the block A·Q, all as products
 * on the packed GEMM kernel. The unblocked algorithm (gehd2) made two masked passes over the whole
 * matrix per reflector (1024×1024: 0.25 s against XLA's 0.1). The last block of at most
 * 2·{@link #BLOCK} rows goes to the unblocked recording, its Q then applied to the rows above it.
 * LAPACK's packed form (the Hessenberg matrix on and above the subdiagonal, the reflectors below)
 * and τs, the unblocked algorithm's up to rounding; the panels are unrolled at compile time.
 */
final class BlockedHessenberg {
  /** Reflectors per panel; matrices of up to twice this go to the unblocked algorithm whole. */
  static final long BLOCK = 64;

  private BlockedHessenberg() {}

  /** The recorded pieces the panels use. */
  interface Pieces {
    /** lahr2 of a trailing [B, rows, rows] block: packed [B, rows, BLOCK], V, Y, T [B, BLOCK, BLOCK], τs. */
    List<Atom> panel(Atom a, long rows);

    /** gehd2 of the last [B, rows, rows] block: packed [B, rows, rows] and τs [B, rows − 1]. */
    List<Atom> unblocked(Atom a, long rows);

    /** Q [B, rows, rows] of the reflectors packed below the subdiagonal of {@code packed}. */
    Atom q(Atom packed, Atom taus, long rows);
  }

  /** The packed Hessenberg form [B, n, n] and the n − 1 τs [B, n − 1] of {@code a}. */
  static List<Atom> reduce(Atom a, long batch, long n, DType d, Emitter em, Pieces pieces) {
    List<Atom> columns = new ArrayList<>();
    List<Atom> taus = new ArrayList<>();
    Atom top = null;  // rows above the trailing block, its columns: [B, k0, n − k0]
    Atom trailing = a;
    long k0 = 0;
    for (; n - k0 > 2 * BLOCK; k0 += BLOCK) {
      long r = n - k0;
      long rest = r - BLOCK;
      List<Atom> p = pieces.panel(trailing, r);
      Atom v = p.get(1);
      Atom t = p.get(3);
      if (top != null) {
        // The rows above take A·Q = A − ((A·V)·T)·Vᴴ.
        Atom av = BatchedMatmul.contract(top, 2, v, 1, batch, k0, BLOCK, d, em);
        Atom avt = BatchedMatmul.contract(av, 2, t, 1, batch, k0, BLOCK, d, em);
        top = PanelOps.minusProduct(top, avt, v, batch, k0, r, d, em);
        columns.add(em.concatenate(1, em.slice(top, new long[] {0, 0, 0}, new long[] {batch, k0, BLOCK}), p.get(0)));
      } else {
        columns.add(p.get(0));
      }
      taus.add(p.get(4));
      // The trailing columns: (I − V·Tᴴ·Vᴴ)·(A − Y·V₂ᴴ), V₂ the rows of V for those columns.
      Atom v2 = em.slice(v, new long[] {0, BLOCK, 0}, new long[] {batch, r, BLOCK});
      Atom right = em.slice(trailing, new long[] {0, 0, BLOCK}, new long[] {batch, r, r});
      right = PanelOps.minusProduct(right, p.get(2), v2, batch, r, rest, d, em);
      Atom w = BatchedMatmul.contract(PanelOps.conj(v, d, em), 1, right, 1, batch, BLOCK, rest, d, em);
      w = BatchedMatmul.contract(PanelOps.conj(t, d, em), 1, w, 1, batch, BLOCK, rest, d, em);
      right = em.binary("sub", right, BatchedMatmul.contract(v, 2, w, 1, batch, r, rest, d, em));
      Atom finished = em.slice(right, new long[] {0, 0, 0}, new long[] {batch, BLOCK, rest});
      top = top == null ? finished
          : em.concatenate(1, em.slice(top, new long[] {0, 0, BLOCK}, new long[] {batch, k0, r}), finished);
      trailing = em.slice(right, new long[] {0, BLOCK, 0}, new long[] {batch, r, rest});
    }
    long r = n - k0;
    List<Atom> last = pieces.unblocked(trailing, r);
    if (top != null) {
      top = BatchedMatmul.contract(top, 2, pieces.q(last.get(0), last.get(1), r), 1, batch, k0, r, d, em);
      columns.add(em.concatenate(1, top, last.get(0)));
    } else {
      columns.add(last.get(0));
    }
    taus.add(last.get(1));
    return List.of(em.concatenate(2, columns.toArray(new Atom[0])), em.concatenate(1, taus.toArray(new Atom[0])));
  }
}
