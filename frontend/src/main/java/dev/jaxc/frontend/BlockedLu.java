package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LU with partial pivoting of a batch of square [B, m, m] by panels of {@link #BLOCK} columns,
 * right-looking as LAPACK's getrf: each panel (all rows from its diagonal down) by the unblocked
 * recorded algorithm, which chooses the pivots; its row permutation applied to the rows of the
 * earlier L columns and of the trailing columns (a gather); U12 by a unit lower triangular solve;
 * the trailing matrix updated by one product on the packed GEMM kernel. The pivots are LAPACK's
 * (each panel's, offset by its first row), so are lu, pivots and permutation. The panels are
 * unrolled at compile time (static shapes).
 */
final class BlockedLu {
  /** Columns per panel; matrices up to twice this go to the unblocked algorithm whole. */
  static final long BLOCK = 64;

  private BlockedLu() {}

  /** The recorded pieces the panels use. */
  interface Pieces {
    /** lu, pivots, permutation of a tall [B, rows, cols] panel. */
    List<Atom> panel(Atom x, long rows, long cols);

    /** X with L·X = Y, L [B, k, k] unit lower (its upper part ignored), Y [B, k, c]. */
    Atom unitLowerSolve(Atom l, Atom y, long k, long c);
  }

  /** lu [B, m, m], pivots [B, m] and permutation [B, m] (int32) of a [B, m, m]. */
  static List<Atom> factor(Atom a, long batch, long m, DType d, Emitter em, Pieces pieces) {
    List<Atom> rowsDone = new ArrayList<>();
    List<Atom> pivots = new ArrayList<>();
    List<Atom> permDone = new ArrayList<>();
    Atom trailing = a;  // [B, m − k0, m − k0]
    Atom lRest = null;  // the earlier L columns of rows k0…: [B, m − k0, k0]
    Atom perm = em.iota(DType.I32, Shape.of(batch, m), 1);  // original row of each row k0…
    for (long k0 = 0; k0 < m; k0 += BLOCK) {
      long kb = Math.min(BLOCK, m - k0);
      long rows = m - k0;
      long right = rows - kb;
      Atom panelIn = right == 0 ? trailing : em.slice(trailing, new long[] {0, 0, 0}, new long[] {batch, rows, kb});
      List<Atom> p = pieces.panel(panelIn, rows, kb);
      Atom lu = p.get(0);
      Atom piv = p.get(1);
      Atom rowPerm = p.get(2);
      pivots.add(k0 == 0 ? piv : em.binary("add", piv, int32(k0)));
      perm = takeRows(perm, rowPerm, batch, rows, DType.I32, em);
      permDone.add(em.slice(perm, new long[] {0, 0}, new long[] {batch, kb}));
      if (k0 > 0) lRest = takeRows(lRest, rowPerm, batch, rows, d, em);
      List<Atom> done = new ArrayList<>();
      if (k0 > 0) done.add(em.slice(lRest, new long[] {0, 0, 0}, new long[] {batch, kb, k0}));
      done.add(rows == kb ? lu : em.slice(lu, new long[] {0, 0, 0}, new long[] {batch, kb, kb}));
      if (right > 0) {
        Atom r = takeRows(em.slice(trailing, new long[] {0, 0, kb}, new long[] {batch, rows, rows}), rowPerm, batch,
            rows, d, em);
        Atom l11 = em.slice(lu, new long[] {0, 0, 0}, new long[] {batch, kb, kb});
        Atom u12 = pieces.unitLowerSolve(l11, em.slice(r, new long[] {0, 0, 0}, new long[] {batch, kb, right}), kb, right);
        done.add(u12);
        Atom l21 = em.slice(lu, new long[] {0, kb, 0}, new long[] {batch, rows, kb});
        Atom update = BatchedMatmul.product(l21, u12, false, batch, right, right, d, em);
        trailing = em.binary("sub", em.slice(r, new long[] {0, kb, 0}, new long[] {batch, rows, right}), update);
        lRest = k0 == 0 ? l21
            : em.concatenate(2, em.slice(lRest, new long[] {0, kb, 0}, new long[] {batch, rows, k0}), l21);
        perm = em.slice(perm, new long[] {0, kb}, new long[] {batch, rows});
      }
      rowsDone.add(done.size() == 1 ? done.get(0) : em.concatenate(2, done.toArray(new Atom[0])));
    }
    Atom lu = rowsDone.size() == 1 ? rowsDone.get(0) : em.concatenate(1, rowsDone.toArray(new Atom[0]));
    Atom piv = pivots.size() == 1 ? pivots.get(0) : em.concatenate(1, pivots.toArray(new Atom[0]));
    Atom permutation = permDone.size() == 1 ? permDone.get(0) : em.concatenate(1, permDone.toArray(new Atom[0]));
    return List.of(lu, piv, permutation);
  }

  /** x[b, order[b, i], …] for each batch b and row i: the rows of x [B, rows, …] reordered. */
  private static Atom takeRows(Atom x, Atom order, long batch, long rows, DType d, Emitter em) {
    long[] sizes = ((ArrayType) x.type()).shape().sizes();
    boolean matrix = sizes.length == 3;
    Map<String, ParamValue> dims = new LinkedHashMap<>();
    dims.put("offset_dims", matrix ? ints(2) : ints());
    dims.put("collapsed_slice_dims", ints(1));
    dims.put("start_index_map", ints(1));
    dims.put("operand_batching_dims", ints(0));
    dims.put("start_indices_batching_dims", ints(0));
    Params ps = Emitter.params(
        "dimension_numbers", new ParamValue.Record("GatherDimensionNumbers", dims),
        "fill_value", new ParamValue.None(),
        "indices_are_sorted", new ParamValue.Bool(false),
        "mode", new ParamValue.Enum("GatherScatterMode", "PROMISE_IN_BOUNDS"),
        "slice_sizes", matrix ? ints(1, 1, sizes[2]) : ints(1, 1),
        "unique_indices", new ParamValue.Bool(false));
    Atom idx = em.reshape(order, Shape.of(batch, rows, 1));
    return em.emit("gather", ps, new ArrayType(d, Shape.of(sizes)), x, idx);
  }

  private static Literal int32(long v) {
    return new Literal(Scalar.Int.of(v), ArrayType.scalar(DType.I32), true, Span.NONE);
  }
}
