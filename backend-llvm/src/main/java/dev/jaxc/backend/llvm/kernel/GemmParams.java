package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.ir.Params;
import dev.jaxc.ir.prim.params.ConvParams;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import java.util.Optional;

/**
 * The params of dot_general and conv_general_dilated as the kernels need them (the type pass has
 * checked them already), taken from ir's records ({@link DotDimensionNumbers}, {@link
 * ConvParams}).
 */
final class GemmParams {
  private GemmParams() {}

  /** dot_general's {@code ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))}. */
  record DotDims(long[] lhsContract, long[] rhsContract, long[] lhsBatch, long[] rhsBatch) {}

  static DotDims dot(Params p) {
    DotDimensionNumbers d = DotDimensionNumbers.of(p);
    return new DotDims(d.lhsContract(), d.rhsContract(), d.lhsBatch(), d.rhsBatch());
  }

  /**
   * The algorithm preset a dot_general's {@code precision} names, if it names one rather than a
   * pair of {@code Precision} members (or None).
   */
  static Optional<String> dotAlgorithm(Params p) {
    return DotDimensionNumbers.of(p).algorithm();
  }

  /**
   * The convolution geometry in XLA's terms: {@code lhs[spec[0]]} is the batch axis, {@code
   * lhs[spec[1]]} the feature axis, {@code lhs[spec[2 + i]]} spatial axis i; likewise the rhs (out
   * feature, in feature, spatial) and the result (batch, feature, spatial).
   */
  record ConvDims(int[] lhs, int[] rhs, int[] out, long[] strides, long[][] padding, long[] lhsDilation,
      long[] rhsDilation, long featureGroups, long batchGroups) {
    int spatial() {
      return lhs.length - 2;
    }
  }

  static ConvDims conv(Params p, int rank) {
    ConvParams c = ConvParams.of(p, rank);
    return new ConvDims(c.lhsSpec(), c.rhsSpec(), c.outSpec(), c.windowStrides(), c.padding(),
        c.lhsDilation(), c.rhsDilation(), c.featureGroupCount(), c.batchGroupCount());
  }
}
