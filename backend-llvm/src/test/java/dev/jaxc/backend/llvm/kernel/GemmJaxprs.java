package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.llvm.TargetSpec;

/** Jaxprs and a target the GEMM kernels' assembly tests compile. */
final class GemmJaxprs {
  private GemmJaxprs() {}

  /** An Intel Cascade Lake: AVX-512 with 32 zmm registers (the 14 × 32 f32 tile). */
  static final TargetSpec CASCADE_LAKE = TargetSpec.x86_64().withCpu("cascadelake",
      "+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx2,+fma,+avx,+sse4.2");

  /** f32[m,k] @ f32[k,n]. */
  static String matmul(int m, int k, int n) {
    return """
        { lambda ; a:f32[%d,%d] b:f32[%d,%d]. let
            c:f32[%d,%d] = dot_general[dimension_numbers=(([1], [0]), ([], [])) precision=None preferred_element_type=float32] a b
          in (c,) }
        """.formatted(m, k, k, n, m, n);
  }

  /**
   * A 2-D f32 convolution of shapes {@code lhs}, {@code rhs} and {@code out} ("8,56,56,64"),
   * dimension numbers {@code spec} ("lhs_spec=(…), rhs_spec=(…), out_spec=(…)") and the tuples
   * {@code lhsDilation}, {@code padding} and {@code strides} as printed.
   */
  static String conv2d(String lhs, String rhs, String out, String spec, String lhsDilation, String padding,
      String strides) {
    return """
        { lambda ; a:f32[%s] b:f32[%s]. let
            c:f32[%s] = conv_general_dilated[
              batch_group_count=1
              dimension_numbers=ConvDimensionNumbers(%s)
              feature_group_count=1
              lhs_dilation=%s
              padding=%s
              precision=None
              preferred_element_type=None
              rhs_dilation=(1, 1)
              window_strides=%s
            ] a b
          in (c,) }
        """.formatted(lhs, rhs, out, spec, lhsDilation, padding, strides);
  }
}
