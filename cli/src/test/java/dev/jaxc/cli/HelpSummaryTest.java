package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code jaxc --help} lists every command on one line with a whole sentence: the first line of
 * the command's description, not cut by the wrap.
 */
class HelpSummaryTest {
  @Test
  void everyCommandHasAWholeOneLineSummary() {
    CliRunner r = CliRunner.run("--help");
    assertEquals(ExitCode.OK, r.status(), r.err());
    String[] lines = r.out().split("\n");
    int at = java.util.Arrays.asList(lines).indexOf("Commands:");
    assertTrue(at > 0, r.out());
    Map<String, String> listed = new LinkedHashMap<>();
    for (int i = at + 1; i < lines.length; i++) {
      String line = lines[i];
      assertTrue(line.matches("  [a-z]+ +\\S.*"), "a continuation line (summary wrapped): '" + line + "'\n" + r.out());
      String[] parts = line.trim().split(" +", 2);
      listed.put(parts[0], parts[1]);
    }
    Map<String, CommandLine> commands = Main.tree().getSubcommands();
    assertEquals(commands.keySet(), listed.keySet(), r.out());
    for (Map.Entry<String, String> e : listed.entrySet()) {
      String summary = e.getValue();
      assertTrue(summary.endsWith("."), e.getKey() + ": '" + summary + "' is not a whole sentence");
      assertTrue(Character.isUpperCase(summary.charAt(0)), e.getKey() + ": '" + summary + "'");
      // picocli lists a command's header, else its description's first line.
      var usage = commands.get(e.getKey()).getCommandSpec().usageMessage();
      assertEquals(usage.header().length > 0 ? usage.header()[0] : usage.description()[0], summary, e.getKey());
    }
  }
}
