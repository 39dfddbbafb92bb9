package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.random.Emitter;

/** The small array operations the blocked factorisations (Blocked*) share. */
final class PanelOps {
  private PanelOps() {}

  /** A scalar 0 of {@code d} (real or complex). */
  static Atom zero(DType d, Emitter em) {
    return em.convert(new Literal(new Scalar.Float(0.0), ArrayType.scalar(d.isComplex() ? d.realPart() : d), true,
        Span.NONE), d);
  }

  /** x's complex conjugate; x itself when real. */
  static Atom conj(Atom x, DType d, Emitter em) {
    if (!d.isComplex()) return x;
    return em.emit("conj", Emitter.params("input_dtype", new ParamValue.DTypeValue(d)), x.type(), x);
  }

  /**
   * a − L·Rᴴ for a [B, rows, cols], L [B, rows, k] and R [B, cols, k]: a panel's trailing update as
   * one product on the packed GEMM kernel.
   */
  static Atom minusProduct(Atom a, Atom left, Atom right, long batch, long rows, long cols, DType d, Emitter em) {
    return em.binary("sub", a, BatchedMatmul.contract(left, 2, conj(right, d, em), 2, batch, rows, cols, d, em));
  }

  /** x [B, rows, cols] under {@code k0} zero rows: a panel's columns in the whole matrix's rows. */
  static Atom belowZeros(Atom x, long k0, long batch, long cols, DType d, Emitter em) {
    if (k0 == 0) return x;
    return em.concatenate(1, em.broadcastInDim(zero(d, em), Shape.of(batch, k0, cols)), x);
  }
}
