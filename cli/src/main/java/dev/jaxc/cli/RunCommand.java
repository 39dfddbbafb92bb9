package dev.jaxc.cli;

import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.ptx.PtxTarget;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.NpyException;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jaxc run MODEL.jaxpr --inputs IN.npz --output OUT.npz}: compiles the model for the host,
 * runs it once in this process (compiled, not interpreted) and writes its outputs.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Compile MODEL for this machine and run it once on IN.npz.",
      "IN.npz holds the inputs as",
      "np.savez(path, *arrays) writes them (constvars first, then invars); OUT.npz receives",
      "one array per output, the same way. With --consts CONSTS.npz, IN.npz holds the",
      "invars only."
    })
final class RunCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MODEL.jaxpr", description = "A jaxpr as print(jax.make_jaxpr(f)(*args)) prints it.")
  Path model;

  @Option(names = "--inputs", required = true, paramLabel = "IN.npz", description = "The input arrays.")
  Path inputs;

  @Option(names = "--output", required = true, paramLabel = "OUT.npz", description = "Where to write the outputs.")
  Path output;

  @Option(names = "--consts", paramLabel = "CONSTS.npz",
      description = "The constvars' values (np.savez(path, *consts)), baked into the compiled code as "
          + "jaxc compile --consts does; IN.npz then holds the invars only.")
  Path consts;

  @Option(names = {"-target", "--target"}, paramLabel = "TARGET",
      description = "host (default), or ptx: the PTX path's kernels, emulated on this CPU (no GPU is used).")
  String target = "host";

  @Option(names = "--sm", paramLabel = "SM", description = "With -target ptx: the GPU architecture (default sm_80).")
  String sm;

  @Mixin CommonOptions common;
  @Mixin DebugOption debug;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    var err = spec.commandLine().getErr();
    boolean ptx = CompileTarget.isPtx(target);
    if (!ptx && !target.equalsIgnoreCase("host"))
      throw new ParameterException(spec.commandLine(), "-target: expected host or ptx, got '" + target + "'");
    String arch = sm != null ? sm : PtxTarget.DEFAULT_SM;
    if (sm != null && !ptx) throw new ParameterException(spec.commandLine(), "--sm: only with -target ptx");
    if (ptx && !PtxTarget.supports(arch))
      throw new ParameterException(spec.commandLine(), "--sm: expected one of " + PtxTarget.supported() + ", got '" + arch + "'");
    Reporter reporter = new Reporter(err, common.diagnostics);
    FrontEnd frontEnd = new FrontEnd();
    return reporter.guard(model, frontEnd, () -> {
      var typed = frontEnd.run(model, common.typeConfig(), Phase.TYPE);
      reporter.warnings(model, frontEnd);
      Program lowered = HostRun.lower(typed);
      Consts baked;
      try {
        baked = ConstsFile.read(consts, lowered.main());
      } catch (ConstsFile.Invalid e) {
        return fail(err, e.getMessage());
      }
      try {
        List<NpyArray> in = Npz.read(inputs);
        String entry = HostRun.entryName(model.getFileName().toString());
        List<NpyArray> out = ptx
            ? HostRun.runEmulated(lowered, entry, arch, baked, in)
            : HostRun.runLowered(lowered, entry, baked, in);
        if (ptx) {
          err.println("jaxc: note: -target ptx: the " + arch + " kernels ran emulated on this CPU (no GPU used)");
          err.flush();
        }
        Npz.write(output, out);
        return ExitCode.OK;
      } catch (NpyException e) {
        err.println(e.getMessage().startsWith(inputs.toString()) ? e.getMessage() : inputs + ": error: " + e.getMessage());
      } catch (HostRun.InputMismatch e) {
        err.println(inputs + ": error: " + e.getMessage());
      }
      err.flush();
      return ExitCode.BAD_INPUT;
    });
  }

  private static int fail(PrintWriter err, String line) {
    err.println(line);
    err.flush();
    return ExitCode.BAD_INPUT;
  }
}
