package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jaxc completion bash}: a bash script that names every command, and that bash itself
 * completes commands, options and the values of {@code --emit} and {@code -target} with.
 */
class CompletionCommandTest {
  @TempDir Path dir;

  @Test
  void theScriptNamesEveryCommandAndCompletes() throws Exception {
    CliRunner r = CliRunner.run("completion", "bash");
    assertEquals(ExitCode.OK, r.status(), r.err());
    String script = r.out();
    assertTrue(script.startsWith("#!/usr/bin/env bash"), script.substring(0, Math.min(200, script.length())));
    assertTrue(script.contains("complete -F _complete_jaxc"), "no complete -F line");
    for (String command : Main.tree().getSubcommands().keySet()) {
      assertTrue(script.contains("function _picocli_jaxc_" + command + "()") || command.equals("help"), command);
    }
    assertEquals(script, CliRunner.run("completion").out(), "bash is the default shell");
    CliRunner bad = CliRunner.run("completion", "fish");
    assertEquals(ExitCode.USAGE, bad.status());
    assertEquals("jaxc: error: SHELL: expected bash or zsh, got 'fish'", bad.firstErrLine());

    assumeTrue(CompileTools.has("bash"), "bash is not installed: the script is not run");
    Path file = Files.writeString(dir.resolve("jaxc.bash"), script);
    assertEquals("compile completion", complete(file, "jaxc", "co"));
    assertEquals("--emit", complete(file, "jaxc", "compile", "--em"));
    assertEquals("obj shared asm llvm-ir header ptx", complete(file, "jaxc", "compile", "--emit", "''"));
    assertEquals("host x86_64 aarch64 ptx", complete(file, "jaxc", "compile", "-target", "''"));
    for (String kind : new EmitKind.Candidates()) new EmitKind.Converter().convert(kind);  // each one is accepted
  }

  /** What bash's completion function offers for the last word. */
  private String complete(Path script, String... words) throws Exception {
    String line = String.join(" ", words);
    String cmd = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1)
        + "; COMP_LINE='" + line + "'; COMP_POINT=" + line.length() + "; _complete_jaxc 2>/dev/null; echo \"${COMPREPLY[*]}\"";
    return CompileTools.run(dir, "bash", "-c", cmd).trim();
  }
}
