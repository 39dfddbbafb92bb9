package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** GemmKernel's structure and refusals (its numbers are GemmFactsTest's). */
class GemmKernelTest {
  private static final String MATMUL = """
      { lambda ; a:f32[16,64] b:f32[64,96]. let
          c:f32[16,96] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b
        in (c,) }
      """;

  private static final String CONV_NHWC = """
      { lambda ; a:f32[1,8,8,4] b:f32[3,3,4,32]. let
          c:f32[1,8,8,32] = conv_general_dilated[
            batch_group_count=1
            dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
            feature_group_count=1
            lhs_dilation=(1, 1)
            padding=((1, 1), (1, 1))
            precision=None
            preferred_element_type=None
            rhs_dilation=(1, 1)
            window_strides=(1, 1)
          ] a b
        in (c,) }
      """;

  /**
   * The innermost loop runs along the output's unit-stride axis with the other operand's element
   * hoisted, so LLVM vectorises it: packed multiplies on baseline x86-64 (SSE2) and AArch64
   * (NEON).
   */
  @Test
  void innermostLoopVectorises() {
    for (String src : new String[] {MATMUL, CONV_NHWC}) {
      Program p = Compile.program(src);
      try (CompiledModule m = Compiler.compile(p, TargetSpec.x86_64(), "f")) {
        assertTrue(Pattern.compile("\\bmulps\\b").matcher(m.assembly()).find(), "no mulps:\n" + m.assembly());
      }
      try (CompiledModule m = Compiler.compile(p, TargetSpec.aarch64(), "f")) {
        assertTrue(Pattern.compile("\\bfml?a\\s+v\\d+\\.4s|\\bfmul\\s+v\\d+\\.4s").matcher(m.assembly()).find(),
            "no vector multiply:\n" + m.assembly());
      }
    }
  }

  /**
   * Packing a B narrower than a micro-panel (mlp's 512 × 10 weights) leaves K the innermost loop,
   * strided on both sides: it stays a scalar loop, not gathers and scatters, on AVX-512 and AVX2
   * targets (gathers and scatters, unrolled, once made mlp's step 12,000 lines of IR).
   */
  @Test
  void narrowBPackingHasNoGathers() {
    Program p = Compile.program("""
        { lambda ; a:f32[64,512] b:f32[512,10]. let
            c:f32[64,10] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b
          in (c,) }
        """);
    TargetSpec[] targets = {
        TargetSpec.x86_64().withCpu("znver4", "+avx512f,+avx512dq,+avx512bw,+avx512vl,+avx2,+fma"),
        TargetSpec.x86_64().withCpu("haswell", "+avx2,+fma")};
    for (TargetSpec t : targets) {
      try (CompiledModule m = Compiler.compile(p, t, "f")) {
        String asm = m.assembly();
        assertTrue(asm.contains("vfmadd"), t.cpu() + ": no FMA, the target features were not used:\n" + asm);
        assertFalse(Pattern.compile("\\bv(gather|scatter)").matcher(asm).find(), t.cpu() + ": gathers:\n" + asm);
      }
    }
  }

  /** JAX 0.10.2 on CPU: "Algorithm not supported by the ElementalIrEmitter: ALG_DOT_BF16_BF16_F32". */
  @Test
  void algorithmsXlaCpuRejectsAreUnsupported() {
    Program p = Compile.program("""
        { lambda ; a:f32[2,3] b:f32[3,2]. let
            c:f32[2,2] = dot_general[dimension_numbers=(([1], [0]), ([], [])) precision=BF16_BF16_F32] a b
          in (c,) }
        """);
    JaxcException e = assertThrows(JaxcException.class, () -> Compiler.compile(p, TargetSpec.host(), "f"));
    assertTrue(e.getMessage().startsWith("unsupported dot_general precision BF16_BF16_F32"), e.getMessage());
    assertEquals(2, e.span().line());
  }
}
