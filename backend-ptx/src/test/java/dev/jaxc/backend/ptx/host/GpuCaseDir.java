package dev.jaxc.backend.ptx.host;

import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.ptx.DeviceProgram;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes cases in the layout {@code bench/gpu/check_cases.py} reads ({@code NAME/libNAME.so},
 * {@code inputs.npz}, {@code expected.npz}, {@code meta.json}), for programs built here rather
 * than by {@code jaxc compile} (which {@code bench/gpu/build_cases.sh} uses for golden cases).
 */
final class GpuCaseDir {
  private GpuCaseDir() {}

  /** Inputs of the vadd2 case. */
  static float[][] vadd2Inputs() {
    float[] a = new float[Vadd2.N];
    float[] b = new float[Vadd2.N];
    for (int i = 0; i < Vadd2.N; i++) {
      a[i] = 0.5f * i - 3.0f;
      b[i] = 1.0f / (i + 1);
    }
    return new float[][] {a, b};
  }

  /** 2 * (a + b) in float32 arithmetic, as the kernels compute it (IEEE round to nearest). */
  static float[] vadd2Expected(float[][] in) {
    float[] out = new float[Vadd2.N];
    for (int i = 0; i < Vadd2.N; i++) out[i] = (in[0][i] + in[1][i]) * 2.0f;
    return out;
  }

  /** The vadd2 case (exact comparison) under {@code root}, its library built for {@code host}. */
  static Path vadd2(Path root, TargetSpec host) throws Exception {
    float[][] in = vadd2Inputs();
    return write(root, Vadd2.program(), host, in, new float[][] {vadd2Expected(in)}, "{\"rtol\": 0, \"atol\": 0}");
  }

  /**
   * Libraries of vadd2 whose PTX a driver must refuse, for {@code bench/gpu/probe_host_library.py}:
   * {@code vadd2_isa99} (PTX ISA 9.9, newer than any driver: PTX_TOO_NEW_FOR_DRIVER) and
   * {@code vadd2_sm100} (ISA 8.6 for sm_100, newer than an H100/H200: PTX_TOO_NEW_FOR_GPU where
   * the driver knows ISA 8.6).
   */
  static void probes(Path dir, TargetSpec host) throws Exception {
    Files.createDirectories(dir);
    DeviceProgram v = Vadd2.program();
    String[][] variants = {{"vadd2_isa99", ".version 9.9\n.target sm_80"}, {"vadd2_sm100", ".version 8.6\n.target sm_100"}};
    for (String[] variant : variants) {
      String ptx = v.ptx().replace(".version 7.0\n.target sm_80", variant[1]);
      if (ptx.equals(v.ptx())) throw new IllegalStateException("vadd2.ptx has no .version 7.0 / .target sm_80 lines");
      DeviceProgram p = new DeviceProgram(variant[0], variant[1].substring(variant[1].indexOf("sm_")), ptx, v.launches(), v.workspaceBytes(), v.inputBytes(),
          v.outputBytes());
      Linker.linkShared(HostLibrary.object(p, host), dir.resolve("lib" + variant[0] + ".so"), host);
    }
  }

  static Path write(Path root, DeviceProgram program, TargetSpec host, float[][] inputs, float[][] expected,
      String meta) throws Exception {
    Path dir = Files.createDirectories(root.resolve(program.name()));
    Linker.linkShared(HostLibrary.object(program, host), dir.resolve("lib" + program.name() + ".so"), host);
    NpzWriter.f32(dir.resolve("inputs.npz"), inputs);
    NpzWriter.f32(dir.resolve("expected.npz"), expected);
    Files.writeString(dir.resolve("meta.json"), meta + "\n");
    return dir;
  }
}
