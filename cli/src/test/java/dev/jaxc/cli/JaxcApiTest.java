package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java API for build tools: {@link Jaxc#compile} writes what {@code jaxc compile} writes and
 * reports diagnostics and statuses, and {@code ToolProvider.findFirst("jaxc")} finds the CLI
 * through META-INF/services and runs it in this process.
 */
class JaxcApiTest {
  @TempDir Path dir;

  private static final Path MLP = Corpus.testdata("cases/model_plain_mlp_numpy_consts");

  @Test
  void compileWritesWhatTheCliWrites() throws Exception {
    Path api = Files.createDirectory(dir.resolve("api"));
    Path cli = Files.createDirectory(dir.resolve("cli"));
    Jaxc.Result r = Jaxc.compile(MLP.resolve("model.jaxpr"),
        Jaxc.CompileOptions.defaults().withTarget("x86_64").withEmit("obj", "header").withName("mlp").withOutput(api).withOptLevel(2));
    assertTrue(r.ok(), r.messages());
    assertEquals(List.of(), r.diagnostics());
    CliRunner c = CliRunner.run("compile", MLP.resolve("model.jaxpr").toString(), "--target", "x86_64", "--emit", "obj,header",
        "--name", "mlp", "-o", cli.toString(), "-O2");
    assertEquals(ExitCode.OK, c.status(), c.err());
    for (String f : List.of("mlp.o", "mlp.h")) {
      assertTrue(java.util.Arrays.equals(Files.readAllBytes(cli.resolve(f)), Files.readAllBytes(api.resolve(f))), f);
    }
    assertEquals(CompileTools.ET_REL, CompileTools.elfKind(api.resolve("mlp.o"))[0]);
    assertTrue(Files.readString(api.resolve("mlp.h")).contains("int32_t mlp(const void *const *inputs, void *const *outputs);"));
  }

  @Test
  void diagnosticsAndStatusesComeBack() throws Exception {
    Path bad = Corpus.root().resolve("testdata/bad/parse_missing_let.jaxpr");
    Jaxc.Result r = Jaxc.compile(bad, Jaxc.CompileOptions.defaults().withOutput(dir.resolve("x.o")));
    assertEquals(ExitCode.BAD_INPUT, r.exitCode());
    assertFalse(r.ok());
    assertEquals(1, r.diagnostics().size(), r.messages());
    assertTrue(r.diagnostics().get(0).matches(java.util.regex.Pattern.quote(bad.toString()) + ":\\d+:\\d+: error: .*"),
        r.diagnostics().get(0));
    assertFalse(Files.exists(dir.resolve("x.o")));

    Jaxc.Result usage = Jaxc.compile(bad, Jaxc.CompileOptions.defaults().withOptLevel(9));
    assertEquals(ExitCode.USAGE, usage.exitCode(), usage.messages());

    Jaxc.Result several = Jaxc.compile(List.of(bad, MLP.resolve("model.jaxpr")),
        Jaxc.CompileOptions.defaults().withOutput(dir).withJobs(2));
    assertEquals(ExitCode.BAD_INPUT, several.exitCode(), several.messages());
    assertTrue(Files.exists(dir.resolve("model.o")));

    Jaxc.Result check = Jaxc.run("check", MLP.toString());
    assertEquals(ExitCode.OK, check.exitCode(), check.output() + check.messages());
    assertTrue(check.output().endsWith("1 passed, 0 failed\n"), check.output());
  }

  @Test
  void theToolProviderRunsJaxcInProcess() {
    Optional<ToolProvider> tool = ToolProvider.findFirst("jaxc");
    assertTrue(tool.isPresent(), "no ToolProvider named jaxc (META-INF/services/java.util.spi.ToolProvider)");
    assertEquals("jaxc", tool.get().name());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = tool.get().run(new PrintWriter(out, true), new PrintWriter(err, true), "check", MLP.toString());
    assertEquals(ExitCode.OK, status, err.toString());
    assertTrue(out.toString().endsWith("1 passed, 0 failed\n"), out.toString());

    StringWriter err2 = new StringWriter();
    int bad = tool.get().run(new PrintWriter(new StringWriter()), new PrintWriter(err2, true), "compile", "x.jaxpr", "--frobnicate");
    assertEquals(ExitCode.USAGE, bad);
    assertTrue(err2.toString().startsWith("jaxc: error: Unknown option: '--frobnicate'"), err2.toString());
  }
}
