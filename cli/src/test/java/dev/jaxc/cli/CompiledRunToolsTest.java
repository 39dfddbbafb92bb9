package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jaxc check --target}: which tool is missing, named with its package, on a machine where
 * only some are installed; and small cases through the runner (values from JAX: 2·x + 1).
 */
class CompiledRunToolsTest {
  @TempDir Path dir;

  private static final Path LOADER = Path.of("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1");

  private static String missing(Set<String> installed, boolean libc) {
    CompiledRunTools.Result r = CompiledRunTools.find(TargetSpec.aarch64(), TargetSpec.Arch.X86_64,
        t -> installed.contains(t) ? Optional.of(Path.of("/usr/bin", t)) : Optional.empty(),
        p -> libc && p.equals(LOADER));
    return r.tools().isPresent() ? "" : r.missing();
  }

  @Test
  void eachMissingToolIsNamedWithItsPackage() {
    assertEquals("no qemu-aarch64 (install qemu-user)", missing(Set.of("aarch64-linux-gnu-gcc", "ld.lld"), true));
    assertEquals("no aarch64 C library in /usr/aarch64-linux-gnu (install libc6-dev-arm64-cross)",
        missing(Set.of("qemu-aarch64", "aarch64-linux-gnu-gcc", "ld.lld"), false));
    assertEquals("no aarch64-linux-gnu-gcc for the runner (install gcc-aarch64-linux-gnu)",
        missing(Set.of("qemu-aarch64", "ld.lld"), true));
    assertEquals("", missing(Set.of("qemu-aarch64", "aarch64-linux-gnu-gcc"), true));  // gcc links too
    CompiledRunTools.Result all = CompiledRunTools.find(TargetSpec.aarch64(), TargetSpec.Arch.X86_64,
        t -> Optional.of(Path.of("/usr/bin", t)), p -> true);
    assertEquals(List.of("/usr/bin/qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"), all.tools().orElseThrow().launcher());
    CompiledRunTools.Result nativeLd = CompiledRunTools.find(TargetSpec.x86_64(), TargetSpec.Arch.X86_64,
        t -> t.equals("cc") ? Optional.of(Path.of("/usr/bin/cc")) : Optional.empty(), p -> false);
    assertEquals(List.of(), nativeLd.tools().orElseThrow().launcher());
    CompiledRunTools.Result noCc = CompiledRunTools.find(TargetSpec.x86_64(), TargetSpec.Arch.X86_64,
        t -> Optional.empty(), p -> false);
    assertEquals("no cc for the runner (install gcc)", noCc.missing());
  }

  private static NpyArray f32(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return NpyArray.of(DType.F32, new long[] {v.length}, b.array());
  }

  private void makeCase(String name, String model, List<NpyArray> in, List<NpyArray> expected) throws Exception {
    Path c = Files.createDirectories(dir.resolve(name));
    Files.writeString(c.resolve("model.jaxpr"), model);
    Npz.write(c.resolve("inputs.npz"), in);
    Npz.write(c.resolve("expected.npz"), expected);
  }

  @Test
  void smallCasesThroughTheRunnerOnBothTargets() throws Exception {
    String affine = "{ lambda ; a:f32[3]. let b:f32[3] = mul a 2.0:f32[]; c:f32[3] = add b 1.0:f32[] in (c, a, 4.0:f32[]) }";
    String empty = "{ lambda ; a:f32[0] b:f32[2]. let c:f32[0] = neg a in (c, b) }";
    makeCase("a_good", affine, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 7), f32(1, 2, 3), NpyArray.of(DType.F32, new long[0], f32(4).data())));
    makeCase("b_wrong", affine, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 8), f32(1, 2, 3), NpyArray.of(DType.F32, new long[0], f32(4).data())));
    makeCase("c_empty", empty, List.of(f32(), f32(1, 2)), List.of(f32(), f32(1, 2)));
    makeCase("d_bad_inputs", affine, List.of(f32(1, 2)), List.of());
    for (String target : List.of("x86_64", "aarch64")) {
      if (target.equals("aarch64")) assumeTrue(CompileTools.canRunAarch64(), "no qemu-aarch64 or AArch64 toolchain");
      else if (!CompileTools.isX86Host() || !CompileTools.has("cc")) continue;
      CliRunner r = CliRunner.run("check", "-target", target, "-j", "2", dir.toString());
      assertEquals(List.of(
          "PASS a_good",
          "FAIL b_wrong: output 0: 1 of 3 elements differ; first at flat index 2: got 7.0, expected 8.0",
          "PASS c_empty",
          "FAIL d_bad_inputs: inputs.npz: input 0 is float32[2] but the model takes f32[3]",
          "2 passed, 2 failed"), r.out().lines().toList(), target + ": " + r.err());
      assertEquals(ExitCode.BAD_INPUT, r.status());
    }
  }

  @Test
  void checkEmulatesPtxAndRejectsUnknownTargets() throws Exception {
    String affine = "{ lambda ; a:f32[3]. let b:f32[3] = mul a 2.0:f32[]; c:f32[3] = add b 1.0:f32[] in (c, a, 4.0:f32[]) }";
    makeCase("a_good", affine, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 7), f32(1, 2, 3), NpyArray.of(DType.F32, new long[0], f32(4).data())));
    makeCase("b_wrong", affine, List.of(f32(1, 2, 3)), List.of(f32(3, 5, 8), f32(1, 2, 3), NpyArray.of(DType.F32, new long[0], f32(4).data())));
    CliRunner ptx = CliRunner.run("check", "--target", "ptx", "-j", "2", dir.toString());
    assertEquals(List.of(
        "PASS a_good",
        "FAIL b_wrong: output 0: 1 of 3 elements differ; first at flat index 2: got 7.0, expected 8.0",
        "1 passed, 1 failed"), ptx.out().lines().toList(), ptx.err());
    assertEquals("jaxc: note: -target ptx: the sm_80 kernels run emulated on this CPU (no GPU used)", ptx.err().strip());
    assertEquals(ExitCode.BAD_INPUT, ptx.status());
    assertEquals(ExitCode.USAGE, CliRunner.run("check", "--target", "ptx", "--sm", "sm_60", dir.toString()).status());
    assertEquals(ExitCode.USAGE, CliRunner.run("check", "--sm", "sm_80", dir.toString()).status());
    assertEquals(ExitCode.USAGE, CliRunner.run("check", "--target", "riscv", dir.toString()).status());
    assertEquals(ExitCode.USAGE, CliRunner.run("check", "-j", "0", dir.toString()).status());
  }
}
