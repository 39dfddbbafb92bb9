package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.runtime.Threading;
import org.junit.jupiter.api.Test;

/**
 * A channels-first convolution's A micro-panels are packed by register transposes where a tile's
 * rows are neighbouring inputs ({@link ConvColumns}: the blocks named gemm.packcols), and element
 * by element elsewhere. The values are golden case conv_nchw_columns's (which fails when the
 * transposed loads are one element off).
 */
class GemmConvColumnsTest {
  private static final String NCHW = "lhs_spec=(0, 1, 2, 3), rhs_spec=(0, 1, 2, 3), out_spec=(0, 1, 2, 3)";
  private static final String NHWC = "lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2)";

  private static boolean packsColumns(String lhs, String rhs, String out, String spec, String strides) {
    String jaxpr = GemmJaxprs.conv2d(lhs, rhs, out, spec, "(1, 1)", "((1, 1), (1, 1))", strides);
    try (CompiledModule m = Compiler.compile(Compile.program(jaxpr), GemmJaxprs.CASCADE_LAKE, "f", Consts.NONE,
        Threading.SERIAL)) {
      return m.llvmIr().contains("gemm.packcols");
    }
  }

  @Test
  void nchwWithUnitStrideAlongWIsPackedByTransposes() {
    assertTrue(packsColumns("8,64,56,56", "64,64,3,3", "8,64,56,56", NCHW, "(1, 1)"));
    assertTrue(packsColumns("8,64,56,56", "64,64,3,3", "8,64,28,56", NCHW, "(2, 1)"));
  }

  @Test
  void otherLayoutsAndStridesAreNot() {
    // Strided along W, a tile's rows are not neighbours; channels-last rows are read in place.
    assertFalse(packsColumns("8,64,56,56", "64,64,3,3", "8,64,56,28", NCHW, "(1, 2)"));
    assertFalse(packsColumns("8,56,56,64", "3,3,64,64", "8,56,56,64", NHWC, "(1, 1)"));
  }
}
