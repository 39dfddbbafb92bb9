package dev.jaxc.backend.ptx.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench/gpu/check_cases.py}, the GPU check, run here against the fake {@code libcuda.so.1}
 * of {@link HostLibraryTest}: the vadd2 case passes through NAME_host, NAME and NAME_async; a
 * case whose expected output is off by one element fails with that element; a case the builder
 * skipped or could not build is counted so; the summary line and exit status follow.
 *
 * <p>With {@code -Djaxc.gpu.selftest.out=DIR} it also writes the vadd2 case to DIR (what
 * {@code bench/gpu/build_cases.sh --selftest} asks for), to run on a real GPU, and the variants
 * {@code bench/gpu/probe_host_library.py} loads from DIR/.probe.
 */
class GpuCheckScriptTest {
  @TempDir Path dir;

  @Test
  void checkScriptPassesFailsAndSkipsCasesUnderTheFakeDriver() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && Linker.onPath("cc").isPresent(),
        "no linker or C compiler: " + Linker.installHint(TargetSpec.x86_64()));
    String python = python();
    assumeTrue(python != null, "no python3 with NumPy");
    String out = System.getProperty("jaxc.gpu.selftest.out");
    if (out != null && !out.isBlank()) {
      GpuCaseDir.vadd2(Path.of(out), TargetSpec.x86_64());
      GpuCaseDir.probes(Path.of(out).resolve(".probe"), TargetSpec.x86_64());
    }

    Path cases = Files.createDirectories(dir.resolve("cases"));
    GpuCaseDir.vadd2(cases, TargetSpec.x86_64());
    // the same program and inputs, one expected element off
    var v = Vadd2.program();
    var renamed = new dev.jaxc.backend.ptx.DeviceProgram("wrong", v.sm(), v.ptx(), v.launches(), v.workspaceBytes(),
        v.inputBytes(), v.outputBytes());
    float[][] in = GpuCaseDir.vadd2Inputs();
    float[] expected = GpuCaseDir.vadd2Expected(in);
    expected[7] += 1;
    GpuCaseDir.write(cases, renamed, TargetSpec.x86_64(), in, new float[][] {expected}, "{\"rtol\": 1e-6, \"atol\": 0}");
    Files.createDirectories(cases.resolve("unsup"));
    Files.writeString(cases.resolve("unsup/skip.txt"), "unsupported on ptx: eigh\n");
    Files.createDirectories(cases.resolve("broken"));
    Files.writeString(cases.resolve("broken/error.txt"), "model.jaxpr:3:5: error: something\n");

    Path fake = Files.createDirectories(dir.resolve("fake"));
    Files.writeString(dir.resolve("fake_cuda.c"), Vadd2.resource("fake_cuda.c"));
    run(List.of("cc", "-shared", "-fPIC", "-O1", "-o", fake.resolve("libcuda.so.1").toString(), "fake_cuda.c"), 0);

    Path script = Path.of(System.getProperty("jaxc.root", "..")).resolve("bench/gpu/check_cases.py");
    String log = run(List.of(python, script.toString(), cases.toString(), "--only", "vadd2", "--device-checks", "1"), 0);
    assertTrue(log.contains("# GPU: Fake GPU (sm_80), CUDA driver 12.4"), log);
    assertTrue(log.contains("PASS vadd2: host") && log.contains("device pointers and async stream ok"), log);
    assertTrue(log.strip().endsWith("1 passed, 0 failed"), log);

    log = run(List.of(python, script.toString(), cases.toString(), "--device-checks", "2"), 1);
    assertTrue(log.contains("FAIL wrong: output 0: 1 of 1000 elements differ; first at flat index 7"), log);
    assertTrue(log.contains("SKIP unsup: not built: unsupported on ptx: eigh"), log);
    assertTrue(log.contains("FAIL broken: not built: model.jaxpr:3:5: error: something"), log);
    assertTrue(log.strip().endsWith("1 passed, 2 failed, 1 skipped"), log);
  }

  private static String python() throws Exception {
    for (String p : List.of("python3", System.getProperty("jaxc.root", "..") + "/.venv/bin/python")) {
      try {
        Process proc = new ProcessBuilder(p, "-c", "import numpy").redirectErrorStream(true).start();
        proc.getInputStream().readAllBytes();
        if (proc.waitFor(60, TimeUnit.SECONDS) && proc.exitValue() == 0) return p;
      } catch (java.io.IOException absent) {
        // try the next
      }
    }
    return null;
  }

  private String run(List<String> cmd, int status) throws Exception {
    ProcessBuilder b = new ProcessBuilder(new ArrayList<>(cmd)).directory(dir.toFile()).redirectErrorStream(true);
    b.environment().put("LD_LIBRARY_PATH", dir.resolve("fake").toString());
    b.environment().remove("FAKE_CUDA");
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(status, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }
}
