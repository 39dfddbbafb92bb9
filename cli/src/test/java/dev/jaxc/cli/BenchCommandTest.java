package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jaxc bench}: options, what it prints for small models, and its errors. */
class BenchCommandTest {
  @TempDir Path dir;

  /** From JAX 0.10.2: {@code lax.scan(lambda h, _: (jnp.tanh(h @ w), None), h, None, length=3)}. */
  private static final String SCAN = """
      { lambda ; a:f32[2,4] b:f32[4,4]. let
          c:f32[2,4] = scan[
            jaxpr={ lambda ; d:f32[4,4] e:f32[2,4]. let
                f:f32[2,4] = dot_general[
                  dimension_numbers=(([1], [0]), ([], []))
                  preferred_element_type=float32
                ] e d
                g:f32[2,4] = tanh f
              in (g,) }
            length=3
            num_carry=1
            num_consts=1
            reverse=False
            unroll=1
          ] b a
        in (c,) }
      """;

  /** From JAX 0.10.2: a while loop of three steps whose body is a dot. */
  private static final String WHILE = """
      { lambda ; a:f32[2,4] b:f32[4,4]. let
          _:i32[] c:f32[2,4] = while[
            body_jaxpr={ lambda ; d:f32[4,4] e:i32[] f:f32[2,4]. let
                g:i32[] = add e 1:i32[]
                h:f32[2,4] = dot_general[
                  dimension_numbers=(([1], [0]), ([], []))
                  preferred_element_type=float32
                ] f d
              in (g, h) }
            body_nconsts=1
            cond_jaxpr={ lambda ; i:i32[] j:f32[2,4]. let
                k:bool[] = lt i 3:i32[]
              in (k,) }
            cond_nconsts=0
          ] b 0:i32[] a
        in (c,) }
      """;

  /** From JAX 0.10.2: a VALID NHWC/HWIO convolution, 3x3 kernel, 2 to 4 features. */
  private static final String CONV = """
      { lambda ; a:f32[1,5,5,2] b:f32[3,3,2,4]. let
          c:f32[1,3,3,4] = conv_general_dilated[
            batch_group_count=1
            dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
            feature_group_count=1
            lhs_dilation=(1, 1)
            out_sharding=None
            padding=((0, 0), (0, 0))
            precision=None
            preferred_element_type=None
            rhs_dilation=(1, 1)
            window_strides=(1, 1)
          ] a b
        in (c,) }
      """;

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void timesAScanAndCountsItsDotsPerStep() throws Exception {
    CliRunner r = CliRunner.run("bench", write("scan.jaxpr", SCAN).toString(), "--runs", "3");
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertTrue(r.out().contains("inputs: random"), r.out());
    assertTrue(r.out().contains("3 runs: median "), r.out());
    // 3 steps of a [2,4]x[4,4] dot: 3 * 2 * (2*4*4) flops; inputs of 8 and 16 f32, output of 8.
    assertTrue(r.out().contains("(192 flops"), r.out());
    assertTrue(r.out().contains("(128 bytes of inputs and outputs"), r.out());
    Matcher m = Pattern.compile("median ([0-9.]+) (us|ms), min ([0-9.]+) (us|ms)").matcher(r.out());
    assertTrue(m.find(), r.out());
    assertTrue(Double.parseDouble(m.group(1)) > 0, r.out());
  }

  @Test
  void countsConvolutionWorkFromTheKernel() throws Exception {
    CliRunner r = CliRunner.run("bench", write("conv.jaxpr", CONV).toString(), "--runs", "1", "--threads", "1");
    assertEquals(ExitCode.OK, r.status(), r.err());
    // 36 outputs, each 3*3*2 multiply-adds.
    assertTrue(r.out().contains("(1296 flops"), r.out());
    assertTrue(r.out().contains("threads: 1"), r.out());
  }

  @Test
  void doesNotGuessTheWorkOfAWhileLoop() throws Exception {
    CliRunner r = CliRunner.run("bench", write("loop.jaxpr", WHILE).toString(), "--runs", "2", "--threads", "2");
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertTrue(r.out().contains("GFLOP/s: not counted"), r.out());
  }

  @Test
  void takesGoldenInputs() {
    Path c = Corpus.testdata("cases").resolve("dot_batched_matmul");
    CliRunner r = CliRunner.run("bench", c.resolve("model.jaxpr").toString(), "--inputs", c.resolve("inputs.npz").toString(),
        "--runs", "2");
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertTrue(r.out().contains("inputs: " + c.resolve("inputs.npz")), r.out());
  }

  @Test
  void inputsThatDoNotFitAreOneLocatedLine() throws Exception {
    Path in = Corpus.testdata("cases").resolve("dot_batched_matmul").resolve("inputs.npz");
    CliRunner r = CliRunner.run("bench", write("scan.jaxpr", SCAN).toString(), "--inputs", in.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status(), r.out());
    assertTrue(r.err().startsWith(in + ": error: "), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }

  @Test
  void badModelsAndFilesExitWithOne() throws Exception {
    CliRunner missing = CliRunner.run("bench", dir.resolve("none.jaxpr").toString());
    assertEquals(ExitCode.BAD_INPUT, missing.status());
    assertEquals(dir.resolve("none.jaxpr") + ": error: no such file", missing.firstErrLine());

    Path bad = write("bad.jaxpr", "{ lambda ; a:f32[2]. let b:f32[2] = frobnicate a in (b,) }\n");
    CliRunner r = CliRunner.run("bench", bad.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status());
    assertTrue(r.firstErrLine().startsWith(bad + ":1:"), r.err());
    assertFalse(r.err().contains("\tat "), r.err());

    Path none = dir.resolve("none.npz");
    CliRunner noInputs = CliRunner.run("bench", write("scan.jaxpr", SCAN).toString(), "--inputs", none.toString());
    assertEquals(ExitCode.BAD_INPUT, noInputs.status());
    assertEquals(none + ": error: no such file", noInputs.firstErrLine());

    Path notNpz = write("in.npz", "not a zip");
    CliRunner n = CliRunner.run("bench", write("scan.jaxpr", SCAN).toString(), "--inputs", notNpz.toString());
    assertEquals(ExitCode.BAD_INPUT, n.status());
    assertTrue(n.firstErrLine().startsWith(notNpz + ": "), n.err());
  }

  @Test
  void badOptionsAreUsageErrors() throws Exception {
    String model = write("scan.jaxpr", SCAN).toString();
    for (String[] opts : new String[][] {{"--runs", "0"}, {"--runs", "x"}, {"--threads", "-1"}, {"--threads", "65"},
        {"--frobnicate"}}) {
      String[] args = new String[opts.length + 2];
      args[0] = "bench";
      args[1] = model;
      System.arraycopy(opts, 0, args, 2, opts.length);
      CliRunner r = CliRunner.run(args);
      assertEquals(ExitCode.USAGE, r.status(), String.join(" ", opts) + ": " + r.err());
      assertTrue(r.firstErrLine().startsWith("jaxc: error: "), r.err());
    }
  }
}
