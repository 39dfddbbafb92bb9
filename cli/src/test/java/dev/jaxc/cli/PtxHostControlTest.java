package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.backend.ptx.HostControl;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.ir.Program;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Control flow driven from the host on the PTX path ({@code HostControl}): the golden cases with
 * cond, while and scan, each construct forced onto the host (they are too small for the rule),
 * must become host-driven programs of the expected shape, run by the emulated launch (which
 * runs the same program as the host library) to their expected outputs, and assemble with
 * ptxas where it is on PATH. The suite's newton_while and rnn_scan are host-driven by the rule.
 */
class PtxHostControlTest {
  /** Case → the host-driven nodes its program must hold (While, Repeat, Switch), in any nesting. */
  private static final List<Object[]> CASES = List.of(
      new Object[] {"control_while_zero_iter", 1, 0, 0},   // a while that runs no iteration
      new Object[] {"control_while_collatz", 1, 0, 0},     // many iterations, odd and even counts
      new Object[] {"control_while_newton", 1, 0, 0},
      new Object[] {"control_while_cond_consts", 1, 0, 0},
      new Object[] {"control_fori_dynamic", 1, 0, 0},
      new Object[] {"control_fori_static", 0, 1, 0},
      new Object[] {"control_scan_reverse", 0, 1, 0},
      new Object[] {"control_scan_carries", 0, 1, 0},      // several carries
      new Object[] {"control_scan_consts", 0, 1, 0},
      new Object[] {"control_scan_length_only", 0, 1, 0},
      new Object[] {"control_scan_empty", 0, 0, 0},        // length 0: only the carries' copies
      new Object[] {"control_nested", 1, 1, 1},            // a scan in a cond in a while
      new Object[] {"control_hoist_nested", 0, 2, 0},      // a scan in a scan
      new Object[] {"control_switch_in_scan", 0, 1, 1},
      new Object[] {"control_switch_clamped_high", 0, 0, 1},  // index above the last branch
      new Object[] {"control_switch_clamped_low", 0, 0, 1},   // negative index
      new Object[] {"control_switch_mid", 0, 0, 1},
      new Object[] {"control_cond_true", 0, 0, 1},
      new Object[] {"control_cond_false", 0, 0, 1},
      new Object[] {"control_cond_pytree", 0, 0, 1},
      new Object[] {"autodiff_grad_scan", 0, 2, 0},
      new Object[] {"model_rnn_scan", 0, 1, 0});

  @Test
  void forcedHostControlRunsTheGoldenControlFlowCases() throws Exception {
    Optional<Path> ptxas = GpuCaseChecks.onPath("ptxas");
    Path work = Files.createTempDirectory("jaxc-ptx-cf");
    List<String> bad = new ArrayList<>();
    for (Object[] c : CASES) {
      String name = (String) c[0];
      GoldenCase g = new GoldenCase(Corpus.testdata("cases").resolve(name));
      Program lowered = GpuCaseChecks.lower(g);
      PtxCompiler.Described d = PtxCompiler.compileDescribed(lowered, "sm_80", "m", HostControl.Policy.ALWAYS);
      int[] counts = count(d.program().program());
      int[] want = {(Integer) c[1], (Integer) c[2], (Integer) c[3]};
      if (!java.util.Arrays.equals(counts, want))
        bad.add(name + ": while/repeat/switch " + java.util.Arrays.toString(counts) + ", expected " + java.util.Arrays.toString(want));
      if (ptxas.isPresent()) {
        GpuCaseChecks.ptxas(ptxas.get(), work, name, "sm_80", d.program().ptx()).ifPresent(why -> bad.add(name + ": " + why));
      }
      bad.addAll(GpuCaseChecks.emulatedDifferences(g, lowered, "m", name, HostControl.Policy.ALWAYS));
    }
    assertTrue(bad.isEmpty(), String.join("\n", bad));
  }

  @Test
  void theRuleDrivesTheSuitesLoopsFromTheHostAndKeepsTinyOnesOnTheDevice() throws Exception {
    // newton_while: f32[1048576] carried through a while; rnn_scan: 100 steps over a batch of 32
    DeviceProgram newton = compile(Corpus.root().resolve("bench/suite/cases/newton_while"), HostControl.Policy.RULE);
    assertEquals(1, count(newton.program())[0], "newton_while's while is host-driven");
    DeviceProgram rnn = compile(Corpus.root().resolve("bench/suite/cases/rnn_scan"), HostControl.Policy.RULE);
    DeviceProgram.Node.Repeat loop = (DeviceProgram.Node.Repeat) rnn.program().stream()
        .filter(n -> n instanceof DeviceProgram.Node.Repeat).findFirst().orElseThrow();
    assertEquals(100, loop.trips());
    // a tiny scalar while (3 carries of a few elements) stays one device kernel
    DeviceProgram tiny = compile(Corpus.testdata("cases").resolve("control_while_collatz"), HostControl.Policy.RULE);
    assertEquals(List.of(0, 0, 0), List.of(count(tiny.program())[0], count(tiny.program())[1], count(tiny.program())[2]));
  }

  private static DeviceProgram compile(Path caseDir, HostControl.Policy policy) throws Exception {
    return PtxCompiler.compileDescribed(GpuCaseChecks.lower(new GoldenCase(caseDir)), "sm_80", "m", policy).program();
  }

  /** How many While, Repeat and Switch nodes, at any depth. */
  private static int[] count(List<DeviceProgram.Node> nodes) {
    int[] r = new int[3];
    for (DeviceProgram.Node n : nodes) {
      List<List<DeviceProgram.Node>> inner = new ArrayList<>();
      if (n instanceof DeviceProgram.Node.While w) {
        r[0]++;
        inner.addAll(List.of(w.cond(), w.body(), w.oddExit()));
      } else if (n instanceof DeviceProgram.Node.Repeat p) {
        r[1]++;
        inner.add(p.body());
      } else if (n instanceof DeviceProgram.Node.Switch s) {
        r[2]++;
        inner.addAll(s.branches());
      }
      for (List<DeviceProgram.Node> l : inner) {
        int[] c = count(l);
        for (int k = 0; k < 3; k++) r[k] += c[k];
      }
    }
    return r;
  }
}
