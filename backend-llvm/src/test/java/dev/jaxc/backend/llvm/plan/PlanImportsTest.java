package dev.jaxc.backend.llvm.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The planner is backend-neutral: it asks a {@link BackendRules} object instead of importing the
 * CPU backend's kernels, emitters, runtime or ABI, so the PTX backend can reuse it.
 */
class PlanImportsTest {
  @Test
  void planImportsNothingOfTheCpuBackend() throws IOException {
    Path dir = Path.of("src/main/java/dev/jaxc/backend/llvm/plan");
    List<Path> sources;
    try (Stream<Path> files = Files.list(dir)) {
      sources = files.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertTrue(sources.size() >= 8, "plan sources found: " + sources);
    for (Path p : sources) {
      List<String> bad = Files.readAllLines(p).stream()
          .filter(l -> l.startsWith("import dev.jaxc.backend.") && !l.startsWith("import dev.jaxc.backend.llvm.plan."))
          .toList();
      assertEquals(List.of(), bad, p.getFileName().toString());
    }
  }
}
