package dev.jaxc.cli;

import dev.jaxc.ir.types.JType;
import dev.jaxc.ir.types.Nep50;
import dev.jaxc.ir.types.PromotionLattice;
import dev.jaxc.ir.types.PromotionTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jaxc promote}: the promotion lattice at work. */
@Command(
    name = "promote",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the join of dtypes on JAX's promotion lattice, and why.",
      "Shows the join, the path that explains it, and what NumPy's NEP 50 rules give",
      "instead. Dtypes: f32, bf16, u8, bool, float32, ..., and",
      "the weak Python-scalar types i*, f*, c* (quote them in the shell)."
    })
final class PromoteCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DTYPE", arity = "0..*", description = "Two or more dtypes.")
  List<String> dtypes = new ArrayList<>();

  @Option(names = "--table", description = "Print the 18x18 promotion table of the JAX documentation.")
  boolean table;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (table) {
      if (!dtypes.isEmpty()) throw usage("--table takes no dtypes");
      out.print(PromotionTable.render());
      out.flush();
      return ExitCode.OK;
    }
    if (dtypes.size() < 2) throw usage("give two or more dtypes, or --table");
    List<JType> types = new ArrayList<>();
    for (String s : dtypes) {
      types.add(DTypeNames.parse(s).orElseThrow(() -> usage(
          "'" + s + "' is not a dtype on the promotion lattice (use f32, bf16, u8, bool, float32, i*, f*, c*, ...)")));
    }
    JType join = PromotionLattice.STANDARD.join(types).orElseThrow();
    out.println(types.stream().map(DTypeNames::describe).collect(Collectors.joining(" ⊔ ", "", " = "))
        + DTypeNames.describe(join));
    out.println("lattice path (in the JAX document's labels: u1 = uint8, i4 = int32, i* = weak int):");
    for (JType t : types) {
      List<JType> chain = PromotionLattice.STANDARD.path(t, join).orElseThrow().fromA();
      out.println("  " + chain.stream().map(JType::label).collect(Collectors.joining(" -> ")));
    }
    if (join.isWeak()) {
      out.println("a weak result takes the default dtype of its kind: "
          + join.dtype(dev.jaxc.ir.types.TypeConfig.DEFAULT).shortName()
          + " (" + join.dtype(new dev.jaxc.ir.types.TypeConfig(true, dev.jaxc.ir.types.PromotionMode.STANDARD)).shortName()
          + " with --x64)");
    }
    Optional<JType> numpy = Optional.of(types.get(0));
    for (JType t : types.subList(1, types.size())) numpy = numpy.flatMap(n -> Nep50.promote(n, t));
    if (numpy.isEmpty()) out.println("NumPy (NEP 50): not defined (NumPy has no bfloat16)");
    else if (numpy.get() == join) out.println("NumPy (NEP 50): the same");
    else out.println("NumPy (NEP 50): " + DTypeNames.describe(numpy.get()) + " -- differs from JAX");
    out.flush();
    return ExitCode.OK;
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
