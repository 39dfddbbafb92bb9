package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs a golden case through a program built from cli/src/test/resources/cmake/main.c, which reads
 * input i from {@code in_i.bin} and writes output i to {@code out_i.bin}, and compares its outputs
 * with the case's expected.npz at the case's tolerances.
 */
final class RawRun {
  private RawRun() {}

  /** Runs {@code program} in a fresh folder below {@code work} on {@code inputs}; checks the outputs. */
  static void check(Path program, Path work, List<NpyArray> inputs, GoldenCase golden) throws Exception {
    Path dir = Files.createTempDirectory(work, "run");
    for (int i = 0; i < inputs.size(); i++) Files.write(dir.resolve("in_" + i + ".bin"), inputs.get(i).data());
    CompileTools.run(dir, program.toString());
    List<NpyArray> expected = Npz.read(golden.expected());
    GoldenCase.Meta meta = golden.meta();
    for (int o = 0; o < expected.size(); o++) {
      NpyArray e = expected.get(o);
      byte[] got = Files.readAllBytes(dir.resolve("out_" + o + ".bin"));
      assertEquals(e.data().length, got.length, "output " + o + " size");
      Optional<String> problem = ArrayComparison.compare(e, NpyArray.of(e.dtype(), e.shape(), got), meta.rtol(), meta.atol());
      assertTrue(problem.isEmpty(), program + " output " + o + ": " + problem.orElse(""));
    }
  }

  /** Runs the case with all of its inputs. */
  static void check(Path program, Path work, GoldenCase golden) throws Exception {
    check(program, work, Npz.read(golden.inputs()), golden);
  }
}
