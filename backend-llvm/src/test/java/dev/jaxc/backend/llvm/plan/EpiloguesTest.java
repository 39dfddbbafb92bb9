package dev.jaxc.backend.llvm.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which elementwise chains the planner fuses into a GEMM's store (epilogue fusion). */
class EpiloguesTest {
  private static final String DOT = "dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32]";

  private static Jaxpr typed(String text) {
    return TypePass.run(JaxprParser.parse("t.jaxpr", text), TypeConfig.DEFAULT, new Diagnostics()).main();
  }

  private static Plan plan(Jaxpr j) {
    return Planner.plan(j, CpuBackendRules.CPU);
  }

  private static Var out(Jaxpr j, int eqn) {
    return j.eqns().get(eqn).outs().get(0);
  }

  /** A dense layer: d = x @ w, then bias, then relu (f). */
  private static final String DENSE = "{ lambda ; x:f32[4,8] w:f32[8,16] b:f32[16]. let d:f32[4,16] = " + DOT + " x w; "
      + "e:f32[1,16] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(1, 16) sharding=None] b; "
      + "f:f32[4,16] = add d e; g:f32[4,16] = max f 0.0:f32[] in (g,) }";

  @Test
  void biasAndReluRunInTheDotsStore() {
    Jaxpr j = typed(DENSE);
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 3))), p.steps());
    assertFalse(p.isMaterialised(out(j, 0)));
    assertFalse(p.isMaterialised(out(j, 2)));
    assertEquals(0, p.workspaceBytes());
  }

  @Test
  void rulesWithoutEpiloguesKeepTheSecondPass() {
    Jaxpr j = typed(DENSE);
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 3)))), p.steps());
    assertTrue(p.isMaterialised(out(j, 0)));
  }

  @Test
  void aReturnedDotStaysMaterialised() {
    Jaxpr j = typed("{ lambda ; x:f32[4,8] w:f32[8,16]. let d:f32[4,16] = " + DOT + " x w; "
        + "g:f32[4,16] = max d 0.0:f32[] in (d, g) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 1)))), p.steps());
  }

  @Test
  void aValueReusedInsideTheChainIsRecomputedThere() {
    // gelu's shape: f = d + bias is read three times, all inside the chain that ends in k.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] w:f32[8,16] b:f32[16]. let d:f32[4,16] = " + DOT + " x w; "
        + "e:f32[1,16] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(1, 16) sharding=None] b; "
        + "f:f32[4,16] = add d e; g:f32[4,16] = integer_pow[y=3] f; h:f32[4,16] = add f g; "
        + "i:f32[4,16] = tanh h; k:f32[4,16] = mul f i in (k,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 6))), p.steps());
    assertFalse(p.isMaterialised(out(j, 2)));
  }

  @Test
  void twoChainsEndingApartStopWhereTheyPart() {
    // f feeds two outputs: the dot's store computes f, the two chains read it back.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] w:f32[8,16] b:f32[4,16]. let d:f32[4,16] = " + DOT + " x w; "
        + "f:f32[4,16] = add d b; g:f32[4,16] = tanh f; h:f32[4,16] = exp f in (g, h) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 1)), new Step.Fusion(List.of(out(j, 2))),
        new Step.Fusion(List.of(out(j, 3)))), p.steps());
    assertFalse(p.isMaterialised(out(j, 0)));
    assertTrue(p.isMaterialised(out(j, 1)));
  }

  @Test
  void theKernelWaitsForOperandsTheChainReads() {
    // r, a kernel's result computed after the dot, is read by the epilogue: the dot runs after it.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] w:f32[8,16] a:f32[4,16]. let d:f32[4,16] = " + DOT + " x w; "
        + "r:f32[4,16] = cumsum[axis=1 reverse=False] a; y:f32[4,16] = add d r in (y,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(1)), new Step.Kernel(j.eqns().get(0), out(j, 2))), p.steps());
  }

  @Test
  void aChainThatChangesTheIndexIsNotFused() {
    // A reversal reads d at another index than the one being stored (a transpose is stored so, below).
    Jaxpr j = typed("{ lambda ; x:f32[8,8] w:f32[8,8]. let d:f32[8,8] = " + DOT + " x w; "
        + "t:f32[8,8] = rev[dimensions=(0,)] d; y:f32[8,8] = add t 1.0:f32[] in (y,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 2)))), p.steps());
  }

  @Test
  void chainsThatMeetGoToTheFirstKernel() {
    // An RNN step's x@Wx + h@Wh: the first dot takes the add and tanh, the second stays in memory.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] w:f32[8,16] h:f32[4,16] u:f32[16,16]. let d:f32[4,16] = " + DOT + " x w; "
        + "e:f32[4,16] = " + DOT + " h u; s:f32[4,16] = add d e; t:f32[4,16] = tanh s in (t,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(1)), new Step.Kernel(j.eqns().get(0), out(j, 3))), p.steps());
    assertTrue(p.isMaterialised(out(j, 1)));
    assertFalse(p.isMaterialised(out(j, 0)));
  }
  @Test
  void aTransposeThatAloneReadsTheDotIsItsStore() {
    // XLA's layout assignment: the dot writes the layout its transpose wants; d is never stored.
    Jaxpr j = typed("{ lambda ; x:f32[8,6] w:f32[6,5]. let d:f32[8,5] = " + DOT + " x w; "
        + "t:f32[5,8] = transpose[permutation=(1, 0)] d in (t,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 1))), p.steps());
    assertFalse(p.isMaterialised(out(j, 0)));
    assertEquals(0, p.workspaceBytes());
  }

  @Test
  void aChainEndedByATransposeRunsInTheDotsStore() {
    Jaxpr j = typed("{ lambda ; x:f32[8,6] w:f32[6,5] b:f32[8,5]. let d:f32[8,5] = " + DOT + " x w; "
        + "f:f32[8,5] = add d b; g:f32[8,5] = tanh f; t:f32[5,8] = transpose[permutation=(1, 0)] g in (t,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 3))), p.steps());
    assertFalse(p.isMaterialised(out(j, 1)));
    assertFalse(p.isMaterialised(out(j, 2)));
  }

  @Test
  void aTransposeWithTheBatchAxisInnermostStaysApart() {
    // Stored in that order, every element of a C row would go a whole output row apart.
    Jaxpr j = typed("{ lambda ; x:f32[3,4,6] w:f32[3,6,5]. let d:f32[3,4,5] = dot_general[dimension_numbers=(([2], [1]), "
        + "([0], [0])) preferred_element_type=float32] x w; t:f32[4,5,3] = transpose[permutation=(1, 2, 0)] d in (t,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 1)))), p.steps());
  }

  @Test
  void aTransposedDotAlsoReturnedStaysMaterialised() {
    Jaxpr j = typed("{ lambda ; x:f32[8,6] w:f32[6,5]. let d:f32[8,5] = " + DOT + " x w; "
        + "t:f32[5,8] = transpose[permutation=(1, 0)] d in (d, t) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 1)))), p.steps());
  }

  @Test
  void aConvolutionKeepsItsTranspose() {
    // Only dot_general runs its loops in a transposed order (CpuBackendRules.transposesResult).
    Jaxpr j = typed("{ lambda ; x:f32[1,3,8] w:f32[4,3,2]. let d:f32[1,4,7] = conv_general_dilated[batch_group_count=1 "
        + "dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 1, 2), rhs_spec=(0, 1, 2), out_spec=(0, 1, 2)) "
        + "feature_group_count=1 lhs_dilation=(1,) padding=((0, 0),) precision=None preferred_element_type=None "
        + "rhs_dilation=(1,) window_strides=(1,)] x w; t:f32[1,7,4] = transpose[permutation=(0, 2, 1)] d in (t,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 1)))), p.steps());
  }
  @Test
  void aChainAfterTheTransposeEndsTheEpilogue() {
    // An MLP-Mixer block's residual: x + (h @ w).T, the add at the transposed index.
    Jaxpr j = typed("{ lambda ; h:f32[8,6] w:f32[6,5] x:f32[5,8]. let d:f32[8,5] = " + DOT + " h w; "
        + "t:f32[5,8] = transpose[permutation=(1, 0)] d; y:f32[5,8] = add x t; z:f32[5,8] = tanh y in (z,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 3))), p.steps());
    assertFalse(p.isMaterialised(out(j, 1)));
    assertFalse(p.isMaterialised(out(j, 2)));
  }

  @Test
  void aTransposeFusedIntoAnotherConsumerIsNotAnEpilogue() {
    // t is read by the add and by a reduction: the chain after the transpose does not alone read it.
    Jaxpr j = typed("{ lambda ; h:f32[8,6] w:f32[6,5] x:f32[5,8]. let d:f32[8,5] = " + DOT + " h w; "
        + "t:f32[5,8] = transpose[permutation=(1, 0)] d; y:f32[5,8] = add x t; "
        + "s:f32[5] = reduce_sum[axes=(1,) out_sharding=None] t in (y, s) }");
    Plan p = plan(j);
    assertEquals(new Step.Kernel(j.eqns().get(0)), p.steps().get(0));
  }
  @Test
  void aTransposeReshapedForTheNextDotEndsTheEpilogue() {
    // Attention's heads merged again: (a @ v).transpose(0, 2, 1, 3).reshape(...), read by a dot.
    Jaxpr j = typed("{ lambda ; a:f32[2,3,4,5] v:f32[2,3,5,6] w:f32[18,7]. let d:f32[2,3,4,6] = dot_general["
        + "dimension_numbers=(([3], [2]), ([0, 1], [0, 1])) preferred_element_type=float32] a v; "
        + "t:f32[2,4,3,6] = transpose[permutation=(0, 2, 1, 3)] d; "
        + "r:f32[8,18] = reshape[dimensions=None new_sizes=(8, 18)] t; y:f32[8,7] = " + DOT + " r w in (y,) }");
    Plan p = plan(j);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0), out(j, 2)), new Step.Kernel(j.eqns().get(3))), p.steps());
    assertFalse(p.isMaterialised(out(j, 0)));
    assertFalse(p.isMaterialised(out(j, 1)));
  }
}
