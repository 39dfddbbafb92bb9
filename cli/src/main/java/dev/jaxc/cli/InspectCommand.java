package dev.jaxc.cli;

import dev.jaxc.ir.print.JaxprPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jaxc inspect MODEL.jaxpr}: the typed jaxpr after the type pass, as jaxpr text. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the jaxpr after the type pass: every literal with its resolved type, and the",
      "conversions that --promotion standard inserted. Warnings go to standard error."
    })
final class InspectCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MODEL.jaxpr", description = "A jaxpr as print(jax.make_jaxpr(f)(*args)) prints it.")
  Path model;

  @Option(names = "--stop-after", paramLabel = "PHASE", description = "parse or type (default: type).")
  String stopAfter = "type";

  @Mixin CommonOptions common;
  @Mixin DebugOption debug;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Phase phase = switch (stopAfter) {
      case "parse" -> Phase.PARSE;
      case "type" -> Phase.TYPE;
      default -> throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--stop-after: expected 'parse' or 'type', got '" + stopAfter + "'");
    };
    Reporter reporter = new Reporter(spec.commandLine().getErr(), common.diagnostics);
    FrontEnd frontEnd = new FrontEnd().trustUnknownPrimitives();
    return reporter.guard(model, frontEnd, () -> {
      var program = frontEnd.run(model, common.typeConfig(), phase);
      reporter.warnings(model, frontEnd);
      spec.commandLine().getOut().print(JaxprPrinter.print(program.main()));
      spec.commandLine().getOut().flush();
      return ExitCode.OK;
    });
  }
}
