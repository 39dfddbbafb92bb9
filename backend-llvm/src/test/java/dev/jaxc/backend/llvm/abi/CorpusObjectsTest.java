package dev.jaxc.backend.llvm.abi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every golden case the backend compiles also compiles, verifies and emits for the baseline
 * x86-64 and AArch64 targets; the objects define exactly the C ABI's functions (the contract's
 * three, the workspace pair and the thread-count setter) and need nothing from outside but malloc
 * and free and, where work is split across threads, the thread runtime's pthread_create,
 * pthread_join, getenv, sysconf and syscall (no libm, no compiler runtime);
 * and compiling twice gives byte-identical objects.
 */
class CorpusObjectsTest {
  private static final Set<String> ALLOWED_IMPORTS = allowedImports();

  /** malloc and free; the thread runtime's functions where work is split (ThreadImportsTest). */
  private static Set<String> allowedImports() {
    Set<String> s = new TreeSet<>(List.of("malloc", "free"));
    s.addAll(Libc.THREAD_SYMBOLS);
    return s;
  }

  static Path casesDir() {
    String root = System.getProperty("jaxc.root");
    Path p = root != null && !root.isBlank() && !root.startsWith("$") ? Path.of(root) : Path.of("").toAbsolutePath();
    for (Path q = p; q != null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve("testdata/cases"))) return q.resolve("testdata/cases");
    }
    return null;
  }

  @Test
  void everySupportedCaseEmitsCleanObjectsForBothTargets() throws Exception {
    Path cases = casesDir();
    assumeTrue(cases != null, "no testdata/cases above " + Path.of("").toAbsolutePath());
    List<Path> models;
    try (Stream<Path> s = Files.list(cases)) {
      models = s.map(d -> d.resolve("model.jaxpr")).filter(Files::isRegularFile).sorted().toList();
    }
    int compiled = 0;
    List<String> problems = new ArrayList<>();
    for (Path model : models) {
      String name = model.getParent().getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_");
      Program p;
      try {
        p = Compile.program(Files.readString(model));
        Compiler.compile(p, TargetSpec.x86_64(), name).close();
      } catch (JaxcException e) {
        problems.add(model.getParent().getFileName() + ": " + e.getMessage());
        continue;
      }
      compiled++;
      for (TargetSpec spec : new TargetSpec[] {TargetSpec.x86_64(), TargetSpec.aarch64()}) {
        byte[] obj;
        try (CompiledModule m = Compiler.compile(p, spec, name)) {
          obj = m.objectCode();
        }
        ElfSymbols syms = ElfSymbols.of(obj);
        assertEquals(spec.arch() == TargetSpec.Arch.X86_64 ? 62 : 183, syms.machine(), model.toString());
        Set<String> imports = new TreeSet<>(syms.undefined());
        imports.removeAll(ALLOWED_IMPORTS);
        if (!imports.isEmpty()) problems.add(model.getParent().getFileName() + " " + spec.arch() + " imports " + imports);
        assertEquals(new TreeSet<>(List.of(name, name + "_num_inputs", name + "_num_outputs", name + "_workspace_size",
            name + "_with_workspace", name + "_set_num_threads")),
            new TreeSet<>(syms.defined()), model.toString());
        if (compiled % 16 == 1) {
          try (CompiledModule again = Compiler.compile(Compile.program(Files.readString(model)), spec, name)) {
            assertArrayEquals(obj, again.objectCode(), model + ": emission is not deterministic");
          }
        }
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(models.size(), compiled, "cases compiled (every one must)");
    System.out.println("CorpusObjectsTest: " + compiled + " of " + models.size() + " cases emitted for x86_64 and aarch64");
  }
}
