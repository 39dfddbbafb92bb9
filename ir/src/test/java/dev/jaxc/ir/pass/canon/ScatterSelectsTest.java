package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.prims;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.ParamBuilder.ints;
import static dev.jaxc.ir.testkit.ParamBuilder.member;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.ParamBuilder.record;
import static dev.jaxc.ir.testkit.Printout.f32;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.testkit.Printout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which scatters become selects, and the shape of what replaces them; that the selects compute
 * JAX's values is checked by the golden cases {@code index_scatter_into_constants} (every combine,
 * crossed batching dims, CLIP, int8/uint16 indices, dropped indices) and {@code
 * index_scatter_xent_grad}.
 */
class ScatterSelectsTest {
  private static Jaxpr rewrite(Jaxpr main) {
    Program r = new DeadCodeElimination().apply(new ScatterSelects().apply(program(main)));
    assertWellScoped(r.main());
    typeChecks(r);
    return r.main();
  }

  private static Params scatter(long[] window, long[] inserted, long[] toOperand, long[] opBatch, long[] idxBatch, String mode, Jaxpr update) {
    return params(
        "dimension_numbers", record("ScatterDimensionNumbers",
            "update_window_dims", window, "inserted_window_dims", inserted,
            "scatter_dims_to_operand_dims", toOperand, "operand_batching_dims", opBatch,
            "scatter_indices_batching_dims", idxBatch),
        "indices_are_sorted", false, "mode", member("GatherScatterMode", mode),
        "unique_indices", false, "update_consts", ints(), "update_jaxpr", update);
  }

  private static Params alongAxis1(String mode) {
    return scatter(ints(), ints(1), ints(1), ints(0), ints(0), mode, null);
  }

  private static Params broadcast(long... shape) {
    return params("shape", shape, "broadcast_dimensions", ints(), "sharding", null);
  }

  /** zeros[8, 10] scatter-PRIM'd at {@code k} indices a row ({@code idx: i32[8, k, 1]}). */
  private static Jaxpr alongRows(String prim, int k, String mode) {
    return new Printout()
        .in("i:i32[8," + k + ",1] u:f32[8," + k + "]")
        .eq("z:f32[8,10]", "broadcast_in_dim", broadcast(8, 10), f32(0.0))
        .eq("r:f32[8,10]", prim, alongAxis1(mode), "z", "i", "u")
        .out("r");
  }

  @Test
  void takeAlongAxisTransposeBecomesOneSelect() {
    Jaxpr r = rewrite(alongRows("scatter-add", 1, "FILL_OR_DROP"));
    List<String> p = prims(r);
    assertFalse(p.contains("scatter-add"), p.toString());
    assertEquals(1, p.stream().filter("select_n"::equals).count(), p.toString());
    assertTrue(p.containsAll(List.of("iota", "eq", "add", "broadcast_in_dim")), p.toString());
  }

  @Test
  void upToFourUpdatesAnElementSelectInOrder() {
    for (String prim : List.of("scatter", "scatter-add", "scatter-sub", "scatter-mul", "scatter-min", "scatter-max")) {
      List<String> p = prims(rewrite(alongRows(prim, 4, "FILL_OR_DROP")));
      assertFalse(p.contains(prim), prim + ": " + p);
      assertEquals(4, p.stream().filter("select_n"::equals).count(), prim + ": " + p);
    }
    assertTrue(prims(rewrite(alongRows("scatter-add", 5, "FILL_OR_DROP"))).contains("scatter-add"));
  }

  @Test
  void clipClampsTheIndexFirst() {
    List<String> p = prims(rewrite(alongRows("scatter-add", 2, "CLIP")));
    assertEquals(2, p.stream().filter("clamp"::equals).count(), p.toString());
    assertFalse(prims(rewrite(alongRows("scatter-add", 2, "FILL_OR_DROP"))).contains("clamp"));
  }

  @Test
  void crossedBatchingDimsAreTransposedBeforeTheBroadcast() {
    Jaxpr r = rewrite(new Printout()
        .in("i:i32[2,3,1] u:f32[2,3]")
        .eq("z:f32[3,5,2]", "broadcast_in_dim", broadcast(3, 5, 2), f32(-2.0))
        .eq("r:f32[3,5,2]", "scatter-max", scatter(ints(), ints(1), ints(1), ints(0, 2), ints(1, 0), "FILL_OR_DROP", null), "z", "i", "u")
        .out("r"));
    List<String> p = prims(r);
    assertFalse(p.contains("scatter-max"), p.toString());
    assertEquals(2, p.stream().filter("transpose"::equals).count(), p.toString());
  }

  @Test
  void leavesOtherScattersToTheKernel() {
    // The operand is not a broadcast scalar (a loop carry updated in place stays a kernel).
    Jaxpr notFilled = new Printout()
        .in("x:f32[8,10] i:i32[8,1,1] u:f32[8,1]")
        .eq("r:f32[8,10]", "scatter-add", alongAxis1("FILL_OR_DROP"), "x", "i", "u")
        .out("r");
    assertTrue(prims(rewrite(notFilled)).contains("scatter-add"));
    // A window of updates.
    Jaxpr window = new Printout()
        .in("i:i32[2,1] u:f32[2,7]")
        .eq("z:f32[5,7]", "broadcast_in_dim", broadcast(5, 7), f32(0.0))
        .eq("r:f32[5,7]", "scatter-add", scatter(ints(1), ints(0), ints(0), ints(), ints(), "FILL_OR_DROP", null), "z", "i", "u")
        .out("r");
    assertTrue(prims(rewrite(window)).contains("scatter-add"));
    // x.at[i].apply(f): a custom combine.
    Jaxpr neg = new Printout().in("c:f32[] d:f32[]").eq("e:f32[]", "neg", "d").out("e");
    Jaxpr apply = new Printout()
        .in("i:i32[8,1,1] u:f32[8,1]")
        .eq("z:f32[8,10]", "broadcast_in_dim", broadcast(8, 10), f32(0.0))
        .eq("r:f32[8,10]", "scatter", scatter(ints(), ints(1), ints(1), ints(0), ints(0), "FILL_OR_DROP", neg), "z", "i", "u")
        .out("r");
    assertTrue(prims(rewrite(apply)).contains("scatter"));
  }

  /** {@code zeros[rows, 10].at[jnp.arange(8), y].add(u)} as JAX prints it (indices normalised, concatenated). */
  private static Jaxpr aranged(int rows) {
    return new Printout()
        .in("y:i32[8] u:f32[8]")
        .eq("m:i32[8]", "iota", params("dimension", 0, "dtype", dev.jaxc.ir.DType.I32, "shape", ints(8), "sharding", null))
        .eq("n:bool[8]", "lt", "m", Printout.i32(0))
        .eq("o:i32[8]", "add", "m", Printout.i32(8))
        .eq("p:i32[8]", "select_n", "n", "m", "o")
        .eq("t:i32[8,1]", "broadcast_in_dim", params("shape", ints(8, 1), "broadcast_dimensions", ints(0), "sharding", null), "p")
        .eq("w:i32[8,1]", "broadcast_in_dim", params("shape", ints(8, 1), "broadcast_dimensions", ints(0), "sharding", null), "y")
        .eq("v:i32[8,2]", "concatenate", params("dimension", 1), "t", "w")
        .eq("z:f32[" + rows + ",10]", "broadcast_in_dim", broadcast(rows, 10), f32(0.0))
        .eq("r:f32[" + rows + ",10]", "scatter-add", scatter(ints(), ints(0, 1), ints(0, 1), ints(), ints(), "PROMISE_IN_BOUNDS", null), "z", "v", "u")
        .out("r");
  }

  @Test
  void anArangeIndexColumnPairsLikeABatchingDim() {
    List<String> p = prims(rewrite(aranged(8)));
    assertFalse(p.contains("scatter-add"), p.toString());
    // One compare, of the label column; the arange column is the element's own row.
    assertEquals(1, p.stream().filter("eq"::equals).count(), p.toString());
    // An arange shorter than the axis it indexes leaves 8 index vectors for every element.
    assertTrue(prims(rewrite(aranged(9))).contains("scatter-add"));
  }
}
