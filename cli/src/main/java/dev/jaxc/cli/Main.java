package dev.jaxc.cli;

import dev.jaxc.ir.diag.JaxcException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jaxc} command. Subcommands are listed only once they work. */
@Command(
    name = "jaxc",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Ahead-of-time compiler for printed jaxprs.",
    subcommands = {
      CompileCommand.class, InspectCommand.class, RunCommand.class, CheckCommand.class, BenchCommand.class,
      PromoteCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the CLI with the given streams; returns the exit status. Used by tests too. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExitCodeExceptionMapper(t -> ExitCode.INTERNAL);
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("jaxc: error: " + ex.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
      err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
      return ExitCode.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, c, parsed) -> {
      boolean debug = java.util.Arrays.asList(args).contains("--debug");
      if (ex instanceof JaxcException) {
        // Commands render their own located diagnostics; this is a fallback.
        err.println("jaxc: error: " + ex.getMessage());
        return ExitCode.BAD_INPUT;
      }
      err.println("jaxc: internal error: " + ex);
      if (debug) ex.printStackTrace(err);
      else err.println("(run again with --debug for a stack trace, and please report it)");
      return ExitCode.INTERNAL;
    });
    return cl.execute(args);
  }
}
