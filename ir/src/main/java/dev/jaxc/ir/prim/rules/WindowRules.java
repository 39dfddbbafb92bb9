package dev.jaxc.ir.prim.rules;


import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import dev.jaxc.ir.prim.params.WindowParams;
import java.util.ArrayList;
import java.util.List;

/**
 * Type rules of the windowed reductions and their gradients. The window params are {@code
 * window_dimensions window_strides padding=((lo, hi), …)} and, where the primitive has them, {@code
 * base_dilation window_dilation}.
 */
public final class WindowRules {
  private WindowRules() {}

  /** {@code reduce_window x init…}: operands then one scalar init value per operand. */
  public static List<Type> reduceWindow(RuleContext ctx) {
    String prim = ctx.primitive();
    if (ctx.arity() < 2 || ctx.arity() % 2 != 0)
      throw new TypeRuleException(
          prim
              + " takes operands and one init value per operand, got "
              + ctx.arity()
              + " operands");
    int n = ctx.arity() / 2;
    ArrayType first = RuleOperands.array(ctx, 0);
    Shape out = windowed(ctx, first.shape(), true);
    List<Type> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ArrayType x = RuleOperands.array(ctx, i);
      ArrayType init = RuleOperands.array(ctx, n + i);
      if (!x.shape().sameSizes(first.shape()))
        throw new TypeRuleException(
            prim + " operands must share one shape, got " + first.text() + " and " + x.text(), i);
      if (init.dtype() != x.dtype())
        throw new TypeRuleException(
            prim
                + " init value "
                + i
                + " has dtype "
                + init.dtype()
                + " but its operand has "
                + x.dtype(),
            n + i);
      if (init.rank() != 0)
        throw new TypeRuleException(
            prim + " init values must be scalars, got " + init.text(), n + i);
      results.add(RuleOperands.strong(x.dtype(), out));
    }
    List<DType> dtypes = new ArrayList<>();
    for (int i = 0; i < n; i++) dtypes.add(RuleOperands.array(ctx, i).dtype());
    CombinerTypes.check(ctx, "jaxpr", dtypes);
    return results;
  }

  /** reduce_window_sum, reduce_window_max, reduce_window_min: one operand, same dtype. */
  public static List<Type> reduceWindowMonoid(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    ArrayType x = RuleOperands.array(ctx, 0);
    if (ctx.primitive().equals("reduce_window_sum") && !isNumber(x.dtype()))
      throw new TypeRuleException(
          "operand to reduce_window_sum must have a number dtype, got " + x.dtype(), 0);
    return List.of(RuleOperands.strong(x.dtype(), windowed(ctx, x.shape(), true)));
  }

  /**
   * {@code select_and_gather_add tangents operand} (JVP of max pooling): the tangent picked by each
   * window; shapes must match; result has the tangents' dtype and the windowed shape.
   */
  public static List<Type> selectAndGatherAdd(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType tangents = RuleOperands.array(ctx, 0);
    ArrayType operand = RuleOperands.array(ctx, 1);
    if (!tangents.shape().sameSizes(operand.shape()))
      throw new TypeRuleException(
          "select_and_gather_add tangents and operand shapes must match, got "
              + tangents.shape().text()
              + " and "
              + operand.shape().text(),
          1);
    return List.of(RuleOperands.strong(tangents.dtype(), windowed(ctx, operand.shape(), true)));
  }

  /**
   * {@code select_and_scatter operand source init} with select/scatter jaxprs: the operand's type.
   */
  public static List<Type> selectAndScatter(RuleContext ctx) {
    RuleOperands.arity(ctx, 3);
    ArrayType operand = RuleOperands.array(ctx, 0);
    ArrayType source = RuleOperands.array(ctx, 1);
    ArrayType init = RuleOperands.array(ctx, 2);
    checkSource(ctx, operand, source, 1);
    if (init.rank() != 0 || init.dtype() != operand.dtype())
      throw new TypeRuleException(
          "select_and_scatter init value must be a "
              + operand.dtype()
              + " scalar, got "
              + init.text(),
          2);
    CombinerTypes.checkPredicate(ctx, "select_jaxpr", operand.dtype());
    CombinerTypes.check(ctx, "scatter_jaxpr", List.of(source.dtype()));
    return List.of(RuleOperands.strong(operand.dtype(), operand.shape()));
  }

  /**
   * {@code select_and_scatter_add source operand} (gradient of max pooling; note the order):
   * scatters each source element to the selected position of its window; result has the source's
   * dtype and the operand's shape.
   */
  public static List<Type> selectAndScatterAdd(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType source = RuleOperands.array(ctx, 0);
    ArrayType operand = RuleOperands.array(ctx, 1);
    checkSource(ctx, operand, source, 0);
    return List.of(RuleOperands.strong(source.dtype(), operand.shape()));
  }

  /** The source has one element per window of the operand, and the operand's dtype. */
  private static void checkSource(RuleContext ctx, ArrayType operand, ArrayType source, int at) {
    String prim = ctx.primitive();
    if (source.dtype() != operand.dtype())
      throw new TypeRuleException(
          prim
              + " source dtype "
              + source.dtype()
              + " differs from operand dtype "
              + operand.dtype(),
          at);
    Shape windows = windowed(ctx, operand.shape(), false);
    if (!windows.sameSizes(source.shape()))
      throw new TypeRuleException(
          prim
              + " source must have one element per window, shape "
              + windows.text()
              + ", got "
              + source.shape().text(),
          at);
  }

  /**
   * The common reduce_window shape rule: operand dilated by {@code base_dilation}, padded, then one
   * element per stride of the window (itself dilated by {@code window_dilation}). Primitives
   * without dilation params pass {@code dilated=false}.
   */
  private static Shape windowed(RuleContext ctx, Shape operand, boolean dilated) {
    String prim = ctx.primitive();
    int rank = operand.rank();
    WindowParams w = RuleParams.decoded(ctx, p -> WindowParams.of(p, rank, dilated));
    long[] sizes = RuleDims.sizes(operand, prim, 0);
    long[] out = new long[rank];
    for (int i = 0; i < rank; i++) {
      long padded =
          RuleDims.dilate(sizes[i], w.baseDilation()[i]) + w.padding()[i][0] + w.padding()[i][1];
      out[i] =
          RuleDims.strided(
              padded,
              RuleDims.dilate(w.windowDimensions()[i], w.windowDilation()[i]),
              w.windowStrides()[i]);
    }
    return RuleDims.shape(out);
  }

  /** NumPy's {@code np.number}: integers, floats and complex; not bool. */
  private static boolean isNumber(DType d) {
    return d.isInteger() || d.isInexact();
  }
}
