package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.ir.Program;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    Optional<Path> ptxas = GpuCaseChecks.onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-gpured");
    List<String> bad = new ArrayList<>();
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("gpu-reductions"));
    assertTrue(cases.size() >= 15, "only " + cases.size() + " cases");
    try {
      for (GoldenCase c : cases) {
        String case_ = c.dir().getFileName().toString();
        String name = HostRun.entryName(case_);
        Program lowered = GpuCaseChecks.lower(c);
        for (String sm : List.of("sm_80", "sm_90")) {
          PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
          String ptx = d.program().ptx();
          if (!case_.equals("gpured_empty") && d.mapped().contains(false)) bad.add(case_ + ": a kernel runs as one thread");
          boolean warps = case_.contains("rows") || case_.contains("full") || case_.contains("softmax") || case_.contains("layernorm");
          if (warps && !ptx.contains("shfl.sync")) bad.add(case_ + ": no warp shuffle");
          if (case_.contains("full") && !(ptx.contains("bar.sync") && ptx.contains("atom."))) bad.add(case_ + ": no barrier or atomic");
          if (ptxas.isEmpty()) continue;
          GpuCaseChecks.ptxas(ptxas.get(), work, name, sm, ptx).ifPresent(why -> bad.add(case_ + ": " + why));
        }
        bad.addAll(GpuCaseChecks.emulatedDifferences(c, lowered, name, case_));
      }
    } finally {
      Files.deleteIfExists(work);
    }
    assertEquals(List.of(), bad);
  }
}
