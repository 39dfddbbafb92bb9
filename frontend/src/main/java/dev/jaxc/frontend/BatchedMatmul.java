package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.List;

/** The batched products the blocked factorisations' trailing updates run on the GEMM kernel. */
final class BatchedMatmul {
  private BatchedMatmul() {}

  /**
   * a[b, m, k] times b[b, k, n] (or, with {@code bTransposed}, b[b, n, k] transposed) in dtype
   * {@code d}: a dot_general with batch dimension 0, result [b, m, n].
   */
  static Atom product(Atom a, Atom b, boolean bTransposed, long batch, long m, long n, DType d, Emitter em) {
    return contract(a, 2, b, bTransposed ? 2 : 1, batch, m, n, d, em);
  }

  /**
   * Σ over a's axis {@code aAxis} and b's axis {@code bAxis} (1 or 2: rows or columns) of the
   * batch a[b, ·, ·] and b[b, ·, ·]: [b, m, n], m being a's other axis, n b's (aAxis = 1 gives aᵀ·…).
   */
  static Atom contract(Atom a, int aAxis, Atom b, int bAxis, long batch, long m, long n, DType d, Emitter em) {
    Params dn = Emitter.params(
        "dimension_numbers", new ParamValue.Tuple(List.of(
            new ParamValue.Tuple(List.of(ints(aAxis), ints(bAxis))),
            new ParamValue.Tuple(List.of(ints(0), ints(0))))),
        "precision", new ParamValue.None(),
        "preferred_element_type", new ParamValue.DTypeValue(d));
    return em.emit("dot_general", dn, new ArrayType(d, Shape.of(batch, m, n)), a, b);
  }
}
