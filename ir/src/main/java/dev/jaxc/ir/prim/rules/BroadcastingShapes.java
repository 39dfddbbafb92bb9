package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.prim.RuleContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape rule JAX applies to n-ary elementwise primitives ({@code broadcasting_shape_rule}):
 * rank-0 operands (literals such as {@code 2.0:f32[]}) combine with any shape; all other
 * operands have one rank, and along each axis their sizes are equal or 1, the result taking the
 * size that is not 1. So {@code add a:f32[3,1] b:f32[1,4]} is {@code f32[3,4]}.
 */
final class BroadcastingShapes {
  private BroadcastingShapes() {}

  /** The result shape of operands {@code from .. to-1}, which must be array-like. */
  static Shape broadcast(RuleContext ctx, int from, int to) {
    Shape result = null;
    int resultOperand = -1;
    for (int i = from; i < to; i++) {
      Shape s = RuleOperands.shape(ctx, i);
      if (s.rank() == 0) continue;
      if (result == null) {
        result = s;
        resultOperand = i;
        continue;
      }
      if (s.rank() != result.rank())
        throw RuleOperands.error(ctx, i, "operands must have the same rank (or be scalars), got "
            + ctx.in(resultOperand).text() + " and " + ctx.in(i).text());
      result = join(ctx, result, s, resultOperand, i);
    }
    return result == null ? Shape.SCALAR : result;
  }

  private static Shape join(RuleContext ctx, Shape a, Shape b, int ia, int ib) {
    List<Dim> dims = new ArrayList<>(a.rank());
    for (int k = 0; k < a.rank(); k++) {
      Dim x = a.dims().get(k);
      Dim y = b.dims().get(k);
      if (RuleDims.sameDim(x, y) || RuleDims.isKnown(y, 1)) {
        dims.add(x);
      } else if (RuleDims.isKnown(x, 1)) {
        dims.add(y);
      } else {
        throw RuleOperands.error(ctx, ib, "operands have incompatible shapes "
            + ctx.in(ia).text() + " and " + ctx.in(ib).text());
      }
    }
    return new Shape(dims);
  }
}
