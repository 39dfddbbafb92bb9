package dev.jaxc.backend.llvm.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.HeaderWriter;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.emit.Facts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.Program;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rng_uniform's state lives in the artifact: a C program that loads the shared library and calls
 * the entry point three times gets XLA:CPU's first, second and third calls of the jitted function
 * (kernel/rng/facts.txt, case f32_fma: the scaling is an FMA), on the host and on AArch64 under
 * qemu-aarch64.
 */
class RngArtifactTest {
  @TempDir Path dir;

  private static List<Facts.Case> calls() throws Exception {
    return Facts.load("/kernel/rng/facts.txt").stream().filter(c -> c.name().startsWith("f32_fma#")).toList();
  }

  /** Prints each call's output bytes in hex, one line per call. */
  private static String program(Facts.Case c, int calls) {
    StringBuilder in = new StringBuilder();
    for (int k = 0; k < c.inputs().size(); k++) in.append(bytes("in" + k, c.inputs().get(k).data()));
    return """
        #include <stdio.h>
        #include "r.h"
        %s
        static unsigned char out[%d];
        int main(void) {
          const void *ins[2] = {in0, in1};
          void *outs[1] = {out};
          for (int call = 0; call < %d; call++) {
            if (r(ins, outs) != 0) return 1;
            for (unsigned i = 0; i < sizeof out; i++) printf("%%02x", out[i]);
            putchar('\\n');
          }
          return 0;
        }
        """.formatted(in, c.outputs().get(0).data().length, calls);
  }

  private static String bytes(String name, byte[] data) {
    StringBuilder s = new StringBuilder("static const unsigned char " + name + "[] = {");
    for (byte b : data) s.append(b & 0xFF).append(',');
    return s.append("};\n").toString();
  }

  private void runThreeCalls(TargetSpec spec, String cc, List<String> runner) throws Exception {
    List<Facts.Case> calls = calls();
    assertEquals(3, calls.size());
    Program p = Compile.program(calls.get(0).jaxpr());
    try (CompiledModule m = Compiler.compile(p, spec, "r")) {
      Files.writeString(dir.resolve("r.h"), HeaderWriter.write("r", "r.jaxpr", p.main().inputs(), p.main().outs()));
      Linker.linkShared(m.objectCode(), dir.resolve("libr_jaxc.so"), spec);
    }
    Files.writeString(dir.resolve("main.c"), program(calls.get(0), calls.size()));
    run(List.of(cc, "-O1", "-o", "main", "main.c", "-L.", "-lr_jaxc", "-Wl,-rpath," + dir));
    List<String> cmd = new ArrayList<>(runner);
    cmd.add("./main");
    List<String> want = calls.stream().map(c -> HexFormat.of().formatHex(c.outputs().get(0).data())).toList();
    assertEquals(want, run(cmd).lines().toList());
  }

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
    }
    return false;
  }

  private String run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }

  @Test
  void threeCallsOnTheHost() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.host()).isPresent() && onPath("cc"), "no linker or C compiler (apt-get install gcc)");
    runThreeCalls(TargetSpec.host(), "cc", List.of());
  }

  @Test
  void threeCallsOnAarch64UnderQemu() throws Exception {
    TargetSpec arm = TargetSpec.aarch64();
    assumeTrue(Linker.command(arm).isPresent() && onPath("aarch64-linux-gnu-gcc"), "no AArch64 gcc (apt-get install gcc-aarch64-linux-gnu)");
    assumeTrue(onPath("qemu-aarch64"), "no qemu-aarch64 (apt-get install qemu-user)");
    runThreeCalls(arm, "aarch64-linux-gnu-gcc", List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"));
  }
}
