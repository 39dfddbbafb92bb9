package dev.jaxc.backend.llvm.plan;

import dev.jaxc.backend.llvm.CpuBackendRules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.types.TypeConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nested plans of cond, while and scan: the step's workspace region (own buffers first, each
 * 64-byte aligned, then the largest body workspace) is placed like a temporary live for the step
 * only, and the bodies' temporaries sit inside it at absolute offsets.
 */
class ControlFlowPlannerTest {
  private static Jaxpr typed(String text) {
    return TypePass.run(JaxprParser.parse("t.jaxpr", text), TypeConfig.DEFAULT, new Diagnostics()).main();
  }

  private static Plan planAll(Jaxpr j) {
    return Planner.plan(j, new CpuBackendRules(p -> true));
  }

  private static long offset(Plan p, Var v) {
    return ((Buffer.Temp) p.buffer(v)).offset();
  }

  @Test
  void whileRegionHoldsSparesPredicateAndBodyTemporaries() {
    Jaxpr j = typed("""
        { lambda ; a:f32[16] n:i32[]. let
            t:f32[16] = div a a
            i:i32[] r:f32[16] = while[
              body_jaxpr={ lambda ; c:i32[] x:f32[16]. let
                  d:i32[] = add c 1:i32[]
                  y:f32[16] = div x x
                  z:f32[16] = rev[dimensions=(0,)] y
                  w:f32[16] = div y z
                in (d, w) }
              body_nconsts=0
              cond_jaxpr={ lambda ; m:i32[] c:i32[] x:f32[16]. let
                  k:bool[] = lt c m
                in (k,) }
              cond_nconsts=1
            ] n 0:i32[] t
            u:f32[16] = add r t
          in (i, u) }
        """);
    Plan p = planAll(j);
    Eqn loop = j.eqns().get(1);
    Var t = j.eqns().get(0).outs().get(0);
    Var r = loop.outs().get(1);
    assertEquals(List.of(new Step.Fusion(List.of(t)), new Step.Kernel(loop), new Step.Fusion(List.of(j.eqns().get(2).outs().get(0)))),
        p.steps());
    // t lives across the loop (steps 0..2), r from the loop on (1..2): 64 bytes each.
    assertEquals(0, offset(p, t));
    assertEquals(64, offset(p, r));
    ControlFlowPlan.While w = assertInstanceOf(ControlFlowPlan.While.class, p.controlFlow(loop));
    // Region at 128: spares of i (i32[]) and r (f32[16]), the predicate, then the body's y.
    assertEquals(List.of(128L, 192L), w.spares().stream().map(Buffer.Temp::offset).toList());
    assertEquals(256, w.predicate().offset());
    assertFalse(w.batched());
    Var y = w.body().jaxpr().eqns().get(1).outs().get(0);
    assertEquals(320, offset(w.body(), y));
    assertEquals(0, w.cond().workspaceBytes());
    assertEquals(64, w.body().workspaceBytes());
    assertEquals(256, w.bytes());
    assertEquals(384, p.workspaceBytes());
    assertEquals(List.of(0L, 64L, 128L, 192L, 256L, 320L), p.workspaceBuffers().stream().map(Buffer.Temp::offset).toList());
  }

  @Test
  void condReservesTheLargestBranchNotTheSum() {
    Jaxpr j = typed("""
        { lambda ; i:i32[] a:f32[32] b:f32[64]. let
            c:f32[32] = cond[
              branches=(
                { lambda ; x:f32[32] y:f32[64]. let
                    s:f32[32] = div x x
                    e:f32[32] = rev[dimensions=(0,)] s
                    f:f32[32] = div s e
                  in (f,) }
                { lambda ; x:f32[32] y:f32[64]. let
                    s:f32[64] = div y y
                    e:f32[64] = add s 1.0:f32[]
                    f:f32[64] = div s e
                    g:f32[32] = slice[limit_indices=(32,) start_indices=(0,) strides=None] f
                  in (g,) }
              )
            ] i a b
          in (c,) }
        """);
    Plan p = planAll(j);
    ControlFlowPlan.Cond c = assertInstanceOf(ControlFlowPlan.Cond.class, p.controlFlow(j.eqns().get(0)));
    assertEquals(List.of(128L, 256L), c.branches().stream().map(Plan::workspaceBytes).toList());
    assertEquals(256, c.bytes());
    assertEquals(256, p.workspaceBytes());
    // Both branches start at the region's start (they never run together).
    assertEquals(0, c.branches().get(0).workspaceBuffers().get(0).offset());
    assertEquals(0, c.branches().get(1).workspaceBuffers().get(0).offset());
  }

  @Test
  void nestedRegionsNestInsideTheBodyWorkspace() {
    // A scan inside a while body: the scan's region is part of the body's workspace, which is
    // part of the while's region.
    Jaxpr j = typed("""
        { lambda ; a:f32[4] n:i32[]. let
            i:i32[] r:f32[4] = while[
              body_jaxpr={ lambda ; c:i32[] x:f32[4]. let
                  d:i32[] = add c 1:i32[]
                  s:f32[] ys:f32[4] = scan[
                    jaxpr={ lambda ; h:f32[] e:f32[]. let
                        f:f32[] = div h e
                        g:f32[] = add f 1.0:f32[]
                        q:f32[] = div f g
                      in (q, g) }
                    length=4
                    num_carry=1
                    num_consts=0
                    reverse=False
                    unroll=1
                  ] 1.0:f32[] x
                in (d, ys) }
              body_nconsts=0
              cond_jaxpr={ lambda ; m:i32[] c:i32[] x:f32[4]. let
                  k:bool[] = lt c m
                in (k,) }
              cond_nconsts=1
            ] n 0:i32[] a
          in (i, r) }
        """);
    Plan p = planAll(j);
    ControlFlowPlan.While w = assertInstanceOf(ControlFlowPlan.While.class, p.controlFlow(j.eqns().get(0)));
    Eqn scanEqn = w.body().jaxpr().eqns().get(1);
    ControlFlowPlan.Scan s = assertInstanceOf(ControlFlowPlan.Scan.class, w.body().controlFlow(scanEqn));
    // While region at 0: 2 spares + predicate (192 bytes), then the body's workspace: the scan's
    // unused carry result s (a temporary), then the scan's region: its spare, then f.
    assertEquals(192, offset(w.body(), scanEqn.outs().get(0)));
    assertEquals(256, s.spares().get(0).offset());
    Var f = s.body().jaxpr().eqns().get(0).outs().get(0);
    assertEquals(320, offset(s.body(), f));
    assertEquals(128, s.bytes());
    assertEquals(192, w.body().workspaceBytes());
    assertEquals(384, p.workspaceBytes());
    assertTrue(p.workspaceBuffers().containsAll(List.of(s.spares().get(0), (Buffer.Temp) s.body().buffer(f))));
  }

  @Test
  void literalOperandsAreSubstitutedIntoBodies() {
    Jaxpr j = typed("""
        { lambda ; p:i32[] x:f32[]. let
            y:f32[] z:f32[] = cond[
              branches=(
                { lambda ; a:f32[] b:f32[]. let c:f32[] = mul a b in (c, a) }
                { lambda ; a:f32[] b:f32[]. let c:f32[] = sub a b in (c, b) }
              )
            ] p 3.0:f32[] x
          in (y, z) }
        """);
    ControlFlowPlan.Cond c = (ControlFlowPlan.Cond) planAll(j).controlFlow(j.eqns().get(0));
    Jaxpr b0 = c.branches().get(0).jaxpr();
    assertInstanceOf(Literal.class, b0.eqns().get(0).ins().get(0));
    assertInstanceOf(Literal.class, b0.outs().get(1));
    assertEquals(List.of(new Step.Fusion(List.of(b0.eqns().get(0).outs().get(0))), new Step.CopyOut(1, b0.outs().get(1))),
        c.branches().get(0).steps());
    // The branch keeps both invars, so Input k still means operand k + 1.
    assertEquals(2, b0.invars().size());
    assertInstanceOf(Var.class, c.branches().get(1).jaxpr().outs().get(1));
  }

  @Test
  void batchedPredicateAndUnsupportedBodies() {
    Jaxpr j = typed("""
        { lambda ; a:i32[3] b:f32[3,2]. let
            c:f32[3,2] = while[
              body_jaxpr={ lambda ; x:f32[3,2]. let y:f32[3,2] = sin x in (y,) }
              body_nconsts=0
              cond_jaxpr={ lambda ; l:i32[3] x:f32[3,2]. let
                  s:f32[3,1] = slice[limit_indices=(3, 1) start_indices=(0, 0) strides=None] x
                  t:f32[3] = squeeze[dimensions=(1,)] s
                  u:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] l
                  k:bool[3] = lt t u
                in (k,) }
              cond_nconsts=1
            ] a b
          in (c,) }
        """);
    ControlFlowPlan.While w = (ControlFlowPlan.While) planAll(j).controlFlow(j.eqns().get(0));
    assertTrue(w.batched());
    JaxcException e = assertThrows(JaxcException.class, () -> Planner.plan(j, new CpuBackendRules(p -> p != Primitive.SIN)));
    assertTrue(e.getMessage().startsWith("unsupported primitive sin"), e.getMessage());
  }

  @Test
  void unusedControlFlowGetsNoRegion() {
    Jaxpr j = typed("""
        { lambda ; p:i32[] x:f32[8]. let
            y:f32[8] = cond[
              branches=(
                { lambda ; a:f32[8]. let b:f32[8] = neg a in (b,) }
                { lambda ; a:f32[8]. let b:f32[8] = mul a a; c:f32[8] = add b b in (c,) }
              )
            ] p x
          in (x,) }
        """);
    Plan p = planAll(j);
    assertEquals(List.of(new Step.CopyOut(0, j.invars().get(1))), p.steps());
    assertEquals(List.of(), p.workspaceBuffers());
    assertThrows(IllegalArgumentException.class, () -> p.controlFlow(j.eqns().get(0)));
  }

  private static final String COND_IN_LOOP = """
      { lambda ; a:f32[8,4] n:i32[]. let
          i:i32[] r:f32[8,4] = while[
            body_jaxpr={ lambda ; c:i32[] x:f32[8,4]. let
                d:i32[] = add c 1:i32[]
                p:i32[] = rem c 2:i32[]
                y:f32[8,4] = cond[
                  branches=(
                    { lambda ; q:i32[] z:f32[8,4]. let  in (z,) }
                    { lambda ; q:i32[] z:f32[8,4]. let
                        u:f32[1,4] = broadcast_in_dim[broadcast_dimensions=() shape=(1, 4) sharding=None] 1.0:f32[]
                        w:f32[8,4] = dynamic_update_slice z u q 0:i32[]
                      in (w,) }
                    { lambda ; q:i32[] z:f32[8,4]. let
                        u:f32[1,4] = broadcast_in_dim[broadcast_dimensions=() shape=(1, 4) sharding=None] 2.0:f32[]
                        w:f32[8,4] = BRANCH2
                      in (w,) }
                  )
                ] p c x
              in (d, y) }
            body_nconsts=0
            cond_jaxpr={ lambda ; m:i32[] c:i32[] x:f32[8,4]. let k:bool[] = lt c m in (k,) }
            cond_nconsts=1
          ] n 0:i32[] a
        in (r,) }
      """;

  @Test
  void condResultTakesTheOperandUpdatedInPlaceByEveryBranch() {
    // Branches return the matrix unchanged or update it in place: the cond's result lives in
    // the loop body's output buffer, so the body overwrites its carry (no copy per iteration).
    Jaxpr j = typed(COND_IN_LOOP.replace("BRANCH2", "dynamic_update_slice z u 3:i32[] 0:i32[]"));
    ControlFlowPlan.While w = assertInstanceOf(ControlFlowPlan.While.class, planAll(j).controlFlow(j.eqns().get(0)));
    assertEquals(1, w.body().overwrites(1));
    // A branch that computes a fresh matrix (which may read the operand after writing any part of
    // the result) keeps the result in a buffer of its own.
    Jaxpr k = typed(COND_IN_LOOP.replace("BRANCH2", "mul z 2.0:f32[]"));
    ControlFlowPlan.While v = assertInstanceOf(ControlFlowPlan.While.class, planAll(k).controlFlow(k.eqns().get(0)));
    assertEquals(-1, v.body().overwrites(1));
  }
}
