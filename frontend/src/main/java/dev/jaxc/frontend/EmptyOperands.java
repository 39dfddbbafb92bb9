package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The results of an expanded primitive whose operands hold no elements (a 0×0 or m×0 matrix, no
 * right-hand sides, an empty batch): the recorded algorithms index rows and columns that do not
 * exist, so these results are built directly, as LAPACK and JAX give them. An empty result is any
 * array of its shape; the full Q of qr and U of svd of a matrix without columns (and Vᴴ of one
 * without rows) is the identity, and so is householder_product of no reflectors (its first n
 * columns); a permutation after no swaps is the iota.
 */
final class EmptyOperands {
  private EmptyOperands() {}

  /** Whether some operand of {@code e} has a static shape with no elements. */
  static boolean any(List<Atom> ins) {
    for (Atom a : ins) {
      if (a.type() instanceof ArrayType t && t.shape().isStatic() && t.shape().elementCount() == 0) return true;
    }
    return false;
  }

  /** The results, or empty where one of them is none of the cases above (then expand as usual). */
  static Optional<List<Atom>> results(Eqn e, Emitter em) {
    List<Kind> kinds = new ArrayList<>();
    for (int i = 0; i < e.outs().size(); i++) {
      if (!(e.outs().get(i).type() instanceof ArrayType t) || !t.shape().isStatic()) return Optional.empty();
      long[] s = t.shape().sizes();
      int rank = s.length;
      if (t.shape().elementCount() == 0) kinds.add(Kind.EMPTY);
      else if (isPermutation(e.primitive(), i)) kinds.add(Kind.IOTA);
      else if (isOrthogonalFactor(e.primitive(), i) && rank >= 2 && s[rank - 1] == s[rank - 2]) kinds.add(Kind.IDENTITY);
      // The product of no reflectors: the identity's first n columns.
      else if (e.primitive().equals("householder_product") && rank >= 2) kinds.add(Kind.IDENTITY);
      else return Optional.empty();
    }
    List<Atom> r = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      ArrayType t = (ArrayType) e.outs().get(i).type();
      r.add(switch (kinds.get(i)) {
        case EMPTY -> em.convert(em.iota(DType.I32, t.shape(), 0), t.dtype());
        case IOTA -> em.iota(t.dtype(), t.shape(), t.shape().rank() - 1);
        case IDENTITY -> identity(t, em);
      });
    }
    return Optional.of(r);
  }

  private enum Kind { EMPTY, IOTA, IDENTITY }

  /** lu's third result and lu_pivots_to_permutation's only one. */
  private static boolean isPermutation(String primitive, int out) {
    return primitive.equals("lu") && out == 2 || primitive.equals("lu_pivots_to_permutation") && out == 0;
  }

  /** qr's Q (the first result) and svd's U and Vᴴ (the second and third). */
  private static boolean isOrthogonalFactor(String primitive, int out) {
    return primitive.equals("qr") && out == 0 || primitive.equals("svd") && (out == 1 || out == 2);
  }

  /** A batch of identity matrices of type {@code t}. */
  private static Atom identity(ArrayType t, Emitter em) {
    Shape s = t.shape();
    int rank = s.rank();
    Var row = em.iota(DType.I32, s, rank - 2);
    Var col = em.iota(DType.I32, s, rank - 1);
    Var eq = em.emit("eq", Params.EMPTY, new ArrayType(DType.BOOL, s), row, col);
    return em.convert(eq, t.dtype());
  }
}
