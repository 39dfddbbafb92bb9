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
 * The GPU's tiled GEMM kernel (shared-memory tiles, a register tile per thread, batch dims on the
 * grid) on testdata/gpu-gemm, golden cases from real JAX (testdata/generate_gpu_gemm.py) whose
 * M, N and K are ragged against the kernel's 64 × 64 tiles and slices of 16, with transposed
 * operands, batch dims, fused producers, f16/bf16/f64/integer/complex operands and convolutions:
 * each case's PTX must assemble with ptxas for sm_80 and sm_90 (where ptxas is on PATH), its
 * contraction kernels must be the cooperative one (barriers, shared loads; no kernel left to one
 * thread), and the emulated launch, which runs each barrier-delimited phase for every thread of a
 * block before the next, must reproduce JAX's outputs within the case's tolerances: a tile edge,
 * slice edge or operand index decoded wrongly gives wrong elements. The cases are small, so the
 * rule picks 32 × 32 tiles for them; each is run again with the 128 × 128 and 64 × 64 tiles forced
 * ({@code jaxc.ptx.gemmTile}) and with 3 × 5 outputs per thread.
 */
class GpuGemmCasesTest {
  @Test
  void everyCaseAssemblesUsesTheTiledKernelAndMatchesJax() throws Exception {
    Optional<Path> ptxas = onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-gpugemm");
    List<String> bad = new ArrayList<>();
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("gpu-gemm"));
    assertTrue(cases.size() >= 12, "only " + cases.size() + " cases");
    try {
      for (String tile : new String[] {null, "8x8", "4x4", "3x5"}) {
        if (tile == null) System.clearProperty("jaxc.ptx.gemmTile");
        else System.setProperty("jaxc.ptx.gemmTile", tile);
        for (GoldenCase c : cases) bad.addAll(check(c, work, ptxas, tile == null ? "" : " (tile " + tile + ")"));
      }
    } finally {
      System.clearProperty("jaxc.ptx.gemmTile");
      Files.deleteIfExists(work);
    }
    assertEquals(List.of(), bad);
  }

  private static List<String> check(GoldenCase c, Path work, Optional<Path> ptxas, String tile) throws Exception {
    List<String> bad = new ArrayList<>();
    String case_ = c.dir().getFileName().toString() + tile;
    String name = HostRun.entryName(c.dir().getFileName().toString());
    GoldenCase.Meta meta = c.meta();
    Program lowered = HostRun.lower(new FrontEnd().run(c.model(), new TypeConfig(meta.x64(), PromotionMode.STANDARD), Phase.TYPE));
    for (String sm : List.of("sm_80", "sm_90")) {
      PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
      String ptx = d.program().ptx();
      if (d.mapped().contains(false)) bad.add(case_ + ": a kernel runs as one thread");
      boolean tiled = false;
      for (int k = 0; k < d.steps().size(); k++) {
        String step = d.steps().get(k);
        if (step.equals("dot_general") || step.equals("conv_general_dilated")) tiled = true;
      }
      if (!tiled) bad.add(case_ + ": no contraction kernel");
      if (!(ptx.contains("bar.sync") && ptx.contains("ld.shared"))) bad.add(case_ + ": no barrier or shared load");
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
    return bad;
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
