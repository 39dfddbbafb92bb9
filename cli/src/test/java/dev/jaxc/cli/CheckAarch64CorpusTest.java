package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code jaxc check --target aarch64 testdata/cases}: every golden case is compiled for AArch64,
 * linked as a shared library and run under qemu-aarch64 by the C runner, and must reproduce JAX's
 * outputs exactly where it does on the host: the same cases pass, and only the known differences
 * fail; none is skipped.
 */
class CheckAarch64CorpusTest {
  @Test
  void theSameCasesPassUnderQemuAsOnTheHost() throws Exception {
    assumeTrue(CompileTools.canRunAarch64(), "needs qemu-user, gcc-aarch64-linux-gnu and libc6-dev-arm64-cross");
    String cases = Corpus.testdata("cases").toString();
    CliRunner host = CliRunner.run("check", cases);
    CliRunner arm = CliRunner.run("check", "--target", "aarch64", cases);
    List<String> hostLines = host.out().lines().toList();
    List<String> armLines = arm.out().lines().toList();
    String summary = armLines.get(armLines.size() - 1);
    System.out.println("CheckAarch64CorpusTest: host " + hostLines.get(hostLines.size() - 1) + "; aarch64 " + summary);
    // Only the known differences (testdata/known-differences.txt) may fail, as on the host.
    java.util.Set<String> known = Corpus.knownDifferences().keySet();
    List<String> failed = armLines.stream().filter(l -> l.startsWith("FAIL ")).toList();
    assertEquals(List.of(), failed.stream().filter(l -> !known.contains(l.substring(5).split(":", 2)[0])).toList(), arm.err());
    assertEquals(hostLines, armLines);
    assertEquals(failed.isEmpty() ? ExitCode.OK : ExitCode.BAD_INPUT, arm.status());
    int total = GoldenCase.find(Corpus.testdata("cases")).size();
    assertTrue(summary.startsWith((total - failed.size()) + " passed, " + failed.size() + " failed"), summary);
  }
}
