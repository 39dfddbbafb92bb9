package dev.jaxc.backend.llvm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.ir.Program;
import org.junit.jupiter.api.Test;

/**
 * The loop vectoriser's width on x86 targets with AVX-512 ({@link WideVectors}). LLVM tunes
 * Skylake-SP, Cascade Lake and Ice Lake server to prefer 256-bit vectors: an exp or log loop ran
 * in ymm registers at half the lanes (f32 log on a Cascade Lake core: 1.4 ns an element, 0.95 in
 * zmm), while copies ran faster in ymm. Assembly only: the targets need not be this machine's.
 */
class VectorWidthTest {
  private static final String TRANSCENDENTAL = """
      { lambda ; a:f32[4096]. let
          b:f32[4096] = exp a
          c:f32[4096] = log b
        in (c,) }
      """;

  private static final String AVX512 =
      "+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx2,+fma,+avx,+sse4.2";

  private static final String COPY = """
      { lambda ; a:f32[64,4096]. let
          b:f32[64,4096] = mul a 2.0:f32[]
        in (b,) }
      """;

  private static String assembly(String model, TargetSpec t) {
    Program p = Compile.program(model);
    try (CompiledModule m = Compiler.compile(p, t, "f", Consts.NONE, Threading.SERIAL)) {
      return m.assembly();
    }
  }

  @Test
  void avx512TargetsVectoriseInZmm() {
    for (String cpu : new String[] {"skylake-avx512", "cascadelake", "icelake-server"}) {
      String asm = assembly(TRANSCENDENTAL, TargetSpec.x86_64().withCpu(cpu, AVX512));
      assertTrue(asm.contains("%zmm"), cpu + ": the exp/log loop is not in 512-bit registers");
    }
  }

  @Test
  void copiesKeepTheCpusPreference() {
    String asm = assembly(COPY, TargetSpec.x86_64().withCpu("cascadelake", AVX512));
    assertFalse(asm.contains("%zmm"), "cascadelake: a scaled copy in 512-bit registers");
    assertTrue(asm.contains("%ymm"), "cascadelake: the scaled copy is not vectorised");
  }

  @Test
  void avx2TargetsStayInYmm() {
    String asm = assembly(TRANSCENDENTAL, TargetSpec.x86_64().withCpu("haswell", "+avx2,+fma,+avx,+sse4.2"));
    assertFalse(asm.contains("%zmm"), "haswell has no zmm registers");
    assertTrue(asm.contains("%ymm"), "haswell: the elementwise loop is not in 256-bit registers");
  }

  @Test
  void avx512CanBeTurnedOffByFeature() {
    TargetSpec t = TargetSpec.x86_64().withCpu("cascadelake", AVX512 + ",-avx512f");
    assertFalse(t.hasAvx512());
    assertTrue(TargetSpec.x86_64().withCpu("cascadelake", AVX512).hasAvx512());
  }
}
