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
 * (its own C arithmetic is the reference), an input passed through and a literal output, the
 * caller's rounding mode kept across a call and not used inside it (FTZ/DAZ not left set either),
 * the workspace API (size, caller's block, misaligned or null block refused), the thread-count
 * setter, and 8 threads calling the entry point at once (half of the calls on their own
 * workspace). The model needs a workspace (b has two uses). Its fusions are compiled to run split
 * across threads (a low work threshold), so the callers share the pool or run regions inline;
 * the program runs with JAXC_NUM_THREADS unset, 1 and 4, and once where no thread can start.
 * AArch64 runs under qemu-aarch64.
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
      #include <fenv.h>
      #include <pthread.h>
      #include <stdio.h>
      #include <stdlib.h>
      #include "m.h"
      /* seed's results; ws: NULL for m(), else m_with_workspace() on that block */
      static int check(int seed, void *ws) {
        int32_t a[4096], d[4096], lit = 0;
        float f[4096], s = 0.5f * (float)seed, s2 = 0;
        for (int i = 0; i < 4096; i++) a[i] = i * seed - 2000;
        const void *ins[2] = {a, &s};
        void *outs[4] = {f, d, &s2, &lit};
        if ((ws ? m_with_workspace(ins, outs, ws) : m(ins, outs)) != 0) return 1;
        for (int i = 0; i < 4096; i++) {
          if (f[i] != (float)(a[i] * a[i] + 1) * s) return 2;
          if (d[i] != a[i] * a[i] - 7) return 3;
        }
        return s2 == s && lit == 3 ? 0 : 4;
      }
      static int rounds = 200;
      static void *worker(void *arg) {
        long bad = 0;
        void *ws = aligned_alloc(64, (m_workspace_size() + 63) / 64 * 64);
        for (int k = 0; k < rounds; k++) bad += check((int)(long)arg + k % 3, k % 2 ? ws : 0) != 0;
        free(ws);
        return (void *)bad;
      }
      static void *noop(void *arg) { return arg; }
      /* The caller's rounding mode (in MXCSR / FPCR) survives a call, and does not leak into it
         (the int -> float conversions round up otherwise); FTZ/DAZ are not left set. */
      static int mode(void) {
        if (fesetround(FE_UPWARD) != 0) return 0;  /* no such mode: nothing to check */
        int32_t a[4096], d[4096], lit = 0;
        float f[4096], s = 1.0f, s2 = 0;
        for (int i = 0; i < 4096; i++) a[i] = 4097 + i;  /* a*a + 1 above 2^24: rounded */
        const void *ins[2] = {a, &s};
        void *outs[4] = {f, d, &s2, &lit};
        int rc = m(ins, outs);
        int kept = fegetround() == FE_UPWARD;
        fesetround(FE_TONEAREST);
        if (rc != 0 || !kept) return 1;
        for (int i = 0; i < 4096; i++) if (f[i] != (float)(a[i] * a[i] + 1)) return 2;
        volatile float tiny = 1e-40f, one = 1.0f;
        return tiny * one != 0.0f ? 0 : 3;
      }
      int main(int argc, char **argv) {
        if (argc > 1 && argv[1][0] == 'i') {  /* "inline": one caller, no worker threads */
          pthread_t t;
          int rc = pthread_create(&t, 0, noop, 0);
          if (rc == 0) pthread_join(t, 0);
          printf("%s\\n", rc ? "threads cannot start" : "threads can start");
          for (int k = 0; k < 20; k++) if (check(k + 1, 0)) return 40;
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
        int r = check(1, 0);
        if (r) return 20 + r;
        r = mode();
        if (r) return 50 + r;
        /* b (16 KiB) lives in the workspace; a caller's block must be 64-byte aligned */
        int64_t size = m_workspace_size();
        if (size < 16384) return 60;
        char *ws = aligned_alloc(64, (size + 64 + 63) / 64 * 64);
        if (m_with_workspace(ins, outs, 0) != 1 || m_with_workspace(ins, outs, ws + 8) != 1) return 61;
        r = check(2, ws);
        if (r) return 62;
        free(ws);
        /* thread counts: the default, a set count, the cap; results never change */
        int dflt = m_set_num_threads(0);
        if (dflt < 1 || dflt > 64 || m_set_num_threads(3) != 3 || m_set_num_threads(1000) != 64) return 70;
        for (int n = 1; n <= 5; n++) {
          if (m_set_num_threads(n) != n) return 71;
          if (check(n + 3, 0)) return 72;
        }
        if (m_set_num_threads(0) != dflt) return 73;
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
    run(List.of(cc, "-O1", "-o", "main", "main.c", "-L.", "-lm_jaxc", "-lpthread", "-lm", "-Wl,-rpath," + dir));
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
