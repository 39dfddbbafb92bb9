package dev.jaxc.backend.llvm.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large outputs get huge pages ({@link OutputPages}): a model with a 16 MiB output imports
 * {@code madvise}, one with a small output does not; and a C program that hands the entry point a
 * fresh 16 MiB mapping finds, in {@code /proc/self/smaps}, that the kernel backed it with huge
 * pages (where transparent huge pages are enabled at all: {@code madvise} or {@code always}),
 * with every element right.
 */
class OutputPagesTest {
  @TempDir Path dir;

  static final String BIG = """
      { lambda ; a:f32[4194304]. let b:f32[4194304] = mul a 2.0:f32[] in (b,) }
      """;

  static final String SMALL = """
      { lambda ; a:f32[1024]. let b:f32[1024] = mul a 2.0:f32[] in (b,) }
      """;

  static final String PROGRAM = """
      #include <stdint.h>
      #include <stdio.h>
      #include <stdlib.h>
      #include <string.h>
      #include <sys/mman.h>
      int32_t m(const void *const *inputs, void *const *outputs);
      #define N 4194304L
      int main(void) {
        float *a = malloc(N * 4);
        for (long i = 0; i < N; i++) a[i] = (float)(i % 1000);
        float *b = mmap(0, N * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        const void *ins[1] = {a};
        void *outs[1] = {b};
        if (m(ins, outs) != 0) { puts("error"); return 1; }
        for (long i = 0; i < N; i++) if (b[i] != 2.0f * (float)(i % 1000)) { printf("wrong %ld\\n", i); return 1; }
        FILE *f = fopen("/proc/self/smaps", "r");
        char line[512];
        unsigned long lo = 0, hi = 0, start = (unsigned long)b;
        int in = 0;
        long huge = 0;
        while (fgets(line, sizeof line, f)) {
          if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) in = lo < start + N * 4 && hi > start;
          else if (in && strncmp(line, "AnonHugePages:", 14) == 0) huge += atol(line + 14);
        }
        printf("%ld\\n", huge);
        return 0;
      }
      """;

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
    }
    return false;
  }

  private static List<String> imports(String model) throws Exception {
    try (CompiledModule m = Compiler.compile(Compile.program(model), TargetSpec.x86_64(), "m", Consts.NONE,
        Threading.DEFAULT)) {
      return List.copyOf(ElfSymbols.of(m.objectCode()).undefined());
    }
  }

  @Test
  void onlyLargeOutputsAreAdvised() throws Exception {
    assertTrue(imports(BIG).contains("madvise"), "16 MiB output");
    assertFalse(imports(SMALL).contains("madvise"), "4 KiB output");
  }

  @Test
  void aFreshLargeOutputGetsHugePages() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    assumeTrue(Files.isReadable(thp) && !Files.readString(thp).contains("[never]"), "transparent huge pages are off here");
    try (CompiledModule m = Compiler.compile(Compile.program(BIG), TargetSpec.host(), "m", Consts.NONE, Threading.DEFAULT)) {
      Linker.linkShared(m.objectCode(), dir.resolve("libm_jaxc.so"), TargetSpec.host());
    }
    Files.writeString(dir.resolve("main.c"), PROGRAM);
    run(List.of("cc", "-O1", "-o", "main", "main.c", "-L.", "-lm_jaxc", "-Wl,-rpath," + dir));
    long hugeKiB = Long.parseLong(run(List.of("./main")).strip());
    // The kernel may fall short of huge pages when memory is fragmented; at least one 2 MiB page.
    assertTrue(hugeKiB >= 2048, "AnonHugePages of the output: " + hugeKiB + " KiB");
  }

  private String run(List<String> cmd) throws Exception {
    ProcessBuilder b = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }
}
