package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.backend.llvm.abi.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults around {@code jaxc compile}: a compile killed midway leaves nothing at its target paths
 * (no output, no temporary), a full disk or an unwritable directory gives one line and exit 1,
 * {@code --max-workspace} stops a model whose work memory is too large, and a compiled entry point
 * that cannot get its work memory returns the header's out-of-memory code.
 */
class CompileFaultsTest {
  private static final Path BIG = Corpus.root().resolve("bench/compile/transformer_12l.jaxpr");
  private static final Path WORKSPACE_64M = Corpus.root().resolve("bench/runtime/workspace_64m.jaxpr");

  /**
   * A 12-layer transformer compiled in a child JVM and killed, with SIGTERM or SIGKILL, at several
   * points of its compile (fractions of a full compile's time, and while its outputs are being
   * written): its directory then holds nothing, or only whole outputs, each byte-identical to a
   * full compile's; after SIGTERM all three or none and no temporary; after SIGKILL a temporary
   * at most, which the next compile there removes.
   */
  @Test
  void aKilledCompileLeavesNoPartialOutputOrTemporary(@TempDir Path tmp) throws Exception {
    assumeTrue(CompileTools.isX86Host() && CompileTools.has("ld.lld"), "needs ld.lld on x86-64 (apt-get install lld)");
    Path ref = Files.createDirectories(tmp.resolve("ref"));
    long t0 = System.nanoTime();
    Process full = compile(ref, tmp);
    assertTrue(full.waitFor(10, TimeUnit.MINUTES));
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, full.exitValue(), Files.readString(tmp.resolve("log.txt")));
    List<String> outputs = List.of("libtransformer_12l.so", "transformer_12l.h", "transformer_12l.o");
    assertEquals(outputs, names(ref));
    int k = 0;
    // Fractions of the compile's time, and -1: the moment the first temporary appears in the
    // directory (the outputs are being written).
    for (double at : new double[] {0.15, 0.4, 0.7, 0.9, -1}) {
      for (boolean force : new boolean[] {false, true}) {
        Path dir = Files.createDirectories(tmp.resolve("kill" + k++));
        Process p = compile(dir, tmp);
        if (at >= 0) {
          Thread.sleep((long) (at * seconds * 1000));
        } else {
          long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
          while (p.isAlive() && names(dir).isEmpty() && System.nanoTime() < deadline) Thread.onSpinWait();
        }
        if (force) p.destroyForcibly(); else p.destroy();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String what = (force ? "SIGKILL" : "SIGTERM") + (at >= 0 ? " at " + at + " of " + seconds + " s" : " while writing");
        List<String> left = names(dir);
        List<String> temps = left.stream().filter(n -> n.endsWith(".tmp")).toList();
        System.out.printf("CompileFaultsTest: %s: exit %d, left %s%n", what, p.exitValue(), left);
        // SIGTERM: the outputs appear together or not at all (the hook lets a commit finish).
        if (!force) assertTrue(left.isEmpty() || left.equals(outputs), what + ": " + left);
        for (String n : left) {
          if (!n.endsWith(".tmp")) assertArrayEquals(Files.readAllBytes(ref.resolve(n)), Files.readAllBytes(dir.resolve(n)), what + ": " + n);
        }
        assertTrue(left.stream().filter(n -> !n.endsWith(".tmp")).allMatch(outputs::contains), what + ": " + left);
        if (!temps.isEmpty()) {
          // SIGKILL in the instant between writing and renaming: the next compile removes the temporary.
          Process again = compile(dir, tmp);
          assertTrue(again.waitFor(10, TimeUnit.MINUTES));
          assertEquals(outputs, names(dir), what);
        }
      }
    }
  }

  /** SIGKILL runs no clean-up: a temporary whose process is gone goes with the next write there. */
  @Test
  void aDeadProcessesTemporaryIsRemovedByTheNextCompile(@TempDir Path dir) throws Exception {
    long dead = deadPid();
    Path stale = Files.writeString(dir.resolve(".m.h." + dead + "-abc.tmp"), "half");
    Path live = Files.writeString(dir.resolve(".m.h.1-abc.tmp"), "pid 1 is alive");
    Path other = Files.writeString(dir.resolve(".n.h." + dead + "-abc.tmp"), "another target's");
    Path model = Files.writeString(dir.resolve("m.jaxpr"), "{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }\n");
    CliRunner r = CliRunner.run("compile", model.toString(), "--emit", "header", "-o", dir.resolve("m.h").toString());
    assertEquals(0, r.status(), r.err());
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(live) && Files.exists(other));
  }

  /**
   * On a 64 KiB tmpfs (mounted in a user namespace: no root needed) the 12-layer transformer's
   * outputs do not fit: one line naming the file and the cause, exit 1, nothing left there.
   */
  @Test
  void aFullDiskGivesOneLineAndExit1(@TempDir Path tmp) throws Exception {
    Optional<String> out = inNamespace(tmp, "size=64k", List.of("compile", BIG.toString(), "--emit", "obj,header"));
    assumeTrue(out.isPresent(), "cannot mount a size-limited tmpfs here (unshare -r -m, mount -t tmpfs)");
    List<String> lines = out.get().lines().toList();
    assertEquals("rc=1", lines.get(lines.size() - 2), out.get());
    assertEquals("left:", lines.get(lines.size() - 1), out.get());
    List<String> err = lines.subList(0, lines.size() - 2);
    assertEquals(1, err.size(), out.get());
    assertTrue(err.get(0).matches(".*/disk/transformer_12l\\.(o|h): error: cannot write: no space left on device"), err.get(0));
  }

  /** The file handling itself on a size-limited in-memory file system: all outputs or none. */
  @Test
  void outputsAreWrittenAllOrNoneOnAFullFileSystem() throws IOException {
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setMaxSize(64 * 1024).setBlockSize(4096).build())) {
      Path dir = Files.createDirectories(fs.getPath("/out"));
      Map<EmitKind, byte[]> contents = new EnumMap<>(EmitKind.class);
      contents.put(EmitKind.OBJ, new byte[40_000]);
      contents.put(EmitKind.HEADER, new byte[40_000]);
      Map<EmitKind, Path> paths = new HashMap<>();
      paths.put(EmitKind.OBJ, dir.resolve("m.o"));
      paths.put(EmitKind.HEADER, dir.resolve("m.h"));
      Optional<String> error = CompileOutputs.store(contents, paths, PhaseTimer.NONE);
      assertTrue(error.isPresent());
      assertTrue(error.get().startsWith("/out/m.h: error: cannot write: "), error.get());
      assertEquals(1, error.get().lines().count());
      assertEquals(List.of(), names(dir), "the object written first is not left alone");
      contents.put(EmitKind.HEADER, new byte[10_000]);
      assertEquals(Optional.empty(), CompileOutputs.store(contents, paths, PhaseTimer.NONE));
      assertEquals(List.of("m.h", "m.o"), names(dir));
    }
  }

  /** A directory that cannot be written: chmod 555 (or, for root, a read-only tmpfs). */
  @Test
  void anUnwritableDirectoryGivesOneLineAndExit1(@TempDir Path tmp) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("ro"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      if (!Files.isWritable(dir)) {
        CliRunner r = CliRunner.run("compile", WORKSPACE_64M.toString(), "--emit", "obj,shared", "-o", dir.toString());
        assertEquals(1, r.status(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().strip().endsWith("error: cannot write: permission denied"), r.err());
        assertEquals(List.of(), names(dir));
        return;
      }
    } finally {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    // Root writes anywhere chmod allows: a read-only mount stops it.
    Optional<String> out = inNamespace(tmp, "ro,size=64k", List.of("compile", WORKSPACE_64M.toString(), "--emit", "obj,shared"));
    assumeTrue(out.isPresent(), "running as root and cannot mount a read-only tmpfs here");
    List<String> lines = out.get().lines().toList();
    assertEquals(List.of("rc=1", "left:"), lines.subList(lines.size() - 2, lines.size()), out.get());
    assertEquals(1, lines.size() - 2, out.get());
    assertTrue(lines.get(0).endsWith("error: cannot write: read-only file system"), lines.get(0));
  }

  /** --max-workspace: over the limit, one line with the need, the limit and the largest buffer; exit 1. */
  @Test
  void maxWorkspaceNamesTheLargestBuffers(@TempDir Path dir) {
    CliRunner over = CliRunner.run("compile", WORKSPACE_64M.toString(), "--max-workspace", "1M", "-o", dir.resolve("w.o").toString());
    assertEquals(1, over.status(), over.err());
    assertEquals(1, over.err().lines().count(), over.err());
    // b:f32[16777216] is 64 MiB, the whole workspace (b is read at its own index and reversed, so it is
    // stored; c, r, d and e fuse into the output).
    assertTrue(over.err().contains("needs 67108864 bytes (64.0 MiB) of work memory, more than --max-workspace 1048576 bytes"),
        over.err());
    assertTrue(over.err().contains("largest buffers: b:f32[16777216] (64.0 MiB, line 2)"), over.err());
    assertFalse(Files.exists(dir.resolve("w.o")));
    CliRunner fits = CliRunner.run("compile", WORKSPACE_64M.toString(), "--max-workspace", "64M", "-o", dir.resolve("w.o").toString());
    assertEquals(0, fits.status(), fits.err());
    assertTrue(Files.exists(dir.resolve("w.o")));
    CliRunner bad = CliRunner.run("compile", WORKSPACE_64M.toString(), "--max-workspace", "lots");
    assertEquals(ExitCode.USAGE, bad.status());
  }

  /**
   * At run time the entry point whose work memory cannot be allocated returns the header's code 2
   * (ErrorCode.OUT_OF_MEMORY), and the next call, with memory, computes the right result: a C
   * program interposes malloc to fail every allocation of 1 MiB or more for the first call.
   */
  @Test
  void outOfMemoryAtRunTimeReturnsTheDocumentedCode(@TempDir Path dir) throws Exception {
    assumeTrue(CompileTools.isX86Host() && CompileTools.has("cc") && CompileTools.has("ld.lld"), "needs cc and ld.lld on x86-64");
    CliRunner r = CliRunner.run("compile", WORKSPACE_64M.toString(), "--emit", "shared,header", "-o", dir.toString());
    assertEquals(0, r.status(), r.err());
    String header = Files.readString(dir.resolve("workspace_64m.h"));
    assertTrue(header.contains("2 when out\n   of memory"), "the header documents the code");
    Files.writeString(dir.resolve("main.c"), String.join("\n",
        "#define _GNU_SOURCE",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include \"workspace_64m.h\"",
        "extern void *__libc_malloc(size_t);",
        "static int fail_big;",
        "void *malloc(size_t n) { return fail_big && n >= (1u << 20) ? NULL : __libc_malloc(n); }",
        "int main(void) {",
        "  size_t n = 16777216;",
        "  float *x = __libc_malloc(n * 4), *y = __libc_malloc(n * 4);",
        "  for (size_t i = 0; i < n; i++) { x[i] = 0.0f; y[i] = -1.0f; }",
        "  const void *in[1] = {x}; void *out[1] = {y};",
        "  fail_big = 1;",
        "  int a = workspace_64m(in, out);",
        "  fail_big = 0;",
        "  int b = workspace_64m(in, out);",
        "  printf(\"%d %d %g %lld\\n\", a, b, y[n - 1], (long long)workspace_64m_workspace_size());",
        "  return 0;",
        "}", ""));
    CompileTools.run(dir, "cc", "-O1", "-rdynamic", "-o", "main", "main.c", "-L.", "-lworkspace_64m", "-Wl,-rpath," + dir);
    ProcessBuilder pb = new ProcessBuilder("./main").directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("JAXC_NUM_THREADS", "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    // exp(0) + 1 - 2 exp(0) = 0
    assertEquals(ErrorCode.OUT_OF_MEMORY.code() + " 0 0 67108864", out);
  }

  /** Starts {@code jaxc compile} of the 12-layer transformer (obj, shared, header) into {@code dir} in a child JVM. */
  private static Process compile(Path dir, Path tmp) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "compile", BIG.toString(), "--emit", "obj,shared,header", "-o", dir.toString()));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("log.txt").toFile()).start();
  }

  /**
   * Runs {@code jaxc ARGS -o DISK} with DISK a tmpfs mounted with {@code options} in a new user
   * and mount namespace; its stderr, then "rc=N" and "left:" with the files left on DISK. Empty
   * where such a mount cannot be made here.
   */
  private static Optional<String> inNamespace(Path tmp, String options, List<String> args) throws Exception {
    if (!CompileTools.has("unshare") || !CompileTools.has("mount")) return Optional.empty();
    Path disk = Files.createDirectories(tmp.resolve("disk"));
    StringBuilder java = new StringBuilder("'" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -XX:+UseSerialGC"
        + " -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName());
    for (String a : args) java.append(" '").append(a).append("'");
    java.append(" -o '").append(disk).append("'");
    String script = "mount -t tmpfs -o " + options + " jaxc-test '" + disk + "' || exit 99\n"
        + java + " 2>&1 >/dev/null\necho rc=$?\necho left:$(ls -A '" + disk + "')\n";
    Process p = new ProcessBuilder("unshare", "-r", "-m", "sh", "-c", script).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(10, TimeUnit.MINUTES));
    if (p.exitValue() != 0) return Optional.empty();
    return Optional.of(out.strip());
  }

  /** A process id no process has now. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    long pid = p.pid();
    assumeTrue(ProcessHandle.of(pid).isEmpty(), "pid " + pid + " was reused at once");
    return pid;
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
