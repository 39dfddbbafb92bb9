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

  /**
   * vadd2's kernels in a host-driven program with the same result, for the fake driver (which
   * knows {@code jaxc_test_count}; vadd2.ptx does not have it): add three times, a while loop
   * whose condition kernel stores {@code iteration < 3} at ws+4000 and 1 at ws+4004, body add
   * (odd exit: add), then a switch on ws+4004 whose branch 1 adds and doubles. The count
   * kernel's counters, ws+4032 to ws+4095, are the program's zeroed bytes.
   */
  static DeviceProgram looping() {
    DeviceProgram v = program();
    List<DeviceProgram.Launch> launches = new java.util.ArrayList<>(v.launches());
    launches.add(new DeviceProgram.Launch("jaxc_test_count", 1, 1, 0));
    DeviceProgram.Node add = new DeviceProgram.Node.Run(0);
    DeviceProgram.Node dbl = new DeviceProgram.Node.Run(1);
    List<DeviceProgram.Node> nodes = List.of(
        new DeviceProgram.Node.Repeat(3, List.of(add)),
        new DeviceProgram.Node.While(List.of(new DeviceProgram.Node.Run(2)), 4000, List.of(add), List.of(add)),
        new DeviceProgram.Node.Switch(4004, List.of(List.of(dbl), List.of(add, dbl))));
    return new DeviceProgram(v.name(), v.sm(), v.ptx(), launches, nodes, 4096, 4032, 64, v.inputBytes(), v.outputBytes());
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
