package dev.jaxc.backend.ptx.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PTX host library from the outside, without a GPU: a C program ({@code host_test.c})
 * includes the generated header, links the library built from {@link Vadd2}, and calls every
 * entry point with no CUDA driver at all, and with a fake {@code libcuda.so.1} ({@code
 * fake_cuda.c}, first on LD_LIBRARY_PATH) that fails in each way the error codes name, or works
 * (host memory, kernels emulated in C): results, one module load per context, the primary
 * context pushed and popped, work memory reused and capped, eight threads at once. AArch64 runs
 * under qemu-aarch64.
 */
class HostLibraryTest {
  @TempDir Path dir;

  /** FAKE_CUDA mode and the code every entry point must return. */
  private static final Map<String, Integer> FAILURES = Map.of(
      "nodevice", 11, "nodevice0", 11, "ptx222", 12, "gpu209", 13, "oom", 2,
      "init999", 1999, "launch719", 1719, "sync700", 1700, "ptx218", 1218, "oldgpu", 13);

  @Test
  void objectImportsNoCudaAndExportsTheEntryPoints() {
    for (TargetSpec spec : List.of(TargetSpec.x86_64(), TargetSpec.aarch64())) {
      ElfSymbols s = ElfSymbols.of(HostLibrary.object(Vadd2.program(), spec));
      assertEquals(new TreeSet<>(List.of("dlopen", "dlsym", "free", "malloc", "pthread_mutex_lock", "pthread_mutex_unlock")),
          new TreeSet<>(s.undefined()), spec.triple());
      assertEquals(new TreeSet<>(List.of("vadd2", "vadd2_async", "vadd2_host", "vadd2_num_inputs", "vadd2_num_outputs",
          "vadd2_workspace_size", "vadd2_input_bytes", "vadd2_output_bytes")), new TreeSet<>(s.defined()), spec.triple());
    }
  }

  @Test
  void theProgramsTargetIsANumberTheRuntimeComparesWithTheGpu() {
    assertEquals(80, HostLibrary.smNumber("sm_80"));
    assertEquals(90, HostLibrary.smNumber("sm_90a"));
    assertEquals(100, HostLibrary.smNumber("sm_100"));
    assertEquals(0, HostLibrary.smNumber("compute"));
  }

  @Test
  void headerCompilesCleanlyAsCAndCxx() throws Exception {
    assumeTrue(Linker.onPath("cc").isPresent(), "no C compiler (apt-get install gcc)");
    Files.writeString(dir.resolve("vadd2.h"), Vadd2.header());
    Files.writeString(dir.resolve("t.c"), "#include \"vadd2.h\"\nint main(void) { return VADD2_NO_CUDA_DRIVER != 10; }\n");
    run(List.of("cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "t.c"), Map.of());
    if (Linker.onPath("g++").isPresent()) {
      Files.writeString(dir.resolve("t.cc"), "#include \"vadd2.h\"\nint main() { return 0; }\n");
      run(List.of("g++", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "t.cc"), Map.of());
    }
  }

  @Test
  void x86WithoutDriverWithFailingAndWorkingFakeDrivers() throws Exception {
    assumeTrue(System.getProperty("os.arch").matches("amd64|x86_64"), "host is not x86-64");
    assumeTrue(Linker.command(TargetSpec.x86_64()).isPresent() && Linker.onPath("cc").isPresent(),
        "no linker or C compiler: " + Linker.installHint(TargetSpec.x86_64()));
    build(TargetSpec.x86_64(), "cc");
    fakes("cc");
    if (systemHasLibcuda()) {
      System.err.println("HostLibraryTest: a libcuda.so.1 is installed, the no-driver case is not run");
    } else {
      assertEquals("ok", run(List.of("./host_test", "nodriver"), env("empty", null)).strip());
    }
    for (var f : FAILURES.entrySet()) {
      assertEquals("ok", run(List.of("./host_test", "expect", f.getValue().toString()), env("fake", f.getKey())).strip(),
          "FAKE_CUDA=" + f.getKey());
    }
    assertEquals("ok", run(List.of("./host_test", "expect", "10"), env("fake-missing", null)).strip(), "driver too old");
    assertEquals("ok", run(List.of("./host_test", "ok"), env("fake", null)).strip());
    assertEquals("ok", run(List.of("./host_test", "ok"), env("fake-noid", null)).strip(), "driver without cuCtxGetId");
    assertEquals("ok", run(List.of("./host_test", "busy"), env("fake", "busy")).strip());
    // the same C program against a library of a host-driven program (repeat, while, switch)
    HostLibrary.linkShared(Vadd2.looping(), TargetSpec.x86_64(), dir.resolve("libvadd2.so"));
    assertEquals("ok", run(List.of("./host_test", "program"), env("fake", null)).strip(), "host-driven program");
  }

  @Test
  void aarch64WithoutDriverAndWithTheFakeUnderQemu() throws Exception {
    TargetSpec arm = TargetSpec.aarch64();
    assumeTrue(Linker.command(arm).isPresent(), "no AArch64 linker: " + Linker.installHint(arm));
    assumeTrue(Linker.onPath("aarch64-linux-gnu-gcc").isPresent(), "no aarch64-linux-gnu-gcc (apt-get install gcc-aarch64-linux-gnu)");
    assumeTrue(Linker.onPath("qemu-aarch64").isPresent(), "no qemu-aarch64 (apt-get install qemu-user)");
    build(arm, "aarch64-linux-gnu-gcc");
    fakes("aarch64-linux-gnu-gcc");
    List<String> qemu = List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "./host_test");
    assertEquals("ok", run(with(qemu, "nodriver"), env("empty", null)).strip());
    assertEquals("ok", run(with(qemu, "expect", "12"), env("fake", "ptx222")).strip());
    assertEquals("ok", run(with(qemu, "ok"), env("fake", null)).strip());
  }

  private static List<String> with(List<String> cmd, String... args) {
    List<String> all = new ArrayList<>(cmd);
    all.addAll(List.of(args));
    return all;
  }

  private void build(TargetSpec spec, String cc) throws Exception {
    Files.writeString(dir.resolve("vadd2.h"), Vadd2.header());
    Files.writeString(dir.resolve("host_test.c"), Vadd2.resource("host_test.c"));
    HostLibrary.linkShared(Vadd2.program(), spec, dir.resolve("libvadd2.so"));
    run(List.of(cc, "-O1", "-Wall", "-o", "host_test", "host_test.c", "-L.", "-lvadd2", "-ldl", "-lpthread",
        "-Wl,-rpath," + dir), Map.of());
  }

  /** fake/, fake-missing/ and fake-noid/ each with a libcuda.so.1; empty/ with none. */
  private void fakes(String cc) throws Exception {
    Files.writeString(dir.resolve("fake_cuda.c"), Vadd2.resource("fake_cuda.c"));
    String[][] variants = {{"fake"}, {"fake-missing", "-DMISSING_SYMBOL"}, {"fake-noid", "-DNO_CTX_ID"}};
    for (String[] v : variants) {
      Files.createDirectories(dir.resolve(v[0]));
      List<String> cmd = new ArrayList<>(List.of(cc, "-shared", "-fPIC", "-O1", "-Wall", "-o", v[0] + "/libcuda.so.1"));
      if (v.length > 1) cmd.add(v[1]);
      cmd.add("fake_cuda.c");
      run(cmd, Map.of());
    }
    Files.createDirectories(dir.resolve("empty"));
  }

  private Map<String, String> env(String libDir, String fakeMode) {
    return fakeMode == null ? Map.of("LD_LIBRARY_PATH", dir.resolve(libDir).toString())
        : Map.of("LD_LIBRARY_PATH", dir.resolve(libDir).toString(), "FAKE_CUDA", fakeMode);
  }

  private static boolean systemHasLibcuda() throws Exception {
    for (String d : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu", "/usr/local/cuda/lib64")) {
      if (Files.exists(Path.of(d, "libcuda.so.1"))) return true;
    }
    return false;
  }

  private String run(List<String> cmd, Map<String, String> env) throws Exception {
    ProcessBuilder b = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    b.environment().remove("FAKE_CUDA");
    b.environment().putAll(env);
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + " " + env + "\n" + out);
    return out;
  }
}
