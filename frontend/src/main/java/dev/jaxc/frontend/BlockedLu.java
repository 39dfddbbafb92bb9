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
      Atom panelIn = right == 0 ? trailing : slice(trailing, new long[] {0, 0, 0}, new long[] {batch, rows, kb}, d, em);
      List<Atom> p = pieces.panel(panelIn, rows, kb);
      Atom lu = p.get(0);
      Atom piv = p.get(1);
      Atom rowPerm = p.get(2);
      pivots.add(k0 == 0 ? piv : em.binary("add", piv, int32(k0)));
      perm = takeRows(perm, rowPerm, batch, rows, DType.I32, em);
      permDone.add(slice(perm, new long[] {0, 0}, new long[] {batch, kb}, DType.I32, em));
      if (k0 > 0) lRest = takeRows(lRest, rowPerm, batch, rows, d, em);
      List<Atom> done = new ArrayList<>();
      if (k0 > 0) done.add(slice(lRest, new long[] {0, 0, 0}, new long[] {batch, kb, k0}, d, em));
      done.add(rows == kb ? lu : slice(lu, new long[] {0, 0, 0}, new long[] {batch, kb, kb}, d, em));
      if (right > 0) {
        Atom r = takeRows(slice(trailing, new long[] {0, 0, kb}, new long[] {batch, rows, rows}, d, em), rowPerm, batch,
            rows, d, em);
        Atom l11 = slice(lu, new long[] {0, 0, 0}, new long[] {batch, kb, kb}, d, em);
        Atom u12 = pieces.unitLowerSolve(l11, slice(r, new long[] {0, 0, 0}, new long[] {batch, kb, right}, d, em), kb, right);
        done.add(u12);
        Atom l21 = slice(lu, new long[] {0, kb, 0}, new long[] {batch, rows, kb}, d, em);
        Params dn = Emitter.params(
            "dimension_numbers", new ParamValue.Tuple(List.of(
                new ParamValue.Tuple(List.of(ints(2), ints(1))),
                new ParamValue.Tuple(List.of(ints(0), ints(0))))),
            "precision", new ParamValue.None(),
            "preferred_element_type", new ParamValue.DTypeValue(d));
        Atom update = em.emit("dot_general", dn, new ArrayType(d, Shape.of(batch, right, right)), l21, u12);
        trailing = em.binary("sub", slice(r, new long[] {0, kb, 0}, new long[] {batch, rows, right}, d, em), update);
        lRest = k0 == 0 ? l21
            : em.concatenate(2, slice(lRest, new long[] {0, kb, 0}, new long[] {batch, rows, k0}, d, em), l21);
        perm = slice(perm, new long[] {0, kb}, new long[] {batch, rows}, DType.I32, em);
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

  private static Atom slice(Atom x, long[] start, long[] limit, DType d, Emitter em) {
    long[] size = new long[start.length];
    for (int i = 0; i < size.length; i++) size[i] = limit[i] - start[i];
    return em.emit("slice", Emitter.params("start_indices", ints(start), "limit_indices", ints(limit), "strides",
        new ParamValue.None()), new ArrayType(d, Shape.of(size)), x);
  }
}
