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
      "Print the typed jaxpr, or draw the plan of it (--graph).",
      "The text shows every literal with its resolved type and the conversions that",
      "--promotion standard inserted. Warnings go to standard error. With --graph dot|svg,",
      "draw the program as the planner schedules it instead: fusion groups and kernels as",
      "boxes holding their equations, materialised buffers with their sizes and workspace",
      "offsets, and the bodies of cond, while and scan (svg through Graphviz's dot)."
    })
final class InspectCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MODEL.jaxpr", description = "A jaxpr as print(jax.make_jaxpr(f)(*args)) prints it.")
  Path model;

  @Option(names = "--stop-after", paramLabel = "PHASE", description = "parse or type (default: type).")
  String stopAfter = "type";

  @Option(names = "--graph", paramLabel = "FORMAT", description = "Draw the plan: dot (Graphviz text) or svg.")
  String graph;

  @Option(names = {"-target", "--target"}, paramLabel = "TARGET",
      description = "With --graph: the plan for host (default) or ptx.")
  String target = "host";

  @Option(names = "-o", paramLabel = "PATH", description = "With --graph: write the drawing here (default: standard output).")
  Path output;

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
    if (graph != null && !graph.equals("dot") && !graph.equals("svg"))
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--graph: expected 'dot' or 'svg', got '" + graph + "'");
    if (!target.equals("host") && !target.equals("ptx"))
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-target: expected 'host' or 'ptx', got '" + target + "'");
    if (graph == null && (output != null || !target.equals("host")))
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-o and -target need --graph");
    Reporter reporter = new Reporter(spec.commandLine().getErr(), common.diagnostics);
    if (graph != null) {
      // A plan needs every primitive known: unknown ones are errors here, as for compile.
      FrontEnd planned = new FrontEnd();
      return reporter.guard(model, planned, () -> {
        var program = planned.run(model, common.typeConfig(), Phase.TYPE);
        reporter.warnings(model, planned);
        String dot = PlanDrawing.dot(HostRun.lower(program), target.equals("ptx"), model.getFileName().toString());
        return PlanDrawing.write(dot, graph.equals("svg"), output, spec.commandLine().getOut(), spec.commandLine().getErr());
      });
    }
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
