package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.ir.Program;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The primitives that moved from one GPU thread onto the grid (a thread per result element, line
 * or update: reduce_window, select_and_gather_add, cumulative ops, dynamic_update_slice, argmax
 * and argmin, order-free scatters, sort and top_k, rng_uniform) on
 * testdata/gpu-grid, golden cases from real JAX (testdata/generate_gpu.py) whose shapes span
 * several 256-thread blocks with a ragged last one: each case's PTX must assemble with ptxas for
 * sm_80 and sm_90 (where ptxas is on PATH), every kernel of those primitives must be grid-mapped
 * (or block-cooperative) and each case must have one of at least 256 threads, integer scatters
 * must use atomics, sorts barriers (a bitonic network per row), and the emulated launch, which runs every thread of the grid with its own
 * indices, must reproduce JAX's outputs within the case's tolerances: a thread computing
 * another's element, a line scanned in another order, an argmax tie or NaN resolved by thread
 * order, an update lost between threads, or a compare-exchange out of step, fails.
 */
class GpuGridCasesTest {
  /** Steps (as {@code Kernels.describe} names them) that must run on the grid. */
  private static final Set<String> GRID = Set.of("reduce_window", "reduce_window_sum", "reduce_window_max",
      "reduce_window_min", "select_and_gather_add", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp",
      "dynamic_update_slice", "argmax", "argmin", "scatter", "scatter-add", "scatter-sub", "scatter-mul",
      "scatter-min", "scatter-max", "select_and_scatter_add", "sort", "top_k", "rng_uniform");

  @Test
  void everyCaseAssemblesRunsOnTheGridAndMatchesJax() throws Exception {
    Optional<Path> ptxas = GpuCaseChecks.onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-gpugrid");
    List<String> bad = new ArrayList<>();
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("gpu-grid"));
    assertTrue(cases.size() >= 8, "only " + cases.size() + " cases");
    try {
      for (GoldenCase c : cases) {
        String case_ = c.dir().getFileName().toString();
        String name = HostRun.entryName(case_);
        Program lowered = GpuCaseChecks.lower(c);
        for (String sm : List.of("sm_80", "sm_90")) {
          PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
          List<DeviceProgram.Launch> launches = d.program().launches();
          long widest = 0;
          for (int k = 0; k < launches.size(); k++) {
            if (!GRID.contains(d.steps().get(k))) continue;
            if (!d.mapped().get(k)) bad.add(case_ + ": " + d.steps().get(k) + " runs as one thread");
            else widest = Math.max(widest, (long) launches.get(k).gridX() * launches.get(k).blockX());
          }
          if (widest < 256) bad.add(case_ + ": no grid kernel of these primitives has 256 threads");
          if (case_.contains("atomic") && !d.program().ptx().contains("atom.") && !d.program().ptx().contains("red."))
            bad.add(case_ + ": no atomic");
          if ((case_.contains("sort") || case_.contains("top_k")) && !d.program().ptx().contains("bar.sync"))
            bad.add(case_ + ": no block-cooperative sort (barriers)");
          if (ptxas.isEmpty()) continue;
          GpuCaseChecks.ptxas(ptxas.get(), work, name, sm, d.program().ptx()).ifPresent(why -> bad.add(case_ + ": " + why));
        }
        bad.addAll(GpuCaseChecks.emulatedDifferences(c, lowered, name, case_));
      }
    } finally {
      Files.deleteIfExists(work);
    }
    assertEquals(List.of(), bad);
  }
}
