package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Reinterpreting the bits of an array as another dtype. The results are never weak. Widths are
 * {@link DType#bits()} (bool counts as 8 bits, as in JAX's {@code itemsize_bits}).
 */
final class ElementwiseBitcasts {
  private ElementwiseBitcasts() {}

  /**
   * {@code bitcast_convert_type[new_dtype=…]}: same width keeps the shape; a narrower dtype
   * appends a dim of the width ratio ({@code f32[2,3] -> u8[2,3,4]}); a wider one consumes the
   * last dim, which must equal the ratio ({@code u8[2,4] -> f32[2]}). bool and complex only
   * convert to themselves.
   */
  static List<Type> bitcastConvertType(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    DType to = RuleParams.dtypeParam(ctx, "new_dtype");
    DType from = x.dtype();
    if ((from == DType.BOOL || from.isComplex() || to == DType.BOOL || to.isComplex())
        && from != to)
      throw RuleOperands.error(ctx, 0, "bool and complex values convert only to their own dtype, got "
          + from + " to " + to);
    int fromBits = from.bits();
    int toBits = to.bits();
    if ((fromBits == 0 || toBits == 0) && from != to)
      throw RuleOperands.error(ctx, 0, "float0 values have no bits to convert, got " + from + " to " + to);
    List<Dim> dims = new ArrayList<>(x.shape().dims());
    if (fromBits > toBits) {
      dims.add(Dim.of(fromBits / toBits));
    } else if (fromBits < toBits) {
      Dim last = dims.isEmpty() ? Dim.of(1) : dims.get(dims.size() - 1);
      if (!RuleDims.isKnown(last, toBits / fromBits) || toBits % fromBits != 0)
        throw RuleOperands.error(ctx, 0, "converting " + x.text() + " (" + fromBits + "-bit) to "
            + to + " (" + toBits + "-bit) needs a last dim of " + (toBits / fromBits));
      if (!dims.isEmpty()) dims.remove(dims.size() - 1);
    }
    return List.of(x.withShape(new Shape(dims)).withDType(to).withWeak(false));
  }

  /**
   * The Pallas {@code bitcast} primitives (implemented from their abstract eval; JAX proper
   * never prints them outside kernels). TPU's ({@code ty=}) rescales the second-minor dim, so
   * {@code i32[8,128] -> i8[32,128]}; SparseCore's ({@code dtype=}) rescales the minor dim.
   */
  static List<Type> pallasBitcast(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    boolean tpu = ctx.params().has("ty");
    DType to = RuleParams.dtypeParam(ctx, tpu ? "ty" : "dtype");
    int fromBits = x.dtype().bits();
    int toBits = to.bits();
    if (fromBits == 0 || toBits == 0)
      throw RuleOperands.error(ctx, 0, "float0 values have no bits to convert, got " + x.dtype() + " to " + to);
    if (fromBits == toBits) return List.of(x.withDType(to).withWeak(false));
    int axis = x.rank() - (tpu ? 2 : 1);
    if (axis < 0)
      throw RuleOperands.error(ctx, 0, "cannot bitcast " + x.text() + " to the " + toBits
          + "-bit " + to + ": it needs rank " + (tpu ? 2 : 1) + " or more");
    List<Dim> dims = new ArrayList<>(x.shape().dims());
    long n = RuleDims.known(x.shape().dims().get(axis)).orElseThrow(() -> RuleOperands.error(ctx, 0,
        "cannot bitcast the symbolic dim " + axis + " of " + x.text()));
    if (n * fromBits % toBits != 0)
      throw RuleOperands.error(ctx, 0, "cannot bitcast " + x.text() + " to " + to + ": " + n + " * "
          + fromBits + " bits is not a multiple of " + toBits);
    dims.set(axis, Dim.of(n * fromBits / toBits));
    return List.of(x.withShape(new Shape(dims)).withDType(to).withWeak(false));
  }
}
