package dev.jaxc.ir.prim.params;

import static dev.jaxc.ir.prim.params.ParamReads.tuple;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;
import java.util.List;
import java.util.Optional;

/**
 * conv_general_dilated's params in XLA's terms, for operands of rank {@code rank}: {@code
 * lhs[lhsSpec[0]]} is the batch axis, {@code lhs[lhsSpec[1]]} the feature axis, {@code
 * lhs[lhsSpec[2 + i]]} spatial axis i; likewise the rhs (out feature, in feature, spatial) and the
 * result (batch, feature, spatial). {@code dimension_numbers=None} means the identity specs (NCHW,
 * OIHW, NCHW); absent dilations are ones. The decoder checks the lengths (one stride, pad pair and
 * dilation per spatial dimension), that strides and dilations are positive, and that each spec is
 * a permutation; what depends on the operand sizes (groups, padding) is the type rule's.
 */
public record ConvParams(
    int[] lhsSpec,
    int[] rhsSpec,
    int[] outSpec,
    long[] windowStrides,
    long[][] padding,
    long[] lhsDilation,
    long[] rhsDilation,
    long featureGroupCount,
    long batchGroupCount,
    Optional<DType> preferredElementType) {
  public int spatial() {
    return lhsSpec.length - 2;
  }

  public static ConvParams of(Params p, int rank) {
    int[][] specs = specs(p, rank);
    int spatial = rank - 2;
    long[][] padding = ParamReads.pairs(p, "padding");
    if (padding.length != spatial)
      throw new ParamException("needs " + spatial + " padding pairs, got " + padding.length);
    return new ConvParams(
        specs[0],
        specs[1],
        specs[2],
        spatial(p.getLongs("window_strides"), "window_strides", spatial),
        padding,
        spatial(ParamReads.longsOr(p, "lhs_dilation", spatial, 1), "lhs_dilation", spatial),
        spatial(ParamReads.longsOr(p, "rhs_dilation", spatial, 1), "rhs_dilation", spatial),
        p.getLong("feature_group_count", 1),
        p.getLong("batch_group_count", 1),
        p.getDTypeOpt("preferred_element_type"));
  }

  /** {lhs_spec, rhs_spec, out_spec}, each a permutation of the operand axes. */
  private static int[][] specs(Params p, int rank) {
    String key = "dimension_numbers";
    int[][] specs = new int[3][];
    if (p.isNone(key)) {
      for (int s = 0; s < 3; s++) {
        specs[s] = new int[rank];
        for (int i = 0; i < rank; i++) specs[s][i] = i;
      }
      return specs;
    }
    ParamValue v = p.get(key).get();
    List<ParamValue> parts;
    if (v instanceof ParamValue.Record r
        && r.fields().containsKey("lhs_spec")
        && r.fields().containsKey("rhs_spec")
        && r.fields().containsKey("out_spec"))
      parts =
          List.of(
              r.fields().get("lhs_spec"), r.fields().get("rhs_spec"), r.fields().get("out_spec"));
    else if (v instanceof ParamValue.Tuple t && t.items().size() == 3) parts = t.items();
    else
      throw new ParamException(
          "parameter 'dimension_numbers' must be ConvDimensionNumbers(lhs_spec=…, rhs_spec=…,"
              + " out_spec=…), not "
              + v);
    String[] names = {"lhs_spec", "rhs_spec", "out_spec"};
    for (int s = 0; s < 3; s++) {
      long[] spec = Params.asLongs(key, parts.get(s));
      boolean[] seen = new boolean[rank];
      boolean ok = spec.length == rank;
      for (int i = 0; ok && i < rank; i++) {
        ok = spec[i] >= 0 && spec[i] < rank && !seen[(int) spec[i]];
        if (ok) seen[(int) spec[i]] = true;
      }
      if (!ok)
        throw new ParamException(
            names[s] + " " + tuple(spec) + " must be a permutation of the " + rank
                + " operand axes");
      specs[s] = new int[rank];
      for (int i = 0; i < rank; i++) specs[s][i] = (int) spec[i];
    }
    return specs;
  }

  /** A per-spatial-dimension param: one positive entry per spatial dimension. */
  private static long[] spatial(long[] values, String key, int spatial) {
    if (values.length != spatial)
      throw new ParamException(
          "needs " + spatial + " " + key + " (one per spatial dimension), got " + tuple(values));
    for (long v : values)
      if (v < 1) throw new ParamException(key + " must be positive, got " + tuple(values));
    return values;
  }
}
