package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jaxc compile --time-passes}: a row per phase on stderr, the outputs as without it. */
class TimePassesTest {
  @TempDir Path dir;

  @Test
  void printsEachPhaseWithTimeAndMemory() throws Exception {
    Path model = Files.writeString(dir.resolve("m.jaxpr"), CompileCommandTest.MODEL);
    Path out = dir.resolve("m.o");
    CliRunner r = CliRunner.run("compile", model.toString(), "-o", out.toString(), "--time-passes");
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertTrue(Files.size(out) > 0);
    for (String phase : List.of("read", "parse", "type", "canon", "plan", "emit IR", "verify", "optimise", "codegen", "write")) {
      Pattern row = Pattern.compile("(?m)^  " + Pattern.quote(phase) + " +\\d+\\.\\d ms +(\\d+\\.\\d cpu|-) +\\d+ MiB +(\\d+ MiB|-)$");
      assertTrue(row.matcher(r.err()).find(), phase + " missing in:\n" + r.err());
    }
    assertTrue(r.err().contains("peak RSS"), r.err());
  }

  @Test
  void aRejectedInputStillPrintsThePhasesRun() throws Exception {
    Path model = Files.writeString(dir.resolve("m.jaxpr"), "{ lambda ; a:f32[3]. let\n");
    CliRunner r = CliRunner.run("compile", model.toString(), "-o", dir.resolve("m.o").toString(), "--time-passes");
    assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
    assertTrue(r.err().contains("error: "), r.err());
    assertTrue(Pattern.compile("(?m)^  parse +\\d").matcher(r.err()).find(), r.err());
  }
}
