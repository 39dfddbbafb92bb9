package dev.jaxc.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jaxc completion bash}: the shell completion script of the whole command tree. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print a shell completion script for jaxc's commands.",
      "bash: source <(jaxc completion bash), or save it in",
      "~/.local/share/bash-completion/completions/jaxc. zsh: run",
      "'autoload -U +X bashcompinit && bashcompinit' first, then source it the same way."
    })
final class CompletionCommand implements Callable<Integer> {
  @Parameters(arity = "0..1", paramLabel = "SHELL", description = "bash (default) or zsh.")
  String shell = "bash";

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "SHELL: expected bash or zsh, got '" + shell + "'");
    }
    spec.commandLine().getOut().print(AutoComplete.bash("jaxc", Main.tree()));
    spec.commandLine().getOut().flush();
    return ExitCode.OK;
  }
}
