package dev.jaxc.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/** Locates the repository's testdata folder from any module's test run. */
final class Corpus {
  private Corpus() {}

  static Path root() {
    String prop = System.getProperty("jaxc.root");
    if (prop != null && Files.isDirectory(Paths.get(prop, "testdata"))) return Paths.get(prop);
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("testdata")) && Files.exists(p.resolve("pom.xml"))) return p;
    }
    throw new IllegalStateException("cannot find the repository root (no testdata/ above " + Paths.get("").toAbsolutePath() + ")");
  }

  static Path testdata(String sub) {
    return root().resolve("testdata").resolve(sub);
  }

  /** Every {@code model.jaxpr} below a testdata subfolder, sorted. */
  static List<Path> models(String sub) {
    try (Stream<Path> s = Files.walk(testdata(sub))) {
      return s.filter(p -> p.getFileName().toString().equals("model.jaxpr")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** testdata/known-differences.txt: case name → why jaxc knowingly differs from JAX there. */
  static java.util.Map<String, String> knownDifferences() {
    return knownDifferences("known-differences.txt");
  }

  /** As above, from another list in testdata/ (the same format: a case name, then why). */
  static java.util.Map<String, String> knownDifferences(String file) {
    try {
      java.util.Map<String, String> r = new java.util.TreeMap<>();
      for (String line : Files.readAllLines(root().resolve("testdata").resolve(file))) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) continue;
        String[] parts = l.split("\\s+", 2);
        r.put(parts[0], parts.length > 1 ? parts[1] : "");
      }
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Files below a folder whose name ends with the suffix, sorted. */
  static List<Path> files(String sub, String suffix) {
    try (Stream<Path> s = Files.list(testdata(sub))) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
