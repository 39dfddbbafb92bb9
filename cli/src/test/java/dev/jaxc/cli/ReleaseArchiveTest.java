package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive jaxc-VERSION.tar.gz, as {@code mvn package} wrote it: it holds bin/jaxc,
 * the cmake module and lib/ with jaxc's jars and the natives of the build platform only; unpacked
 * into a folder whose name has a space, and run through a symlink from another directory with a
 * PATH of nothing but java, bash and readlink, it checks a golden case against JAX's values and
 * compiles a model to an object file and header; and the archive's CMake module, finding the
 * archive's jaxc by itself, builds two models into programs whose outputs match JAX's.
 *
 * <p>Runs in the package phase (the archive does not exist before it): cli's pom gives it its own
 * surefire execution there, and keeps it out of the test phase.
 */
class ReleaseArchiveTest {
  @TempDir Path dir;

  /** Runs the command in {@code cwd} with exactly {@code env}; returns {status, output}. */
  private static Object[] run(Path cwd, Map<String, String> env, String... cmd) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", cmd));
    return new Object[] {p.exitValue(), out};
  }

  @Test
  void theArchiveRunsWithOnlyAJavaRuntime() throws Exception {
    Path archive = Path.of(System.getProperty("jaxc.archive"));
    assertTrue(Files.isRegularFile(archive), archive + " is missing: mvn package writes it");
    String platform = System.getProperty("jaxc.platform");
    Path unpacked = Files.createDirectory(dir.resolve("un packed"));
    CompileTools.run(dir, "tar", "xzf", archive.toString(), "-C", unpacked.toString());
    String base = archive.getFileName().toString().replace(".tar.gz", "");
    Path home = unpacked.resolve(base);
    assertTrue(Files.isExecutable(home.resolve("bin/jaxc")), "bin/jaxc");
    assertTrue(Files.isRegularFile(home.resolve("cmake/Jaxc.cmake")), "cmake/Jaxc.cmake");

    TreeSet<String> jars = new TreeSet<>();
    try (Stream<Path> s = Files.list(home.resolve("lib"))) {
      s.forEach(p -> jars.add(p.getFileName().toString()));
    }
    for (String module : List.of("jaxc-cli", "jaxc-ir", "jaxc-frontend", "jaxc-backend-llvm", "jaxc-backend-ptx", "picocli")) {
      assertTrue(jars.stream().anyMatch(j -> j.startsWith(module + "-")), module + " missing from " + jars);
    }
    assertTrue(jars.stream().anyMatch(j -> j.matches("llvm-.*-" + platform + "\\.jar")), "no LLVM natives for " + platform + ": " + jars);
    assertTrue(jars.stream().anyMatch(j -> j.matches("javacpp-.*-" + platform + "\\.jar")), "no JavaCPP natives for " + platform);
    for (String j : jars) {
      if (j.matches(".*-(linux|macosx|windows|android|ios)-[a-z0-9_]+\\.jar")) assertTrue(j.endsWith("-" + platform + ".jar"), j);
      assertTrue(!j.contains("junit") && !j.contains("jimfs"), "a test dependency: " + j);
    }

    // Only java (and bash, readlink, which the launcher runs) on PATH; jaxc through a symlink.
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Files.createSymbolicLink(bin.resolve("java"), java);
    for (String tool : List.of("bash", "readlink")) {
      Path p = dev.jaxc.backend.llvm.artifact.Linker.onPath(tool).orElseThrow();
      Files.createSymbolicLink(bin.resolve(tool), p.toRealPath());
    }
    Files.createSymbolicLink(bin.resolve("jaxc"), home.resolve("bin/jaxc"));
    Path work = Files.createDirectory(dir.resolve("work"));
    Map<String, String> env = Map.of("PATH", bin.toString(), "HOME", System.getProperty("user.home"));

    Path golden = Corpus.testdata("cases/model_plain_mlp_numpy_consts");
    Object[] check = run(work, env, bin.resolve("jaxc").toString(), "check", golden.toString());
    assertEquals(0, check[0], (String) check[1]);
    assertTrue(((String) check[1]).endsWith("1 passed, 0 failed\n"), (String) check[1]);

    Object[] compile = run(work, env, bin.resolve("jaxc").toString(), "compile", golden.resolve("model.jaxpr").toString(), "--emit", "obj,header", "--name", "mlp");
    assertEquals(0, compile[0], (String) compile[1]);
    assertEquals(CompileTools.ET_REL, CompileTools.elfKind(work.resolve("mlp.o"))[0]);
    assertTrue(Files.readString(work.resolve("mlp.h")).contains("int32_t mlp(const void *const *inputs, void *const *outputs);"));

    Object[] version = run(work, env, bin.resolve("jaxc").toString(), "--version");
    assertEquals(0, version[0], (String) version[1]);
    Object[] bad = run(work, env, bin.resolve("jaxc").toString(), "compile", "missing.jaxpr");
    assertEquals(ExitCode.BAD_INPUT, bad[0], (String) bad[1]);
    assertEquals("missing.jaxpr: error: no such file\n", bad[1]);

    // The archive's CMake module finds the archive's bin/jaxc by itself (no JAXC_EXECUTABLE).
    if (CompileTools.has("cmake") && CompileTools.has("make") && CompileTools.has("cc")) {
      Path src = Files.createDirectory(dir.resolve("cmake-src"));
      Path root = Corpus.root();
      for (String f : List.of("CMakeLists.txt", "main.c")) Files.copy(root.resolve("cli/src/test/resources/cmake/" + f), src.resolve(f));
      GoldenCase affine = new GoldenCase(root.resolve("cli/src/test/resources/compile/consts_affine"));
      List<dev.jaxc.cli.npy.NpyArray> inputs = dev.jaxc.cli.npy.Npz.read(affine.inputs());
      dev.jaxc.cli.npy.Npz.write(src.resolve("consts.npz"), inputs.subList(0, 5));
      Path build = dir.resolve("cmake-build");
      String configure = CompileTools.run(dir, "cmake", "-S", src.toString(), "-B", build.toString(), "-DJAXC_ROOT=" + home,
          "-DMLP_MODEL=" + golden.resolve("model.jaxpr"), "-DAFFINE_MODEL=" + affine.model(), "-DAFFINE_CONSTS=consts.npz");
      String cache = Files.readString(build.resolve("CMakeCache.txt"));
      assertTrue(cache.contains("JAXC_EXECUTABLE:FILEPATH=" + home.resolve("bin/jaxc")), configure);
      CompileTools.run(dir, "cmake", "--build", build.toString());
      RawRun.check(build.resolve("run_mlp"), dir, new GoldenCase(golden));
      RawRun.check(build.resolve("run_affine"), dir, inputs.subList(5, 7), affine);
    } else {
      System.err.println("ReleaseArchiveTest: cmake, make or cc missing: the archive's CMake module is not built");
    }

    Object[] noJava = run(work, Map.of("PATH", dir.resolve("nowhere").toString()), "/bin/bash", home.resolve("bin/jaxc").toString(), "--version");
    assertEquals(1, noJava[0], (String) noJava[1]);
    assertEquals("jaxc: error: no Java runtime: put java (17 or later) on PATH or set JAVA_HOME\n", noJava[1]);
  }
}
