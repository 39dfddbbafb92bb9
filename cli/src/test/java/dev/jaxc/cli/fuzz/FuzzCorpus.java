package dev.jaxc.cli.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The texts the mutator starts from: every golden case's and legacy printout's model, every fuzz regression. */
public final class FuzzCorpus {
  private FuzzCorpus() {}

  /** The jaxprs under {@code root}'s testdata/cases, legacy and fuzz-regressions, in path order. */
  public static List<String> load(Path root) {
    List<String> texts = new ArrayList<>();
    for (Path p : files(root)) {
      try {
        texts.add(Files.readString(p));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (texts.isEmpty()) throw new IllegalStateException("no jaxprs under " + root.toAbsolutePath() + "/testdata");
    return texts;
  }

  static List<Path> files(Path root) {
    List<Path> all = new ArrayList<>();
    all.addAll(jaxprs(root.resolve("testdata/cases")));
    all.addAll(jaxprs(root.resolve("testdata/legacy")));
    all.addAll(regressions(root));
    return all;
  }

  /** The inputs that once broke the pipeline (testdata/fuzz-regressions/*.jaxpr). */
  public static List<Path> regressions(Path root) {
    return jaxprs(root.resolve("testdata/fuzz-regressions"));
  }

  private static List<Path> jaxprs(Path dir) {
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".jaxpr")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
