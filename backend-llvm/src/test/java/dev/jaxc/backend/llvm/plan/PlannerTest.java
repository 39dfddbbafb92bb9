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
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.types.TypeConfig;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which values the planner materialises, where buffers go, and how the workspace is reused. */
class PlannerTest {
  private static Jaxpr typed(String text) {
    return TypePass.run(JaxprParser.parse("t.jaxpr", text), TypeConfig.DEFAULT, new Diagnostics()).main();
  }

  /** Plans with every primitive counted as lowered, so kernels can be planned before they exist. */
  private static Plan planAll(Jaxpr j) {
    return Planner.plan(j, new CpuBackendRules(p -> true));
  }

  private static Var out(Jaxpr j, int eqn) {
    return j.eqns().get(eqn).outs().get(0);
  }

  @Test
  void elementwiseChainIsOneFusionGroupWithoutWorkspace() {
    Jaxpr j = typed("{ lambda ; a:f32[8]. let b:f32[8] = neg a; c:f32[8] = mul b 2.0:f32[]; d:f32[8] = add c a in (d,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 0)));
    assertFalse(p.isMaterialised(out(j, 1)));
    assertEquals(new Buffer.Output(0, (ArrayType) out(j, 2).type()), p.buffer(out(j, 2)));
    assertEquals(new Buffer.Input(0, (ArrayType) j.invars().get(0).type()), p.buffer(j.invars().get(0)));
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 2)))), p.steps());
    assertEquals(0, p.workspaceBytes());
  }

  @Test
  void valueWithTwoUsesIsMaterialisedUnlessCheap() {
    // b (a division) feeds two outputs: computed once into the workspace.
    Jaxpr j = typed("{ lambda ; a:f32[8]. let b:f32[8] = div a a; c:f32[8] = add b 1.0:f32[]; d:f32[8] = sub b 1.0:f32[] in (c, d) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertInstanceOf(Buffer.Temp.class, p.buffer(out(j, 0)));
    assertEquals(List.of(out(j, 0)), p.temporaries());
    assertEquals(32 + 32, p.workspaceBytes());  // 32 bytes rounded up to the 64-byte alignment
    // A broadcast of an input is an index rewrite: recomputed in each consumer instead.
    Jaxpr k = typed("{ lambda ; a:f32[4]. let b:f32[3,4] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(3, 4)] a; "
        + "c:f32[3,4] = add b 1.0:f32[]; d:f32[3,4] = mul b 2.0:f32[] in (c, d) }");
    Plan q = Planner.plan(k, CpuBackendRules.DEFAULT);
    assertFalse(q.isMaterialised(out(k, 0)));
    assertEquals(0, q.workspaceBytes());
  }

  @Test
  void cheapValueReadingOneFullSizeArrayIsRecomputedInEachConsumer() {
    // x + bias, read three times by the GELU after it: recomputed, as XLA duplicates it.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] b:f32[8]. let c:f32[1,8] = broadcast_in_dim[broadcast_dimensions=(1,) "
        + "shape=(1, 8)] b; d:f32[4,8] = add x c; e:f32[4,8] = integer_pow[y=3] d; f:f32[4,8] = add d e; "
        + "g:f32[4,8] = tanh f; h:f32[4,8] = mul d g in (h,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 1)));
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 5)))), p.steps());
    // The sum of two full-size arrays, read by two loops, would read two arrays per use instead
    // of one: stored once.
    Jaxpr k = typed("{ lambda ; x:f32[8] y:f32[8]. let d:f32[8] = add x y; e:f32[8] = tanh d; "
        + "f:f32[8] = mul d 2.0:f32[] in (e, f) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 0)));
    // A cheap operation on an expensive unstored value, read by two loops, would repeat the
    // expensive one in each.
    Jaxpr m = typed("{ lambda ; x:f32[8]. let a:f32[8] = exp x; d:f32[8] = add a 1.0:f32[]; e:f32[8] = tanh d; "
        + "f:f32[8] = mul d 2.0:f32[] in (e, f) }");
    assertTrue(Planner.plan(m, CpuBackendRules.DEFAULT).isMaterialised(out(m, 1)));
  }

  @Test
  void scalarOfLiteralsIsComputedWhereItIsUsed() {
    // jnp.remainder(x, 13)'s divisor where(13 == 0, 1, 13): a constant in every use, never stored.
    Jaxpr j = typed("{ lambda ; x:i32[8]. let c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] 13:i32[]; "
        + "d:bool[] = eq c 0:i32[]; e:i32[] = select_n d c 1:i32[]; g:i32[8] = rem x e; h:bool[] = lt e 0:i32[]; "
        + "k:i32[8] = add g e in (k, h) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 2)));
    assertFalse(p.isMaterialised(out(j, 0)));
    // A scalar that reads an input is stored once, as before.
    Jaxpr k = typed("{ lambda ; x:i32[8] s:i32[]. let e:i32[] = add s 1:i32[]; g:i32[8] = rem x e; "
        + "h:i32[8] = mul g e in (h,) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 0)));
  }

  @Test
  void expensiveValueReadOnlyInsideOneLoopIsNotStored() {
    // r = rem(x, y) read four times by the sign fix-up that ends in one output: one loop, no temporary.
    Jaxpr j = typed("{ lambda ; x:i32[8] y:i32[8]. let g:i32[8] = rem x y; h:bool[8] = ne g 0:i32[]; "
        + "i:bool[8] = lt g 0:i32[]; l:bool[8] = and h i; m:i32[8] = add g y; n:i32[8] = select_n l g m in (n,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 0)));
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 5)))), p.steps());
    // Read by two outputs (two loops), or at two indices of one loop (a reversal), it is stored.
    Jaxpr k = typed("{ lambda ; x:f32[8]. let a:f32[8] = tanh x; b:f32[8] = add a 1.0:f32[]; c:f32[8] = mul a 2.0:f32[] "
        + "in (b, c) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 0)));
    Jaxpr m = typed("{ lambda ; x:f32[8]. let a:f32[8] = tanh x; b:f32[8] = rev[dimensions=(0,)] a; c:f32[8] = add a b "
        + "in (c,) }");
    assertTrue(Planner.plan(m, CpuBackendRules.DEFAULT).isMaterialised(out(m, 0)));
  }

  @Test
  void cheapOperandOfAConcatenateIsComputedWhereItIsPlaced() {
    // RoPE's concatenate([-x2, x1]): -x2 is not stored first; an expensive operand still is.
    Jaxpr j = typed("{ lambda ; x:f32[4,8]. let a:f32[4,4] = slice[limit_indices=(4, 4) start_indices=(0, 0) strides=None] x; "
        + "b:f32[4,4] = slice[limit_indices=(4, 8) start_indices=(0, 4) strides=None] x; c:f32[4,4] = neg b; "
        + "d:f32[4,8] = concatenate[dimension=1] c a in (d,) }");
    assertFalse(Planner.plan(j, CpuBackendRules.DEFAULT).isMaterialised(out(j, 2)));
    Jaxpr k = typed("{ lambda ; x:f32[4,8]. let a:f32[4,4] = slice[limit_indices=(4, 4) start_indices=(0, 0) strides=None] x; "
        + "b:f32[4,4] = slice[limit_indices=(4, 8) start_indices=(0, 4) strides=None] x; c:f32[4,4] = exp b; "
        + "d:f32[4,8] = concatenate[dimension=1] c a in (d,) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 2)));
  }

  @Test
  void filledArrayOfAScatterIsWrittenByTheScatter() {
    // jnp.zeros(8).at[i].add(u): the zeros are the scatter's own start, never stored apart.
    String scatter = "scatter-add[dimension_numbers=ScatterDimensionNumbers(update_window_dims=(), "
        + "inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), "
        + "scatter_indices_batching_dims=()) indices_are_sorted=False mode=GatherScatterMode.FILL_OR_DROP "
        + "unique_indices=False update_consts=() update_jaxpr=None]";
    Jaxpr j = typed("{ lambda ; i:i32[3,1] u:f32[3]. let z:f32[8] = broadcast_in_dim[broadcast_dimensions=() shape=(8,)] 0.0:f32[]; "
        + "y:f32[8] = " + scatter + " z i u in (y,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 0)));
    assertEquals(List.of(new Step.Kernel(j.eqns().get(1))), p.steps());
    // An updated array that reads another array is stored first, as before.
    Jaxpr k = typed("{ lambda ; x:f32[8] i:i32[3,1] u:f32[3]. let z:f32[8] = mul x 2.0:f32[]; "
        + "y:f32[8] = " + scatter + " z i u in (y,) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 0)));
  }

  @Test
  void updateIsComputedInTheUpdateKernelUnlessItReadsTheUpdatedArray() {
    // x.at[i].set(u * c + 1): the row is computed as it is stored, x updated in place.
    Jaxpr j = typed("{ lambda ; x:f32[4,8] u:f32[1,8] c:f32[] i:i32[]. let a:f32[1,8] = mul u c; "
        + "b:f32[1,8] = add a 1.0:f32[]; y:f32[4,8] = dynamic_update_slice x b i 0:i32[] in (y,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 1)));
    assertEquals(List.of(new Step.Kernel(j.eqns().get(2))), p.steps());
    // x.at[i].set(x[0] + 1) reads x: the row is computed first, so x can still be updated in place.
    Jaxpr k = typed("{ lambda ; x:f32[4,8] i:i32[]. let r:f32[1,8] = slice[start_indices=(0, 0) limit_indices=(1, 8) "
        + "strides=None] x; b:f32[1,8] = add r 1.0:f32[]; y:f32[4,8] = dynamic_update_slice x b i 0:i32[] in (y,) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 1)));
  }

  @Test
  void floatMultiplyOfMaterialisedValuesIsRecomputedPerUse() {
    // As XLA duplicates it into each consumer's loop, where it contracts into the add (FMA).
    Jaxpr j = typed("{ lambda ; a:f32[8] e:f32[8]. let b:f32[8] = mul a e; c:f32[8] = add b 1.0:f32[]; d:f32[8] = sub b 1.0:f32[] in (c, d) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertFalse(p.isMaterialised(out(j, 0)));
    assertEquals(0, p.workspaceBytes());
    // Integer multiplies are not contracted: computed once.
    Jaxpr k = typed("{ lambda ; a:i32[8]. let b:i32[8] = mul a a; c:i32[8] = add b 1:i32[]; d:i32[8] = sub b 1:i32[] in (c, d) }");
    assertInstanceOf(Buffer.Temp.class, Planner.plan(k, CpuBackendRules.DEFAULT).buffer(out(k, 0)));
  }

  @Test
  void valueReadRepeatedlyByABroadcastIsMaterialised() {
    // Fusing b into the broadcast would compute each neg three times.
    Jaxpr j = typed("{ lambda ; a:f32[4]. let b:f32[4] = neg a; "
        + "c:f32[3,4] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(3, 4)] b in (c,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertInstanceOf(Buffer.Temp.class, p.buffer(out(j, 0)));
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 0))), new Step.Fusion(List.of(out(j, 1)))), p.steps());
    // A rank-0 value used by a larger elementwise operation likewise.
    Jaxpr k = typed("{ lambda ; a:f32[] x:f32[5]. let b:f32[] = neg a; c:f32[5] = mul x b in (c,) }");
    assertTrue(Planner.plan(k, CpuBackendRules.DEFAULT).isMaterialised(out(k, 0)));
  }

  @Test
  void kernelOperandsAndResultsAreMaterialised() {
    Jaxpr j = typed("{ lambda ; a:f32[4,3]. let b:f32[4,3] = neg a; c:f32[4,3] = cumsum[axis=1 reverse=False] b; "
        + "d:f32[4,3] = mul c 2.0:f32[] in (d,) }");
    Plan p = planAll(j);
    assertInstanceOf(Buffer.Temp.class, p.buffer(out(j, 0)));
    assertInstanceOf(Buffer.Temp.class, p.buffer(out(j, 1)));
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 0))), new Step.Kernel(j.eqns().get(1)),
        new Step.Fusion(List.of(out(j, 2)))), p.steps());
    // b lives in steps 0..1 and c in 1..2: they overlap, so they do not share memory.
    Buffer.Temp b = (Buffer.Temp) p.buffer(out(j, 0));
    Buffer.Temp c = (Buffer.Temp) p.buffer(out(j, 1));
    assertEquals(0, b.offset());
    assertEquals(64, c.offset());
    assertEquals(128, p.workspaceBytes());
  }

  @Test
  void elementwiseProducersFuseIntoReductions() {
    // softmax's shape: e = exp(x - max) feeds a reduction and the division; it is recomputed in
    // both (the reduction reads it through its generator), so no full-size temporary exists.
    Jaxpr j = typed("{ lambda ; x:f32[4,8]. let m:f32[4] = reduce_max[axes=(1,)] x; "
        + "b:f32[4,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(4, 1) sharding=None] m; "
        + "c:f32[4,8] = sub x b; e:f32[4,8] = exp c; s:f32[4] = reduce_sum[axes=(1,)] e; "
        + "t:f32[4,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(4, 1) sharding=None] s; "
        + "y:f32[4,8] = div e t in (y,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertTrue(p.isMaterialised(out(j, 0)));
    assertFalse(p.isMaterialised(out(j, 2)));
    assertFalse(p.isMaterialised(out(j, 3)));
    assertTrue(p.isMaterialised(out(j, 4)));
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Kernel(j.eqns().get(4)),
        new Step.Fusion(List.of(out(j, 6)))), p.steps());
    // Two f32[4] reduction results, nothing of x's size.
    assertEquals(128, p.workspaceBytes());
  }

  @Test
  void reductionsOverRowsAndTheirReadersShareOneRowLoop() {
    // Large enough (64 * 1024 elements) for the CPU to fold the reductions in lanes, per row.
    Jaxpr j = typed("{ lambda ; x:f32[64,1024]. let m:f32[64] = reduce_max[axes=(1,)] x; "
        + "b:f32[64,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(64, 1) sharding=None] m; "
        + "c:f32[64,1024] = sub x b; e:f32[64,1024] = exp c; s:f32[64] = reduce_sum[axes=(1,)] e; "
        + "t:f32[64,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(64, 1) sharding=None] s; "
        + "y:f32[64,1024] = div e t in (y,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Rows(List.of(64L), List.of(new Step.Kernel(j.eqns().get(0)),
        new Step.Kernel(j.eqns().get(4)), new Step.Fusion(List.of(out(j, 6)))))), p.steps());
  }

  @Test
  void aStepReadingAnotherRowOfTheGroupStaysOut() {
    // y reads s at the reversed row: s must be complete for every row first.
    Jaxpr j = typed("{ lambda ; x:f32[64,1024]. let s:f32[64] = reduce_max[axes=(1,)] x; "
        + "r:f32[64] = rev[dimensions=(0,)] s; "
        + "b:f32[64,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(64, 1) sharding=None] r; "
        + "y:f32[64,1024] = sub x b in (y,) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(List.of(new Step.Kernel(j.eqns().get(0)), new Step.Fusion(List.of(out(j, 2))),
        new Step.Fusion(List.of(out(j, 3)))), p.steps());
  }

  @Test
  void workspaceReusesMemoryOfDeadBuffers() {
    // f32[256] = 1 KiB each. Live ranges in steps: b 0-1, c 1-2, d 2-3, e 3-4, f 4-5; g is the
    // output. Buffers alive at the same time alternate between two slots: 2 KiB, not 5.
    Jaxpr j = typed("{ lambda ; a:f32[256]. let b:f32[256] = neg a; c:f32[256] = cumsum[axis=0 reverse=False] b; "
        + "d:f32[256] = neg c; e:f32[256] = cumsum[axis=0 reverse=False] d; f:f32[256] = neg e; "
        + "g:f32[256] = cumsum[axis=0 reverse=False] f in (g,) }");
    Plan p = planAll(j);
    long[] offsets = new long[5];
    for (int k = 0; k < 5; k++) offsets[k] = ((Buffer.Temp) p.buffer(out(j, k))).offset();
    assertEquals(List.of(0L, 1024L, 0L, 1024L, 0L), Arrays.stream(offsets).boxed().toList());
    assertEquals(2048, p.workspaceBytes());
    assertInstanceOf(Buffer.Output.class, p.buffer(out(j, 5)));
  }

  @Test
  void temporariesAreAlignedTo64Bytes() {
    // b (12 bytes, steps 0-2) and y (5 bytes, steps 1-3) are alive together.
    Jaxpr j = typed("{ lambda ; a:f32[3] x:i8[5]. let b:f32[3] = neg a; y:i8[5] = neg x; "
        + "c:f32[3] = cumsum[axis=0 reverse=False] b; z:i8[5] = cumsum[axis=0 reverse=False] y in (c, z) }");
    Plan p = planAll(j);
    assertEquals(List.of(out(j, 0), out(j, 1)), p.temporaries());
    assertEquals(0, ((Buffer.Temp) p.buffer(out(j, 0))).offset());
    assertEquals(64, ((Buffer.Temp) p.buffer(out(j, 1))).offset());
    assertEquals(128, p.workspaceBytes());
  }

  @Test
  void outputsThatAreInputsLiteralsOrRepeatsAreCopied() {
    Jaxpr j = typed("{ lambda ; a:f32[2]. let b:f32[2] = neg a in (a, b, 2.5:f32[], b) }");
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    assertEquals(new Buffer.Output(1, (ArrayType) out(j, 0).type()), p.buffer(out(j, 0)));
    List<Step> steps = p.steps();
    assertEquals(new Step.Fusion(List.of(out(j, 0))), steps.get(0));
    assertEquals(new Step.CopyOut(0, j.invars().get(0)), steps.get(1));
    assertInstanceOf(Literal.class, ((Step.CopyOut) steps.get(2)).source());
    assertEquals(2, ((Step.CopyOut) steps.get(2)).output());
    assertEquals(new Step.CopyOut(3, out(j, 0)), steps.get(3));
    assertEquals(4, steps.size());
  }

  @Test
  void deadValuesGetNoStep() {
    Jaxpr j = typed("{ lambda ; a:f32[2]. let b:f32[2] = neg a; _:f32[2] = mul a a in (b,) }");
    assertEquals(List.of(new Step.Fusion(List.of(out(j, 0)))), Planner.plan(j, CpuBackendRules.DEFAULT).steps());
  }

  @Test
  void unsupportedAndUnknownPrimitivesAreReportedAtTheirEquation() {
    Jaxpr j = typed("{ lambda ; a:f32[2,2]. let\n    b:f32[2,2] = neg a\n    c:f32[2,2] = roll[axis=0 stride=None stride_axis=None] a 1:i32[]\n  in (b, c) }");
    Eqn bessel = j.eqns().get(1);
    JaxcException e = assertThrows(JaxcException.class, () -> Planner.plan(j, CpuBackendRules.DEFAULT));
    assertTrue(e.getMessage().startsWith("unsupported primitive roll"), e.getMessage());
    assertEquals(bessel.span(), e.span());
    assertEquals(3, e.span().line());
    Jaxpr k = typed("{ lambda ; a:f32[2]. let b:f32[2] = frobnicate a in (b,) }");
    JaxcException u = assertThrows(JaxcException.class, () -> Planner.plan(k, CpuBackendRules.DEFAULT));
    assertEquals("unsupported primitive frobnicate", u.getMessage());
    assertEquals(k.eqns().get(0).span(), u.span());
  }

  @Test
  void kindsFollowThePrimitiveFamily() {
    assertEquals(EqnKind.FUSIBLE, EqnKind.of(Primitive.DYNAMIC_SLICE));
    assertEquals(EqnKind.KERNEL, EqnKind.of(Primitive.DYNAMIC_UPDATE_SLICE));
    assertEquals(EqnKind.KERNEL, EqnKind.of(Primitive.GATHER));
    assertEquals(EqnKind.FUSIBLE, EqnKind.of(Primitive.EXP));
    assertEquals(EqnKind.KERNEL, EqnKind.of(Primitive.DOT_GENERAL));
  }
}
