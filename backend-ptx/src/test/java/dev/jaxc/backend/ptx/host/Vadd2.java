package dev.jaxc.backend.ptx.host;

import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The hand-written test program {@code vadd2.ptx} as a {@link DeviceProgram}: out = 2 * (a + b)
 * over f32[1000], two kernels passing the sum through a 4000-byte workspace, the second with
 * 64 KiB of dynamic shared memory. {@code host_test.c} and {@code fake_cuda.c} know it.
 */
final class Vadd2 {
  static final int N = 1000;

  private Vadd2() {}

  static DeviceProgram program() {
    return new DeviceProgram("vadd2", "sm_80", resource("vadd2.ptx"),
        List.of(new DeviceProgram.Launch("jaxc_test_add", 4, 256, 0),
            new DeviceProgram.Launch("jaxc_test_double", 4, 256, 65536)),
        4L * N, List.of(4L * N, 4L * N), List.of(4L * N));
  }

  static String header() {
    Type t = new Type.ArrayType(DType.F32, Shape.of(N));
    return PtxHeaderWriter.write("vadd2", "vadd2.ptx", List.of(), List.of(new Var("a", t), new Var("b", t)),
        List.<Atom>of(new Var("out", t)), "sm_80");
  }

  static String resource(String name) {
    try (InputStream in = Vadd2.class.getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("test resource " + name + " missing");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
