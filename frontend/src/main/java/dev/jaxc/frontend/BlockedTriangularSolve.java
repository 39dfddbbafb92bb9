package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * triangular_solve of a batch [B, m, m] by blocks of {@link #BLOCK} rows: every form is turned
 * into a lower, left, untransposed solve (a right-side solve through the transposes, transpose_a
 * by transposing a, an upper a by reversing rows and columns), which then solves each diagonal
 * block with the unblocked recorded algorithm and subtracts its contribution from the rows below
 * with one product on the packed GEMM kernel (forward substitution by blocks, as LAPACK's trsm).
 */
final class BlockedTriangularSolve {
  /** Rows per block; matrices up to twice this go to the unblocked algorithm whole. */
  static final long BLOCK = 64;

  private BlockedTriangularSolve() {}

  /** The unblocked lower, left, untransposed solve of L [B, k, k] with Y [B, k, c]. */
  interface Small {
    Atom solve(Atom l, Atom y, long k, long c);
  }

  /**
   * op(a)·x = b (left) or x·op(a) = b (right) for a [B, m, m] (already conjugated where
   * conjugate_a asks), b [B, m, k] (left) or [B, k, m] (right).
   */
  static Atom solve(Atom a, Atom b, long batch, long m, long k, boolean left, boolean lower, boolean transposeA,
      DType d, Emitter em, Small small) {
    Atom y = b;
    boolean trans = transposeA;
    if (!left) {
      y = transpose(y, Shape.of(batch, m, k), d, em);  // x·op(a) = b  ⟺  op(a)ᵀ·xᵀ = bᵀ
      trans = !trans;
    }
    Atom l = a;
    boolean low = lower;
    if (trans) {
      l = transpose(l, Shape.of(batch, m, m), d, em);
      low = !low;
    }
    if (!low) {
      l = reverse(l, d, Shape.of(batch, m, m), em, 1, 2);
      y = reverse(y, d, Shape.of(batch, m, k), em, 1);
    }
    Atom x = forward(l, y, batch, m, k, d, em, small);
    if (!low) x = reverse(x, d, Shape.of(batch, m, k), em, 1);
    if (!left) x = transpose(x, Shape.of(batch, k, m), d, em);
    return x;
  }

  /** L·X = Y for L [B, m, m] lower (its upper part ignored), Y [B, m, k]: forward substitution by blocks. */
  private static Atom forward(Atom l, Atom y, long batch, long m, long k, DType d, Emitter em, Small small) {
    List<Atom> xs = new ArrayList<>();
    Atom rest = y;  // rows k0… of Y, less the solved blocks' contributions
    for (long k0 = 0; k0 < m; k0 += BLOCK) {
      long kb = Math.min(BLOCK, m - k0);
      long below = m - k0 - kb;
      Atom lkk = em.slice(l, new long[] {0, k0, k0}, new long[] {batch, k0 + kb, k0 + kb});
      Atom yk = below == 0 ? rest : em.slice(rest, new long[] {0, 0, 0}, new long[] {batch, kb, k});
      Atom xk = small.solve(lkk, yk, kb, k);
      xs.add(xk);
      if (below > 0) {
        Atom lBelow = em.slice(l, new long[] {0, k0 + kb, k0}, new long[] {batch, m, k0 + kb});
        Atom update = BatchedMatmul.product(lBelow, xk, false, batch, below, k, d, em);
        rest = em.binary("sub", em.slice(rest, new long[] {0, kb, 0}, new long[] {batch, m - k0, k}), update);
      }
    }
    return xs.size() == 1 ? xs.get(0) : em.concatenate(1, xs.toArray(new Atom[0]));
  }

  private static Atom transpose(Atom x, Shape to, DType d, Emitter em) {
    return em.emit("transpose", Emitter.params("permutation", ints(0, 2, 1)), new ArrayType(d, to), x);
  }

  private static Atom reverse(Atom x, DType d, Shape s, Emitter em, long... dims) {
    return em.emit("rev", Emitter.params("dimensions", ints(dims)), new ArrayType(d, s), x);
  }
}
