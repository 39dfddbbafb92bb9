package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code jaxc check testdata/cases}: every case must reproduce JAX's outputs, except the known
 * differences listed (with reasons) in testdata/known-differences.txt, which must fail. The counts
 * are exact: a case that stops compiling (an "unsupported primitive", even one the support table
 * calls not lowered, or one a pass should rewrite away) fails the test, it is not skipped.
 */
class GoldenCorpusTest {
  @Test
  void everyCasePasses() throws Exception {
    CliRunner r = CliRunner.run("check", Corpus.testdata("cases").toString());
    List<String> lines = r.out().lines().toList();
    java.util.Map<String, String> known = Corpus.knownDifferences();
    List<String> bad = new ArrayList<>();
    int passed = 0;
    int knownFailed = 0;
    for (String line : lines.subList(0, lines.size() - 1)) {
      String name = line.length() > 5 ? line.substring(5).split(":", 2)[0] : "";
      if (line.startsWith("PASS ")) {
        passed++;
        if (known.containsKey(name)) bad.add(line + "  (listed in known-differences.txt: remove it)");
      } else if (line.startsWith("FAIL ") && known.containsKey(name)) {
        knownFailed++;
      } else {
        bad.add(line);
      }
    }
    assertEquals(List.of(), bad, r.err());
    assertTrue(lines.get(lines.size() - 1).startsWith(passed + " passed, " + knownFailed + " failed"),
        lines.get(lines.size() - 1));
    int cases = GoldenCase.find(Corpus.testdata("cases")).size();
    assertEquals(cases - known.size(), passed, "cases passed of " + cases + " (" + known.size() + " known differences)");
    assertEquals(known.size(), knownFailed, "known differences that failed");
    System.out.println("GoldenCorpusTest: " + lines.get(lines.size() - 1));
  }
}
