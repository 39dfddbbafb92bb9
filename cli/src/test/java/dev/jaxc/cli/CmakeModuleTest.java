package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cmake/Jaxc.cmake: a CMake project (cli/src/test/resources/cmake) declares two models with
 * {@code jaxc_add_library}, one with CONSTS, and links a C program to each; CMake configures and
 * builds it, the programs' outputs match the golden cases' expected values (from JAX), and a
 * changed model is compiled again, and only that one, with its program rebuilt.
 */
class CmakeModuleTest {
  @TempDir Path dir;

  @Test
  void configuresBuildsRunsAndRebuildsOnAModelChange() throws Exception {
    assumeTrue(CompileTools.has("cmake"), "cmake is not installed (apt-get install cmake; .ci/run installs it): "
        + "the CMake module is not tested");
    assumeTrue(CompileTools.has("make") && CompileTools.has("cc"), "make or cc is missing: the CMake module is not tested");
    Path root = Corpus.root();
    Path src = Files.createDirectory(dir.resolve("src"));
    for (String f : List.of("CMakeLists.txt", "main.c")) Files.copy(root.resolve("cli/src/test/resources/cmake/" + f), src.resolve(f));
    GoldenCase mlp = new GoldenCase(Corpus.testdata("cases/model_plain_mlp_numpy_consts"));
    GoldenCase affine = new GoldenCase(root.resolve("cli/src/test/resources/compile/consts_affine"));
    Path mlpModel = Files.copy(mlp.model(), src.resolve("mlp.jaxpr"));
    List<NpyArray> affineInputs = Npz.read(affine.inputs());
    Npz.write(src.resolve("affine_consts.npz"), affineInputs.subList(0, 5));
    Path build = dir.resolve("build");

    CompileTools.run(dir, "cmake", "-S", src.toString(), "-B", build.toString(),
        "-DJAXC_EXECUTABLE=" + CompileTools.jaxcScript(dir), "-DJAXC_ROOT=" + root, "-DMLP_MODEL=mlp.jaxpr",
        "-DAFFINE_MODEL=" + affine.model(), "-DAFFINE_CONSTS=affine_consts.npz");
    String log = CompileTools.run(dir, "cmake", "--build", build.toString());
    assertTrue(log.contains("jaxc: compiling " + mlpModel + " to libmlp.so"), log);
    RawRun.check(build.resolve("run_mlp"), dir, mlp);
    RawRun.check(build.resolve("run_affine"), dir, affineInputs.subList(5, 7), affine);

    // Another model under the same file: compiled again, its program rebuilt against the new
    // header; the other library is left alone.
    Path mlpLib = build.resolve("jaxc/mlp/libmlp.so");
    Path affineLib = build.resolve("jaxc/affine/libaffine.so");
    FileTime mlpBefore = Files.getLastModifiedTime(mlpLib);
    FileTime affineBefore = Files.getLastModifiedTime(affineLib);
    GoldenCase exp = new GoldenCase(Corpus.testdata("cases/elementwise_exp_f32"));
    Thread.sleep(1100);  // a newer time stamp than the library's, whatever the file system's resolution
    Files.copy(exp.model(), mlpModel, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    String again = CompileTools.run(dir, "cmake", "--build", build.toString());
    assertTrue(again.contains("jaxc: compiling " + mlpModel), again);
    assertTrue(!again.contains("libaffine.so"), again);
    assertNotEquals(mlpBefore, Files.getLastModifiedTime(mlpLib));
    assertEquals(affineBefore, Files.getLastModifiedTime(affineLib));
    RawRun.check(build.resolve("run_mlp"), dir, exp);
  }
}
