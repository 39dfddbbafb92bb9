package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The Cholesky factor of a batch [B, m, m] by blocks of {@link #BLOCK} columns (right-looking, as
 * LAPACK's potrf): each diagonal block by the unblocked recorded algorithm, the panel below it by
 * a triangular solve with that factor, and the trailing matrix updated by one product on the
 * packed GEMM kernel, so about m³/3 of the m³/3 multiply-adds run at the GEMM's speed (the
 * column-by-column algorithm spent a masked m×m matrix-vector product on every column: 96× XLA's
 * time at m = 1024). The blocks are unrolled at compile time (static shapes). A matrix that is
 * not positive definite gives NaN below and on the diagonal, as JAX's LAPACK lowering does: a
 * failed block leaves NaN in every later one, so the last diagonal element tells.
 */
final class BlockedCholesky {
  /** Columns per block; matrices up to twice this go to the unblocked algorithm whole. */
  static final long BLOCK = 64;

  private BlockedCholesky() {}

  /**
   * The factor of a [B, m, m] (lower triangle read). {@code unblocked} factors a [B, k, k] block;
   * {@code solve} gives X with X·L11ᴴ = A21 for L11 [B, k, k] and A21 [B, r, k].
   */
  static Atom factor(Atom a, long batch, long m, DType d, Emitter em, BiFunction<Atom, Long, Atom> unblocked,
      TriSolve solve) {
    List<Atom> columns = new ArrayList<>();
    Atom rest = a;  // the trailing matrix, [B, m − k0, m − k0]
    for (long k0 = 0; k0 < m; k0 += BLOCK) {
      long kb = Math.min(BLOCK, m - k0);
      long left = m - k0;
      long below = left - kb;
      Atom a11 = em.slice(rest, new long[] {0, 0, 0}, new long[] {batch, kb, kb});
      Atom l11 = unblocked.apply(a11, kb);
      List<Atom> parts = new ArrayList<>();
      if (k0 > 0) parts.add(em.broadcastInDim(PanelOps.zero(d, em), Shape.of(batch, k0, kb)));
      parts.add(l11);
      if (below > 0) {
        Atom a21 = em.slice(rest, new long[] {0, kb, 0}, new long[] {batch, left, kb});
        Atom l21 = solve.rightLowerAdjoint(l11, a21, below, kb);
        parts.add(l21);
        Atom a22 = em.slice(rest, new long[] {0, kb, kb}, new long[] {batch, left, left});
        Atom l21h = d.isComplex() ? em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)),
            new ArrayType(d, Shape.of(batch, below, kb)), l21) : l21;
        Atom update = BatchedMatmul.product(l21, l21h, true, batch, below, below, d, em);
        rest = em.binary("sub", a22, update);
      }
      columns.add(parts.size() == 1 ? parts.get(0) : em.concatenate(1, parts.toArray(new Atom[0])));
    }
    Atom l = em.concatenate(2, columns.toArray(new Atom[0]));
    // Not positive definite somewhere: NaN on and below the diagonal of the whole matrix.
    Shape s = Shape.of(batch, m, m);
    Atom last = em.reshape(em.slice(l, new long[] {0, m - 1, m - 1}, new long[] {batch, m, m}), Shape.of(batch));
    Atom bad = em.emit("ne", Params.EMPTY, new ArrayType(DType.BOOL, Shape.of(batch)), last, last);
    Atom lower = em.emit("ge", Params.EMPTY, new ArrayType(DType.BOOL, s), em.iota(DType.I32, s, 1), em.iota(DType.I32, s, 2));
    Atom nan = em.broadcastInDim(em.convert(new Literal(new Scalar.Float(Double.NaN), ArrayType.scalar(real(d)), true, Span.NONE), d), s);
    Atom failed = em.emit("select_n", Params.EMPTY, new ArrayType(d, s), lower, em.broadcastInDim(PanelOps.zero(d, em), s), nan);
    return em.emit("select_n", Params.EMPTY, new ArrayType(d, s), em.broadcastInDim(bad, s, 0), l, failed);
  }

  /** The triangular solve the blocks need. */
  interface TriSolve {
    /** X with X·L11ᴴ = A21: L11 [B, k, k] lower, A21 [B, r, k]. */
    Atom rightLowerAdjoint(Atom l11, Atom a21, long r, long k);
  }

  private static DType real(DType d) {
    return d.isComplex() ? d.realPart() : d;
  }
}
