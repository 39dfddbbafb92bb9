package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;
import static dev.jaxc.frontend.RecordedJaxprs.pair;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;

/**
 * The linear algebra {@link LowerFunExpansion} expands: cholesky, triangular_solve, lu, qr, eigh and
 * svd (jaxc's own algorithms, written in JAX), tridiagonal_solve and lu_pivots_to_permutation (JAX's
 * own generic lowerings), for batches of B matrices of size m (and k columns or right-hand sides):
 * the batch dimensions flattened to B, the results reshaped back.
 */
final class LinalgExpansions {
  private final RecordedJaxprs templates;

  LinalgExpansions(RecordedJaxprs templates) {
    this.templates = templates;
  }

  /** The batch, matrix size and right-hand-side count the linear algebra was traced at. */
  private static final long LA_B = 9967;

  private static final long LA_M = 9973;

  private static final long LA_K = 9949;

  /**
   * cholesky and triangular_solve: jaxc's own algorithms, written in JAX and recorded like the
   * others (generate_expansions.py), for a batch of B matrices of size m (and k right-hand sides):
   * the batch dimensions flattened to B, the result reshaped back.
   */
  Atom linalg(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException(e.primitive() + " of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException(e.primitive() + " of a symbolic shape is not supported", e.primSpan());
    sameBatch(e, ins, 2, 2);
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    String name;
    long k = 1;
    Shape bShape = null;
    ArrayType resultType = (ArrayType) e.outs().get(0).type();
    if (e.primitive().equals("cholesky")) {
      name = "cholesky";
    } else {
      boolean left = e.params().getBool("left_side", false);
      long[] b = ((ArrayType) ins.get(1).type()).shape().sizes();
      k = left ? b[r - 1] : b[r - 2];
      bShape = left ? Shape.of(batch, m, k) : Shape.of(batch, k, m);
      name = "triangular_solve_" + (left ? "l" : "r") + (e.params().getBool("lower", false) ? "lo" : "up")
          + (e.params().getBool("transpose_a", false) ? "t" : "n") + (e.params().getBool("unit_diagonal", false) ? "u" : "d");
    }
    String tag = d.shortName();
    Shape flatA = Shape.of(batch, m, m);
    List<Atom> args = new ArrayList<>();
    Atom a0 = ins.get(0);
    // conjugate_a: the solve of conj(a) (then transposed as transpose_a says), a no-op on reals.
    if (e.primitive().equals("triangular_solve") && d.isComplex() && e.params().getBool("conjugate_a", false))
      a0 = em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)), at, a0);
    args.add(at.shape().equals(flatA) ? a0 : em.reshape(a0, flatA));
    if (bShape != null) {
      Atom b = ins.get(1);
      args.add(((ArrayType) b.type()).shape().equals(bShape) ? b : em.reshape(b, bShape));
    }
    boolean x64 = d == DType.F64 || d == DType.C128;
    if (bShape == null && m > 2 * BlockedCholesky.BLOCK) {
      long bt = batch;
      Atom l = BlockedCholesky.factor(args.get(0), bt, m, d, em,
          (block, kb) -> em.emit("jit", Emitter.params("name", new ParamValue.Str("cholesky"), "jaxpr",
              new ParamValue.JaxprValue(templates.instance("cholesky_" + tag, x64, laPairs(bt, kb, 1)))),
              new ArrayType(d, Shape.of(bt, kb, kb)), block),
          (l11, a21, rows, kb) -> {
            // X·L11ᴴ = A21: a right-side solve with L11 (conjugated first) transposed.
            Atom lc = d.isComplex() ? em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)),
                new ArrayType(d, Shape.of(bt, kb, kb)), l11) : l11;
            Jaxpr solve = templates.instance("triangular_solve_rlotd_" + tag, x64, laPairs(bt, kb, rows));
            return em.emit("jit", Emitter.params("name", new ParamValue.Str("triangular_solve"), "jaxpr",
                new ParamValue.JaxprValue(solve)), new ArrayType(d, Shape.of(bt, rows, kb)), lc, a21);
          });
      return resultType.shape().equals(flatA) ? l : em.reshape(l, resultType.shape());
    }
    if (bShape != null && m > 2 * BlockedTriangularSolve.BLOCK) {
      long bt = batch;
      String small = "triangular_solve_llon" + (e.params().getBool("unit_diagonal", false) ? "u" : "d") + "_" + tag;
      Atom x = BlockedTriangularSolve.solve(args.get(0), args.get(1), bt, m, k, e.params().getBool("left_side", false),
          e.params().getBool("lower", false), e.params().getBool("transpose_a", false), d, em,
          (l, y, kb, c) -> em.emit("jit", Emitter.params("name", new ParamValue.Str("triangular_solve"), "jaxpr",
              new ParamValue.JaxprValue(templates.instance(small, x64, laPairs(bt, kb, c)))), new ArrayType(d, Shape.of(bt, kb, c)),
              l, y));
      return resultType.shape().equals(bShape) ? x : em.reshape(x, resultType.shape());
    }
    long bb = batch;
    long kk = k;
    Jaxpr body = templates.instance(name + "_" + tag, x64, laPairs(bb, m, kk));
    Shape flatOut = bShape != null ? bShape : flatA;
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom out = em.emit("jit", call, new ArrayType(d, flatOut), args.toArray(new Atom[0]));
    return resultType.shape().equals(flatOut) ? out : em.reshape(out, resultType.shape());
  }

  /**
   * lu: LU with partial pivoting as LAPACK's getrf pivots (jaxc's own algorithm, written in JAX),
   * of a batch of m×n matrices: the tall form (m ≥ n) or the wide one; results (lu, pivots,
   * permutation) reshaped back.
   */
  List<Atom> lu(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("lu of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("lu of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long k = Math.min(m, n);
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean tall = m >= n;
    long big = tall ? m : n;  // the traced 9973
    long small = tall ? n : m;  // the traced 9949
    boolean x64 = d == DType.F64 || d == DType.C128;
    String tag = d.shortName();
    Shape flat = Shape.of(batch, m, n);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    if (m == n && m > 2 * BlockedLu.BLOCK) {
      long bt = batch;
      List<Atom> blocked = BlockedLu.factor(x, bt, m, d, em, new BlockedLu.Pieces() {
        @Override
        public List<Atom> panel(Atom p, long rows, long cols) {
          Jaxpr body = templates.instance("lu_tall_" + tag, x64, laPairs(bt, rows, cols));
          List<Var> ys = List.of(em.fresh(new ArrayType(d, Shape.of(bt, rows, cols))),
              em.fresh(new ArrayType(DType.I32, Shape.of(bt, cols))), em.fresh(new ArrayType(DType.I32, Shape.of(bt, rows))));
          em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("lu"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(p));
          return new ArrayList<>(ys);
        }

        @Override
        public Atom unitLowerSolve(Atom l, Atom y, long k, long c) {
          Jaxpr solve = templates.instance("triangular_solve_llonu_" + tag, x64, laPairs(bt, k, c));
          return em.emit("jit", Emitter.params("name", new ParamValue.Str("triangular_solve"), "jaxpr",
              new ParamValue.JaxprValue(solve)), new ArrayType(d, Shape.of(bt, k, c)), l, y);
        }
      });
      return asResults(e, em, blocked);
    }
    Jaxpr body = templates.instance("lu_" + (tall ? "tall" : "wide") + "_" + tag, x64, laPairs(batch, big, small));
    List<Var> ys = List.of(em.fresh(new ArrayType(d, flat)), em.fresh(new ArrayType(DType.I32, Shape.of(batch, k))),
        em.fresh(new ArrayType(DType.I32, Shape.of(batch, m))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("lu"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    return asResults(e, em, new ArrayList<>(ys));
  }

  /**
   * tridiagonal_solve (the Thomas algorithm) and lu_pivots_to_permutation (swaps in a loop) as
   * JAX's own generic lowerings trace them: for a batch of B systems of size m with k right-hand
   * sides (b [.., m, k]), or B rows of k pivots into permutations of size m.
   */
  Atom generic(Eqn e, List<Atom> ins, Emitter em) {
    boolean tri = e.primitive().equals("tridiagonal_solve");
    ArrayType first = (ArrayType) ins.get(0).type();
    ArrayType result = (ArrayType) e.outs().get(0).type();
    if (!first.shape().isStatic() || !result.shape().isStatic())
      throw new JaxcException(e.primitive() + " of a symbolic shape is not supported", e.primSpan());
    if (tri) sameBatch(e, ins, 1, 1, 1, 2);
    if (tri && e.params().getBool("perturb_singular", false))
      throw new JaxcException("tridiagonal_solve: perturb_singular=True is not supported (as on JAX's CPU)", e.primSpan());
    long[] res = result.shape().sizes();
    int r = res.length;
    long batch = 1;
    long m;
    long k;
    List<Shape> flat = new ArrayList<>();
    Shape out;
    String name;
    if (tri) {
      DType d = result.dtype();
      if (!d.isFloating() && !d.isComplex())
        throw new JaxcException("tridiagonal_solve of " + d.shortName(), e.primSpan());
      for (int i = 0; i < r - 2; i++) batch *= res[i];
      m = res[r - 2];
      k = res[r - 1];
      for (int i = 0; i < 3; i++) flat.add(Shape.of(batch, m));
      out = Shape.of(batch, m, k);
      flat.add(out);
      name = "tridiagonal_solve_" + d.shortName();
    } else {
      long[] piv = first.shape().sizes();
      for (int i = 0; i < piv.length - 1; i++) batch *= piv[i];
      k = piv[piv.length - 1];
      m = res[r - 1];
      flat.add(Shape.of(batch, k));
      out = Shape.of(batch, m);
      name = "lu_pivots_to_permutation_i32";
    }
    List<Atom> args = new ArrayList<>();
    for (int i = 0; i < ins.size(); i++) {
      Atom x = ins.get(i);
      args.add(((ArrayType) x.type()).shape().equals(flat.get(i)) ? x : em.reshape(x, flat.get(i)));
    }
    boolean x64 = result.dtype() == DType.F64 || result.dtype() == DType.C128;
    Jaxpr body = templates.instance(name, x64, List.of(pair(LA_B * LA_M * LA_K, batch * m * k),
        pair(LA_B * (LA_M - 1) * LA_K, batch * (m - 1) * k), pair(LA_M * LA_K, m * k), pair((LA_M - 1) * LA_K, (m - 1) * k),
        pair(LA_B * LA_M, batch * m), pair(LA_B * (LA_M - 1), batch * (m - 1)), pair(LA_B * LA_K, batch * k),
        pair(LA_B, batch), pair(LA_M, m), pair(LA_M - 1, m - 1), pair(LA_K, k)));
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom y = em.emit("jit", call, new ArrayType(result.dtype(), out), args.toArray(new Atom[0]));
    return result.shape().equals(out) ? y : em.reshape(y, result.shape());
  }

  /**
   * The replacements of the linear algebra templates traced at batch LA_B, sizes LA_M and LA_K
   * (products first, as generate_expansions.py's check orders them).
   */
  private static List<String[]> laPairs(long b, long m, long k) {
    return List.of(pair(LA_B * LA_M * LA_M, b * m * m), pair(LA_B * LA_M * LA_K, b * m * k),
        pair(LA_B * LA_K * LA_K, b * k * k), pair(LA_M * LA_M, m * m), pair(LA_M * LA_K, m * k), pair(LA_K * LA_K, k * k),
        pair(LA_B * LA_M, b * m), pair(LA_B * LA_K, b * k), pair(LA_B, b), pair(LA_M + 2, m + 2),
        pair(LA_M + 32, m + 32) /* the eig sweeps' padding, CHUNK in expansions_eig.py */, pair(LA_M, m),
        pair(LA_K, k), pair(LA_K - 1, k - 1), pair(LA_M - 1, m - 1));
  }

  /**
   * qr: Householder QR as LAPACK's geqrf and orgqr/ungqr (the same reflectors, so the same signs),
   * jaxc's own algorithm written in JAX, for a batch of m×n matrices: tall or wide, full or
   * reduced; results reshaped back. Column pivoting is not supported.
   */
  List<Atom> qr(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("qr of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (e.params().getBool("pivoting", false))
      throw new JaxcException("qr with pivoting=True is not supported yet", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException("qr of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean full = e.params().getBool("full_matrices", true);
    boolean tall = m >= n;
    if (Math.min(m, n) > 2 * BlockedQr.BLOCK) {
      long k = Math.min(m, n);
      Atom x = flat(ins.get(0), Shape.of(batch, m, n), em);
      BlockedQr.Pieces pieces = qrPieces(batch, d, em);
      List<Atom> f = BlockedQr.geqrf(x, batch, m, n, d, em, pieces);
      long qcols = full ? m : k;
      Atom q = BlockedQr.orgqr(f.get(0), f.get(1), batch, m, k, qcols, d, em, pieces);
      Atom top = qcols == m ? f.get(0) : em.slice(f.get(0), new long[] {0, 0, 0}, new long[] {batch, qcols, n});
      return asResults(e, em, new ArrayList<>(List.of(q, BlockedQr.upper(top, batch, qcols, n, d, em))));
    }
    String name = "qr_" + (tall ? "tall" : "wide") + "_" + (full ? "full" : "reduced") + "_" + d.shortName();
    Jaxpr body = templates.instance(name, d == DType.F64 || d == DType.C128, laPairs(batch, tall ? m : n, tall ? n : m));
    Shape flat = Shape.of(batch, m, n);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    long k = Math.min(m, n);
    List<Var> ys = List.of(em.fresh(new ArrayType(d, Shape.of(batch, m, full ? m : k))),
        em.fresh(new ArrayType(d, Shape.of(batch, full ? m : k, n))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("qr"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    return asResults(e, em, new ArrayList<>(ys));
  }

  /**
   * geqrf: LAPACK's packed QR (R on and above the diagonal, the reflectors below it) and the τs,
   * by qr's Householder steps, for a batch of m×n matrices, tall or wide.
   */
  List<Atom> geqrf(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = linalgOperand(e, ins.get(0));
    DType d = at.dtype();
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long batch = batch(a);
    boolean tall = m >= n;
    Atom x = flat(ins.get(0), Shape.of(batch, m, n), em);
    if (Math.min(m, n) > 2 * BlockedQr.BLOCK)
      return asResults(e, em, new ArrayList<>(BlockedQr.geqrf(x, batch, m, n, d, em, qrPieces(batch, d, em))));
    Jaxpr body = templates.instance("geqrf_" + (tall ? "tall" : "wide") + "_" + d.shortName(), x64(d),
        laPairs(batch, tall ? m : n, tall ? n : m));
    List<Var> ys = List.of(em.fresh(new ArrayType(d, Shape.of(batch, m, n))), em.fresh(new ArrayType(d, Shape.of(batch, Math.min(m, n)))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("geqrf"), "jaxpr", new ParamValue.JaxprValue(body)), List.of(x));
    return asResults(e, em, new ArrayList<>(ys));
  }

  /**
   * householder_product (orgqr/ungqr): the product of the k reflectors below the diagonal of an
   * m×n batch (m ≥ n ≥ k) applied to the identity's first n columns. The recording takes n τs;
   * fewer are padded with zeros (τ = 0 reflects nothing).
   */
  List<Atom> householderProduct(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = linalgOperand(e, ins.get(0));
    sameBatch(e, ins, 2, 1);
    DType d = at.dtype();
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    long batch = batch(a);
    long[] ts = ((ArrayType) ins.get(1).type()).shape().sizes();
    long k = ts[ts.length - 1];
    Atom taus = flat(ins.get(1), Shape.of(batch, k), em);
    if (k > 2 * BlockedQr.BLOCK) {
      Atom q = BlockedQr.orgqr(flat(ins.get(0), Shape.of(batch, m, n), em), taus, batch, m, k, n, d, em, qrPieces(batch, d, em));
      return asResults(e, em, new ArrayList<>(List.of(q)));
    }
    if (k < n) taus = em.concatenate(1, taus, em.broadcastInDim(em.convert(zero(d), d), Shape.of(batch, n - k)));
    Jaxpr body = templates.instance("householder_product_" + d.shortName(), x64(d), laPairs(batch, m, n));
    Var q = em.fresh(new ArrayType(d, Shape.of(batch, m, n)));
    em.add(List.of(q), "jit", Emitter.params("name", new ParamValue.Str("householder_product"), "jaxpr",
        new ParamValue.JaxprValue(body)), List.of(flat(ins.get(0), Shape.of(batch, m, n), em), taus));
    return asResults(e, em, new ArrayList<>(List.of(q)));
  }

  /**
   * A call of recorded template {@code template} (sizes replaced by {@code pairs}, a jit named
   * {@code name}) on {@code args}: its results, of the types given.
   */
  private List<Atom> recorded(String template, DType d, List<String[]> pairs, String name, List<ArrayType> outs,
      List<Atom> args, Emitter em) {
    Jaxpr body = templates.instance(template, x64(d), pairs);
    List<Var> ys = new ArrayList<>();
    for (ArrayType t : outs) ys.add(em.fresh(t));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str(name), "jaxpr", new ParamValue.JaxprValue(body)), args);
    return new ArrayList<>(ys);
  }

  /** The recorded panel pieces of {@link BlockedQr}: unblocked geqrf and larft. */
  private BlockedQr.Pieces qrPieces(long batch, DType d, Emitter em) {
    return new BlockedQr.Pieces() {
      @Override
      public List<Atom> panel(Atom x, long rows, long cols) {
        return recorded("geqrf_tall_" + d.shortName(), d, laPairs(batch, rows, cols), "geqrf",
            List.of(new ArrayType(d, Shape.of(batch, rows, cols)), new ArrayType(d, Shape.of(batch, cols))), List.of(x), em);
      }

      @Override
      public List<Atom> larft(Atom packed, Atom taus, long rows, long cols) {
        return recorded("larft_" + d.shortName(), d, laPairs(batch, rows, cols), "larft",
            List.of(new ArrayType(d, Shape.of(batch, rows, cols)), new ArrayType(d, Shape.of(batch, cols, cols))),
            List.of(packed, taus), em);
      }
    };
  }

  /**
   * hessenberg (gehrd): LAPACK's packed Hessenberg form (the Hessenberg matrix on and above the
   * first subdiagonal, the reflectors below it) and the n − 1 τs, by gehd2's Householder steps.
   */
  List<Atom> hessenberg(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = linalgOperand(e, ins.get(0));
    DType d = at.dtype();
    long[] a = at.shape().sizes();
    long n = a[a.length - 1];
    long batch = batch(a);
    Atom x = flat(ins.get(0), Shape.of(batch, n, n), em);
    BlockedHessenberg.Pieces pieces = hessenbergPieces(batch, d, em);
    return asResults(e, em, new ArrayList<>(n > 2 * BlockedHessenberg.BLOCK
        ? BlockedHessenberg.reduce(x, batch, n, d, em, pieces) : pieces.unblocked(x, n)));
  }

  /** The recorded pieces of {@link BlockedHessenberg}: lahr2 panels, the unblocked gehd2 and orghr's Q. */
  private BlockedHessenberg.Pieces hessenbergPieces(long batch, DType d, Emitter em) {
    return new BlockedHessenberg.Pieces() {
      @Override
      public List<Atom> panel(Atom a, long rows) {
        long nb = BlockedHessenberg.BLOCK;
        ArrayType block = new ArrayType(d, Shape.of(batch, rows, nb));
        Atom w0 = em.broadcastInDim(em.convert(zero(d), d), block.shape());
        return recorded("gehrd_panel_" + d.shortName(), d, laPairs(batch, rows, nb), "gehrd_panel", List.of(block, block, block,
            new ArrayType(d, Shape.of(batch, nb, nb)), new ArrayType(d, Shape.of(batch, nb))), List.of(a, w0), em);
      }

      @Override
      public List<Atom> unblocked(Atom a, long rows) {
        return recorded("hessenberg_" + d.shortName(), d, laPairs(batch, rows, 1), "hessenberg",
            List.of(new ArrayType(d, Shape.of(batch, rows, rows)), new ArrayType(d, Shape.of(batch, rows - 1))), List.of(a), em);
      }

      @Override
      public Atom q(Atom packed, Atom taus, long rows) {
        return tridiagonalQ(packed, taus, batch, rows, d, em);
      }
    };
  }

  /**
   * eig (geev): Hessenberg reduction, the QR algorithm (real: Francis double shifts and dlanv2's
   * 2×2 blocks; complex: single shifts), eigenvectors by back substitution on the triangular
   * factor, normalised as geev (unit norm, largest component real). A real matrix's eigenvalues
   * keep geev's structure (real ones with a zero imaginary part and real vectors, conjugate pairs
   * with the positive imaginary part first and conjugate vectors); their order is the Schur
   * form's, which need not be LAPACK's (JAX does not specify it).
   */
  List<Atom> eig(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = linalgOperand(e, ins.get(0));
    DType d = at.dtype();
    DType c = x64(d) ? DType.C128 : DType.C64;
    long[] a = at.shape().sizes();
    long n = a[a.length - 1];
    long batch = batch(a);
    boolean left = e.params().getBool("compute_left_eigenvectors", false);
    boolean right = e.params().getBool("compute_right_eigenvectors", true);
    boolean vectors = left || right;
    if (n == 1) {
      // A 1×1 matrix is its own eigenvalue, with eigenvector 1 (the recording's reflector loops
      // would gather from 0×0 matrices).
      List<Atom> r = new ArrayList<>(List.of(em.convert(flat(ins.get(0), Shape.of(batch, 1), em), c)));
      Atom one = em.broadcastInDim(em.convert(one(d), c), Shape.of(batch, 1, 1));
      if (left) r.add(one);
      if (right) r.add(one);
      return asResults(e, em, r);
    }
    Jaxpr body = templates.instance("eig_" + (vectors ? "vectors" : "values") + "_" + d.shortName(), x64(d), laPairs(batch, n, 1));
    List<Var> ys = new ArrayList<>();
    ys.add(em.fresh(new ArrayType(c, Shape.of(batch, n))));
    if (vectors) {
      ys.add(em.fresh(new ArrayType(c, Shape.of(batch, n, n))));
      ys.add(em.fresh(new ArrayType(c, Shape.of(batch, n, n))));
    }
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("eig"), "jaxpr", new ParamValue.JaxprValue(body)),
        List.of(flat(ins.get(0), Shape.of(batch, n, n), em)));
    List<Atom> r = new ArrayList<>(List.of(ys.get(0)));
    if (left) r.add(ys.get(1));
    if (right) r.add(ys.get(2));
    return asResults(e, em, r);
  }

  /**
   * schur (gees): the Schur form from the same QR algorithm as eig, real quasi-triangular (2×2
   * blocks standardised as dlanv2) for a real matrix, triangular for a complex one, and the Schur
   * vectors. The diagonal's order is the algorithm's; sorting (select_callable) is not supported.
   */
  List<Atom> schur(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = linalgOperand(e, ins.get(0));
    if (e.params().getBool("sort_eig_vals", false) || !e.params().isNone("select_callable"))
      throw new JaxcException("schur with sorted eigenvalues (sort_eig_vals, select_callable) is not supported", e.primSpan());
    DType d = at.dtype();
    long[] a = at.shape().sizes();
    long n = a[a.length - 1];
    long batch = batch(a);
    boolean vectors = e.params().getBool("compute_schur_vectors", true);
    if (n == 1) {
      List<Atom> r = new ArrayList<>(List.of(ins.get(0)));
      if (vectors) r.add(em.broadcastInDim(em.convert(one(d), d), at.shape()));
      return r;
    }
    // Without vectors its own recording, whose sweeps update no Schur vectors.
    Jaxpr body = templates.instance((vectors ? "schur_" : "schur_values_") + d.shortName(), x64(d), laPairs(batch, n, 1));
    List<Var> ys = new ArrayList<>();
    for (int k = 0; k < (vectors ? 2 : 1); k++) ys.add(em.fresh(new ArrayType(d, Shape.of(batch, n, n))));
    em.add(ys, "jit", Emitter.params("name", new ParamValue.Str("schur"), "jaxpr", new ParamValue.JaxprValue(body)),
        List.of(flat(ins.get(0), Shape.of(batch, n, n), em)));
    return asResults(e, em, new ArrayList<>(ys));
  }

  /**
   * The operands' batch dimensions (all but the last {@code coreRanks[i]}) must be equal. JAX's
   * shape rule compares only their number, so it prints such equations, but its lowering rejects
   * them ("Batching dimension … corresponds to two sizes"): a located error here too.
   */
  private static void sameBatch(Eqn e, List<Atom> ins, int... coreRanks) {
    List<Dim> first = null;
    for (int i = 0; i < coreRanks.length && i < ins.size(); i++) {
      ArrayType t = (ArrayType) ins.get(i).type();
      List<Dim> batch = t.shape().dims().subList(0, Math.max(0, t.rank() - coreRanks[i]));
      if (first == null) first = batch;
      else if (!batch.equals(first))
        throw new JaxcException(e.primitive() + ": operand " + i + " has batch dimensions " + t.text() + " unlike operand 0's "
            + ((ArrayType) ins.get(0).type()).text() + " (JAX cannot lower this either)", e.primSpan());
    }
  }

  /** Operand {@code x} of a LAPACK-style primitive: f32, f64, c64 or c128, of a static shape. */
  private static ArrayType linalgOperand(Eqn e, Atom x) {
    ArrayType at = (ArrayType) x.type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException(e.primitive() + " of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    if (!at.shape().isStatic()) throw new JaxcException(e.primitive() + " of a symbolic shape is not supported", e.primSpan());
    return at;
  }

  private static boolean x64(DType d) {
    return d == DType.F64 || d == DType.C128;
  }

  /** The product of all but the last two sizes (of the last one for a vector). */
  private static long batch(long[] a) {
    long b = 1;
    for (int i = 0; i < a.length - 2; i++) b *= a[i];
    return b;
  }

  private static Atom flat(Atom x, Shape s, Emitter em) {
    return ((ArrayType) x.type()).shape().equals(s) ? x : em.reshape(x, s);
  }

  private static Literal one(DType d) {
    return new Literal(new Scalar.Float(1.0), ArrayType.scalar(d.isComplex() ? d.realPart() : d), true,
        Span.NONE);
  }

  private static Literal zero(DType d) {
    return new Literal(new Scalar.Float(0.0), ArrayType.scalar(d.isComplex() ? d.realPart() : d), true,
        Span.NONE);
  }

  /**
   * eigh of real symmetric and complex Hermitian matrices as LAPACK's heev (jaxc's own algorithm,
   * written in JAX): reduction to a real symmetric tridiagonal matrix, the implicit QL algorithm
   * with the rotations accumulated; eigenvalues (real) ascending, the eigenvectors' signs or
   * phases the algorithm's (JAX leaves them unspecified; LAPACK's may differ); subset_by_index
   * slices the results.
   */
  List<Atom> eigh(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("eigh of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    DType real = d.isComplex() ? d.realPart() : d;
    if (!at.shape().isStatic()) throw new JaxcException("eigh of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 1];
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean lower = e.params().getBool("lower", true);
    Shape flat = Shape.of(batch, m, m);
    Atom x = at.shape().equals(flat) ? ins.get(0) : em.reshape(ins.get(0), flat);
    Atom v;
    Atom w;
    if (m == 1) {
      // A 1×1 matrix: its real part, eigenvector 1 (the recording's reflector loops would gather
      // from 0×0 matrices).
      w = em.reshape(d.isComplex() ? em.emit("real", Params.EMPTY, new ArrayType(real, flat), x) : x, Shape.of(batch, 1));
      v = em.broadcastInDim(em.convert(one(d), d), flat);
    } else {
      // The tridiagonal reduction, then Q from its reflectors (by panels on the GEMM kernel when
      // large: the recording's column-by-column product took 0.8 s of 1.0 at 1024×1024), then QL.
      ArrayType diag = new ArrayType(real, Shape.of(batch, m));
      String side = lower ? "lower" : "upper";
      boolean blocked = m > 2 * BlockedTridiagonal.BLOCK;
      List<Atom> t;
      if (blocked) {
        Atom whole = recorded("hermitian_" + side + "_" + d.shortName(), d, laPairs(batch, m, 1), "hermitian",
            List.of(new ArrayType(d, flat)), List.of(x), em).get(0);
        t = BlockedTridiagonal.reduce(whole, batch, m, d, em, tridiagonalPieces(batch, d, em));
      } else {
        t = recorded("eigh_reduce_" + side + "_" + d.shortName(), d, laPairs(batch, m, 1), "eigh_reduce",
            List.of(diag, diag, new ArrayType(d, flat), new ArrayType(d, Shape.of(batch, m - 1))), List.of(x), em);
      }
      Atom q = tridiagonalQ(t.get(2), t.get(3), batch, m, d, em);
      List<Atom> ys = blocked ? qlBlocked(t.get(0), t.get(1), q, batch, m, d, em)
          : recorded("eigh_ql_" + d.shortName(), d, laPairs(batch, m, 1), "eigh_ql", List.of(new ArrayType(d, flat), diag),
              List.of(t.get(0), t.get(1), q), em);
      v = ys.get(0);
      w = ys.get(1);
    }
    long[] subset = e.params().getLongsOpt("subset_by_index").orElse(null);
    if (subset != null && subset.length == 2 && (subset[0] != 0 || subset[1] != m)) {
      v = em.emit("slice", Emitter.params("start_indices", ints(0, 0, subset[0]), "limit_indices", ints(batch, m, subset[1]),
          "strides", new ParamValue.None()), new ArrayType(d, Shape.of(batch, m, subset[1] - subset[0])), v);
      w = em.emit("slice", Emitter.params("start_indices", ints(0, subset[0]), "limit_indices", ints(batch, subset[1]),
          "strides", new ParamValue.None()), new ArrayType(real, Shape.of(batch, subset[1] - subset[0])), w);
    }
    return asResults(e, em, List.of(v, w));
  }

  /** The recorded pieces of {@link BlockedBidiagonal}: labrd panels and the unblocked gebd2. */
  private BlockedBidiagonal.Pieces bidiagonalPieces(long batch, DType d, Emitter em) {
    DType real = d.isComplex() ? d.realPart() : d;
    return new BlockedBidiagonal.Pieces() {
      @Override
      public List<Atom> panel(Atom a, long rows, long cols) {
        long nb = BlockedBidiagonal.BLOCK;
        ArrayType left = new ArrayType(d, Shape.of(batch, rows, nb));
        ArrayType right = new ArrayType(d, Shape.of(batch, cols, nb));
        ArrayType diag = new ArrayType(real, Shape.of(batch, nb));
        ArrayType taus = new ArrayType(d, Shape.of(batch, nb));
        return recorded("gebrd_panel_" + d.shortName(), d, laPairs(batch, rows, cols), "gebrd_panel",
            List.of(left, right, right, left, diag, diag, taus, taus, left), List.of(a), em);
      }

      @Override
      public List<Atom> unblocked(Atom a, long rows, long cols) {
        ArrayType values = new ArrayType(real, Shape.of(batch, cols));
        ArrayType taus = new ArrayType(d, Shape.of(batch, cols));
        return recorded("svd_reduce_" + d.shortName(), d, laPairs(batch, rows, cols), "svd_reduce", List.of(values, values,
            new ArrayType(d, Shape.of(batch, rows, cols)), taus, new ArrayType(d, Shape.of(batch, cols, cols)), taus),
            List.of(a), em);
      }
    };
  }

  /** Columns of Zᵀ per block of eigh_ql_blocked: QL_WIDTH in testdata/expansions_eig.py. */
  private static final long QL_WIDTH = 128;

  /**
   * eigh's QL with the rotations recorded and applied to column blocks of Qᵀ (eigh_ql_blocked):
   * Q's rows padded to a multiple of {@link #QL_WIDTH} and blocked as [B, P, m, QL_WIDTH] for the
   * recording, its result unblocked back into the eigenvectors [B, m, m]; and the eigenvalues.
   */
  private List<Atom> qlBlocked(Atom dd, Atom ee, Atom q, long batch, long m, DType d, Emitter em) {
    long p = (m + QL_WIDTH - 1) / QL_WIDTH;
    Atom padded = p * QL_WIDTH == m ? q
        : em.concatenate(1, q, em.broadcastInDim(em.convert(zero(d), d), Shape.of(batch, p * QL_WIDTH - m, m)));
    Atom blocks = transposeLast(em.reshape(padded, Shape.of(batch, p, QL_WIDTH, m)), batch, p, QL_WIDTH, m, d, em);
    DType real = d.isComplex() ? d.realPart() : d;
    List<Atom> ys = recorded("eigh_ql_blocked_" + d.shortName(), d, laPairs(batch, m, p), "eigh_ql_blocked",
        List.of(new ArrayType(d, Shape.of(batch, p, m, QL_WIDTH)), new ArrayType(real, Shape.of(batch, m))),
        List.of(dd, ee, blocks), em);
    Atom rows = em.reshape(transposeLast(ys.get(0), batch, p, m, QL_WIDTH, d, em), Shape.of(batch, p * QL_WIDTH, m));
    Atom v = p * QL_WIDTH == m ? rows : em.slice(rows, new long[] {0, 0, 0}, new long[] {batch, m, m});
    return List.of(v, ys.get(1));
  }

  /** x [B, P, r, c] with its last two axes swapped: [B, P, c, r]. */
  private static Atom transposeLast(Atom x, long batch, long p, long r, long c, DType d, Emitter em) {
    return em.emit("transpose", Emitter.params("permutation", ints(0, 1, 3, 2)), new ArrayType(d, Shape.of(batch, p, c, r)), x);
  }

  /** The recorded pieces of {@link BlockedTridiagonal}: latrd panels and the unblocked hetd2. */
  private BlockedTridiagonal.Pieces tridiagonalPieces(long batch, DType d, Emitter em) {
    DType real = d.isComplex() ? d.realPart() : d;
    return new BlockedTridiagonal.Pieces() {
      @Override
      public List<Atom> panel(Atom a, long rows, long cols) {
        ArrayType block = new ArrayType(d, Shape.of(batch, rows, cols));
        ArrayType diag = new ArrayType(real, Shape.of(batch, cols));
        Atom w0 = em.broadcastInDim(em.convert(zero(d), d), block.shape());
        return recorded("sytrd_panel_" + d.shortName(), d, laPairs(batch, rows, cols), "sytrd_panel",
            List.of(block, block, block, diag, diag, new ArrayType(d, Shape.of(batch, cols))), List.of(a, w0), em);
      }

      @Override
      public List<Atom> unblocked(Atom a, long rows) {
        ArrayType diag = new ArrayType(real, Shape.of(batch, rows));
        return recorded("eigh_reduce_lower_" + d.shortName(), d, laPairs(batch, rows, 1), "eigh_reduce",
            List.of(diag, diag, new ArrayType(d, Shape.of(batch, rows, rows)), new ArrayType(d, Shape.of(batch, rows - 1))),
            List.of(a), em);
      }
    };
  }

  /**
   * Q [B, m, m] (m ≥ 2) of a tridiagonal reduction (or V of a bidiagonal one): 1 in its corner and,
   * below and right of it, the product of the m − 1 reflectors packed below the subdiagonal of
   * {@code packed} (orgtr).
   */
  private Atom tridiagonalQ(Atom packed, Atom taus, long batch, long m, DType d, Emitter em) {
    long k = m - 1;
    Atom sub = em.slice(packed, new long[] {0, 1, 0}, new long[] {batch, m, k});
    Atom qs;
    if (k > 2 * BlockedQr.BLOCK) {
      qs = BlockedQr.orgqr(sub, taus, batch, k, k, k, d, em, qrPieces(batch, d, em));
    } else {
      qs = recorded("householder_product_" + d.shortName(), d, laPairs(batch, k, k), "householder_product",
          List.of(new ArrayType(d, Shape.of(batch, k, k))), List.of(sub, taus), em).get(0);
    }
    Atom zero = em.convert(zero(d), d);
    Atom corner = em.concatenate(2, em.broadcastInDim(em.convert(one(d), d), Shape.of(batch, 1, 1)),
        em.broadcastInDim(zero, Shape.of(batch, 1, k)));
    Atom below = em.concatenate(2, em.broadcastInDim(zero, Shape.of(batch, k, 1)), qs);
    return em.concatenate(1, corner, below);
  }

  /**
   * svd of real and complex matrices (jaxc's own algorithm, written in JAX: testdata/expansions_svd.py)
   * on the tall form (a wide matrix conjugate-transposed, U and Vᴴ swapped back): Householder
   * bidiagonalisation as gebd2, then Golub–Reinsch QR sweeps on the real bidiagonal; singular values
   * descending, the vector pairs' signs or phases the algorithm's; with full_matrices, U is the
   * left reflectors' complete product. Subsets are refused, as JAX refuses them on CPU and GPU.
   */
  List<Atom> svd(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType at = (ArrayType) ins.get(0).type();
    DType d = at.dtype();
    if (d != DType.F32 && d != DType.F64 && d != DType.C64 && d != DType.C128)
      throw new JaxcException("svd of " + d.shortName() + " (JAX takes f32, f64, c64 and c128)", e.primSpan());
    DType real = d.isComplex() ? d.realPart() : d;
    if (!at.shape().isStatic()) throw new JaxcException("svd of a symbolic shape is not supported", e.primSpan());
    long[] a = at.shape().sizes();
    int r = a.length;
    long m = a[r - 2];
    long n = a[r - 1];
    boolean uv = e.params().getBool("compute_uv", true);
    boolean full = uv && e.params().getBool("full_matrices", true) && m != n;
    if (e.params().getLongsOpt("subset_by_index").isPresent())
      throw new JaxcException("svd with subset_by_index is not supported (JAX does not implement it on CPU or GPU either)", e.primSpan());
    long batch = 1;
    for (int i = 0; i < r - 2; i++) batch *= a[i];
    boolean tall = m >= n;
    long big = tall ? m : n;
    long small = tall ? n : m;
    Atom x = at.shape().equals(Shape.of(batch, m, n)) ? ins.get(0) : em.reshape(ins.get(0), Shape.of(batch, m, n));
    if (!tall) x = adjoint(x, d, Shape.of(batch, n, m), em);
    long uCols = full ? big : small;
    List<String[]> pairs = laPairs(batch, big, small);
    ArrayType values = new ArrayType(real, Shape.of(batch, small));
    List<Atom> ys;
    boolean blocked = small > 2 * BlockedBidiagonal.BLOCK;
    if (!uv && blocked) {
      List<Atom> bd = BlockedBidiagonal.reduce(x, batch, big, small, d, em, bidiagonalPieces(batch, d, em));
      ys = recorded("svd_values_bidiagonal_" + real.shortName(), real, laPairs(batch, small, 1), "svd", List.of(values),
          List.of(bd.get(0), bd.get(1)), em);
    } else if (!uv) {
      ys = recorded("svd_s_" + d.shortName(), d, pairs, "svd", List.of(values), List.of(x), em);
    } else {
      // Bidiagonalisation, then U and V from its reflectors by panels on the GEMM kernel (the
      // recording's column-by-column products took 0.8 s each at 1024×1024), then the sweeps.
      ArrayType taus = new ArrayType(d, Shape.of(batch, small));
      List<Atom> bd = blocked ? BlockedBidiagonal.reduce(x, batch, big, small, d, em, bidiagonalPieces(batch, d, em))
          : bidiagonalPieces(batch, d, em).unblocked(x, big, small);
      Atom u = BlockedQr.orgqr(bd.get(2), bd.get(3), batch, big, small, uCols, d, em, qrPieces(batch, d, em));
      Atom v = small == 1 ? em.broadcastInDim(em.convert(one(d), d), Shape.of(batch, 1, 1))
          : tridiagonalQ(bd.get(4), em.slice(bd.get(5), new long[] {0, 0}, new long[] {batch, small - 1}), batch, small, d, em);
      ys = recorded("svd_vectors" + (full ? "_full_" : "_") + d.shortName(), d, pairs, "svd_vectors", List.of(values,
          new ArrayType(d, Shape.of(batch, big, uCols)), new ArrayType(d, Shape.of(batch, small, small))),
          List.of(bd.get(0), bd.get(1), u, v), em);
    }
    List<Atom> got = ys;
    if (uv && !tall) {
      // Aᴴ = U'·S·V'ᴴ, so A = V'·S·U'ᴴ: u = (V'ᴴ)ᴴ, vᴴ = U'ᴴ.
      Atom u = adjoint(ys.get(2), d, Shape.of(batch, small, small), em);
      Atom vt = adjoint(ys.get(1), d, Shape.of(batch, uCols, big), em);
      got = List.of(ys.get(0), u, vt);
    }
    return asResults(e, em, got);
  }

  /** The conjugate transpose of each matrix of the batch {@code x} (of shape {@code to} after it). */
  private static Atom adjoint(Atom x, DType d, Shape to, Emitter em) {
    Atom t = em.emit("transpose", Emitter.params("permutation", ints(0, 2, 1)), new ArrayType(d, to), x);
    return d.isComplex() ? em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)), new ArrayType(d, to), t) : t;
  }

  /** The batch-flattened results reshaped to e's result shapes. */
  private static List<Atom> asResults(Eqn e, Emitter em, List<Atom> flat) {
    List<Atom> out = new ArrayList<>();
    for (int i = 0; i < flat.size(); i++) {
      ArrayType want = (ArrayType) e.outs().get(i).type();
      Atom g = flat.get(i);
      out.add(want.shape().equals(((ArrayType) g.type()).shape()) ? g : em.reshape(g, want.shape()));
    }
    return out;
  }
}
