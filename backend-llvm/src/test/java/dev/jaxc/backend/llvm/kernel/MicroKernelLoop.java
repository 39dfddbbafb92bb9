package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The assembly of a packed GEMM micro-kernel's K loop, for tests of its instructions. */
final class MicroKernelLoop {
  private MicroKernelLoop() {}

  /**
   * The instructions of the f32 micro-kernel's k loop in the module compiled from {@code jaxpr}:
   * from the label before its first instruction containing {@code fma} to the branch back.
   */
  static List<String> of(String jaxpr, TargetSpec t, String fma) {
    try (CompiledModule m = Compiler.compile(Compile.program(jaxpr), t, "f", Consts.NONE, Threading.SERIAL)) {
      String asm = m.assembly();
      Matcher f = Pattern.compile("(?m)^jaxc_gemm_f32_\\w+:\\s*$").matcher(asm);
      assertTrue(f.find(), "no micro-kernel in the module");
      String[] lines = asm.substring(f.start(), asm.indexOf(".Lfunc_end", f.end())).split("\n");
      int first = 0;
      while (first < lines.length && !lines[first].contains(fma)) first++;
      assertTrue(first < lines.length, "no " + fma + " in the micro-kernel");
      int label = first;
      while (label > 0 && !lines[label].matches("^\\.LBB\\w+:.*")) label--;
      String name = lines[label].substring(0, lines[label].indexOf(':'));
      List<String> body = new ArrayList<>();
      for (int i = label + 1; i < lines.length; i++) {
        String s = lines[i].trim();
        if (s.isEmpty() || s.startsWith("#") || s.startsWith("//") || s.startsWith(".p2align")) continue;
        body.add(s);
        if (s.matches("(j\\w+|b\\.\\w+|b|cbnz\\s+\\w+,|cbz\\s+\\w+,)\\s+" + Pattern.quote(name))) return body;
      }
      throw new AssertionError("no branch back to " + name);
    }
  }
}
