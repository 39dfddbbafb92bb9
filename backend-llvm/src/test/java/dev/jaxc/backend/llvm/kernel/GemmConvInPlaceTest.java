package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A channels-last convolution's A tiles are read in place where they lie inside the input
 * ({@link ConvRows}): its module holds a micro-kernel whose A row stride is the window stride ×
 * the input features beside the packed one, and K slices lie inside the window rows' runs. The
 * values are golden case conv_nhwc_tiles_in_place's (which fails when the in-place address is off
 * by one element).
 */
class GemmConvInPlaceTest {
  private static String conv(String lhs, String rhs, String out, String spec, String strides) {
    return GemmJaxprs.conv2d(lhs, rhs, out, spec, "(1, 1)", "((1, 1), (1, 1))", strides);
  }

  private static Set<String> microKernels(String jaxpr) {
    try (CompiledModule m = Compiler.compile(Compile.program(jaxpr), GemmJaxprs.CASCADE_LAKE, "f", Consts.NONE,
        Threading.SERIAL)) {
      Matcher f = Pattern.compile("(?m)^(jaxc_gemm_\\w+):\\s*$").matcher(m.assembly());
      Set<String> names = new TreeSet<>();
      while (f.find()) names.add(f.group(1));
      return names;
    }
  }

  @Test
  void nhwcReadsWholeTilesInPlace() {
    // 3 × 3 × 64: runs of 192 (one slice each), rows 64 apart (stride 1) or 128 (stride 2).
    String nhwc = "lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2)";
    assertEquals(Set.of("jaxc_gemm_f32_14x32_a192", "jaxc_gemm_f32_14x32_a64"),
        microKernels(conv("8,56,56,64", "3,3,64,64", "8,56,56,64", nhwc, "(1, 1)")));
    assertEquals(Set.of("jaxc_gemm_f32_14x32_a192", "jaxc_gemm_f32_14x32_a128"),
        microKernels(conv("8,56,56,64", "3,3,64,64", "8,28,28,64", nhwc, "(2, 2)")));
  }

  @Test
  void nchwIsPacked() {
    String nchw = "lhs_spec=(0, 1, 2, 3), rhs_spec=(0, 1, 2, 3), out_spec=(0, 1, 2, 3)";
    assertEquals(1, microKernels(conv("8,64,56,56", "64,64,3,3", "8,64,56,56", nchw, "(1, 1)")).size());
  }
}
