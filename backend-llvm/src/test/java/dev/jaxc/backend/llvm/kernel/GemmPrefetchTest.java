package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The micro-kernel's k loop prefetches B's row {@link GemmMicroKernel#PREFETCH_STEPS} steps
 * ahead, both lines of it (matmul 2048³ on a Cascade Lake core: 178–182 ms without, 168–172
 * with). Assembly only; the values are the golden dot cases'.
 */
class GemmPrefetchTest {
  private static final String MATMUL = GemmJaxprs.matmul(512, 512, 512);

  private static String microKernel(TargetSpec t) {
    try (CompiledModule m = Compiler.compile(Compile.program(MATMUL), t, "f", Consts.NONE, Threading.SERIAL)) {
      String asm = m.assembly();
      Matcher f = Pattern.compile("(?m)^jaxc_gemm_f32_\\w+:\\s*$").matcher(asm);
      assertTrue(f.find(), "no micro-kernel in the module");
      int end = asm.indexOf(".Lfunc_end", f.end());
      return asm.substring(f.start(), end);
    }
  }

  @Test
  void avx512KernelPrefetchesBothLinesOfBsRow4KiBAhead() {
    String uk = microKernel(GemmJaxprs.CASCADE_LAKE);
    // The step's row: two zmm loads off one register; the prefetches off the same register, 32
    // steps of 32 floats (4096 bytes) past each line of it.
    Matcher row = Pattern.compile("vmovups\\s+(-?\\d*)\\((%\\w+)\\), %zmm").matcher(uk);
    assertTrue(row.find(), uk);
    long first = row.group(1).isEmpty() ? 0 : Long.parseLong(row.group(1));
    String base = Pattern.quote(row.group(2));
    Matcher pf = Pattern.compile("prefetcht0\\s+(-?\\d*)\\(" + base + "\\)").matcher(uk);
    java.util.Set<Long> ahead = new java.util.TreeSet<>();
    while (pf.find()) ahead.add((pf.group(1).isEmpty() ? 0 : Long.parseLong(pf.group(1))) - first);
    assertEquals(java.util.Set.of(4096L, 4160L), ahead, uk);
  }
}
