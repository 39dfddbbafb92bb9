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

  /** lax.map over 16 matrices (control_map_threads' jaxpr): iterations on threads, each with a workspace of its own. */
  static final String MAP = """
      { lambda ; a:f32[16,40,24] b:f32[24,40]. let
          c:f32[16,24] = scan[
            jaxpr={ lambda ; d:f32[24,40] e:f32[40,24]. let
                f:f32[40,40] = dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32] e d
                g:f32[40,40] = tanh f
                h:f32[40,24] = dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32] g e
                i:f32[24] = reduce_sum[axes=(0,) out_sharding=None] h
                j:f32[] = reduce_max[axes=(0, 1)] e
                k:f32[24] = add i j
              in (k,) }
            length=16
            num_carry=0
            num_consts=1
            reverse=False
            unroll=1
          ] b a
        in (c,) }
      """;

  /**
   * Ones in, so every result is exact: tanh(24) rounds to 1 in f32, 40 × 40 = 1600 per column sum,
   * plus the max, 1. The interposed malloc fails every work buffer ({@code jaxc_buffer_get} asks
   * for a power of two plus its 79 bytes of header and alignment) during the first call, whose
   * chunks then raise the flag and the scan runs again in order on the shared workspace.
   */
  static final String MAP_PROGRAM = """
      #include <stdint.h>
      #include <stdio.h>
      #include <stdlib.h>
      extern void *__libc_malloc(size_t);
      static int fail;
      static long failed;
      void *malloc(size_t n) {
        size_t c = n - 79;
        if (fail && n > 79 && (c & (c - 1)) == 0) { failed++; return NULL; }
        return __libc_malloc(n);
      }
      int32_t m(const void *const *inputs, void *const *outputs);
      int main(void) {
        float *a = __libc_malloc(16 * 40 * 24 * 4), *b = __libc_malloc(24 * 40 * 4), *c = __libc_malloc(16 * 24 * 4);
        for (long i = 0; i < 16 * 40 * 24; i++) a[i] = 1.0f;
        for (long i = 0; i < 24 * 40; i++) b[i] = 1.0f;
        const void *ins[2] = {a, b};
        void *outs[1] = {c};
        for (int call = 0; call < 2; call++) {
          for (long i = 0; i < 16 * 24; i++) c[i] = -1.0f;
          fail = call == 0;
          int rc = m(ins, outs);
          fail = 0;
          long wrong = 0;
          for (long i = 0; i < 16 * 24; i++) wrong += c[i] != 1601.0f;
          printf("%d %ld %s ", rc, wrong, call == 0 && failed > 0 ? "failed" : "ok");
        }
        return 0;
      }
      """;

  @Test
  void aMapWhoseChunksGetNoMemoryRunsInOrder() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    try (CompiledModule m = Compiler.compile(Compile.program(MAP), TargetSpec.host(), "m", Consts.NONE, Threading.DEFAULT)) {
      Linker.linkShared(m.objectCode(), dir.resolve("libm_jaxc.so"), TargetSpec.host());
    }
    Files.writeString(dir.resolve("main.c"), MAP_PROGRAM);
    run(List.of("cc", "-O1", "-rdynamic", "-o", "main", "main.c", "-L.", "-lm_jaxc", "-Wl,-rpath," + dir));
    // rc, wrong elements, whether the first call's buffers failed; then the same with memory.
    assertEquals("0 0 failed 0 0 ok", run(List.of("./main")).strip());
  }

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
