package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Parses every golden case ({@code testdata/cases/NAME/model.jaxpr}), every legacy printout
 * ({@code testdata/legacy/NAME/model.jaxpr}) and the real JAX 0.10.2 printouts in
 * {@code src/test/resources/jax/}; each must parse, pass {@link Invariants}, and print back (by
 * {@link RoundTrip}) to the text JAX printed, whitespace aside.
 */
class CorpusTest {
  static Path repoRoot() {
    String prop = System.getProperty("jaxc.root");
    if (prop != null && Files.isDirectory(Path.of(prop, "testdata"))) return Path.of(prop);
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("testdata"))) p = p.getParent();
    return p;
  }

  @TestFactory
  Stream<DynamicTest> goldenCases() throws IOException {
    Path root = repoRoot();
    assumeTrue(root != null && Files.isDirectory(root.resolve("testdata/cases")),
        "no testdata/cases folder (set -Djaxc.root to a checkout that has the corpus)");
    List<Path> files = new ArrayList<>();
    for (String dir : List.of("cases", "legacy")) {
      Path d = root.resolve("testdata").resolve(dir);
      if (!Files.isDirectory(d)) continue;
      try (Stream<Path> s = Files.list(d)) {
        s.map(c -> c.resolve("model.jaxpr")).filter(Files::isRegularFile).sorted().forEach(files::add);
      }
    }
    assertFalse(files.isEmpty(), "no model.jaxpr under " + root.resolve("testdata"));
    return files.stream().map(f -> DynamicTest.dynamicTest(root.relativize(f).toString(), () -> check(f)));
  }

  @TestFactory
  Stream<DynamicTest> realJaxPrintouts() throws IOException {
    Path dir = Path.of("src/test/resources/jax");
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(f -> f.toString().endsWith(".jaxpr")).sorted().toList();
    }
    assertFalse(files.isEmpty());
    return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
  }

  static void check(Path file) throws IOException {
    Source src = JaxprParser.read(file);
    Program p;
    try {
      p = JaxprParser.parse(src);
    } catch (JaxcException e) {
      throw new AssertionError(DiagnosticRenderer.render(src, e.diagnostic()), e);
    }
    new Invariants(src.text()).check(p.main());
    String printed = new RoundTrip(src.text()).printout(p.main());
    // Shared jaxprs that nothing names (custom_linear_solve's, §8.4) are not in the IR: the
    // expected text keeps the leading `let NAME = {…} in` definitions the printout has.
    String expected = printed.startsWith("let ") ? keptLets(src.text(), printed) : src.text().substring(p.main().span().start());
    assertEquals(normalize(expected), normalize(printed), "printed back:\n" + printed);
  }

  /**
   * The text with what the IR deliberately does not keep removed: whitespace, source-info
   * comments, the effects suffix, and spellings that decode to the same value (NumPy scalar
   * wrappers, pybind enum reprs, {@code dtype('…')}).
   */
  static String keptLets(String source, String printed) {
    java.util.Set<String> printedLets = new java.util.HashSet<>();
    leadingLets(printed, (name, text) -> printedLets.add(name));
    StringBuilder kept = new StringBuilder();
    int rest = leadingLets(source, (name, text) -> {
      if (printedLets.contains(name)) kept.append(text);
    });
    return kept + source.substring(rest);
  }

  /** Calls {@code each(name, text)} for the leading top-level `let NAME = {…} in`; returns where they end. */
  static int leadingLets(String source, java.util.function.BiConsumer<String, String> each) {
    int at = 0;
    java.util.regex.Matcher let = java.util.regex.Pattern.compile("\\s*let\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*\\{").matcher(source);
    while (let.find(at) && let.start() == at) {
      int depth = 0;
      int i = let.end() - 1;
      do {
        char c = source.charAt(i++);
        if (c == '{') depth++;
        else if (c == '}') depth--;
      } while (depth > 0);
      java.util.regex.Matcher in = java.util.regex.Pattern.compile("\\s*in\\b").matcher(source);
      if (!in.find(i) || in.start() != i) break;
      each.accept(let.group(1), source.substring(at, in.end()));
      at = in.end();
    }
    return at;
  }

  static String normalize(String text) {
    return text.replaceAll("(?m)#.*$", "")
        .replaceAll(":\\s*\\{\\s*[A-Za-z<>0-9, ]*\\}\\s*\\}\\s*$", "}")
        .replaceAll("np\\.[a-z]+[0-9]*\\(([^()]*)\\)", "$1")
        .replaceAll("<([A-Za-z_.]+): -?[0-9]+>", "$1")
        .replaceAll("\\s+", "");
  }
}
