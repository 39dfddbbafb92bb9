package dev.jaxc.cli.fuzz;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The repository root (the directory holding testdata/), from the working directory up. */
final class FuzzRoot {
  private FuzzRoot() {}

  static Path root() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("testdata/cases"))) return p;
    }
    throw new IllegalStateException("no testdata/cases above " + Paths.get("").toAbsolutePath());
  }
}
