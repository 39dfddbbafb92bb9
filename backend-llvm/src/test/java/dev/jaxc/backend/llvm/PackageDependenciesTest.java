package dev.jaxc.backend.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the layering that lets another backend reuse the generator: the element generators and
 * the math library ({@code emit}, {@code math}) know nothing of the runtime, the kernels or the C
 * ABI; {@code ir} knows no backend; the planner knows no kernel (except the allowance below, which
 * the planner's backend-rules interface is to remove). Read from the sources: any reference to a
 * package, import or fully qualified name, outside comments, counts.
 */
class PackageDependenciesTest {
  private static final String LLVM = "dev.jaxc.backend.llvm.";

  /** plan → kernel references that exist today: the planner asks KernelLowering for scratch. */
  private static final Set<String> PLAN_ALLOWED = Set.of("plan/Planner.java -> kernel");

  private static Path root() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent())
      if (Files.isDirectory(p.resolve("backend-llvm")) && Files.isDirectory(p.resolve("ir"))) return p;
    throw new IllegalStateException("cannot find the repository root from " + Paths.get("").toAbsolutePath());
  }

  private static Path llvmSources() {
    return root().resolve("backend-llvm/src/main/java/dev/jaxc/backend/llvm");
  }

  /** "emit/X.java -> kernel" for every reference from a package below {@code base} to another. */
  private static Set<String> references(Path base, String under, Pattern target) throws IOException {
    Set<String> r = new TreeSet<>();
    try (Stream<Path> files = Files.walk(base.resolve(under))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = target.matcher(withoutComments(Files.readString(f)));
        while (m.find()) r.add(base.relativize(f) + " -> " + m.group(1));
      }
    }
    return r;
  }

  private static String withoutComments(String java) {
    return java.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
  }

  @Test
  void generatorAndMathKnowNoRuntimeKernelOrAbi() throws IOException {
    Pattern forbidden = Pattern.compile(Pattern.quote(LLVM) + "(runtime|kernel|abi)\\.");
    List<String> found = new ArrayList<>();
    for (String pkg : List.of("emit", "math")) found.addAll(references(llvmSources(), pkg, forbidden));
    assertEquals(List.of(), found);
  }

  @Test
  void irKnowsNoBackend() throws IOException {
    Path ir = root().resolve("ir/src/main/java");
    assertEquals(Set.of(), references(ir, "dev", Pattern.compile("dev\\.jaxc\\.(backend)\\.")));
  }

  @Test
  void planKnowsNoKernelBeyondTheAllowance() throws IOException {
    Set<String> found =
        references(llvmSources(), "plan", Pattern.compile(Pattern.quote(LLVM) + "(kernel)\\."));
    found.removeAll(PLAN_ALLOWED);
    assertEquals(Set.of(), found);
  }

  @Test
  void theCheckSeesReferences() throws IOException {
    // The kernels do use the generator; a scan that finds nothing would pass the tests above vacuously.
    Set<String> kernelToEmit =
        references(llvmSources(), "kernel", Pattern.compile(Pattern.quote(LLVM) + "(emit)\\."));
    assertTrue(kernelToEmit.size() > 10, kernelToEmit.toString());
  }
}
