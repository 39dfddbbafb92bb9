package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.emit.Facts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kernel/rng/facts.txt (gen_facts.py, JAX 0.10.2 on CPU, each program the first rng program of a
 * fresh process) holds XLA:CPU's outputs for calls 1, 2, 3, … of one jitted function: one module
 * compiled by jaxc and called as often reproduces each call bit for bit, its rng state advancing
 * as XLA's does. Every program also compiles for AArch64.
 */
class RngUniformFactsTest {
  /** A fact program and XLA's cases for its calls, in call order. */
  record Calls(String name, List<Facts.Case> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Calls> programs() throws Exception {
    Map<String, List<Facts.Case>> byName = new LinkedHashMap<>();
    for (Facts.Case c : Facts.load("/kernel/rng/facts.txt")) {
      String name = c.name().substring(0, c.name().indexOf('#'));
      byName.computeIfAbsent(name, k -> new ArrayList<>()).add(c);
    }
    return byName.entrySet().stream().filter(e -> !e.getKey().equals("threads"))
        .map(e -> new Calls(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void eachCallReproducesXlasCall(Calls p) {
    Program program = Compile.program(p.calls().get(0).jaxpr());
    try (CompiledModule m = Compiler.compile(program, TargetSpec.host(), "f")) {
      for (Facts.Case c : p.calls()) {
        List<byte[]> got = Facts.outputs(m, c);
        for (int k = 0; k < got.size(); k++)
          Facts.compareBits(c.name() + " output " + k, c.outputs().get(k).dtype(), c.outputs().get(k).data(), got.get(k));
      }
    }
    Facts.emitsObjects(p.name(), program, TargetSpec.aarch64());
  }

  /** Calls from several threads at once each get a state of their own: XLA's first 16 calls. */
  @Test
  void concurrentCallsShareOutTheStates() throws Exception {
    List<Facts.Case> calls = Facts.load("/kernel/rng/facts.txt").stream()
        .filter(c -> c.name().startsWith("threads#")).toList();
    assertEquals(16, calls.size());
    List<String> want = new ArrayList<>();
    for (Facts.Case c : calls) want.add(HexFormat.of().formatHex(c.outputs().get(0).data()));
    Facts.Case first = calls.get(0);
    try (CompiledModule m = Compiler.compile(Compile.program(first.jaxpr()), TargetSpec.host(), "f")) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<List<String>>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          workers.add(pool.submit(() -> {
            List<String> r = new ArrayList<>();
            for (int k = 0; k < 4; k++) r.add(HexFormat.of().formatHex(Facts.outputs(m, first).get(0)));
            return r;
          }));
        }
        List<String> got = new ArrayList<>();
        for (Future<List<String>> w : workers) got.addAll(w.get());
        assertEquals(want.stream().sorted().toList(), got.stream().sorted().toList());
      } finally {
        pool.shutdown();
      }
    }
  }

  @Test
  void dtypesXlaAbortsOnAreRejected() {
    Program p = Compile.program("{ lambda ; a:i8[] b:i8[]. let c:i8[3] = rng_uniform[shape=(3,)] a b in (c,) }\n");
    JaxcException e = assertThrows(JaxcException.class, () -> Compiler.compile(p, TargetSpec.host(), "f"));
    assertTrue(e.getMessage().contains("rng_uniform of int8 is not supported"), e.getMessage());
  }
}
