package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Threaded code gives the single-threaded bits. The golden cases of the categories with GEMMs,
 * convolutions, reductions, sorts, gathers, fusions (also inside loop bodies) are compiled with every region split however
 * small ({@code minWork} 1) on 4 threads, and on the run-time count (JAXC_NUM_THREADS if set, else
 * the CPUs); their outputs must be, bit for bit, those of the serial build (no thread code at all),
 * which must match expected.npz (except the listed known differences).
 */
class ThreadedGoldenTest {
  private static final Set<String> CATEGORIES =
      Set.of("dot", "conv", "nn", "model", "pool", "control", "autodiff", "reduce", "shape", "sort", "index");
  private static final List<Threading> THREADED = List.of(
      Threading.DEFAULT.withThreads(4).withMinWork(1), Threading.DEFAULT.withMinWork(1));

  /** One case's verdict: compiled at all, with parallel regions, and what differed ("" if nothing). */
  private record Verdict(boolean compiled, boolean parallel, String problem) {}

  @Test
  void splitRegionsReproduceTheSerialBits() throws Exception {
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("cases")).stream()
        .filter(c -> CATEGORIES.contains(c.dir().getFileName().toString().split("_", 2)[0])).toList();
    Map<String, String> known = Corpus.knownDifferences();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Verdict>> results = new ArrayList<>();
      for (GoldenCase c : cases) results.add(pool.submit(() -> check(c, known.containsKey(c.dir().getFileName().toString()))));
      List<String> bad = new ArrayList<>();
      int compiled = 0;
      int parallel = 0;
      for (Future<Verdict> f : results) {
        Verdict v = f.get();
        if (!v.problem().isEmpty()) bad.add(v.problem());
        if (v.compiled()) compiled++;
        if (v.parallel()) parallel++;
      }
      assertEquals(List.of(), bad);
      assertEquals(cases.size(), compiled, "cases compiled (every one must)");
      assertTrue(parallel >= 100, "only " + parallel + " of " + compiled + " cases have parallel regions");
      System.out.println("ThreadedGoldenTest: " + parallel + " of " + compiled + " cases split across threads");
    } finally {
      pool.shutdownNow();
    }
  }

  private static Verdict check(GoldenCase c, boolean knownDifference) throws Exception {
    String name = HostRun.entryName(c.dir().getFileName().toString());
    GoldenCase.Meta meta = c.meta();
    List<NpyArray> inputs = Npz.read(c.inputs());
    Program lowered;
    List<NpyArray> serial;
    try {
      lowered = HostRun.lower(new FrontEnd().run(c.model(), new TypeConfig(meta.x64(), PromotionMode.STANDARD), Phase.TYPE));
      serial = run(lowered, name, Threading.SERIAL, inputs).outputs();
    } catch (JaxcException e) {
      return new Verdict(false, false, "");
    }
    List<NpyArray> expected = Npz.read(c.expected());
    for (int k = 0; k < expected.size() && !knownDifference; k++) {
      var diff = ArrayComparison.compare(expected.get(k), serial.get(k), meta.rtol(), meta.atol());
      if (diff.isPresent()) return new Verdict(true, false, name + " serial output " + k + ": " + diff.get());
    }
    boolean parallel = false;
    for (Threading t : THREADED) {
      Run threaded = run(lowered, name, t, inputs);
      parallel |= threaded.parallel();
      for (int k = 0; k < serial.size(); k++) {
        if (!Arrays.equals(serial.get(k).data(), threaded.outputs().get(k).data()))
          return new Verdict(true, parallel, name + " output " + k + " with " + t + " differs from the serial bits");
      }
    }
    return new Verdict(true, parallel, "");
  }

  /** A module's outputs, and whether it has a parallel region (imports pthread_create). */
  private record Run(List<NpyArray> outputs, boolean parallel) {}

  private static Run run(Program lowered, String name, Threading t, List<NpyArray> inputs) throws Exception {
    try (CompiledModule m = Compiler.compile(lowered, TargetSpec.host(), name, Consts.NONE, t)) {
      return new Run(HostRun.run(m, inputs, false), m.llvmIr().contains("@pthread_create"));
    }
  }
}
