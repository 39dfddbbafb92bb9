package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The PTX path over the whole golden corpus. Each case is lowered once, compiled to PTX for sm_80
 * and sm_90, which must call no function outside the module and which the real {@code ptxas} must accept (the test says so and skips that half where
 * ptxas is not on PATH), and run by the emulated launch, whose outputs must match expected.npz
 * within the case's tolerances, except the cases listed with their reason in
 * testdata/known-differences-ptx.txt, which must fail (a listed case that passes is an error too).
 * Each listed case must instead match XLA:GPU's own outputs for it, recorded on a real GPU in
 * testdata/gpu-expected/NAME/expected.npz (testdata/generate_gpu_expected.py), within the same
 * tolerances: so the differences are proved to be XLA:GPU's behaviour, not merely listed.
 */
class PtxCorpusTest {
  private static final List<String> ARCHS = List.of("sm_80", "sm_90");

  /** What one case gave: an emulation problem ("" if none), whether it failed, its ptxas runs. */
  private record Verdict(String name, boolean compiled, boolean failed, String problem, String gpuProblem,
      List<Process> ptxas, List<Path> files, int kernels, int mapped, List<String> single) {}

  @Test
  void everyCaseCompilesPassesPtxasAndEmulates() throws Exception {
    Map<String, String> known = knownDifferences();
    Optional<Path> ptxas = GpuCaseChecks.onPath("ptxas");
    if (ptxas.isEmpty()) System.out.println("PtxCorpusTest: ptxas is not on PATH: the PTX is not assembled (emulation only)");
    Path work = Files.createTempDirectory("jaxc-ptx");
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("cases"));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Verdict>> results = new ArrayList<>();
      for (GoldenCase c : cases) results.add(pool.submit(() -> check(c, work, ptxas)));
      List<String> bad = new ArrayList<>();
      int compiled = 0;
      int passed = 0;
      int assembled = 0;
      int kernels = 0;
      int mapped = 0;
      Map<String, Integer> single = new TreeMap<>();
      for (Future<Verdict> f : results) {
        Verdict v = f.get();
        if (!v.compiled()) continue;
        compiled++;
        kernels += v.kernels();
        mapped += v.mapped();
        for (String step : v.single()) single.merge(step.replaceAll(" of \\d+ roots?", ""), 1, Integer::sum);
        boolean listed = known.containsKey(v.name());
        if (v.failed() && !listed) bad.add(v.name() + ": " + v.problem());
        if (!v.failed() && listed) bad.add(v.name() + ": passes; remove it from known-differences-ptx.txt");
        if (listed && !v.gpuProblem().isEmpty()) bad.add(v.name() + ": against XLA:GPU's outputs: " + v.gpuProblem());
        if (!v.failed()) passed++;
        for (int k = 0; k < v.ptxas().size(); k++) {
          Process p = v.ptxas().get(k);
          if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            bad.add(v.name() + ": ptxas " + ARCHS.get(k) + " did not finish");
          } else if (p.exitValue() != 0) {
            bad.add(v.name() + ": ptxas -arch=" + ARCHS.get(k) + " rejects the PTX: "
                + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().replace('\n', ' '));
          } else {
            assembled++;
          }
        }
        for (Path file : v.files()) Files.deleteIfExists(file);
      }
      assertEquals(List.of(), bad);
      assertEquals(results.size(), compiled, "cases compiled for ptx (every one must)");
      System.out.println("PtxCorpusTest: " + compiled + " cases compiled for ptx, " + passed + " passed emulated, "
          + (compiled - passed) + " known differences; ptxas accepted " + assembled + " modules (sm_80, sm_90); "
          + mapped + " of " + kernels + " kernels grid-mapped; one-thread kernels by step: " + single);
    } finally {
      pool.shutdownNow();
      try (var s = Files.list(work)) {
        for (Path p : s.toList()) Files.deleteIfExists(p);
      }
      Files.deleteIfExists(work);
    }
  }

  private static Verdict check(GoldenCase c, Path work, Optional<Path> ptxas) throws Exception {
    String case_ = c.dir().getFileName().toString();
    String name = HostRun.entryName(case_);
    GoldenCase.Meta meta = c.meta();
    Program lowered;
    List<Process> runs = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    int kernels = 0;
    int mapped = 0;
    List<String> single = new ArrayList<>();
    try {
      lowered = HostRun.lower(new FrontEnd().run(c.model(), new TypeConfig(meta.x64(), PromotionMode.STANDARD), Phase.TYPE));
      for (String sm : ARCHS) {
        PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
        DeviceProgram p = d.program();
        // Device code calls nothing outside its module (no C library, no thread runtime).
        if (p.ptx().contains(".extern")) throw new AssertionError(case_ + ": the PTX declares an external function");
        if (sm.equals(ARCHS.get(0))) {
          kernels = p.launches().size();
          for (int k = 0; k < kernels; k++) {
            if (d.mapped().get(k)) mapped++;
            else single.add(d.steps().get(k));
          }
        }
        if (ptxas.isEmpty()) continue;
        Path file = work.resolve(name + "." + sm + ".ptx");
        Files.writeString(file, p.ptx());
        files.add(file);
        runs.add(new ProcessBuilder(ptxas.get().toString(), "-arch=" + sm, file.toString(), "-o", "/dev/null")
            .redirectErrorStream(true).start());
      }
    } catch (JaxcException e) {
      if (e.getMessage().startsWith("unsupported ")) return new Verdict(case_, false, false, "", "", runs, files, 0, 0, single);
      throw e;
    }
    List<NpyArray> actual = HostRun.runEmulated(lowered, name, "sm_80", Npz.read(c.inputs()));
    String problem = difference(Npz.read(c.expected()), actual, meta);
    Path gpu = Corpus.testdata("gpu-expected").resolve(case_).resolve("expected.npz");
    String gpuProblem = Files.exists(gpu) ? difference(Npz.read(gpu), actual, meta) : "no " + gpu;
    return new Verdict(case_, true, !problem.isEmpty(), problem, gpuProblem, runs, files, kernels, mapped, single);
  }

  /** "" when {@code actual} matches {@code expected} within the case's tolerances, else the first difference. */
  private static String difference(List<NpyArray> expected, List<NpyArray> actual, GoldenCase.Meta meta) {
    if (actual.size() != expected.size()) return actual.size() + " outputs, expected " + expected.size();
    for (int k = 0; k < expected.size(); k++) {
      Optional<String> diff = ArrayComparison.compare(expected.get(k), actual.get(k), meta.rtol(), meta.atol());
      if (diff.isPresent()) return "output " + k + ": " + diff.get();
    }
    return "";
  }

  /** testdata/known-differences-ptx.txt: case name → why the emulated PTX path differs from JAX there. */
  private static Map<String, String> knownDifferences() {
    try {
      Map<String, String> r = new TreeMap<>();
      for (String line : Files.readAllLines(Corpus.root().resolve("testdata/known-differences-ptx.txt"))) {
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
}
