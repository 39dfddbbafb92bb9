package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.ir.Program;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The schedule as one function per step, called from the entry point, with identical steps
 * (the repeated layers of a model) sharing one function. Results are checked by the golden
 * corpus; this checks the structure, in the optimised module's IR.
 */
class StepFunctionsTest {
  /**
   * Three layers (a dot, then tanh and a reversal of the rows, a fusion step of its own: the
   * reversal reads the tanh at another index, so neither runs in the dot's store); the first
   * reads inputs, the others temporaries. The fusions of the first and second layers are the same
   * function (a GEMM step is not shared: its loops carry distinct llvm.loop IDs, so their text
   * differs).
   */
  private static final String LAYERS = """
      { lambda ; x:f32[4,8,32] w1:f32[32,32] w2:f32[32,32] w3:f32[32,32]. let
          a:f32[4,8,32] = dot_general[dimension_numbers=(([2], [0]), ([], [])) preferred_element_type=float32] x w1
          b:f32[4,8,32] = tanh a
          t:f32[4,8,32] = rev[dimensions=(1,)] b
          c:f32[4,8,32] = dot_general[dimension_numbers=(([2], [0]), ([], [])) preferred_element_type=float32] t w2
          d:f32[4,8,32] = tanh c
          u:f32[4,8,32] = rev[dimensions=(1,)] d
          e:f32[4,8,32] = dot_general[dimension_numbers=(([2], [0]), ([], [])) preferred_element_type=float32] u w3
          f:f32[4,8,32] = tanh e
          v:f32[4,8,32] = rev[dimensions=(1,)] f
          g:f32[4,8,32] = add v 1.0:f32[]
        in (g,) }
      """;

  @Test
  void everyStepIsACallAndRepeatedLayersShareFunctions() {
    Program p = Compile.program(LAYERS);
    int steps = Planner.plan(p.main(), CpuBackendRules.CPU).steps().size();
    try (CompiledModule m = Compiler.compile(p, TargetSpec.x86_64(), "f")) {
      String ir = m.llvmIr();
      Map<String, Integer> calls = new HashMap<>();
      Matcher call = Pattern.compile("call [^@]*@(f\\.step\\.\\d+)\\(").matcher(ir);
      while (call.find()) calls.merge(call.group(1), 1, Integer::sum);
      int total = calls.values().stream().mapToInt(Integer::intValue).sum();
      assertEquals(steps, total, ir);
      Matcher def = Pattern.compile("define internal [^@]*@(f\\.step\\.\\d+)\\(").matcher(ir);
      int defined = 0;
      while (def.find()) defined++;
      assertEquals(calls.size(), defined, ir);
      // The first and second layers' fusions are the same function.
      assertTrue(calls.values().stream().anyMatch(n -> n >= 2), calls + "\n" + ir);
      assertTrue(defined < steps, defined + " functions for " + steps + " steps");
    }
  }

  @Test
  void twoCompilationsGiveTheSameModule() {
    Program p = Compile.program(LAYERS);
    try (CompiledModule a = Compiler.compile(p, TargetSpec.x86_64(), "f");
        CompiledModule b = Compiler.compile(Compile.program(LAYERS), TargetSpec.x86_64(), "f")) {
      assertEquals(a.llvmIr(), b.llvmIr());
    }
  }
}
