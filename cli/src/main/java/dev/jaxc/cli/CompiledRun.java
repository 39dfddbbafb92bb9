package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs compiled models the way they run outside jaxc ({@code jaxc check --target x86_64|aarch64}):
 * each is compiled for the target, linked as a shared library, and called by a small C runner
 * ({@code compiled_run.c}) on raw input blobs, natively or under qemu-user; the runner writes raw
 * output blobs. The runner is compiled once, when this object is opened, with the target's C
 * compiler. Cases may run from several threads at once; each gets its own directory. Under
 * {@link Checker#VALGRIND} the runner runs under valgrind's memcheck, and any error it reports
 * (a read or write outside a buffer, uninitialised bytes reaching an output file) fails the case.
 */
final class CompiledRun implements AutoCloseable {
  /** Linking or running failed; the message says how (one line, plus the tool's output). */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message, null, false, false);
    }
  }

  private static final long TIMEOUT_SECONDS = 600;
  /** The runner's exit status when memcheck found an error (the runner's own are below 110). */
  static final int VALGRIND_ERROR_STATUS = 125;

  /** How the runner is watched. */
  enum Checker {
    NONE,
    /** valgrind memcheck: invalid reads/writes, uninitialised bytes written out. */
    VALGRIND
  }

  private final TargetSpec spec;
  private final Path work;
  private final Optional<String> unavailable;
  private final List<String> launcher;
  private final Path runner;

  private CompiledRun(TargetSpec spec, Path work, Optional<String> unavailable, List<String> launcher, Path runner) {
    this.spec = spec;
    this.work = work;
    this.unavailable = unavailable;
    this.launcher = launcher;
    this.runner = runner;
  }

  /** Finds the tools and builds the runner in a new temporary directory (removed by close). */
  static CompiledRun open(TargetSpec spec) throws IOException {
    return open(spec, Checker.NONE);
  }

  /** As above, the runner watched by {@code checker}. */
  static CompiledRun open(TargetSpec spec, Checker checker) throws IOException {
    Path work = Files.createTempDirectory("jaxc-check");
    CompiledRunTools.Result found = CompiledRunTools.find(spec, checker == Checker.VALGRIND);
    if (found.tools().isEmpty()) return new CompiledRun(spec, work, Optional.of(found.missing()), List.of(), null);
    CompiledRunTools tools = found.tools().get();
    Path source = work.resolve("runner.c");
    try (InputStream in = CompiledRun.class.getResourceAsStream("compiled_run.c")) {
      if (in == null) throw new IllegalStateException("compiled_run.c is missing from the jar");
      Files.write(source, in.readAllBytes());
    }
    Path runner = work.resolve("runner");
    List<String> cmd = List.of(tools.cc().toString(), "-O1", "-o", runner.toString(), source.toString(), "-ldl");
    Optional<String> failed = execute(tools.cc().getFileName().toString(), cmd, work.resolve("runner.log"));
    if (failed.isPresent()) {
      String hint = tools.launcher().isEmpty() ? "" : " (is " + CompiledRunTools.libcPackage(spec) + " installed?)";
      String first = failed.get().lines().findFirst().orElse("");
      return new CompiledRun(spec, work, Optional.of("cannot build the runner: " + first + hint), List.of(), null);
    }
    List<String> launcher = new ArrayList<>(tools.launcher());
    if (checker == Checker.VALGRIND) {
      // -q: only errors are printed; leaks are not errors here (the runner exits without freeing).
      // The runner leaves its output buffers unpoisoned, so memcheck sees a byte never written.
      launcher.addAll(List.of("env", "JAXC_RUNNER_NO_POISON=1"));
      launcher.addAll(List.of(tools.valgrind().orElseThrow().toString(), "-q", "--tool=memcheck",
          "--error-exitcode=" + VALGRIND_ERROR_STATUS, "--leak-check=no", "--show-error-list=no"));
    }
    return new CompiledRun(spec, work, Optional.empty(), List.copyOf(launcher), runner);
  }

  /** Why no case can run here (a missing tool and the package that has it); empty when they can. */
  Optional<String> unavailable() {
    return unavailable;
  }

  /**
   * Compiles a lowered program for the target as entry point {@code name}, runs it once on
   * {@code inputs} (constvars, then invars) and returns its outputs.
   */
  List<NpyArray> run(Program lowered, String name, List<NpyArray> inputs)
      throws HostRun.InputMismatch, Failure, IOException {
    if (unavailable.isPresent()) throw new IllegalStateException(unavailable.get());
    List<byte[]> objects;
    List<ArrayType> inTypes;
    List<ArrayType> outTypes;
    try (CompiledModule m = Compiler.compile(lowered, spec, name)) {
      objects = m.objects();
      inTypes = m.inputTypes();
      outTypes = m.outputTypes();
    }
    List<NpyArray> in = HostRun.conform(inputs, inTypes, false);
    Path dir = Files.createTempDirectory(work, name);
    try {
      Path lib = dir.resolve("lib" + name + ".so");
      try {
        Linker.linkShared(objects, lib, spec);
      } catch (Linker.LinkException e) {
        throw new Failure(e.getMessage());
      }
      return runLibrary(lib, name, in, outTypes, dir);
    } finally {
      delete(dir);
    }
  }

  /**
   * Runs the entry point {@code name} of a linked library once on {@code in} (as the library takes
   * them), with files in {@code dir}; returns its outputs.
   */
  List<NpyArray> runLibrary(Path lib, String name, List<NpyArray> in, List<ArrayType> outTypes, Path dir)
      throws Failure, IOException {
    if (unavailable.isPresent()) throw new IllegalStateException(unavailable.get());
    List<String> cmd = new ArrayList<>(launcher);
    cmd.addAll(List.of(runner.toString(), lib.toString(), name, Integer.toString(in.size())));
    for (int k = 0; k < in.size(); k++) {
      Path f = dir.resolve("in" + k + ".bin");
      Files.write(f, in.get(k).data());
      cmd.add(f.toString());
    }
    cmd.add(Integer.toString(outTypes.size()));
    for (int k = 0; k < outTypes.size(); k++) {
      cmd.add(Long.toString(HostRun.bytes(outTypes.get(k))));
      cmd.add(dir.resolve("out" + k + ".bin").toString());
    }
    Optional<String> failed = execute("the runner", cmd, dir.resolve("run.log"));
    if (failed.isPresent()) throw new Failure(failed.get().strip().replace('\n', ' '));
    List<NpyArray> r = new ArrayList<>();
    for (int k = 0; k < outTypes.size(); k++) {
      ArrayType t = outTypes.get(k);
      byte[] data = Files.readAllBytes(dir.resolve("out" + k + ".bin"));
      if (data.length != HostRun.bytes(t)) throw new Failure("output " + k + ": the runner wrote " + data.length + " bytes");
      r.add(NpyArray.of(t.dtype(), t.shape().sizes(), data));
    }
    return r;
  }

  /**
   * Runs a command with its output going to {@code log}; empty on success, else what went wrong
   * ({@code what} exited with, or died of, what, and its output).
   */
  private static Optional<String> execute(String what, List<String> cmd, Path log) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of("did not finish within " + TIMEOUT_SECONDS + " s: " + String.join(" ", cmd));
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
    if (p.exitValue() == 0) return Optional.empty();
    String out = Files.readString(log, StandardCharsets.UTF_8).strip();
    int rc = p.exitValue();
    String status = rc == VALGRIND_ERROR_STATUS ? "failed valgrind memcheck"
        : rc > 128 ? "died of signal " + (rc - 128) : "exited with " + rc;
    return Optional.of(what + " " + status + (out.isEmpty() ? "" : ": " + out));
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public void close() throws IOException {
    delete(work);
  }
}
