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
 * ({@code jaxc.ptx.gemmTile}) and with 3 × 5 outputs per thread. The f16 and bf16 products (and
 * f32 ones of 128^3, or all with 3xTF32 forced by {@code jaxc.ptx.f32Gemm}) must run on tensor
 * cores on sm_80 and sm_90 (the full {@code mma.sync} mnemonic in the PTX: a misspelt intrinsic
 * would leave a call) and not on sm_70, whose PTX ptxas must accept too; the emulation runs each
 * {@code mma.sync} as the warp's collective operation on the lanes' fragment registers, so a
 * fragment loaded into the wrong register gives wrong sums. gpugemm_tc_split's products have few
 * output tiles and a long K, so by default the kernel splits K across blocks (each tile's last
 * block adds the parts in order); a part's range or the partials' indexing decoded wrongly gives
 * wrong sums.
 */
class GpuGemmCasesTest {
  @Test
  void everyCaseAssemblesUsesTheTiledKernelAndMatchesJax() throws Exception {
    Optional<Path> ptxas = GpuCaseChecks.onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-gpugemm");
    List<String> bad = new ArrayList<>();
    List<GoldenCase> cases = GoldenCase.find(Corpus.testdata("gpu-gemm"));
    assertTrue(cases.size() >= 19, "only " + cases.size() + " cases");
    try {
      String[][] configs = {{null, null}, {"8x8", null}, {"4x4", null}, {"3x5", null}, {null, "3xtf32"},
          {"8x8", "3xtf32"}, {"4x4", "3xtf32"}, {null, null, "v1"}, {null, "3xtf32", "v1"}};
      for (String[] config : configs) {
        set("jaxc.ptx.gemmTile", config[0]);
        set("jaxc.ptx.f32Gemm", config[1]);
        set("jaxc.ptx.mma", config.length > 2 ? config[2] : null);
        String label = (config[0] == null ? "" : " (tile " + config[0] + ")") + (config[1] == null ? "" : " (" + config[1] + ")")
            + (config.length > 2 ? " (mma " + config[2] + ")" : "");
        for (GoldenCase c : cases) bad.addAll(check(c, work, ptxas, label, config[1] != null));
      }
    } finally {
      System.clearProperty("jaxc.ptx.gemmTile");
      System.clearProperty("jaxc.ptx.f32Gemm");
      System.clearProperty("jaxc.ptx.mma");
      Files.deleteIfExists(work);
    }
    assertEquals(List.of(), bad);
  }

  private static void set(String property, String value) {
    if (value == null) System.clearProperty(property);
    else System.setProperty(property, value);
  }

  private static final String F16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
  private static final String BF16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
  private static final String TF32 = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";

  /** The tensor-core instructions a case's PTX must hold on sm_80 and newer. */
  private static List<String> instructions(String name, boolean tf32Forced) {
    List<String> want = new ArrayList<>();
    if (name.equals("gpugemm_f16") || name.equals("gpugemm_tc_f16") || name.equals("gpugemm_tc_conv")
        || name.equals("gpugemm_tc_split")) want.add(F16);
    if (name.equals("gpugemm_bf16") || name.equals("gpugemm_tc_bf16") || name.equals("gpugemm_tc_split")) want.add(BF16);
    // Every case with an f32 product (K > 1) where 3xTF32 is forced.
    List<String> noF32 = List.of("gpugemm_f16", "gpugemm_bf16", "gpugemm_f64", "gpugemm_int", "gpugemm_c64", "gpugemm_tc_f16",
        "gpugemm_tc_bf16");
    // By default 3xTF32 takes f32 products of 2^21+ multiply-adds below the SIMT kernel's largest tiles.
    if (name.equals("gpugemm_tc_f32_large") || name.equals("gpugemm_tc_split") || (tf32Forced && !noF32.contains(name)))
      want.add(TF32);
    return want;
  }

  private static List<String> check(GoldenCase c, Path work, Optional<Path> ptxas, String tile, boolean tf32Forced)
      throws Exception {
    List<String> bad = new ArrayList<>();
    String case_ = c.dir().getFileName().toString() + tile;
    List<String> want = instructions(c.dir().getFileName().toString(), tf32Forced);
    String name = HostRun.entryName(c.dir().getFileName().toString());
    Program lowered = GpuCaseChecks.lower(c);
    for (String sm : tile.isEmpty() ? List.of("sm_70", "sm_80", "sm_90") : List.of("sm_80", "sm_90")) {
      PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, sm, name);
      String ptx = d.program().ptx();
      for (String mma : List.of(F16, BF16, TF32)) {
        boolean wanted = want.contains(mma) && !sm.equals("sm_70");
        if (ptx.contains(mma) != wanted) bad.add(case_ + ": " + sm + (wanted ? " lacks " : " has ") + mma);
      }
      if (d.mapped().contains(false)) bad.add(case_ + ": a kernel runs as one thread");
      // Few output tiles and a long K: the tensor-core kernel splits K, its blocks counting the parts done.
      if (case_.equals("gpugemm_tc_split") && !sm.equals("sm_70") && !ptx.contains("atom.global.add.u32"))
        bad.add(case_ + ": " + sm + " does not split K");
      boolean tiled = false;
      for (int k = 0; k < d.steps().size(); k++) {
        String step = d.steps().get(k);
        if (step.equals("dot_general") || step.equals("conv_general_dilated")) tiled = true;
      }
      if (!tiled) bad.add(case_ + ": no contraction kernel");
      if (!(ptx.contains("bar.sync") && (ptx.contains("ld.shared") || ptx.contains("ldmatrix"))))
        bad.add(case_ + ": no barrier or shared load");
      // The current kernel loads f16/bf16 fragments with ldmatrix (the first, jaxc.ptx.mma=v1, per register).
      boolean halves = (want.contains(F16) || want.contains(BF16)) && !sm.equals("sm_70");
      boolean v1 = "v1".equals(System.getProperty("jaxc.ptx.mma"));
      if (halves && ptx.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == v1)
        bad.add(case_ + ": " + sm + (v1 ? " has" : " lacks") + " ldmatrix");
      // The CUDA 13 ptxas knows no sm_70: its PTX is checked for the absence of mma.sync only.
      if (ptxas.isEmpty() || sm.equals("sm_70")) continue;
      GpuCaseChecks.ptxas(ptxas.get(), work, name, sm, ptx).ifPresent(why -> bad.add(case_ + ": " + why));
    }
    bad.addAll(GpuCaseChecks.emulatedDifferences(c, lowered, name, case_));
    return bad;
  }
}
