package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

/**
 * {@code jaxc run -target ptx}: the PTX path's kernels, emulated, on a model with a grid-mapped
 * fusion (4100 elements: 17 blocks of 256 threads) and a full reduction (one thread), against
 * values worked out by hand; it says on stderr that it emulated.
 */
class PtxRunCommandTest {
  @TempDir Path dir;

  @Test
  void runEmulatesTheKernels() throws Exception {
    Path model = Files.writeString(dir.resolve("m.jaxpr"), """
        { lambda ; a:f32[4100]. let
            b:f32[4100] = mul a 2.0:f32[]
            c:f32[4100] = add b 1.0:f32[]
            d:f32[] = reduce_sum[axes=(0,) out_sharding=None] a
          in (c, d) }
        """);
    float[] a = new float[4100];
    for (int i = 0; i < a.length; i++) a[i] = i % 7;
    Path in = dir.resolve("in.npz");
    Npz.write(in, List.of(f32(a)));
    Path out = dir.resolve("out.npz");
    CliRunner r = CliRunner.run("run", model.toString(), "-target", "ptx", "--inputs", in.toString(), "--output", out.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertEquals("jaxc: note: -target ptx: the sm_80 kernels ran emulated on this CPU (no GPU used)", r.err().strip());
    List<NpyArray> got = Npz.read(out);
    float[] c = new float[a.length];
    for (int i = 0; i < a.length; i++) c[i] = 2 * a[i] + 1;
    assertArrayEquals(f32(c).data(), got.get(0).data());
    // 4100 = 585 * 7 + 5: 585 * (0+1+...+6) + (0+1+2+3+4) = 12295, exact in f32.
    assertArrayEquals(f32(12295f).data(), got.get(1).data());
  }

  private static NpyArray f32(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return NpyArray.of(DType.F32, v.length == 1 ? new long[0] : new long[] {v.length}, b.array());
  }
}
