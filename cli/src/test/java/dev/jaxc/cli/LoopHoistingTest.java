package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the lowering pipeline's loop-invariant hoisting moved, on the golden cases written for it
 * (their results are checked against JAX by the golden corpus; this checks that the work left the
 * loop).
 */
class LoopHoistingTest {
  private static Jaxpr lowered(String name) throws Exception {
    Program typed =
        TypePass.run(
            JaxprParser.parse(Corpus.testdata("cases").resolve(name).resolve("model.jaxpr")),
            TypeConfig.DEFAULT,
            new Diagnostics());
    return HostRun.lower(typed).main();
  }

  private static Eqn only(Jaxpr j, String primitive) {
    List<Eqn> es = j.eqns().stream().filter(e -> e.primitive().equals(primitive)).toList();
    assertEquals(1, es.size(), "one " + primitive + " in " + prims(j));
    return es.get(0);
  }

  private static List<String> prims(Jaxpr j) {
    return j.eqns().stream().map(Eqn::primitive).toList();
  }

  @Test
  void scanBodyLosesTransposesAndExp() throws Exception {
    Jaxpr main = lowered("control_hoist_scan_transpose");
    Eqn scan = only(main, "scan");
    Jaxpr body = scan.params().getJaxpr("jaxpr");
    // x_t @ W.T left too (ScanMapHoisting): its product over all of xs is a new xs, so the body
    // keeps h @ U.T only.
    assertEquals(List.of("dot_general", "add", "add", "tanh", "reduce_sum"), prims(body));
    // The transposes W.T and U.T are folded into the dots that read them (TransposeFolding, before
    // hoisting), so none is left. U and broadcast(exp(b) * 0.5) are the consts; W and b, read only
    // by the moved work, are no longer passed, nor is xs (read only by the moved product).
    assertEquals(2, scan.params().getInt("num_consts"));
    assertEquals(2 + 1 + 1, body.invars().size());
    assertEquals(List.of("exp", "mul", "broadcast_in_dim", "dot_general", "scan"), prims(main));
  }

  @Test
  void whileCondAndBodyLoseTheirConstantWork() throws Exception {
    Jaxpr main = lowered("control_hoist_while_exp");
    Eqn loop = only(main, "while");
    Jaxpr cond = loop.params().getJaxpr("cond_jaxpr");
    Jaxpr body = loop.params().getJaxpr("body_jaxpr");
    assertFalse(prims(cond).contains("exp"), prims(cond).toString());
    assertFalse(prims(body).contains("exp"), prims(body).toString());
    assertFalse(prims(body).contains("log1p"), prims(body).toString());
    assertEquals(List.of("mul", "add", "add"), prims(body));
    // cond: sum(exp(a)) * 4 is its one const; body: exp(-|a|) and log1p(a * a) are its two (a
    // itself is no longer passed).
    assertEquals(List.of("lt", "abs", "reduce_max", "lt", "and"), prims(cond));
    assertEquals(1, loop.params().getInt("cond_nconsts"));
    assertEquals(2, loop.params().getInt("body_nconsts"));
    assertEquals(
        loop.params().getInt("cond_nconsts") + loop.params().getInt("body_nconsts") + 2,
        loop.ins().size());
  }

  @Test
  void workInvariantInBothLoopsLeavesBoth() throws Exception {
    Jaxpr main = lowered("control_hoist_nested");
    assertTrue(prims(main).contains("cos"), prims(main).toString());
    assertTrue(prims(main).contains("dot_general"), prims(main).toString());
    Jaxpr outerBody = only(main, "scan").params().getJaxpr("jaxpr");
    assertFalse(prims(outerBody).contains("cos"), prims(outerBody).toString());
    assertFalse(prims(outerBody).contains("dot_general"), prims(outerBody).toString());
  }

  @Test
  void aBroadcastThatWouldGrowStaysInTheLoop() throws Exception {
    Jaxpr main = lowered("control_hoist_no_big_broadcast");
    Jaxpr body = only(main, "scan").params().getJaxpr("jaxpr");
    assertEquals(List.of("sin", "scan"), prims(main).subList(prims(main).size() - 2, prims(main).size()));
    assertTrue(prims(body).contains("broadcast_in_dim"), prims(body).toString());
    assertFalse(prims(body).contains("sin"), prims(body).toString());
  }
}
