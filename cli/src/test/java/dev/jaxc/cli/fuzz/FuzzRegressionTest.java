package dev.jaxc.cli.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every input that ever broke the pipeline (testdata/fuzz-regressions/): now accepted or
 * rejected with a located diagnostic, promptly.
 */
class FuzzRegressionTest {
  @Test
  void regressionsAreAcceptedOrRejectedCleanly() throws Exception {
    Path root = FuzzRoot.root();
    List<Path> files = FuzzCorpus.regressions(root);
    assertFalse(files.isEmpty(), "no regression inputs under testdata/fuzz-regressions");
    Fuzzer fuzzer = new Fuzzer(2000, true, null);
    fuzzer.warmUp(FuzzCorpus.load(root));
    List<String> bad = new ArrayList<>();
    for (Path p : files) {
      Fuzzer.Report rep = new Fuzzer.Report();
      Fuzzer.Outcome o = fuzzer.check(rep, p.getFileName().toString(), Files.readString(p));
      if (o != Fuzzer.Outcome.ACCEPTED && o != Fuzzer.Outcome.REJECTED) {
        bad.add(p.getFileName() + ": " + o + " " + rep.failures.get(0).detail().lines().findFirst().orElse(""));
      }
    }
    assertEquals(List.of(), bad);
  }
}
