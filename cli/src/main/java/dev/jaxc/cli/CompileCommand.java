package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.backend.ptx.PtxTarget;
import dev.jaxc.ir.Program;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jaxc compile MODEL.jaxpr}: the C ABI of architecture.md as an object file, shared
 * library, assembly, LLVM IR and/or header, for the host, x86-64 or AArch64.
 */
@Command(
    name = "compile",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    customSynopsis = {
      "jaxc compile MODEL.jaxpr... [-target host|x86_64|aarch64|ptx] [-o PATH]",
      "                    [--emit obj|shared|asm|llvm-ir|header|ptx]... [--name NAME]",
      "                    [--sm sm_70..sm_90] [--host-target host|x86_64|aarch64]",
      "                    [--cpu CPU|native] [--features +a,-b] [-O0|-O1|-O2|-O3]",
      "                    [--consts CONSTS.npz] [--x64] [--promotion MODE] [--debug]",
      "                    [--time-passes] [--max-workspace BYTES] [-j N]",
    },
    description = {
      "Compile models to .o, .so, assembly, LLVM IR or C headers.",
      "The C ABI:",
      "  int32_t NAME(const void *const *inputs, void *const *outputs);",
      "  int32_t NAME_num_inputs(void);  int32_t NAME_num_outputs(void);",
      "inputs: the constvars, then the invars (with --consts: the invars only).",
      "",
      "Outputs go to the current directory: NAME.o (obj), libNAME.so (shared),",
      "NAME.s (asm), NAME.ll (llvm-ir), NAME.h (header), NAME.ptx (ptx, with",
      "-target ptx; there shared, obj and header are the host library that loads",
      "the CUDA driver at run time and launches the PTX). -o PATH names the file",
      "when one kind is emitted; if PATH is an existing directory, the outputs go",
      "there under those names (with several --emit kinds, -o must be one). Each",
      "file is written whole or not at all.",
      "",
      "Several models compile in parallel (-j N at once) into the current directory",
      "or the directory -o names, each under its file's stem; --name and --consts",
      "need a single model. Each failure is reported (messages in the order the",
      "models were given) and the exit status is the worst one's.",
      ""
    })
final class CompileCommand implements Callable<Integer> {
  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** C keywords and the C library functions the generated code calls cannot be entry points. */
  private static final Set<String> RESERVED = Set.of("auto", "break", "case", "char", "const", "continue",
      "default", "do", "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
      "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
      "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Imaginary", "malloc", "free",
      "getenv", "sysconf", "pthread_create", "pthread_join", "syscall", "madvise");

  @Parameters(arity = "1..*", paramLabel = "MODEL.jaxpr",
      description = "Jaxprs as print(jax.make_jaxpr(f)(*args)) prints them.")
  List<Path> models;

  @Option(names = {"-j", "--jobs"}, paramLabel = "N",
      description = "With several models: how many compile at once (default: the number of processors).")
  int jobs = Runtime.getRuntime().availableProcessors();

  @Option(names = {"-target", "--target"}, paramLabel = "TARGET", completionCandidates = CompileTarget.Candidates.class,
      description = "host (default: this machine's CPU and features), x86_64 or aarch64 (each architecture's "
          + "baseline), or ptx (NVIDIA GPUs: --emit ptx writes the PTX module, shared/obj/header the host "
          + "library that launches it).")
  String target = "host";

  @Option(names = "-o", paramLabel = "PATH", description = "The output file, or a directory for the outputs.")
  Path output;

  @Option(names = "--emit", split = ",", paramLabel = "KIND", converter = EmitKind.Converter.class,
      completionCandidates = EmitKind.Candidates.class,
      description = "obj (default), shared (linked with ld.lld or the target's cc), asm, llvm-ir, header. "
          + "Repeat the option or separate kinds with commas to emit several.")
  List<EmitKind> emit = new ArrayList<>();

  @Option(names = "--name", paramLabel = "NAME",
      description = "The entry point's C name (default: the file's stem, non-identifier characters as '_').")
  String name;

  @Option(names = "--cpu", paramLabel = "CPU",
      description = "The CPU to tune for and whose features to use (LLVM's names, e.g. skylake, neoverse-n1); "
          + "native: this machine's.")
  String cpu;

  @Option(names = "--features", paramLabel = "+a,-b", description = "LLVM target features to add or remove.")
  String features;

  @Option(names = "-O", paramLabel = "LEVEL", description = "-O0, -O1, -O2 or -O3 (default).")
  int optLevel = 3;

  @Option(names = "--consts", paramLabel = "CONSTS.npz",
      description = "Bake the constvars' values (np.savez(path, *consts), in order) into the artifact's "
          + "read-only data; they are then no longer inputs.")
  Path consts;

  @Option(names = "--sm", paramLabel = "SM",
      description = "With -target ptx: the GPU architecture, sm_70 … sm_90 (default " + PtxTarget.DEFAULT_SM + ").")
  String sm;

  @Option(names = "--host-target", paramLabel = "ARCH",
      description = "With -target ptx: the architecture of the host library (--emit shared, obj): host "
          + "(default: this machine's), x86_64 or aarch64.")
  String hostTarget;

  @Option(names = "--time-passes",
      description = "Print each phase's wall time and memory (Java heap, process RSS) to stderr.")
  boolean timePasses;

  @Option(names = "--max-workspace", paramLabel = "BYTES",
      description = "Fail (exit 1) when one call would need more work memory than BYTES (e.g. 1048576, 64M), "
          + "naming the largest buffers.")
  String maxWorkspace;

  @Mixin CommonOptions common;
  @Mixin DebugOption debug;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** --max-workspace in bytes; -1 when not given. */
  private long workspaceLimit = -1;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (jobs < 1) throw new ParameterException(spec.commandLine(), "--jobs: expected at least 1, got " + jobs);
    if (models.size() == 1) return compileOne(models.get(0), err);
    return new CompileMany(spec.commandLine(), models, output, jobs).run(name != null, consts != null, this::compileOne);
  }

  /** Compiles one model; its messages go to {@code err}. Several may run at once. */
  private int compileOne(Path model, PrintWriter err) {
    if (CompileTarget.isPtx(target)) return compilePtx(model, err);
    if (emit.contains(EmitKind.PTX)) {
      throw new ParameterException(spec.commandLine(), "--emit ptx: needs -target ptx");
    }
    if (sm != null) throw new ParameterException(spec.commandLine(), "--sm: only with -target ptx");
    if (hostTarget != null) throw new ParameterException(spec.commandLine(), "--host-target: only with -target ptx");
    String entry = name != null ? name : HostRun.entryName(model.getFileName().toString());
    Set<EmitKind> kinds = emit.isEmpty() ? EnumSet.of(EmitKind.OBJ) : EnumSet.copyOf(emit);
    TargetSpec targetSpec;
    Map<EmitKind, Path> paths;
    try {
      checkName(entry);
      targetSpec = CompileTarget.spec(target, cpu, features, optLevel);
      paths = CompileOutputs.paths(kinds, output, entry);
      if (maxWorkspace != null) workspaceLimit = WorkspaceLimit.parse(maxWorkspace);
    } catch (CompileTarget.BadOption e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    Reporter reporter = new Reporter(err, common.diagnostics);
    FrontEnd frontEnd = new FrontEnd();
    PassTimes times = timePasses ? new PassTimes() : null;
    PhaseTimer timer = timePasses ? times : PhaseTimer.NONE;
    try {
      return compile(model, reporter, frontEnd, err, paths, targetSpec, entry, timer);
    } finally {
      if (times != null) times.print(err);
    }
  }

  private int compile(Path model, Reporter reporter, FrontEnd frontEnd, PrintWriter err, Map<EmitKind, Path> paths,
      TargetSpec targetSpec, String entry, PhaseTimer timer) {
    return reporter.guard(model, frontEnd, () -> {
      Program typed = frontEnd.run(model, common.typeConfig(), Phase.TYPE, timer);
      reporter.warnings(model, frontEnd);
      Program lowered = HostRun.lower(typed, timer);
      Consts baked;
      try {
        baked = ConstsFile.read(consts, lowered.main());
      } catch (ConstsFile.Invalid e) {
        return fail(err, e.getMessage());
      }
      Optional<String> tooLarge = workspaceLimit < 0 ? Optional.empty()
          : WorkspaceLimit.check(lowered, workspaceLimit, model.toString());
      if (tooLarge.isPresent()) return fail(err, tooLarge.get());
      try (CompiledModule m = Compiler.compile(lowered, targetSpec, entry, baked, Threading.DEFAULT, timer)) {
        Optional<String> problem = CompileOutputs.write(m, lowered.main(), baked.count(), paths,
            model.getFileName().toString(), timer);
        return problem.isEmpty() ? ExitCode.OK : fail(err, problem.get());
      }
    });
  }

  /**
   * {@code -target ptx}: the PTX module ({@code --emit ptx}, the default there), and the host side
   * that embeds and launches it: {@code --emit shared} (the host library), {@code obj} (its object),
   * {@code header} (its declarations), for the {@code --host-target} architecture.
   */
  private int compilePtx(Path model, PrintWriter err) {
    String arch = sm != null ? sm : PtxTarget.DEFAULT_SM;
    if (!PtxTarget.supports(arch)) {
      throw new ParameterException(spec.commandLine(), "--sm: expected one of " + PtxTarget.supported() + ", got '" + arch + "'");
    }
    Set<EmitKind> kinds = emit.isEmpty() ? EnumSet.of(EmitKind.PTX) : EnumSet.copyOf(emit);
    for (EmitKind k : kinds) {
      if (k == EmitKind.ASM || k == EmitKind.LLVM_IR) {
        throw new ParameterException(spec.commandLine(), "--emit " + k.option() + ": not available with -target ptx "
            + "(use ptx, shared, obj or header)");
      }
    }
    TargetSpec host;
    try {
      host = CompileTarget.hostLibraryTarget(hostTarget);
    } catch (CompileTarget.BadOption e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (cpu != null || features != null) throw new ParameterException(spec.commandLine(), "--cpu/--features: not with -target ptx (use --sm)");
    if (maxWorkspace != null) throw new ParameterException(spec.commandLine(), "--max-workspace: not with -target ptx yet");
    String entry = name != null ? name : HostRun.entryName(model.getFileName().toString());
    Map<EmitKind, Path> paths;
    try {
      checkName(entry);
      paths = CompileOutputs.paths(kinds, output, entry);
    } catch (CompileTarget.BadOption e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    Reporter reporter = new Reporter(err, common.diagnostics);
    FrontEnd frontEnd = new FrontEnd();
    return reporter.guard(model, frontEnd, () -> {
      Program typed = frontEnd.run(model, common.typeConfig(), Phase.TYPE);
      reporter.warnings(model, frontEnd);
      Program lowered = HostRun.lower(typed);
      Consts baked;
      try {
        baked = ConstsFile.read(consts, lowered.main());
      } catch (ConstsFile.Invalid e) {
        return fail(err, e.getMessage());
      }
      PtxCompiler.Described p = PtxCompiler.compileDescribed(lowered, arch, entry,
          dev.jaxc.backend.ptx.HostControl.Policy.fromEnvironment(), baked);
      Optional<String> problem = CompileOutputs.writePtx(p, lowered.main(), baked.count(), host, paths,
          model.getFileName().toString());
      return problem.isEmpty() ? ExitCode.OK : fail(err, problem.get());
    });
  }

  private void checkName(String entry) throws CompileTarget.BadOption {
    String what = name != null ? "--name " + entry : "the entry point name '" + entry + "' (from the file name)";
    if (!C_IDENTIFIER.matcher(entry).matches()) throw new CompileTarget.BadOption(what + " is not a C identifier");
    if (RESERVED.contains(entry))
      throw new CompileTarget.BadOption(what + " is reserved in C" + (name == null ? "; choose another with --name" : ""));
  }

  private static int fail(PrintWriter err, String line) {
    err.println(line);
    err.flush();
    return ExitCode.BAD_INPUT;
  }
}
