package dev.jaxc.cli;

import dev.jaxc.ir.diag.JaxcException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code jaxc compile A.jaxpr B.jaxpr ...}: compiles several models in parallel, each into the
 * output directory under its file's stem. Each model's messages are kept apart and printed whole,
 * in the order the models were given, so parallel compiles never interleave their lines; the exit
 * status is the worst of all ({@link ExitCode#worst}).
 */
final class CompileMany {
  /** Compiles one model, writing its messages to {@code err}; returns its exit status. */
  interface One {
    int compile(Path model, PrintWriter err);
  }

  private record Result(int status, String messages) {}

  private final CommandLine cl;
  private final List<Path> models;
  private final Path output;
  private final int jobs;

  CompileMany(CommandLine cl, List<Path> models, Path output, int jobs) {
    this.cl = cl;
    this.models = models;
    this.output = output;
    this.jobs = jobs;
  }

  /** Checks the options that need a single model, then compiles every model. */
  int run(boolean named, boolean consts, One one) {
    if (named) throw new ParameterException(cl, "--name: only with a single model (several take their files' stems)");
    if (consts) throw new ParameterException(cl, "--consts: only with a single model");
    if (output != null && !Files.isDirectory(output)) {
      throw new ParameterException(cl, "-o " + output + ": with several models, -o must name an existing directory");
    }
    // Two models with the same stem would write the same files: refuse before compiling any.
    Map<String, Path> byName = new HashMap<>();
    for (Path m : models) {
      Path fileName = m.getFileName();
      if (fileName == null) throw new ParameterException(cl, m + ": not a file");
      Path other = byName.putIfAbsent(HostRun.entryName(fileName.toString()), m);
      if (other != null) {
        throw new ParameterException(cl, other + " and " + m + " would both be compiled as '"
            + HostRun.entryName(fileName.toString()) + "'; compile them in separate calls with --name");
      }
    }
    PrintWriter err = cl.getErr();
    boolean debug = cl.getParseResult().hasMatchedOption("--debug");
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, models.size()), r -> {
      Thread t = new Thread(r, "jaxc-compile");
      t.setDaemon(true);
      return t;
    });
    int worst = ExitCode.OK;
    List<Path> failed = new ArrayList<>();
    try {
      List<Future<Result>> results = new ArrayList<>();
      for (Path m : models) results.add(pool.submit(() -> compile(one, m, debug)));
      for (int i = 0; i < models.size(); i++) {
        Result r = result(results.get(i));
        err.print(r.messages());
        err.flush();
        if (r.status() != ExitCode.OK) failed.add(models.get(i));
        worst = ExitCode.worst(worst, r.status());
      }
    } finally {
      pool.shutdownNow();
    }
    if (!failed.isEmpty()) {
      List<String> names = new ArrayList<>();
      for (Path f : failed) names.add(f.toString());
      err.println("jaxc: " + failed.size() + " of " + models.size() + " models failed: " + String.join(", ", names));
      err.flush();
    }
    return worst;
  }

  /** One model's compile, its messages captured; what Main would say of an exception, said here. */
  private Result compile(One one, Path model, boolean debug) {
    StringWriter text = new StringWriter();
    PrintWriter err = new PrintWriter(text);
    int status;
    try {
      status = one.compile(model, err);
    } catch (ParameterException e) {
      err.println(model + ": error: " + e.getMessage());
      err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help'.");
      status = ExitCode.USAGE;
    } catch (JaxcException e) {
      err.println(model + ": error: " + e.getMessage());
      status = ExitCode.BAD_INPUT;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      err.println("jaxc: internal error compiling " + model + ": " + e);
      if (debug) e.printStackTrace(err);
      else err.println("(run again with --debug for a stack trace, and please report it)");
      status = ExitCode.INTERNAL;
    }
    err.flush();
    return new Result(status, text.toString());
  }

  private static Result result(Future<Result> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(ExitCode.INTERNAL, "jaxc: interrupted\n");
    } catch (ExecutionException e) {
      return new Result(ExitCode.INTERNAL, "jaxc: internal error: " + e.getCause() + "\n");
    }
  }
}
