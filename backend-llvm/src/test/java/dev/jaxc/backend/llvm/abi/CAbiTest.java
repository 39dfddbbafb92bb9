package dev.jaxc.backend.llvm.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.artifact.HeaderWriter;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.ir.Program;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C ABI from the outside: a C program includes the generated header, links a shared library
 * made from jaxc's object, checks the counts, the error codes for null arguments, the results
 * (its own C arithmetic is the reference), an input passed through and a literal output, and 8
 * threads calling the entry point at once. The model needs a workspace (b has two uses), so
 * malloc/free run on every call. Its fusions are compiled to run split across threads (a low work
 * threshold), so each of the 8 callers also starts threads; the program runs with
 * JAXC_NUM_THREADS unset, 1 and 4, and once where no thread can start. AArch64 runs under
 * qemu-aarch64.
 */
class CAbiTest {
  @TempDir Path dir;

  /** JAXC_NUM_THREADS values the program runs with; null: unset (the online CPUs). */
  private static final String[] THREADS = {null, "1", "4"};

  static final String MODEL = """
      { lambda ; a:i32[4096] s:f32[]. let
          b:i32[4096] = mul a a
          c:i32[4096] = add b 1:i32[]
          d:i32[4096] = sub b 7:i32[]
          e:f32[4096] = convert_element_type[new_dtype=float32 weak_type=False] c
          f:f32[4096] = mul e s
        in (f, d, s, 3:i32[]) }
      """;

  static final String PROGRAM = """
      #include <pthread.h>
      #include <stdio.h>
      #include <stdlib.h>
      #include "m.h"
      static int check(int seed) {
        int32_t a[4096], d[4096], lit = 0;
        float f[4096], s = 0.5f * (float)seed, s2 = 0;
        for (int i = 0; i < 4096; i++) a[i] = i * seed - 2000;
        const void *ins[2] = {a, &s};
        void *outs[4] = {f, d, &s2, &lit};
        if (m(ins, outs) != 0) return 1;
        for (int i = 0; i < 4096; i++) {
          if (f[i] != (float)(a[i] * a[i] + 1) * s) return 2;
          if (d[i] != a[i] * a[i] - 7) return 3;
        }
        return s2 == s && lit == 3 ? 0 : 4;
      }
      static int rounds = 200;
      static void *worker(void *arg) {
        long bad = 0;
        for (int k = 0; k < rounds; k++) bad += check((int)(long)arg + k % 3) != 0;
        return (void *)bad;
      }
      static void *noop(void *arg) { return arg; }
      int main(int argc, char **argv) {
        if (argc > 1 && argv[1][0] == 'i') {  /* "inline": one caller, no worker threads */
          pthread_t t;
          int rc = pthread_create(&t, 0, noop, 0);
          if (rc == 0) pthread_join(t, 0);
          printf("%s\\n", rc ? "threads cannot start" : "threads can start");
          for (int k = 0; k < 20; k++) if (check(k + 1)) return 40;
          puts("ok");
          return 0;
        }
        if (argc > 1) rounds = atoi(argv[1]);
        if (m_num_inputs() != 2 || m_num_outputs() != 4) return 10;
        int32_t a[4096] = {0}, d[4096], lit;
        float s = 1, f[4096], s2;
        const void *ins[2] = {a, &s};
        const void *noin[2] = {a, 0};
        void *outs[4] = {f, d, &s2, &lit};
        void *noout[4] = {f, d, 0, &lit};
        if (m(0, outs) != 1 || m(ins, 0) != 1) return 11;
        if (m(noin, outs) != 1 || m(ins, noout) != 1) return 12;
        int r = check(1);
        if (r) return 20 + r;
        pthread_t t[8];
        for (long k = 0; k < 8; k++) pthread_create(&t[k], 0, worker, (void *)(k + 1));
        long bad = 0;
        for (int k = 0; k < 8; k++) {
          void *v;
          pthread_join(t[k], &v);
          bad += (long)v;
        }
        if (bad) return 30;
        puts("ok");
        return 0;
      }
      """;

  private void build(TargetSpec spec, String cc) throws Exception {
    Program p = Compile.program(MODEL);
    try (CompiledModule m = Compiler.compile(p, spec, "m", Consts.NONE, Threading.DEFAULT.withMinWork(64))) {
      assertTrue(ElfSymbols.of(m.objectCode()).undefined().contains("pthread_create"), "no parallel region");
      Files.writeString(dir.resolve("m.h"), HeaderWriter.write("m", "m.jaxpr", p.main().inputs(), p.main().outs()));
      Linker.linkShared(m.objectCode(), dir.resolve("libm_jaxc.so"), spec);
    }
    Files.writeString(dir.resolve("main.c"), PROGRAM);
    run(List.of(cc, "-O1", "-o", "main", "main.c", "-L.", "-lm_jaxc", "-lpthread", "-Wl,-rpath," + dir));
  }

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
    }
    return false;
  }

  private String run(List<String> cmd) throws Exception {
    return run(cmd, null);
  }

  /** Runs {@code cmd} with JAXC_NUM_THREADS set to {@code threads}, or unset if null. */
  private String run(List<String> cmd, String threads) throws Exception {
    ProcessBuilder b = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    if (threads == null) b.environment().remove("JAXC_NUM_THREADS");
    else b.environment().put("JAXC_NUM_THREADS", threads);
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }

  @Test
  void cProgramOnX86() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    build(TargetSpec.x86_64(), "cc");
    for (String threads : THREADS) assertEquals("ok", run(List.of("./main"), threads).strip(), "JAXC_NUM_THREADS=" + threads);
  }

  /**
   * With too little address space for a thread's stack, pthread_create fails: every chunk then
   * runs on the caller and the results are still right.
   */
  @Test
  void chunksWhoseThreadCannotStartRunOnTheCaller() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    build(TargetSpec.x86_64(), "cc");
    String out = run(List.of("sh", "-c", "ulimit -v 8192 && exec ./main inline"), "4");
    assumeTrue(out.startsWith("threads cannot start"), "an 8 MB address space still fits a thread here: " + out);
    assertEquals("ok", out.lines().skip(1).findFirst().orElse(""), out);
  }

  @Test
  void cProgramOnAarch64UnderQemu() throws Exception {
    TargetSpec arm = TargetSpec.aarch64();
    assumeTrue(Linker.command(arm).isPresent() && onPath("aarch64-linux-gnu-gcc"), "no AArch64 gcc (apt-get install gcc-aarch64-linux-gnu)");
    assumeTrue(onPath("qemu-aarch64"), "no qemu-aarch64 (apt-get install qemu-user)");
    build(arm, "aarch64-linux-gnu-gcc");
    for (String threads : THREADS) {
      // Fewer rounds per caller: qemu is slow to start threads.
      assertEquals("ok", run(new ArrayList<>(List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "./main", "25")), threads).strip(),
          "JAXC_NUM_THREADS=" + threads);
    }
  }
}
