package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jaxc check and jaxc run on small hand-made cases (values from JAX: 2·x + 1 of small ints). */
class CheckCommandTest {
  @TempDir Path dir;

  private static NpyArray f32(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return NpyArray.of(DType.F32, new long[] {v.length}, b.array());
  }

  /** A 1×1 f32 matrix. */
  private static NpyArray square(float v) {
    return NpyArray.of(DType.F32, new long[] {1, 1}, f32(v).data());
  }

  private Path makeCase(String name, String model, List<NpyArray> in, List<NpyArray> expected) throws Exception {
    Path c = Files.createDirectories(dir.resolve(name));
    Files.writeString(c.resolve("model.jaxpr"), model);
    Npz.write(c.resolve("inputs.npz"), in);
    Npz.write(c.resolve("expected.npz"), expected);
    Files.writeString(c.resolve("meta.json"), "{\"rtol\": 1e-06, \"atol\": 1e-06, \"x64\": false}");
    return c;
  }

  private static final String AFFINE = "{ lambda ; a:f32[3]. let b:f32[3] = mul a 2.0:f32[]; c:f32[3] = add b 1.0:f32[] in (c,) }";

  @Test
  void passFailAndSkipLinesThenTheSummary() throws Exception {
    makeCase("a_good", AFFINE, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 7)));
    makeCase("b_wrong", AFFINE, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 8)));
    makeCase("c_unsupported", "{ lambda ; a:f32[3]. let b:f32[3] = roll[axis=0 stride=None stride_axis=None] a 1:i32[] in (b,) }",
        List.of(f32(1, 2, 3)), List.of(f32(3, 1, 2)));  // a Pallas TPU roll; jnp.roll([1, 2, 3], 1) = [3, 1, 2]
    CliRunner r = CliRunner.run("check", dir.toString());
    List<String> lines = r.out().lines().toList();
    assertEquals("PASS a_good", lines.get(0));
    assertEquals("FAIL b_wrong: output 0: 1 of 3 elements differ; first at flat index 2: got 7.0, expected 8.0", lines.get(1));
    assertTrue(lines.get(2).startsWith("SKIP c_unsupported: "), lines.get(2));
    assertTrue(lines.get(2).endsWith("error: unsupported primitive roll (Pallas TPU primitive: not compiled for CPU)"), lines.get(2));
    assertEquals("1 passed, 1 failed, 1 skipped", lines.get(3));
    assertEquals(ExitCode.BAD_INPUT, r.status());
  }

  @Test
  void allPassingExitsZeroAndACaseDirectoryIsACase() throws Exception {
    Path c = makeCase("only", AFFINE, List.of(f32(0, -1, 0.5f)), List.of(f32(1, -1, 2)));
    CliRunner r = CliRunner.run("check", c.toString());
    assertEquals(List.of("PASS " + c, "1 passed, 0 failed"), r.out().lines().toList());
    assertEquals(ExitCode.OK, r.status());
  }

  @Test
  void wrongInputsFail() throws Exception {
    makeCase("bad_inputs", AFFINE, List.of(f32(1, 2)), List.of(f32(3, 5, 7)));
    CliRunner r = CliRunner.run("check", dir.toString());
    assertEquals("FAIL bad_inputs: inputs.npz: input 0 is float32[2] but the model takes f32[3]", r.out().lines().findFirst().orElseThrow());
  }

  @Test
  void runWritesTheOutputs() throws Exception {
    Path c = makeCase("run", "{ lambda ; a:f32[3]. let b:f32[3] = mul a 2.0:f32[] in (b, a, 4.0:f32[]) }",
        List.of(f32(1, 2, 3)), List.of());
    Path out = dir.resolve("out.npz");
    CliRunner r = CliRunner.run("run", c.resolve("model.jaxpr").toString(), "--inputs", c.resolve("inputs.npz").toString(), "--output", out.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    List<NpyArray> got = Npz.read(out);
    assertEquals(List.of(f32(2, 4, 6), f32(1, 2, 3), NpyArray.of(DType.F32, new long[0], f32(4).data())), got);
  }

  @Test
  void runReportsInputMismatchesAndUnsupportedPrimitives() throws Exception {
    Path c = makeCase("bad", AFFINE, List.of(f32(1, 2, 3), f32(1)), List.of());
    CliRunner r = CliRunner.run("run", c.resolve("model.jaxpr").toString(), "--inputs", c.resolve("inputs.npz").toString(), "--output", dir.resolve("o.npz").toString());
    assertEquals(ExitCode.BAD_INPUT, r.status());
    assertEquals(c.resolve("inputs.npz") + ": error: the model takes 1 inputs (constvars, then invars), got 2", r.firstErrLine());
    assertTrue(Files.notExists(dir.resolve("o.npz")));
    Path m = dir.resolve("u.jaxpr");
    Files.writeString(m, "{ lambda ; a:f32[3]. let\n    b:f32[3] = roll[axis=0 stride=None stride_axis=None] a 1:i32[]\n  in (b,) }\n");
    CliRunner u = CliRunner.run("run", m.toString(), "--inputs", c.resolve("inputs.npz").toString(), "--output", dir.resolve("o.npz").toString());
    assertEquals(ExitCode.BAD_INPUT, u.status());
    assertEquals(m + ":2:5: error: unsupported primitive roll (Pallas TPU primitive: not compiled for CPU)", u.firstErrLine());
  }
}
