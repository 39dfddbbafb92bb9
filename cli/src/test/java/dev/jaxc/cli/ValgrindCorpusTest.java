package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated code touches no memory outside its buffers: golden cases' shared libraries run under
 * valgrind memcheck ({@code jaxc check --target x86_64 --cpu haswell --valgrind}; valgrind runs
 * AVX2 but not AVX-512 code), the runner's inputs and outputs each a heap block of exactly its
 * size, so a read or write past one, or an output byte never written, is an error. In CI: the
 * categories that index (bounds, index, shape, control) and the models; {@code
 * bench/valgrind/run.sh} runs every case. Valgrind does not emulate the denormal flushing (MXCSR
 * FTZ/DAZ) that jaxc sets, so cases whose outputs depend on it
 * ({@code testdata/known-differences-valgrind.txt}) may differ in value there, never in memcheck.
 */
class ValgrindCorpusTest {
  /** The CI subset: the categories whose code computes addresses from values, and the models. */
  static final List<String> CATEGORIES = List.of("bounds_", "index_", "shape_", "control_", "model_");

  @Test
  void indexingCasesRunCleanUnderMemcheck() throws IOException {
    assumeTrue(canRun(), "needs valgrind, cc and a linker on x86-64 Linux (apt-get install valgrind gcc lld)");
    Path root = Corpus.testdata("cases");
    List<String> dirs = new ArrayList<>();
    try (var s = Files.list(root)) {
      s.filter(p -> Files.exists(p.resolve("model.jaxpr")))
          .filter(p -> CATEGORIES.stream().anyMatch(c -> p.getFileName().toString().startsWith(c)))
          .sorted().forEach(p -> dirs.add(p.toString()));
    }
    assertTrue(dirs.size() >= 150, "the subset: " + dirs.size());
    List<String> args = new ArrayList<>(List.of("check", "--target", "x86_64", "--cpu", "haswell", "--valgrind",
        "-j", Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors()))));
    args.addAll(dirs);
    long t0 = System.nanoTime();
    CliRunner r = CliRunner.run(args.toArray(String[]::new));
    List<String> lines = r.out().lines().toList();
    System.out.printf("ValgrindCorpusTest: %s (%d cases, %.1f s)%n", lines.get(lines.size() - 1), dirs.size(),
        (System.nanoTime() - t0) / 1e9);
    Map<String, String> known = Corpus.knownDifferences("known-differences-valgrind.txt");
    List<String> unexpected = lines.stream().filter(l -> !l.startsWith("PASS "))
        .filter(l -> !l.matches("\\d+ passed, .*"))
        .filter(l -> !(l.startsWith("FAIL ") && !l.contains("valgrind") && known.containsKey(caseName(l))))
        .toList();
    assertEquals(List.of(), unexpected, r.err());
  }

  /** The case directory's name in a check line (the path after the verdict, before ':'). */
  private static String caseName(String line) {
    String path = line.substring(5).split(":", 2)[0];
    return Path.of(path).getFileName().toString();
  }

  /** The check can fail: a library that reads one float past its input fails memcheck. */
  @Test
  void memcheckFailsAReadPastAnInput(@TempDir Path dir) throws Exception {
    assumeTrue(canRun(), "needs valgrind, cc and a linker on x86-64 Linux (apt-get install valgrind gcc lld)");
    Path lib = library(dir, "over", "for (int i = 0; i < 5; i++) o[i] = a[i];");
    try (CompiledRun run = CompiledRun.open(TargetSpec.x86_64(), CompiledRun.Checker.VALGRIND)) {
      CompiledRun.Failure f = assertThrows(CompiledRun.Failure.class,
          () -> run.runLibrary(lib, "over", List.of(floats(1, 2, 3, 4)), List.of(f32(5)), dir));
      assertTrue(f.getMessage().contains("failed valgrind memcheck") && f.getMessage().contains("Invalid read"), f.getMessage());
    }
  }

  /** ... and one that leaves an output element unwritten fails it too (the runner writes it out). */
  @Test
  void memcheckFailsAnOutputNotWritten(@TempDir Path dir) throws Exception {
    assumeTrue(canRun(), "needs valgrind, cc and a linker on x86-64 Linux (apt-get install valgrind gcc lld)");
    Path lib = library(dir, "under", "for (int i = 0; i < 3; i++) o[i] = a[i];");
    try (CompiledRun run = CompiledRun.open(TargetSpec.x86_64(), CompiledRun.Checker.VALGRIND)) {
      CompiledRun.Failure f = assertThrows(CompiledRun.Failure.class,
          () -> run.runLibrary(lib, "under", List.of(floats(1, 2, 3, 4)), List.of(f32(4)), dir));
      assertTrue(f.getMessage().contains("failed valgrind memcheck") && f.getMessage().contains("uninitialised"), f.getMessage());
    }
  }

  /** ... while the same runner passes a library that stays inside its buffers. */
  @Test
  void memcheckPassesALibraryInsideItsBuffers(@TempDir Path dir) throws Exception {
    assumeTrue(canRun(), "needs valgrind, cc and a linker on x86-64 Linux (apt-get install valgrind gcc lld)");
    Path lib = library(dir, "inside", "for (int i = 0; i < 4; i++) o[i] = a[i] * 2;");
    try (CompiledRun run = CompiledRun.open(TargetSpec.x86_64(), CompiledRun.Checker.VALGRIND)) {
      List<NpyArray> out = run.runLibrary(lib, "inside", List.of(floats(1, 2, 3, 4)), List.of(f32(4)), dir);
      assertEquals(floats(2, 4, 6, 8), out.get(0));
    }
  }

  /** Valgrind cannot run AVX-512 code (the host target may use it) nor another architecture's. */
  @Test
  void valgrindNeedsANamedX86Target() {
    String cases = Corpus.testdata("cases/bounds_switch_extremes").toString();
    CliRunner host = CliRunner.run("check", "--valgrind", cases);
    assertEquals(ExitCode.USAGE, host.status());
    assertTrue(host.firstErrLine().contains("--valgrind: needs -target " + CompileTarget.arch(TargetSpec.host())), host.err());
    String other = TargetSpec.host().arch() == TargetSpec.Arch.AARCH64 ? "x86_64" : "aarch64";
    CliRunner foreign = CliRunner.run("check", "--target", other, "--valgrind", cases);
    assertEquals(ExitCode.USAGE, foreign.status());
    assertTrue(foreign.firstErrLine().contains("--valgrind: runs only this machine's architecture, not " + other), foreign.err());
  }

  static boolean canRun() {
    return System.getProperty("os.arch").matches("amd64|x86_64") && Linker.onPath("valgrind").isPresent()
        && Linker.onPath("cc").isPresent() && Linker.command(TargetSpec.x86_64()).isPresent();
  }

  /** A C library with the C ABI of one f32 input and one f32 output, whose body is {@code loop}. */
  private static Path library(Path dir, String name, String loop) throws Exception {
    Path src = dir.resolve(name + ".c");
    Files.writeString(src, "#include <stdint.h>\n"
        + "int32_t " + name + "(const void *const *in, void *const *out) {\n"
        + "  const float *a = in[0]; float *o = out[0];\n  " + loop + "\n  return 0;\n}\n"
        + "int32_t " + name + "_num_inputs(void) { return 1; }\n"
        + "int32_t " + name + "_num_outputs(void) { return 1; }\n");
    Path lib = dir.resolve("lib" + name + ".so");
    Process p = new ProcessBuilder("cc", "-O0", "-shared", "-fPIC", "-o", lib.toString(), src.toString())
        .redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    return lib;
  }

  private static ArrayType f32(long n) {
    return new ArrayType(DType.F32, Shape.of(n));
  }

  private static NpyArray floats(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return NpyArray.of(DType.F32, new long[] {v.length}, b.array());
  }
}
