package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;

/**
 * Type rules of the linear algebra primitives and fft. As in JAX's {@code linalg_shape_rule}, each
 * operand is leading batch dims plus a core of fixed rank; operands need the same number of batch
 * dims, and results carry operand 0's batch dims in front of their core.
 */
public final class LinalgRules {
  private LinalgRules() {}

  /** {@code cholesky a}: a square float or complex matrix, same type. */
  public static List<Type> cholesky(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    square(ctx, a);
    return List.of(RuleOperands.strong(a.dtype(), a.shape()));
  }

  /**
   * {@code eigh[lower sort_eigenvalues subset_by_index] a}: eigenvectors {@code T[…,n,d]} then
   * eigenvalues {@code real(T)[…,d]}, where d = n or the size of {@code subset_by_index}.
   */
  public static List<Type> eigh(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    square(ctx, a);
    Dim n = core(a, 2).get(0);
    Dim d = n;
    if (!ctx.params().isNone("subset_by_index")) {
      long[] subset = subset(ctx.params());
      d = Dim.of(subset[1] - subset[0]);
    }
    return List.of(result(a, a.dtype(), n, d), result(a, a.dtype().realPart(), d));
  }

  /**
   * {@code lu a}: for {@code a:T[…,m,n]}, the packed factors {@code T[…,m,n]}, pivots {@code
   * i32[…,min(m,n)]} and the permutation {@code i32[…,m]}.
   */
  public static List<Type> lu(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    long m = RuleDims.size(a.shape(), a.rank() - 2, ctx.primitive(), 0);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    return List.of(
        RuleOperands.strong(a.dtype(), a.shape()),
        result(a, DType.I32, Dim.of(Math.min(m, n))),
        result(a, DType.I32, Dim.of(m)));
  }

  /**
   * {@code lu_pivots_to_permutation[permutation_size=m] pivots:i32[…,k]}: {@code i32[…,m]}, k at
   * most m.
   */
  public static List<Type> luPivotsToPermutation(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType p = RuleOperands.array(ctx, 0);
    if (p.dtype() != DType.I32)
      throw new TypeRuleException(ctx.primitive() + " pivots must be int32, got " + p.text(), 0);
    if (p.rank() < 1) throw new TypeRuleException(ctx.primitive() + " pivots must have rank at least 1, got " + p.text(), 0);
    long m = ctx.params().getLong("permutation_size");
    long k = RuleDims.size(p.shape(), p.rank() - 1, ctx.primitive(), 0);
    if (m < k) throw new TypeRuleException(ctx.primitive() + ": permutation_size " + m + " is less than the " + k + " pivots", 0);
    List<Dim> dims = new ArrayList<>(p.shape().dims().subList(0, p.rank() - 1));
    dims.add(Dim.of(m));
    return List.of(RuleOperands.strong(DType.I32, new Shape(dims)));
  }

  /**
   * {@code eig[compute_left_eigenvectors compute_right_eigenvectors] a}: for a square {@code
   * a:T[…,n,n]}, the eigenvalues {@code C[…,n]} (C the complex type of T), then the left and the
   * right eigenvectors {@code C[…,n,n]} that are asked for.
   */
  public static List<Type> eig(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    square(ctx, a);
    if (!a.dtype().isComplex() && a.dtype() != DType.F32 && a.dtype() != DType.F64)
      throw new TypeRuleException(ctx.primitive() + " takes f32, f64, c64 or c128, got " + a.text(), 0);
    DType c = a.dtype() == DType.F64 || a.dtype() == DType.C128 ? DType.C128 : DType.C64;
    Dim n = core(a, 2).get(0);
    List<Type> out = new ArrayList<>();
    out.add(result(a, c, n));
    if (ctx.params().getBool("compute_left_eigenvectors", false)) out.add(result(a, c, n, n));
    if (ctx.params().getBool("compute_right_eigenvectors", true)) out.add(result(a, c, n, n));
    return out;
  }

  /**
   * {@code schur[compute_schur_vectors sort_eig_vals select_callable] a}: for a square {@code
   * a:T[…,n,n]}, the Schur form T, then (with compute_schur_vectors) the Schur vectors, same type.
   */
  public static List<Type> schur(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    square(ctx, a);
    ArrayType t = RuleOperands.strong(a.dtype(), a.shape());
    return ctx.params().getBool("compute_schur_vectors", true) ? List.of(t, t) : List.of(t);
  }

  /**
   * {@code geqrf a}: for {@code a:T[…,m,n]}, LAPACK's packed QR {@code T[…,m,n]} and the
   * reflectors' τs {@code T[…,min(m,n)]}.
   */
  public static List<Type> geqrf(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    long m = RuleDims.size(a.shape(), a.rank() - 2, ctx.primitive(), 0);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    return List.of(RuleOperands.strong(a.dtype(), a.shape()), result(a, a.dtype(), Dim.of(Math.min(m, n))));
  }

  /**
   * {@code householder_product a taus}: for {@code a:T[…,m,n]} (m ≥ n) and {@code taus:T[…,k]}
   * (k ≤ n), the product of the k reflectors {@code T[…,m,n]}.
   */
  public static List<Type> householderProduct(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    List<ArrayType> ops = matrices(ctx, 2, 1);
    ArrayType a = ops.get(0);
    long m = RuleDims.size(a.shape(), a.rank() - 2, ctx.primitive(), 0);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    ArrayType t = ops.get(1);
    long k = RuleDims.size(t.shape(), t.rank() - 1, ctx.primitive(), 1);
    if (m < n) throw new TypeRuleException(ctx.primitive() + " needs at least as many rows as columns, got " + a.text(), 0);
    if (k > n) throw new TypeRuleException(ctx.primitive() + ": " + k + " τs for " + n + " columns, got " + t.text(), 1);
    if (!sameDims(a.shape().dims().subList(0, a.rank() - 2), t.shape().dims().subList(0, t.rank() - 1)))
      throw new TypeRuleException(ctx.primitive() + " operands must have the same batch dimensions, got " + a.text() + " and " + t.text(), 1);
    return List.of(RuleOperands.strong(a.dtype(), a.shape()));
  }

  /**
   * {@code hessenberg a}: for a square {@code a:T[…,n,n]}, LAPACK's packed Hessenberg form
   * {@code T[…,n,n]} and the τs {@code T[…,n−1]}.
   */
  public static List<Type> hessenberg(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    square(ctx, a);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    return List.of(RuleOperands.strong(a.dtype(), a.shape()), result(a, a.dtype(), Dim.of(Math.max(0, n - 1))));
  }

  /**
   * {@code qr[full_matrices pivoting] a}: {@code q:T[…,m,k] r:T[…,k,n]} with k = m when
   * full_matrices else min(m,n), then {@code p:i32[…,n]} when pivoting.
   */
  public static List<Type> qr(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    Params p = ctx.params();
    long m = RuleDims.size(a.shape(), a.rank() - 2, ctx.primitive(), 0);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    long k = p.getBool("full_matrices", true) ? m : Math.min(m, n);
    List<Type> out = new ArrayList<>();
    out.add(result(a, a.dtype(), Dim.of(m), Dim.of(k)));
    out.add(result(a, a.dtype(), Dim.of(k), Dim.of(n)));
    if (p.getBool("pivoting", false)) out.add(result(a, DType.I32, Dim.of(n)));
    return out;
  }

  /**
   * {@code svd[compute_uv full_matrices subset_by_index] a}: singular values {@code real(T)[…,r]}
   * first, then (with compute_uv) {@code u:T[…,m,m|r]} and {@code vt:T[…,n|r,n]}; r = min(m,n), or
   * fewer with subset_by_index (which full_matrices does not allow).
   */
  public static List<Type> svd(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType a = matrices(ctx, 2).get(0);
    Params p = ctx.params();
    long m = RuleDims.size(a.shape(), a.rank() - 2, ctx.primitive(), 0);
    long n = RuleDims.size(a.shape(), a.rank() - 1, ctx.primitive(), 0);
    boolean full = p.getBool("full_matrices", true);
    long rank = Math.min(m, n);
    if (!p.isNone("subset_by_index")) {
      long[] subset = subset(p);
      if (full && !(subset[0] == 0 && subset[1] == rank))
        throw new TypeRuleException("svd: full_matrices and subset_by_index cannot both be set");
      rank = Math.min(rank, subset[1] - subset[0]);
    }
    List<Type> out = new ArrayList<>();
    out.add(result(a, a.dtype().realPart(), Dim.of(rank)));
    if (p.getBool("compute_uv", true)) {
      out.add(result(a, a.dtype(), Dim.of(m), Dim.of(full ? m : rank)));
      out.add(result(a, a.dtype(), Dim.of(full ? n : rank), Dim.of(n)));
    }
    return out;
  }

  /**
   * {@code triangular_solve[left_side lower transpose_a conjugate_a unit_diagonal] a b}: a is
   * square and its size matches b's rows (left_side) or columns; the result has b's type.
   */
  public static List<Type> triangularSolve(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    List<ArrayType> ops = matrices(ctx, 2, 2);
    ArrayType a = ops.get(0);
    ArrayType b = ops.get(1);
    square(ctx, a);
    int common = ctx.params().getBool("left_side", false) ? b.rank() - 2 : b.rank() - 1;
    if (!RuleDims.sameDim(a.shape().dims().get(a.rank() - 1), b.shape().dims().get(common)))
      throw new TypeRuleException(
          "triangular_solve: incompatible shapes " + a.shape().text() + " and " + b.shape().text(),
          1);
    return List.of(result(a, b.dtype(), core(b, 2).toArray(Dim[]::new)));
  }

  /**
   * {@code tridiagonal_solve[perturb_singular] dl d du b}: the three diagonals {@code […,m]} and
   * right-hand sides {@code […,m,n]}; the result has b's type.
   */
  public static List<Type> tridiagonalSolve(RuleContext ctx) {
    RuleOperands.arity(ctx, 4);
    List<ArrayType> ops = matrices(ctx, 1, 1, 1, 2);
    List<Dim> dl = core(ops.get(0), 1);
    for (int i = 1; i < 3; i++)
      if (!sameDims(dl, core(ops.get(i), 1)))
        throw new TypeRuleException(
            "tridiagonal_solve requires that all diagonal arguments have the same shape", i);
    List<Dim> b = core(ops.get(3), 2);
    if (!sameDims(dl, b.subList(0, 1)))
      throw new TypeRuleException(
          "tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the"
              + " dimensions of the diagonal arguments",
          3);
    List<Dim> batch = ops.get(0).shape().dims().subList(0, ops.get(0).rank() - 1);
    return List.of(result(batch, ops.get(3).dtype(), b.toArray(Dim[]::new)));
  }

  /**
   * {@code fft[fft_type fft_lengths] x} over the last {@code len(fft_lengths)} axes: FFT/IFFT
   * complex to complex; RFFT {@code f32|f64} to complex with the last axis {@code n/2+1}; IRFFT
   * complex to real with the last axis {@code fft_lengths[-1]}.
   */
  public static List<Type> fft(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    LinalgFftType type = LinalgFftType.of(ctx.params());
    long[] lengths = ctx.params().getLongs("fft_lengths");
    int k = lengths.length;
    if (k == 0) throw new TypeRuleException("fft needs at least one fft_length");
    if (k > x.rank())
      throw new TypeRuleException(
          "fft input "
              + x.text()
              + " must have at least as many dimensions as fft_lengths "
              + RuleParams.tuple(lengths),
          0);
    List<Dim> lead = x.shape().dims().subList(0, x.rank() - k);
    List<Dim> minor = x.shape().dims().subList(x.rank() - k, x.rank());
    List<Dim> out = new ArrayList<>(lead);
    DType dtype =
        switch (type) {
          case RFFT -> {
            if (x.dtype() != DType.F32 && x.dtype() != DType.F64)
              throw new TypeRuleException("RFFT input must be f32 or f64, got " + x.text(), 0);
            minorMatches(x, minor, lengths, k);
            for (int i = 0; i < k - 1; i++) out.add(Dim.of(lengths[i]));
            out.add(Dim.of(lengths[k - 1] / 2 + 1));
            yield x.dtype().complexOf().orElseThrow();
          }
          case IRFFT -> {
            if (!x.dtype().isComplex())
              throw new TypeRuleException("IRFFT input must be c64 or c128, got " + x.text(), 0);
            minorMatches(x, minor.subList(0, k - 1), lengths, k - 1);
            for (long l : lengths) out.add(Dim.of(l));
            yield x.dtype().realPart();
          }
          case FFT, IFFT -> {
            if (!x.dtype().isComplex())
              throw new TypeRuleException(type + " input must be c64 or c128, got " + x.text(), 0);
            minorMatches(x, minor, lengths, k);
            out.addAll(minor);
            yield x.dtype();
          }
        };
    return List.of(RuleOperands.strong(dtype, new Shape(out)));
  }

  /** The first {@code count} minor dims of x equal the first fft_lengths. */
  private static void minorMatches(ArrayType x, List<Dim> minor, long[] lengths, int count) {
    for (int i = 0; i < count; i++)
      if (!RuleDims.sameDim(minor.get(i), Dim.of(lengths[i])))
        throw new TypeRuleException(
            "fft input shape "
                + x.shape().text()
                + " does not end with fft_lengths "
                + RuleParams.tuple(lengths)
                + " (IRFFT: all but the last)",
            0);
  }

  /**
   * Operands {@code 0…} with at least the given core ranks, float or complex, of one dtype and with
   * the same number of batch dims.
   */
  private static List<ArrayType> matrices(RuleContext ctx, int... coreRanks) {
    List<ArrayType> ops = new ArrayList<>();
    for (int i = 0; i < coreRanks.length; i++) {
      ArrayType a = RuleOperands.array(ctx, i);
      if (!a.dtype().isInexact())
        throw new TypeRuleException(
            ctx.primitive() + " operand " + i + " must be float or complex, got " + a.text(), i);
      if (a.rank() < coreRanks[i])
        throw new TypeRuleException(
            ctx.primitive()
                + " operand "
                + i
                + " must have rank at least "
                + coreRanks[i]
                + ", got "
                + a.text(),
            i);
      if (i > 0 && a.dtype() != ops.get(0).dtype())
        throw new TypeRuleException(
            ctx.primitive()
                + " operands must share one dtype, got "
                + ops.get(0).dtype()
                + " and "
                + a.dtype(),
            i);
      if (i > 0 && a.rank() - coreRanks[i] != ops.get(0).rank() - coreRanks[0])
        throw new TypeRuleException(
            ctx.primitive()
                + " operands must have the same number of batch dimensions, got "
                + ops.get(0).text()
                + " and "
                + a.text(),
            i);
      ops.add(a);
    }
    return ops;
  }

  private static void square(RuleContext ctx, ArrayType a) {
    List<Dim> c = core(a, 2);
    if (!RuleDims.sameDim(c.get(0), c.get(1)))
      throw new TypeRuleException(ctx.primitive() + " needs a square matrix, got " + a.text(), 0);
  }

  /** The last {@code rank} dims. */
  private static List<Dim> core(ArrayType a, int rank) {
    return a.shape().dims().subList(a.rank() - rank, a.rank());
  }

  private static boolean sameDims(List<Dim> a, List<Dim> b) {
    if (a.size() != b.size()) return false;
    for (int i = 0; i < a.size(); i++) if (!RuleDims.sameDim(a.get(i), b.get(i))) return false;
    return true;
  }

  /** A result with the batch dims of matrix {@code a} (all but its last two) and the given core. */
  private static ArrayType result(ArrayType a, DType dtype, Dim... core) {
    return result(a.shape().dims().subList(0, a.rank() - 2), dtype, core);
  }

  private static ArrayType result(List<Dim> batch, DType dtype, Dim... core) {
    List<Dim> dims = new ArrayList<>(batch);
    dims.addAll(List.of(core));
    return RuleOperands.strong(dtype, new Shape(dims));
  }

  /** {@code subset_by_index=(lo, hi)}. */
  private static long[] subset(Params p) {
    long[] s = p.getLongs("subset_by_index");
    if (s.length != 2 || s[0] < 0 || s[1] < s[0])
      throw new TypeRuleException(
          "subset_by_index must be (lo, hi) with 0 <= lo <= hi, got " + RuleParams.tuple(s));
    return s;
  }
}
