package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code jaxc compile A.jaxpr B.jaxpr ... -j N}: every model's files are byte for byte those a
 * single-model compile writes; failures are each reported, in the order given, and the status is
 * the worst; the options that need one model are refused before anything is compiled.
 */
class CompileManyTest {
  @TempDir Path dir;

  /** Golden models copied under distinct stems. */
  private List<Path> models(String... cases) throws Exception {
    List<Path> r = new ArrayList<>();
    for (String c : cases) r.add(Files.copy(Corpus.testdata("cases/" + c + "/model.jaxpr"), dir.resolve(c + ".jaxpr")));
    return r;
  }

  @Test
  void severalModelsGiveTheFilesOfSingleCompiles() throws Exception {
    List<Path> m = models("elementwise_exp_f32", "model_plain_mlp_numpy_consts", "reduce_sum_axes_f32");
    Path many = Files.createDirectory(dir.resolve("many"));
    Path one = Files.createDirectory(dir.resolve("one"));
    List<String> args = new ArrayList<>(List.of("compile"));
    for (Path p : m) args.add(p.toString());
    args.addAll(List.of("-j", "2", "--emit", "obj,header,llvm-ir", "-o", many.toString()));
    CliRunner r = CliRunner.run(args.toArray(String[]::new));
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertEquals("", r.err());
    for (Path p : m) {
      CliRunner s = CliRunner.run("compile", p.toString(), "--emit", "obj,header,llvm-ir", "-o", one.toString());
      assertEquals(ExitCode.OK, s.status(), s.err());
    }
    List<String> names = new ArrayList<>();
    try (var files = Files.list(one)) {
      files.forEach(f -> names.add(f.getFileName().toString()));
    }
    assertEquals(9, names.size(), names.toString());
    for (String n : names) assertArrayEquals(Files.readAllBytes(one.resolve(n)), Files.readAllBytes(many.resolve(n)), n);
  }

  @Test
  void eachFailureIsReportedInOrderAndTheGoodModelsStillCompile() throws Exception {
    List<Path> good = models("elementwise_exp_f32", "elementwise_abs_f32");
    Path bad = Files.copy(Corpus.root().resolve("testdata/bad/parse_missing_let.jaxpr"), dir.resolve("bad.jaxpr"));
    Path missing = dir.resolve("missing.jaxpr");
    Path out = Files.createDirectory(dir.resolve("out"));
    CliRunner r = CliRunner.run("compile", missing.toString(), good.get(0).toString(), bad.toString(),
        good.get(1).toString(), "-j", "3", "-o", out.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
    assertTrue(Files.exists(out.resolve("elementwise_exp_f32.o")));
    assertTrue(Files.exists(out.resolve("elementwise_abs_f32.o")));
    assertFalse(Files.exists(out.resolve("bad.o")));
    String err = r.err();
    int m = err.indexOf(missing + ": error: no such file");
    int b = err.indexOf(bad + ":");
    int summary = err.indexOf("jaxc: 2 of 4 models failed: " + missing + ", " + bad);
    assertTrue(m >= 0 && b > m && summary > b, err);
    assertTrue(err.contains(" error: "), err);
  }

  @Test
  void theStatusIsTheWorstOne() throws Exception {
    Path bad = Files.copy(Corpus.root().resolve("testdata/bad/parse_missing_let.jaxpr"), dir.resolve("bad.jaxpr"));
    Path reserved = Files.copy(Corpus.testdata("cases/elementwise_abs_f32/model.jaxpr"), dir.resolve("int.jaxpr"));
    CliRunner r = CliRunner.run("compile", bad.toString(), reserved.toString(), "-o", dir.toString());
    assertEquals(ExitCode.USAGE, r.status(), r.err());
    assertTrue(r.err().contains(reserved + ": error: the entry point name 'int' (from the file name) is reserved in C"), r.err());

    // An exception inside one compile is that model's internal error, the others go on.
    StringWriter err = new StringWriter();
    CommandLine cl = Main.tree();
    cl.setErr(new PrintWriter(err));
    cl.parseArgs("compile", "x.jaxpr");
    int status = new CompileMany(cl.getSubcommands().get("compile"), List.of(Path.of("a.jaxpr"), Path.of("b.jaxpr")), null, 2)
        .run(false, false, (model, e) -> {
          if (model.toString().equals("a.jaxpr")) throw new IllegalStateException("boom");
          e.println(model + ": error: bad");
          return ExitCode.BAD_INPUT;
        });
    assertEquals(ExitCode.INTERNAL, status, err.toString());
    assertTrue(err.toString().startsWith("jaxc: internal error compiling a.jaxpr: java.lang.IllegalStateException: boom"), err.toString());
    assertTrue(err.toString().contains("b.jaxpr: error: bad"), err.toString());
  }

  @Test
  void optionsThatNeedOneModelAreRefusedBeforeCompiling() throws Exception {
    List<Path> m = models("elementwise_exp_f32", "elementwise_abs_f32");
    String a = m.get(0).toString();
    String b = m.get(1).toString();
    Path file = Files.writeString(dir.resolve("file.o"), "");
    String[][] cases = {
      {"--name", "x"}, {"--consts", a}, {"-o", file.toString()}, {"-o", dir.resolve("nope").toString()}, {"-j", "0"},
    };
    String[] messages = {
      "jaxc: error: --name: only with a single model",
      "jaxc: error: --consts: only with a single model",
      "jaxc: error: -o " + file + ": with several models, -o must name an existing directory",
      "jaxc: error: -o " + dir.resolve("nope") + ": with several models, -o must name an existing directory",
      "jaxc: error: --jobs: expected at least 1, got 0",
    };
    for (int i = 0; i < cases.length; i++) {
      List<String> args = new ArrayList<>(List.of("compile", a, b));
      args.addAll(List.of(cases[i]));
      CliRunner r = CliRunner.run(args.toArray(String[]::new));
      assertEquals(ExitCode.USAGE, r.status(), r.err());
      assertTrue(r.firstErrLine().startsWith(messages[i]), r.err());
    }
    assertFalse(Files.exists(Path.of("elementwise_exp_f32.o")));

    Path other = Files.createDirectories(dir.resolve("sub")).resolve("elementwise_exp_f32.jaxpr");
    Files.copy(m.get(0), other);
    CliRunner r = CliRunner.run("compile", a, other.toString(), "-o", dir.toString());
    assertEquals(ExitCode.USAGE, r.status(), r.err());
    assertEquals("jaxc: error: " + a + " and " + other + " would both be compiled as 'elementwise_exp_f32'; "
        + "compile them in separate calls with --name", r.firstErrLine());
  }
}
