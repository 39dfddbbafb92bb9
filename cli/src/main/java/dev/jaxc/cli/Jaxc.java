package dev.jaxc.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * jaxc for build tools (Gradle, Maven plugins, Bazel rules written in Java): the CLI in-process,
 * without {@code System.exit}. {@link #compile} takes typed options; {@link #run} takes any command
 * line. Results carry the exit status of docs/exit-codes.md and the messages the CLI would print.
 * Calls may run from several threads at once.
 */
public final class Jaxc {
  private Jaxc() {}

  /** What a call did: the exit status ({@link ExitCode}), standard output and the messages. */
  public record Result(int exitCode, String output, String messages) {
    public boolean ok() {
      return exitCode == ExitCode.OK;
    }

    /** The diagnostics: each message line that says {@code error:} or {@code warning:}. */
    public List<String> diagnostics() {
      List<String> r = new ArrayList<>();
      for (String line : messages.split("\n")) {
        if (line.contains("error: ") || line.contains("warning: ")) r.add(line);
      }
      return r;
    }
  }

  /**
   * The options of {@code jaxc compile}; null or empty means the CLI's default. Immutable: each
   * {@code with} method returns a changed copy.
   */
  public record CompileOptions(String target, Path output, List<String> emit, String name, String cpu,
      String features, Integer optLevel, Path consts, boolean x64, String promotion, int jobs) {
    public CompileOptions {
      emit = List.copyOf(emit);
    }

    public static CompileOptions defaults() {
      return new CompileOptions(null, null, List.of(), null, null, null, null, null, false, null, 0);
    }

    public CompileOptions withTarget(String t) {
      return new CompileOptions(t, output, emit, name, cpu, features, optLevel, consts, x64, promotion, jobs);
    }

    public CompileOptions withOutput(Path o) {
      return new CompileOptions(target, o, emit, name, cpu, features, optLevel, consts, x64, promotion, jobs);
    }

    /** Kinds to emit: obj, shared, asm, llvm-ir, header, ptx. */
    public CompileOptions withEmit(String... kinds) {
      return new CompileOptions(target, output, List.of(kinds), name, cpu, features, optLevel, consts, x64, promotion, jobs);
    }

    public CompileOptions withName(String n) {
      return new CompileOptions(target, output, emit, n, cpu, features, optLevel, consts, x64, promotion, jobs);
    }

    public CompileOptions withCpu(String c, String f) {
      return new CompileOptions(target, output, emit, name, c, f, optLevel, consts, x64, promotion, jobs);
    }

    public CompileOptions withOptLevel(int level) {
      return new CompileOptions(target, output, emit, name, cpu, features, level, consts, x64, promotion, jobs);
    }

    public CompileOptions withConsts(Path c) {
      return new CompileOptions(target, output, emit, name, cpu, features, optLevel, c, x64, promotion, jobs);
    }

    public CompileOptions withX64(boolean on) {
      return new CompileOptions(target, output, emit, name, cpu, features, optLevel, consts, on, promotion, jobs);
    }

    /** standard or strict. */
    public CompileOptions withPromotion(String mode) {
      return new CompileOptions(target, output, emit, name, cpu, features, optLevel, consts, x64, mode, jobs);
    }

    /** How many of several models compile at once. */
    public CompileOptions withJobs(int n) {
      return new CompileOptions(target, output, emit, name, cpu, features, optLevel, consts, x64, promotion, n);
    }

    /** The {@code jaxc compile} arguments after the models. */
    List<String> arguments() {
      List<String> a = new ArrayList<>();
      if (target != null) a.addAll(List.of("--target", target));
      if (output != null) a.addAll(List.of("-o", output.toString()));
      if (!emit.isEmpty()) a.addAll(List.of("--emit", String.join(",", emit)));
      if (name != null) a.addAll(List.of("--name", name));
      if (cpu != null) a.addAll(List.of("--cpu", cpu));
      if (features != null) a.addAll(List.of("--features", features));
      if (optLevel != null) a.add("-O" + optLevel);
      if (consts != null) a.addAll(List.of("--consts", consts.toString()));
      if (x64) a.add("--x64");
      if (promotion != null) a.addAll(List.of("--promotion", promotion));
      if (jobs > 0) a.addAll(List.of("-j", Integer.toString(jobs)));
      return a;
    }
  }

  /** {@code jaxc compile MODEL... OPTIONS}. */
  public static Result compile(List<Path> models, CompileOptions options) {
    Objects.requireNonNull(options, "options");
    List<String> args = new ArrayList<>();
    args.add("compile");
    for (Path m : models) args.add(m.toString());
    args.addAll(options.arguments());
    return run(args.toArray(String[]::new));
  }

  /** {@code jaxc compile MODEL OPTIONS}. */
  public static Result compile(Path model, CompileOptions options) {
    return compile(List.of(model), options);
  }

  /** Any jaxc command line, e.g. {@code run("check", "testdata/cases")}. */
  public static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status;
    try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
      status = Main.run(args, o, e);
    }
    return new Result(status, out.toString(), err.toString());
  }
}
