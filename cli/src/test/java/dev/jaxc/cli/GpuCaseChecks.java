package dev.jaxc.cli;

import dev.jaxc.backend.ptx.HostControl;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.NpyException;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the PTX golden-case tests share: a case lowered as the compiler lowers it, the real
 * {@code ptxas} on a module, and the emulated launch against the case's expected outputs.
 */
final class GpuCaseChecks {
  private GpuCaseChecks() {}

  /** {@code tool} on PATH, if it is there. */
  static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) return Optional.empty();
    for (String dir : path.split(File.pathSeparator)) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) return Optional.of(p);
    }
    return Optional.empty();
  }

  /** The case's model, typed and lowered in its x64 mode. */
  static Program lower(GoldenCase c) throws IOException {
    return HostRun.lower(new FrontEnd().run(c.model(), new TypeConfig(c.meta().x64(), PromotionMode.STANDARD), Phase.TYPE));
  }

  /** Empty when {@code ptxas -arch=sm} accepts {@code ptx} (written under {@code work}), else why not. */
  static Optional<String> ptxas(Path ptxas, Path work, String name, String sm, String ptx)
      throws IOException, InterruptedException {
    Path file = work.resolve(name + "." + sm + ".ptx");
    Files.writeString(file, ptx);
    try {
      Process p = new ProcessBuilder(ptxas.toString(), "-arch=" + sm, file.toString(), "-o", "/dev/null")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of("ptxas " + sm + " did not finish");
      }
      return p.exitValue() == 0 ? Optional.empty() : Optional.of("ptxas " + sm + ": " + out.strip());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /**
   * The emulated launch of {@code lowered} (sm_80) on the case's inputs against its expected
   * outputs within its tolerances: one line per difference, each starting with {@code label}.
   */
  static List<String> emulatedDifferences(GoldenCase c, Program lowered, String name, String label)
      throws IOException, NpyException, HostRun.InputMismatch {
    return emulatedDifferences(c, lowered, name, label, HostControl.Policy.fromEnvironment());
  }

  /** As above, with cond, while and scan driven from the host by {@code policy}. */
  static List<String> emulatedDifferences(GoldenCase c, Program lowered, String name, String label,
      HostControl.Policy policy) throws IOException, NpyException, HostRun.InputMismatch {
    List<String> bad = new ArrayList<>();
    List<NpyArray> actual = HostRun.runEmulated(lowered, name, "sm_80", Npz.read(c.inputs()), policy);
    List<NpyArray> expected = Npz.read(c.expected());
    if (actual.size() != expected.size()) bad.add(label + ": " + actual.size() + " outputs");
    GoldenCase.Meta meta = c.meta();
    for (int k = 0; k < expected.size() && k < actual.size(); k++) {
      Optional<String> diff = ArrayComparison.compare(expected.get(k), actual.get(k), meta.rtol(), meta.atol());
      if (diff.isPresent()) bad.add(label + ": output " + k + ": " + diff.get());
    }
    return bad;
  }
}
