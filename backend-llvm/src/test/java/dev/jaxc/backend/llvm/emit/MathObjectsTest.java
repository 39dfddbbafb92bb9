package dev.jaxc.backend.llvm.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every transcendental primitive on every dtype (the math_facts.txt cases: f16, bf16, f32, f64,
 * c64, c128, pow with float, integer and literal exponents) compiles to objects for the baseline
 * x86-64 CPU (no SSE4.1, no FMA) and for AArch64 that import nothing but malloc and free: no
 * libm (no floor, rint, exp, pow, ...), no compiler runtime (no half-precision or fmod helpers).
 */
class MathObjectsTest {
  static List<Facts.Case> cases() throws Exception {
    return MathFactsTest.cases();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void importsOnlyMallocAndFree(Facts.Case c) {
    for (TargetSpec spec : new TargetSpec[] {TargetSpec.x86_64(), TargetSpec.aarch64()}) {
      byte[] obj;
      try (CompiledModule m = Compiler.compile(Compile.program(c.jaxpr()), spec, "f")) {
        obj = m.objectCode();
      }
      Set<String> imports = new TreeSet<>(ElfSymbols.of(obj).undefined());
      imports.removeAll(Set.of("malloc", "free"));
      assertEquals(Set.of(), imports, c.name() + " on " + spec.arch());
    }
  }
}
