package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The GPU reduction kernels (warp per row, grid of blocks with a last-block combine, thread per
 * column) on testdata/gpu-reductions, golden cases from real JAX (testdata/generate_gpu.py) whose
 * shapes are ragged against the kernels' warps and blocks: each case's PTX must assemble with
 * ptxas for sm_80 and sm_90 (where ptxas is on PATH), its kernels must be the cooperative ones
 * (warp shuffles; barriers and an atomic for full reductions; no kernel left to one thread), and
 * the emulated launch, which runs each barrier- and shuffle-delimited phase for every thread of a
 * block before the next, must reproduce JAX's outputs within the case's tolerances: a shuffle or
 * broadcast emulated wrongly gives wrong row results.
 */
class GpuReductionCasesTest {
  @Test
  void everyCaseAssemblesUsesTheBlockKernelsAndMatchesJax() throws Exception {
    Optional<Path> ptxas = onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-gpured");
    List<String> bad = new ArrayList<>();
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("gpu-reductions"));
    assertTrue(cases.size() >= 15, "only " + cases.size() + " cases");
    try {
      for (GoldenCase c : cases) {
        String case_ = c.dir().getFileName().toString();
        String name = HostRun.entryName(case_);
        GoldenCase.Meta meta = c.meta();
        Program lowered = HostRun.lower(new FrontEnd().run(c.model(), new TypeConfig(meta.x64(), PromotionMode.STANDARD), Phase.TYPE));
        for (String sm : List.of("sm_80", "sm_90")) {
          PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
          String ptx = d.program().ptx();
          if (!case_.equals("gpured_empty") && d.mapped().contains(false)) bad.add(case_ + ": a kernel runs as one thread");
          boolean warps = case_.contains("rows") || case_.contains("full") || case_.contains("softmax") || case_.contains("layernorm");
          if (warps && !ptx.contains("shfl.sync")) bad.add(case_ + ": no warp shuffle");
          if (case_.contains("full") && !(ptx.contains("bar.sync") && ptx.contains("atom."))) bad.add(case_ + ": no barrier or atomic");
          if (ptxas.isEmpty()) continue;
          Path file = work.resolve(name + "." + sm + ".ptx");
          Files.writeString(file, ptx);
          Process p = new ProcessBuilder(ptxas.get().toString(), "-arch=" + sm, file.toString(), "-o", "/dev/null")
              .redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) bad.add(case_ + ": ptxas " + sm + ": " + out.strip());
          Files.deleteIfExists(file);
        }
        List<NpyArray> actual = HostRun.runEmulated(lowered, name, "sm_80", Npz.read(c.inputs()));
        List<NpyArray> expected = Npz.read(c.expected());
        if (actual.size() != expected.size()) bad.add(case_ + ": " + actual.size() + " outputs");
        for (int k = 0; k < expected.size() && k < actual.size(); k++) {
          Optional<String> diff = ArrayComparison.compare(expected.get(k), actual.get(k), meta.rtol(), meta.atol());
          if (diff.isPresent()) bad.add(case_ + ": output " + k + ": " + diff.get());
        }
      }
    } finally {
      Files.deleteIfExists(work);
    }
    assertEquals(List.of(), bad);
  }

  private static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) return Optional.empty();
    for (String dir : path.split(File.pathSeparator)) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) return Optional.of(p);
    }
    return Optional.empty();
  }
}
