package dev.jaxc.cli;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.ptx.PtxTarget;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.NpyException;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.frontend.DiagnosticJson;
import dev.jaxc.frontend.DiagnosticRenderer;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jaxc check DIR...}: compiles and runs every golden case below each DIR and compares its
 * outputs with {@code expected.npz}. On the host target the code runs in this process; for
 * {@code x86_64} or {@code aarch64} each case becomes a shared library called by a C runner
 * (natively or under qemu-user, see {@link CompiledRun}). One line per case ({@code PASS},
 * {@code FAIL} with the reason, or {@code SKIP} when the case needs a primitive or type jaxc does
 * not compile yet, or a tool that is not installed), in path order, then {@code N passed, M
 * failed[, K skipped]}; exit status 1 if any case failed. Cases run on several threads.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run golden-file cases and compare with their expected outputs.",
      "A case is a directory with model.jaxpr, inputs.npz, expected.npz, meta.json.",
      "-target host (default) compiles for this machine and runs in-process;",
      "x86_64 and aarch64 compile for that architecture's baseline, link a shared",
      "library and run it through a small C program, under qemu-user when the",
      "architecture is not this machine's (aarch64 here needs qemu-user,",
      "gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, and lld or that gcc).",
      "--valgrind (with -target x86_64) runs each case's library under valgrind",
      "memcheck: any invalid access or uninitialised output byte fails the case."
    })
final class CheckCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories holding cases, searched recursively.")
  List<Path> dirs;

  @Option(names = {"-target", "--target"}, paramLabel = "TARGET", description = "host (default), x86_64, aarch64, or ptx (the PTX path's kernels, emulated on this CPU).")
  String target = "host";

  @Option(names = "--sm", paramLabel = "SM", description = "With -target ptx: the GPU architecture (default sm_80).")
  String sm;

  @Option(names = "--cpu", paramLabel = "CPU",
      description = "With -target x86_64 or aarch64: the CPU to compile for (LLVM's names, e.g. haswell).")
  String cpu;

  @Option(names = "--valgrind",
      description = "With -target x86_64: run each case under valgrind memcheck; any error it reports fails the case.")
  boolean valgrind;

  @Option(names = {"-j", "--jobs"}, paramLabel = "N",
      description = "Cases compiled and run at once (default: the number of processors).")
  int jobs = Runtime.getRuntime().availableProcessors();

  @Option(names = "--diagnostics", paramLabel = "FORMAT", converter = CommonOptions.DiagnosticsConverter.class,
      description = "text (default), or json: also write each case's diagnostic to standard error as one JSON "
          + "object per line (docs/diagnostics.md).")
  Reporter.Format diagnostics = Reporter.Format.TEXT;

  @Mixin DebugOption debug;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private enum Verdict {
    PASS,
    FAIL,
    SKIP
  }

  /** {@code json}: the case's diagnostic as a JSON line, or null. */
  private record Outcome(Verdict verdict, String detail, String json) {
    Outcome(Verdict verdict, String detail) {
      this(verdict, detail, null);
    }
  }

  /** Compiles and runs one case's program on its inputs. */
  private interface Execution {
    List<NpyArray> run(Program typed, String name, List<NpyArray> inputs)
        throws HostRun.InputMismatch, CompiledRun.Failure, IOException;
  }

  @Override
  public Integer call() throws IOException {
    if (jobs < 1) throw new ParameterException(spec.commandLine(), "--jobs: expected at least 1, got " + jobs);
    String t = target.toLowerCase(Locale.ROOT);
    if (sm != null && !CompileTarget.isPtx(target)) throw new ParameterException(spec.commandLine(), "--sm: only with -target ptx");
    if (CompileTarget.isPtx(target)) {
      String arch = sm != null ? sm : PtxTarget.DEFAULT_SM;
      if (!PtxTarget.supports(arch))
        throw new ParameterException(spec.commandLine(), "--sm: expected one of " + PtxTarget.supported() + ", got '" + arch + "'");
      spec.commandLine().getErr().println("jaxc: note: -target ptx: the " + arch + " kernels run emulated on this CPU (no GPU used)");
      spec.commandLine().getErr().flush();
      return checkAll((typed, name, in) -> HostRun.runEmulated(HostRun.lower(typed), name, arch, in), Optional.empty());
    }
    if (t.equals("host") && (cpu != null || valgrind)) {
      // valgrind cannot run AVX-512 code, which the host target may use.
      throw new ParameterException(spec.commandLine(), valgrind
          ? "--valgrind: needs -target " + CompileTarget.arch(TargetSpec.host()) + " (valgrind cannot run every host CPU's code, e.g. AVX-512)"
          : "--cpu: needs -target x86_64 or aarch64");
    }
    if (t.equals("host")) return checkAll((typed, name, in) -> HostRun.run(typed, name, in), Optional.empty());
    TargetSpec targetSpec;
    try {
      targetSpec = CompileTarget.spec(target, cpu, null, 3);
    } catch (CompileTarget.BadOption e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (valgrind && targetSpec.arch() != TargetSpec.host().arch())
      throw new ParameterException(spec.commandLine(), "--valgrind: runs only this machine's architecture, not " + CompileTarget.arch(targetSpec));
    CompiledRun.Checker checker = valgrind ? CompiledRun.Checker.VALGRIND : CompiledRun.Checker.NONE;
    try (CompiledRun compiled = CompiledRun.open(targetSpec, checker)) {
      return checkAll((typed, name, in) -> compiled.run(HostRun.lower(typed), name, in),
          compiled.unavailable().map(why -> "cannot run " + CompileTarget.arch(targetSpec) + " code here: " + why));
    }
  }

  /** One printed line: a finished outcome, or a case still running. */
  private record Line(String name, Future<Outcome> outcome) {}

  private int checkAll(Execution execution, Optional<String> unavailable) {
    PrintWriter out = spec.commandLine().getOut();
    int[] counts = new int[Verdict.values().length];
    ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
      Thread th = new Thread(r, "jaxc-check");
      th.setDaemon(true);
      return th;
    });
    try {
      List<Line> lines = new ArrayList<>();
      for (Path dir : dirs) {
        List<GoldenCase> cases;
        try {
          cases = GoldenCase.find(dir);
        } catch (IOException e) {
          lines.add(new Line(dir.toString(), done(Verdict.FAIL, "cannot read the directory")));
          continue;
        }
        if (cases.isEmpty()) lines.add(new Line(dir.toString(), done(Verdict.FAIL, "no cases (directories with model.jaxpr) found")));
        for (GoldenCase c : cases) {
          String name = dir.equals(c.dir()) ? c.dir().toString() : dir.relativize(c.dir()).toString();
          Future<Outcome> o = unavailable.isPresent()
              ? done(Verdict.SKIP, unavailable.get())
              : pool.submit(() -> check(c, execution));
          lines.add(new Line(name, o));
        }
      }
      for (Line line : lines) {
        Outcome o = outcome(line.outcome());
        counts[o.verdict().ordinal()]++;
        out.println(o.verdict() + " " + line.name() + (o.detail().isEmpty() ? "" : ": " + o.detail()));
        out.flush();
        if (diagnostics == Reporter.Format.JSON && o.json() != null) {
          spec.commandLine().getErr().println(o.json());
          spec.commandLine().getErr().flush();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    int failed = counts[Verdict.FAIL.ordinal()];
    int skipped = counts[Verdict.SKIP.ordinal()];
    out.println(counts[Verdict.PASS.ordinal()] + " passed, " + failed + " failed"
        + (skipped > 0 ? ", " + skipped + " skipped" : ""));
    out.flush();
    return failed > 0 ? ExitCode.BAD_INPUT : ExitCode.OK;
  }

  private static Future<Outcome> done(Verdict v, String detail) {
    return CompletableFuture.completedFuture(new Outcome(v, detail));
  }

  private Outcome outcome(Future<Outcome> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(Verdict.FAIL, "interrupted");
    } catch (ExecutionException e) {
      if (debug.debug) e.getCause().printStackTrace(spec.commandLine().getErr());
      return new Outcome(Verdict.FAIL, "internal error: " + e.getCause());
    }
  }

  private Outcome check(GoldenCase c, Execution execution) {
    FrontEnd frontEnd = new FrontEnd();
    try {
      GoldenCase.Meta meta = c.meta();
      Program typed = frontEnd.run(c.model(), new TypeConfig(meta.x64(), PromotionMode.STANDARD), Phase.TYPE);
      List<NpyArray> inputs = Npz.read(c.inputs());
      List<NpyArray> expected = Npz.read(c.expected());
      List<NpyArray> actual = execution.run(typed, HostRun.entryName(c.dir().getFileName().toString()), inputs);
      if (actual.size() != expected.size())
        return new Outcome(Verdict.FAIL, actual.size() + " outputs, expected.npz has " + expected.size());
      for (int k = 0; k < actual.size(); k++) {
        Optional<String> diff = ArrayComparison.compare(expected.get(k), actual.get(k), meta.rtol(), meta.atol());
        if (diff.isPresent()) return new Outcome(Verdict.FAIL, "output " + k + ": " + diff.get());
      }
      return new Outcome(Verdict.PASS, "");
    } catch (JaxcException e) {
      String where = DiagnosticRenderer.render(frontEnd.source(c.model()), e.diagnostic()).lines().findFirst().orElse("");
      boolean unsupported = e.getMessage().startsWith("unsupported ") || e.diagnostic().code() == DiagnosticCode.UNKNOWN_PRIMITIVE;
      String json = DiagnosticJson.render(frontEnd.source(c.model()), e.diagnostic(), frontEnd.code(e.diagnostic()));
      return new Outcome(unsupported ? Verdict.SKIP : Verdict.FAIL, where, json);
    } catch (HostRun.InputMismatch e) {
      return new Outcome(Verdict.FAIL, c.inputs().getFileName() + ": " + e.getMessage());
    } catch (CompiledRun.Failure | IOException | NpyException e) {
      return new Outcome(Verdict.FAIL, e.getMessage());
    } catch (RuntimeException e) {
      if (debug.debug) e.printStackTrace(spec.commandLine().getErr());
      return new Outcome(Verdict.FAIL, "internal error: " + e);
    }
  }
}
