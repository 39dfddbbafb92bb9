package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.NpyException;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jaxc bench MODEL.jaxpr [--inputs IN.npz] [--runs N] [--threads N]}: compiles the model
 * for the host and times its entry point in this process: one warm-up call, then N timed calls
 * on the same input and output buffers; prints the median and the minimum, the rate in GB/s of
 * input and output bytes, and GFLOP/s where the dot and convolution work can be counted.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Compile MODEL for this machine and time it in-process.",
      "Without --inputs, inputs are random: floats in [-1, 1), integers in [0, 16),",
      "booleans 0/1. Times include the call from Java (a few microseconds); for a",
      "model's call time from C, compile it with --emit shared and call it from C."
    })
final class BenchCommand implements Callable<Integer> {
  /** Random integers stay small, so that indices (gather, dynamic_slice) land in range. */
  static final long INT_HIGH = 16;

  @Parameters(paramLabel = "MODEL.jaxpr", description = "A jaxpr as print(jax.make_jaxpr(f)(*args)) prints it.")
  Path model;

  @Option(names = "--inputs", paramLabel = "IN.npz",
      description = "The inputs as np.savez(path, *arrays) writes them (constvars first, then invars).")
  Path inputs;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "10", description = "Timed calls after the warm-up (default 10).")
  int runs;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
      description = "Threads baked into the code (1: no thread code); 0 (default): JAXC_NUM_THREADS or the CPUs at run time.")
  int threads;

  @Mixin CommonOptions common;
  @Mixin DebugOption debug;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (runs < 1) throw new ParameterException(spec.commandLine(), "--runs: expected at least 1, got " + runs);
    if (threads < 0 || threads > Threading.MAX_THREADS)
      throw new ParameterException(spec.commandLine(),
          "--threads: expected 0 to " + Threading.MAX_THREADS + ", got " + threads);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Reporter reporter = new Reporter(err, common.diagnostics);
    FrontEnd frontEnd = new FrontEnd();
    return reporter.guard(model, frontEnd, () -> {
      var typed = frontEnd.run(model, common.typeConfig(), Phase.TYPE);
      reporter.warnings(model, frontEnd);
      Program lowered = HostRun.lower(typed);
      String name = HostRun.entryName(model.getFileName().toString());
      List<NpyArray> given = null;
      if (inputs != null) {
        try {
          given = Npz.read(inputs);
        } catch (NpyException e) {
          return fail(err, e.getMessage().startsWith(inputs.toString()) ? e.getMessage() : inputs + ": error: " + e.getMessage());
        } catch (java.nio.file.NoSuchFileException e) {
          return fail(err, inputs + ": error: no such file");
        } catch (java.io.IOException e) {
          return fail(err, inputs + ": error: cannot read: " + e.getMessage());
        }
      }
      long t0 = System.nanoTime();
      Threading threading = Threading.DEFAULT.withThreads(threads);
      try (CompiledModule m = Compiler.compile(lowered, TargetSpec.host(), name, Consts.NONE, threading)) {
        double compileMs = (System.nanoTime() - t0) / 1e6;
        ByteBuffer[] in;
        try {
          in = given == null ? random(m.inputTypes()) : buffers(HostRun.conform(given, m.inputTypes(), false));
        } catch (HostRun.InputMismatch e) {
          return fail(err, inputs + ": error: " + e.getMessage());
        }
        ByteBuffer[] outBufs = new ByteBuffer[m.outputTypes().size()];
        for (int k = 0; k < outBufs.length; k++) outBufs[k] = direct(HostRun.bytes(m.outputTypes().get(k)));
        ErrorCode rc = m.run(in, outBufs);  // warm-up; also JIT-links the module
        if (rc != ErrorCode.OK) return fail(err, model + ": error: the compiled entry point returned " + rc);
        double[] ms = new double[runs];
        for (int r = 0; r < runs; r++) {
          long s = System.nanoTime();
          m.run(in, outBufs);
          ms[r] = (System.nanoTime() - s) / 1e6;
        }
        report(out, m, compileMs, ms, bytes(m), FlopCount.of(lowered.main()));
      }
      return ExitCode.OK;
    });
  }

  private void report(PrintWriter out, CompiledModule m, double compileMs, double[] ms, long bytes, OptionalLong flops) {
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    TargetSpec t = m.target();
    out.printf(Locale.ROOT, "%s: compiled for %s (%s) in %.0f ms; threads: %s%n", model, t.cpu(),
        t.arch().name().toLowerCase(Locale.ROOT), compileMs,
        threads == 0 ? "at run time (JAXC_NUM_THREADS or the CPUs)" : Integer.toString(threads));
    out.printf(Locale.ROOT, "inputs: %s%n", inputs == null ? "random" : inputs.toString());
    out.printf(Locale.ROOT, "%d runs: median %s, min %s%n", runs, time(median), time(sorted[0]));
    out.printf(Locale.ROOT, "%s GB/s (%d bytes of inputs and outputs at the median)%n", rate(bytes / (median * 1e6)), bytes);
    if (flops.isPresent())
      out.printf(Locale.ROOT, "%s GFLOP/s (%d flops of dot_general and convolutions at the median)%n",
          rate(flops.getAsLong() / (median * 1e6)), flops.getAsLong());
    else
      out.println("GFLOP/s: not counted (no dot_general or convolution outside while/cond bodies)");
    out.flush();
  }

  private static String time(double ms) {
    return ms >= 1 ? String.format(Locale.ROOT, "%.3f ms", ms) : String.format(Locale.ROOT, "%.2f us", ms * 1e3);
  }

  /** Three significant digits, at least two decimals. */
  private static String rate(double r) {
    return r >= 100 ? String.format(Locale.ROOT, "%.1f", r) : new java.math.BigDecimal(r).round(new java.math.MathContext(3)).toPlainString();
  }

  private static long bytes(CompiledModule m) {
    long b = 0;
    for (ArrayType t : m.inputTypes()) b += HostRun.bytes(t);
    for (ArrayType t : m.outputTypes()) b += HostRun.bytes(t);
    return b;
  }

  /** Input k from seed k: floats in [-1, 1), integers in [0, INT_HIGH). */
  private static ByteBuffer[] random(List<ArrayType> types) {
    ByteBuffer[] r = new ByteBuffer[types.size()];
    for (int k = 0; k < r.length; k++) {
      ArrayType t = types.get(k);
      boolean integer = t.dtype().isInteger();
      r[k] = CounterRandom.fill(t, k, integer ? 0 : -1, integer ? INT_HIGH : 1);
    }
    return r;
  }

  private static ByteBuffer[] buffers(List<NpyArray> arrays) {
    ByteBuffer[] r = new ByteBuffer[arrays.size()];
    for (int k = 0; k < r.length; k++) {
      byte[] data = arrays.get(k).data();
      r[k] = direct(data.length);
      r[k].put(0, data);
    }
    return r;
  }

  private static ByteBuffer direct(long bytes) {
    return ByteBuffer.allocateDirect((int) Math.max(1, bytes)).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static int fail(PrintWriter err, String line) {
    err.println(line);
    err.flush();
    return ExitCode.BAD_INPUT;
  }
}
