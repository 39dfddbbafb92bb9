package dev.jaxc.ir.prim.rules;

import static dev.jaxc.ir.prim.rules.RuleParams.tuple;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import dev.jaxc.ir.prim.params.ConvParams;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Type rules of dot_general and conv_general_dilated (JAX 0.10.2's shape and dtype rules). */
public final class ContractionRules {
  private ContractionRules() {}

  /**
   * {@code dimension_numbers=((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))}; result: batch
   * dims, then lhs free dims, then rhs free dims, each in operand order.
   */
  public static List<Type> dotGeneral(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType lhs = RuleOperands.array(ctx, 0);
    ArrayType rhs = RuleOperands.array(ctx, 1);
    DotDimensionNumbers dn = RuleParams.decoded(ctx, DotDimensionNumbers::of);
    long[] lc = dn.lhsContract(), rc = dn.rhsContract(), lb = dn.lhsBatch(), rb = dn.rhsBatch();
    inRange("lhs", lhs.rank(), lc, lb, 0);
    inRange("rhs", rhs.rank(), rc, rb, 1);
    if (lb.length != rb.length)
      throw new TypeRuleException(
          "dot_general requires equal numbers of lhs and rhs batch dimensions, got lhs_batch "
              + tuple(lb)
              + " and rhs_batch "
              + tuple(rb));
    distinct("lhs batch", lb, 0);
    distinct("rhs batch", rb, 1);
    distinct("lhs contracting", lc, 0);
    distinct("rhs contracting", rc, 1);
    disjoint("lhs", lb, lc, 0);
    disjoint("rhs", rb, rc, 1);
    if (!sameDims(lhs, lb, rhs, rb))
      throw new TypeRuleException(
          "dot_general requires lhs and rhs batch dimensions of the same sizes, got "
              + pick(lhs, lb)
              + " and "
              + pick(rhs, rb),
          1);
    if (!sameDims(lhs, lc, rhs, rc))
      throw new TypeRuleException(
          "dot_general requires contracting dimensions of the same sizes, got "
              + pick(lhs, lc)
              + " and "
              + pick(rhs, rc),
          1);
    List<Dim> dims = new ArrayList<>();
    for (long b : lb) dims.add(lhs.shape().dims().get((int) b));
    dims.addAll(free(lhs, lc, lb));
    dims.addAll(free(rhs, rc, rb));
    DType dtype =
        ContractionDTypes.dot(
            lhs.dtype(), rhs.dtype(), dn.preferredElementType(), dn.algorithm().isPresent());
    return List.of(RuleOperands.strong(dtype, new Shape(dims)));
  }

  /**
   * XLA's convolution shape rule: operands are permuted to (batch, feature, spatial…) by the
   * lhs/rhs specs, dilated, padded and strided; the result is permuted back by the out spec. {@code
   * dimension_numbers=None} means the specs are the identity (NCHW, OIHW, NCHW).
   */
  public static List<Type> convGeneralDilated(RuleContext ctx) {
    RuleOperands.arity(ctx, 2);
    ArrayType lhs = RuleOperands.array(ctx, 0);
    ArrayType rhs = RuleOperands.array(ctx, 1);
    String prim = ctx.primitive();
    if (lhs.rank() != rhs.rank())
      throw new TypeRuleException(
          "%s lhs and rhs must have the same rank, got %s and %s"
              .formatted(prim, lhs.text(), rhs.text()),
          1);
    int n = lhs.rank();
    if (n < 2)
      throw new TypeRuleException(prim + " operands need rank 2 or more, got " + lhs.text(), 0);
    ConvParams c = RuleParams.decoded(ctx, p -> ConvParams.of(p, n));
    int[][] specs = {c.lhsSpec(), c.rhsSpec(), c.outSpec()};
    // Both operands in (batch|out feature, feature|in feature, spatial…) order.
    long[] l = permuted(RuleDims.sizes(lhs.shape(), prim, 0), specs[0]);
    long[] r = permuted(RuleDims.sizes(rhs.shape(), prim, 1), specs[1]);
    long fgc = c.featureGroupCount();
    long bgc = c.batchGroupCount();
    checkGroups(prim, l, r, fgc, bgc);
    int spatial = n - 2;
    long[] strides = c.windowStrides();
    long[][] padding = c.padding();
    long[] lhsDil = c.lhsDilation();
    long[] rhsDil = c.rhsDilation();
    long[] out = new long[n];
    out[0] = l[0] / bgc;
    out[1] = r[0];
    for (int i = 0; i < spatial; i++) {
      long in = RuleDims.dilate(l[i + 2], lhsDil[i]) + padding[i][0] + padding[i][1];
      if (in < 0)
        throw new TypeRuleException(
            "%s negative padding %s is larger than spatial dimension %d of the lhs"
                .formatted(prim, tuple(padding[i]), i),
            0);
      out[i + 2] = RuleDims.strided(in, RuleDims.dilate(r[i + 2], rhsDil[i]), strides[i]);
    }
    long[] result = new long[n];
    for (int i = 0; i < n; i++) result[specs[2][i]] = out[i];
    DType dtype = ContractionDTypes.conv(lhs.dtype(), rhs.dtype(), c.preferredElementType());
    return List.of(RuleOperands.strong(dtype, RuleDims.shape(result)));
  }

  /** {@code sizes} in {@code spec} order. */
  private static long[] permuted(long[] sizes, int[] spec) {
    long[] r = new long[sizes.length];
    for (int i = 0; i < r.length; i++) r[i] = sizes[spec[i]];
    return r;
  }

  /**
   * Feature groups split the lhs features (each group sees {@code rhs} input features) and the rhs
   * output features; batch groups split the lhs batch and the rhs output features.
   */
  private static void checkGroups(String prim, long[] l, long[] r, long fgc, long bgc) {
    if (fgc < 1 || bgc < 1)
      throw new TypeRuleException(
          "%s group counts must be positive, got feature_group_count=%d, batch_group_count=%d"
              .formatted(prim, fgc, bgc));
    if (l[1] % fgc != 0)
      throw new TypeRuleException(
          "%s feature_group_count %d must divide the lhs feature dimension size %d"
              .formatted(prim, fgc, l[1]),
          0);
    if (l[1] / fgc != r[1])
      throw new TypeRuleException(
          ("%s lhs feature dimension size divided by feature_group_count must equal the rhs input"
                  + " feature dimension size, but %d / %d != %d")
              .formatted(prim, l[1], fgc, r[1]),
          1);
    if (r[0] % fgc != 0 || r[0] % bgc != 0)
      throw new TypeRuleException(
          ("%s rhs output feature dimension size %d must be a multiple of feature_group_count %d"
                  + " and batch_group_count %d")
              .formatted(prim, r[0], fgc, bgc),
          1);
    if (l[0] % bgc != 0)
      throw new TypeRuleException(
          "%s batch_group_count %d must divide the lhs batch dimension size %d"
              .formatted(prim, bgc, l[0]),
          0);
    if (bgc > 1 && fgc > 1)
      throw new TypeRuleException(
          "%s allows at most one of batch_group_count (%d) and feature_group_count (%d) above 1"
              .formatted(prim, bgc, fgc));
  }

  private static void inRange(String side, int rank, long[] contract, long[] batch, int operand) {
    for (long[] axes : List.of(contract, batch))
      for (long a : axes)
        if (a < 0 || a >= rank)
          throw new TypeRuleException(
              "dot_general "
                  + side
                  + " dimension numbers must be in [0, "
                  + rank
                  + "), got "
                  + side
                  + "_batch "
                  + tuple(batch)
                  + " and "
                  + side
                  + "_contracting "
                  + tuple(contract),
              operand);
  }

  private static void distinct(String what, long[] axes, int operand) {
    Set<Long> seen = new HashSet<>();
    for (long a : axes)
      if (!seen.add(a))
        throw new TypeRuleException(
            "dot_general requires distinct " + what + " dimensions, got " + tuple(axes), operand);
  }

  private static void disjoint(String side, long[] batch, long[] contract, int operand) {
    for (long b : batch)
      for (long c : contract)
        if (b == c)
          throw new TypeRuleException(
              "dot_general requires "
                  + side
                  + " batch dimensions disjoint from contracting"
                  + " dimensions, got "
                  + side
                  + "_batch "
                  + tuple(batch)
                  + " and "
                  + side
                  + "_contracting "
                  + tuple(contract),
              operand);
  }

  private static boolean sameDims(ArrayType a, long[] aAxes, ArrayType b, long[] bAxes) {
    if (aAxes.length != bAxes.length) return false;
    for (int i = 0; i < aAxes.length; i++)
      if (!RuleDims.sameDim(
          a.shape().dims().get((int) aAxes[i]), b.shape().dims().get((int) bAxes[i]))) return false;
    return true;
  }

  private static String pick(ArrayType a, long[] axes) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < axes.length; i++)
      sb.append(i > 0 ? ", " : "").append(a.shape().dims().get((int) axes[i]).text());
    return sb.append(axes.length == 1 ? ",)" : ")").toString();
  }

  /** The dims that are neither contracted nor batch, in order. */
  private static List<Dim> free(ArrayType a, long[] contract, long[] batch) {
    Set<Long> used = new HashSet<>();
    for (long c : contract) used.add(c);
    for (long b : batch) used.add(b);
    List<Dim> r = new ArrayList<>();
    for (int i = 0; i < a.rank(); i++) if (!used.contains((long) i)) r.add(a.shape().dims().get(i));
    return r;
  }

}
