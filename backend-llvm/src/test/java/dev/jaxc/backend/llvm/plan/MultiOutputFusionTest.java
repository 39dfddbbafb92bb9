package dev.jaxc.backend.llvm.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a reduction stores a materialised value of its operand's chain itself (multi-output fusion). */
class MultiOutputFusionTest {
  private static Jaxpr typed(String text) {
    return TypePass.run(JaxprParser.parse("t.jaxpr", text), TypeConfig.DEFAULT, new Diagnostics()).main();
  }

  private static Var out(Jaxpr j, int eqn) {
    return j.eqns().get(eqn).outs().get(0);
  }

  private static Eqn eqn(Jaxpr j, int k) {
    return j.eqns().get(k);
  }

  /** The Newton while body: k is carried out and feeds max(abs(k - g)); one loop stores and folds. */
  private static final String NEWTON = "{ lambda ; e:f32[64] g:f32[64]. let i:f32[64] = div e g; j:f32[64] = add g i; "
      + "k:f32[64] = mul 0.5:f32[] j; m:f32[64] = sub k g; n:f32[64] = abs m; o:f32[] = reduce_max[axes=(0,)] n in (k, o) }";

  @Test
  void reductionStoresTheValueItsOperandReadsAtTheSameIndex() {
    Jaxpr j = typed(NEWTON);
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.MultiOutput(new Step.Kernel(eqn(j, 5)), List.of(out(j, 2)))), p.steps());
    assertEquals(new Buffer.Output(0, (ArrayType) out(j, 2).type()), p.buffer(out(j, 2)));
  }

  @Test
  void reducedValueItselfAndTwoReductionsOfIt() {
    // v is returned and summed twice: the first sum stores it, the second reads it back.
    Jaxpr j = typed("{ lambda ; a:f32[64]. let v:f32[64] = sin a; s:f32[] = reduce_sum[axes=(0,)] v; "
        + "t:f32[] = reduce_max[axes=(0,)] v in (v, s, t) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.MultiOutput(new Step.Kernel(eqn(j, 1)), List.of(out(j, 0))), new Step.Kernel(eqn(j, 2))),
        p.steps());
  }

  @Test
  void temporaryStoredByTheReductionLivesUntilItsLastReader() {
    // v is a temporary (a cumsum reads it after the sum): defined by the reduction's step.
    Jaxpr j = typed("{ lambda ; a:f32[64] b:f32[64]. let v:f32[64] = div a b; w:f32[64] = exp v; "
        + "s:f32[] = reduce_sum[axes=(0,)] w; x:f32[64] = cumsum[axis=0 reverse=False] v in (s, x) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.MultiOutput(new Step.Kernel(eqn(j, 2)), List.of(out(j, 0))), new Step.Kernel(eqn(j, 3))),
        p.steps());
    assertInstanceOf(Buffer.Temp.class, p.buffer(out(j, 0)));
  }

  @Test
  void valueOfAnotherShapeOrReadAtOtherIndicesIsNotStored() {
    // Broadcast into the reduction's operand: k is read at other indices (each element 4 times).
    Jaxpr b = typed("{ lambda ; a:f32[64]. let k:f32[64] = sin a; c:f32[4,64] = broadcast_in_dim[broadcast_dimensions=(1,) "
        + "shape=(4, 64) sharding=None] k; s:f32[] = reduce_sum[axes=(0, 1)] c in (k, s) }");
    assertEquals(List.of(new Step.Fusion(List.of(out(b, 0))), new Step.Kernel(eqn(b, 2))),
        Planner.plan(b, CpuBackendRules.DEFAULT).steps());
    // Reversed: the reduction reads element n-1-i where it would store element i.
    Jaxpr r = typed("{ lambda ; a:f32[64]. let k:f32[64] = sin a; c:f32[64] = rev[dimensions=(0,)] k; "
        + "d:f32[64] = mul k c; s:f32[] = reduce_sum[axes=(0,)] d in (k, s) }");
    assertEquals(List.of(new Step.Fusion(List.of(out(r, 0))), new Step.Kernel(eqn(r, 3))),
        Planner.plan(r, CpuBackendRules.DEFAULT).steps());
  }

  @Test
  void valueReadByAStepBetweenIsNotMoved() {
    // A cumsum between the group and the reduction reads k, so k must be stored before it.
    Jaxpr j = typed("{ lambda ; a:f32[64]. let k:f32[64] = sin a; c:f32[64] = cumsum[axis=0 reverse=False] k; "
        + "s:f32[] = reduce_sum[axes=(0,)] k in (c, s) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 0))), new Step.Kernel(eqn(j, 1)), new Step.Kernel(eqn(j, 2))),
        p.steps());
  }

  @Test
  void backendWithoutMultiOutputKeepsTwoSteps() {
    Jaxpr j = typed(NEWTON);
    Plan p = Planner.plan(j, CpuBackendRules.WITHOUT_MULTI_OUTPUT);
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 2))), new Step.Kernel(eqn(j, 5))), p.steps());
  }

  @Test
  void rowReductionInARowGroupStoresTheValueForItsRow() {
    // v is returned and divided by its row sums: the row loop computes, stores and sums each row.
    String body = "v:f32[8,4096] = sin a; s:f32[8] = reduce_sum[axes=(1,)] v; "
        + "b:f32[8,4096] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(8, 4096) sharding=None] s; ";
    Jaxpr j = typed("{ lambda ; a:f32[8,4096]. let " + body + "d:f32[8,4096] = div v b in (v, d) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Rows(List.of(8L), List.of(new Step.MultiOutput(new Step.Kernel(eqn(j, 1)), List.of(out(j, 0))),
        new Step.Fusion(List.of(out(j, 3)))))), p.steps());
    // A later member reads v at another row (rows reversed): v is written before the group.
    Jaxpr r = typed("{ lambda ; a:f32[8,4096]. let " + body + "w:f32[8,4096] = rev[dimensions=(0,)] v; "
        + "d:f32[8,4096] = div w b in (v, d) }");
    Plan q = Planner.plan(r, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Fusion(List.of(out(r, 0))), new Step.Rows(List.of(8L), List.of(new Step.Kernel(eqn(r, 1)),
        new Step.Fusion(List.of(out(r, 4)))))), q.steps());
  }
}
