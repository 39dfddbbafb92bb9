package dev.jaxc.backend.llvm.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GEMM's work memory is kept across calls ({@link WorkBuffers}): a C program calls a matmul
 * whose packed B is 36 MiB (above glibc's largest mmap threshold, so a plain malloc per call
 * would map, fault and unmap it every time) three times and counts the minor page faults of the
 * third call, which must not fault B or the threads' blocks in again; and the product is right
 * (small integers: every sum is exact in f32).
 */
class WorkBuffersTest {
  @TempDir Path dir;

  static final String MODEL = """
      { lambda ; a:f32[16,3072] b:f32[3072,3072]. let
          c:f32[16,3072] = dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32] a b
        in (c,) }
      """;

  static final String PROGRAM = """
      #include <stdint.h>
      #include <stdio.h>
      #include <stdlib.h>
      #include <sys/resource.h>
      int32_t m(const void *const *inputs, void *const *outputs);
      #define M 16L
      #define K 3072L
      #define N 3072L
      static long faults(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_minflt; }
      int main(void) {
        float *a = malloc(M * K * 4), *b = malloc(K * N * 4), *c = malloc(M * N * 4);
        for (long i = 0; i < M * K; i++) a[i] = (float)(i % 3);
        for (long i = 0; i < K * N; i++) b[i] = (float)(i % 5);
        const void *ins[2] = {a, b};
        void *outs[1] = {c};
        long before = 0;
        for (int call = 0; call < 3; call++) {
          for (long i = 0; i < M * N; i++) c[i] = -1.0f;
          before = faults();
          if (m(ins, outs) != 0) { puts("error"); return 1; }
        }
        long third = faults() - before;
        for (long i = 0; i < M; i++) for (long j = 0; j < N; j++) {
          double s = 0;
          for (long k = 0; k < K; k++) s += (double)a[i * K + k] * b[k * N + j];
          if (c[i * N + j] != (float)s) { printf("wrong c[%ld,%ld] = %g, not %g\\n", i, j, c[i * N + j], s); return 1; }
        }
        printf("%ld\\n", third);
        return 0;
      }
      """;

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
    }
    return false;
  }

  @Test
  void repeatedCallsFaultNoWorkMemory() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    try (CompiledModule m = Compiler.compile(Compile.program(MODEL), TargetSpec.host(), "m", Consts.NONE, Threading.DEFAULT)) {
      Linker.linkShared(m.objectCode(), dir.resolve("libm_jaxc.so"), TargetSpec.host());
    }
    Files.writeString(dir.resolve("main.c"), PROGRAM);
    run(List.of("cc", "-O1", "-o", "main", "main.c", "-L.", "-lm_jaxc", "-Wl,-rpath," + dir));
    long third = Long.parseLong(run(List.of("./main")).strip());
    // 36 MiB of packed B alone would be 9,216 pages; a few stray faults (stack) are allowed.
    assertTrue(third < 256, "the third call faulted " + third + " pages");
  }

  private String run(List<String> cmd) throws Exception {
    ProcessBuilder b = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }
}
