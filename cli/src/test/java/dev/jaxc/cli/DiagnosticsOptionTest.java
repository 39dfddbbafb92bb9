package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the CLI says about bad models: compile reports an unknown primitive once (one error at
 * its name, with a suggestion), inspect trusts it with one warning, and {@code --diagnostics
 * json} writes each diagnostic as one JSON object per line with the documented fields.
 */
class DiagnosticsOptionTest {
  @TempDir Path dir;

  private Path model(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private Path misspelled() throws Exception {
    return model("m.jaxpr", "{ lambda ; a:f32[3]. let\n    b:f32[3] = sinn a\n  in (b,) }\n");
  }

  @Test
  void compileReportsAnUnknownPrimitiveOnce() throws Exception {
    Path m = misspelled();
    CliRunner r = CliRunner.run("compile", m.toString(), "-o", dir.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
    assertEquals(m + ":2:16: error: unknown primitive 'sinn'; did you mean 'sin'?\n"
        + "    b:f32[3] = sinn a\n"
        + "               ^~~~\n", r.err());
    assertTrue(Files.notExists(dir.resolve("m.o")));
  }

  @Test
  void inspectTrustsItWithOneWarning() throws Exception {
    Path m = misspelled();
    CliRunner r = CliRunner.run("inspect", m.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertEquals(m + ":2:16: warning: unknown primitive 'sinn': its declared result types are trusted; "
        + "did you mean 'sin'?", r.firstErrLine());
    assertEquals(3, r.err().lines().count(), r.err());
  }

  @Test
  void compileJson() throws Exception {
    Path m = misspelled();
    CliRunner r = CliRunner.run("compile", "--diagnostics", "json", m.toString(), "-o", dir.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
    List<String> lines = r.err().lines().toList();
    assertEquals(1, lines.size(), r.err());
    @SuppressWarnings("unchecked")
    Map<String, Object> d = (Map<String, Object>) Json.parse(lines.get(0));
    assertEquals(m.toString(), d.get("file"));
    assertEquals(2L, ((Number) d.get("line")).longValue());
    assertEquals(16L, ((Number) d.get("col")).longValue());
    assertEquals(20L, ((Number) ((Map<?, ?>) d.get("end")).get("col")).longValue());
    assertEquals("error", d.get("severity"));
    assertEquals("E0001", d.get("code"));
    assertEquals("unknown primitive 'sinn'", d.get("message"));
    assertEquals("did you mean 'sin'?", d.get("hint"));
  }

  @Test
  void inspectJsonWarningAndSyntaxError() throws Exception {
    CliRunner w = CliRunner.run("inspect", "--diagnostics", "json", misspelled().toString());
    assertEquals(ExitCode.OK, w.status(), w.err());
    Map<?, ?> warning = (Map<?, ?>) Json.parse(w.err().strip());
    assertEquals("warning", warning.get("severity"));
    assertEquals("W0001", warning.get("code"));

    Path bad = model("bad.jaxpr", "{ lambda ; a:f32[]. let\n    b:f32[] = sin a\n  in (b, }\n");
    CliRunner e = CliRunner.run("inspect", "--diagnostics", "json", bad.toString());
    assertEquals(ExitCode.BAD_INPUT, e.status());
    Map<?, ?> syntax = (Map<?, ?>) Json.parse(e.err().strip());
    assertEquals("E0003", syntax.get("code"));
    assertEquals(3L, ((Number) syntax.get("line")).longValue());
  }

  @Test
  void typeErrorsAndNonScalarLiteralsHaveTheirCodes() throws Exception {
    Path type = model("t.jaxpr", "{ lambda ; a:f32[3]. let\n    b:f32[4] = sin a\n  in (b,) }\n");
    Map<?, ?> t = (Map<?, ?>) Json.parse(CliRunner.run("compile", "--diagnostics", "json", type.toString(),
        "-o", dir.toString()).err().strip());
    assertEquals("E0004", t.get("code"));
    Path lit = model("l.jaxpr", "{ lambda ; a:f32[3]. let\n    b:f32[3] = mul a 1.0:f32[3]\n  in (b,) }\n");
    Map<?, ?> l = (Map<?, ?>) Json.parse(CliRunner.run("run", "--diagnostics", "json", lit.toString(),
        "--inputs", dir.resolve("in.npz").toString(), "--output", dir.resolve("out.npz").toString()).err().strip());
    assertEquals("E0005", l.get("code"));
    assertEquals("write its type as f32[], or make the array a constvar", l.get("hint"));
  }

  @Test
  void checkWritesEachCasesDiagnosticAsJson() throws Exception {
    Path cases = dir.resolve("cases");
    Files.createDirectories(cases.resolve("misspelled"));
    Files.copy(misspelled(), cases.resolve("misspelled/model.jaxpr"));
    CliRunner r = CliRunner.run("check", "--diagnostics", "json", "-j", "1", cases.toString());
    assertEquals("SKIP misspelled: " + cases.resolve("misspelled/model.jaxpr")
        + ":2:16: error: unknown primitive 'sinn'; did you mean 'sin'?", r.out().lines().findFirst().orElse(""));
    Map<?, ?> d = (Map<?, ?>) Json.parse(r.err().strip());
    assertEquals(cases.resolve("misspelled/model.jaxpr").toString(), d.get("file"));
    assertEquals("E0001", d.get("code"));
  }

  @Test
  void aMissingFileIsOneJsonObjectWithoutALocation() {
    String missing = dir.resolve("none.jaxpr").toString();
    CliRunner r = CliRunner.run("inspect", "--diagnostics", "json", missing);
    assertEquals(ExitCode.BAD_INPUT, r.status());
    Map<?, ?> d = (Map<?, ?>) Json.parse(r.err().strip());
    assertEquals(missing, d.get("file"));
    assertEquals(null, d.get("line"));
    assertEquals("E0007", d.get("code"));
    assertEquals("no such file", d.get("message"));
  }
}
