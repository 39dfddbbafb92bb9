package dev.jaxc.cli;

import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.ir.diag.JaxcException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jaxc} command. Subcommands are listed only once they work. */
@Command(
    name = "jaxc",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Ahead-of-time compiler for printed jaxprs.")
public final class Main implements Runnable {
  /**
   * The subcommands, in the order help lists them. Building a command's model costs picocli
   * reflection over its options and loading its classes (picocli's Java 5 class files are not in
   * the class-data archive); when the first argument names a command, only that one is built,
   * which takes ~0.1 s of CPU off every run, and nothing else differs: a command's parsing, help
   * and errors involve only itself.
   */
  private static final Map<String, Supplier<Object>> COMMANDS = commands();

  /** The commands that use LLVM. */
  private static final Set<String> LLVM_COMMANDS = Set.of("compile", "run", "check", "bench");

  /**
   * Loads and initialises LLVM's native library (~0.1 s) on another core while picocli parses the
   * arguments and the frontend reads the model. A failure is left for the command's own call of
   * {@link Llvm#init} to meet.
   */
  private static void preloadLlvm() {
    Thread t = new Thread(() -> {
      try {
        Llvm.init();
      } catch (Throwable e) {
        // reported where the command initialises LLVM itself
      }
    }, "jaxc-llvm-init");
    t.setDaemon(true);
    t.start();
  }

  private static Map<String, Supplier<Object>> commands() {
    Map<String, Supplier<Object>> m = new LinkedHashMap<>();
    m.put("compile", CompileCommand::new);
    m.put("inspect", InspectCommand::new);
    m.put("run", RunCommand::new);
    m.put("check", CheckCommand::new);
    m.put("bench", BenchCommand::new);
    m.put("promote", PromoteCommand::new);
    m.put("completion", CompletionCommand::new);
    m.put("help", CommandLine.HelpCommand::new);
    return m;
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  public static void main(String[] args) {
    if (args.length > 0 && LLVM_COMMANDS.contains(args[0])) preloadLlvm();
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** The whole command tree, every subcommand built (for help and shell completion). */
  static CommandLine tree() {
    CommandLine cl = new CommandLine(new Main());
    for (Map.Entry<String, Supplier<Object>> c : COMMANDS.entrySet()) cl.addSubcommand(c.getKey(), c.getValue().get());
    return cl;
  }

  /**
   * Runs the CLI with the given streams; returns the exit status ({@link ExitCode}). Used by the
   * Java API, the {@code jaxc} ToolProvider and tests; never calls {@code System.exit}.
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl;
    Supplier<Object> only = args.length > 0 && !args[0].equals("help") ? COMMANDS.get(args[0]) : null;
    if (only != null) {
      cl = new CommandLine(new Main());
      cl.addSubcommand(args[0], only.get());
    } else {
      cl = tree();
    }
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
    try {
      return cl.execute(args);
    } catch (StackOverflowError | OutOfMemoryError e) {
      // picocli passes Errors through; a user still gets one line and the documented status.
      err.println("jaxc: internal error: " + e);
      err.flush();
      return ExitCode.INTERNAL;
    }
  }
}
