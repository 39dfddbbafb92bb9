package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertPrims;
import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import dev.jaxc.ir.testkit.Printout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link ScanMapHoisting} moves (a product of an xs slice by a const) and what it leaves
 * (products of the carry, of a const by a slice, with batch dimensions). That results do not change
 * is checked against JAX by the golden cases {@code model_rnn_scan}, {@code model_lstm_flax} and
 * {@code control_scan_map_hoisting}.
 */
class ScanMapHoistingTest {
  private static Jaxpr hoist(Jaxpr main) {
    Program r = ScanMapHoisting.run(program(main));
    assertWellScoped(r.main());
    typeChecks(r);
    return r.main();
  }

  private static final Object DOT = new ParamValue.Tuple(List.of(
      new ParamValue.Tuple(List.of(tuple(1), tuple(0))), new ParamValue.Tuple(List.of(tuple(), tuple()))));

  private static ParamValue.Tuple tuple(long... xs) {
    return new ParamValue.Tuple(java.util.Arrays.stream(xs).mapToObj(ParamValue.Int::of).map(v -> (ParamValue) v).toList());
  }

  /** An RNN: consts wx, wh; carry h; xs x. */
  private static Jaxpr rnn(Jaxpr body) {
    return new Printout()
        .in("wx:f32[4,6] wh:f32[6,6] h0:f32[2,6] xs:f32[7,2,4]")
        .eq("h:f32[2,6] ys:f32[7,2,6]", "scan",
            params("jaxpr", body, "length", 7, "linear", new ParamValue.Tuple(List.of(
                    new ParamValue.Bool(false), new ParamValue.Bool(false), new ParamValue.Bool(false),
                    new ParamValue.Bool(false))), "num_carry", 1, "num_consts", 2, "reverse", true, "unroll", 1),
            "wx", "wh", "h0", "xs")
        .out("h", "ys");
  }

  @Test
  void theInputProjectionLeavesTheLoopAsOneProduct() {
    Jaxpr body = new Printout()
        .in("a:f32[4,6] b:f32[6,6] c:f32[2,6] x:f32[2,4]")
        .eq("l:f32[2,6]", "dot_general", params("dimension_numbers", DOT, "precision", null,
            "preferred_element_type", dev.jaxc.ir.DType.F32), "x", "a")
        .eq("m:f32[2,6]", "dot_general", params("dimension_numbers", DOT, "precision", null,
            "preferred_element_type", dev.jaxc.ir.DType.F32), "c", "b")
        .eq("n:f32[2,6]", "add", "l", "m")
        .eq("q:f32[2,6]", "tanh", "n")
        .out("q", "l");
    Jaxpr r = hoist(rnn(body));
    assertPrims(r, "dot_general", "scan");
    Eqn product = r.eqns().get(0);
    assertEquals(new Shape(List.of(dev.jaxc.ir.Dim.of(7), dev.jaxc.ir.Dim.of(2), dev.jaxc.ir.Dim.of(6))),
        ((Type.ArrayType) product.outs().get(0).type()).shape());
    DotDimensionNumbers dn = DotDimensionNumbers.of(product.params());
    assertEquals(List.of(2L), java.util.Arrays.stream(dn.lhsContract()).boxed().toList());
    assertEquals(List.of(0L), java.util.Arrays.stream(dn.rhsContract()).boxed().toList());
    assertEquals("xs", ((dev.jaxc.ir.Var) product.ins().get(0)).name());
    Eqn scan = r.eqns().get(1);
    Jaxpr loop = scan.params().getJaxpr("jaxpr");
    assertPrims(loop, "dot_general", "add", "tanh");
    // wx is read only by the moved product: DCE drops it from the loop.
    assertEquals(1, scan.params().getInt("num_consts"));
    // x is read only by the moved product too: DCE drops that xs.
    assertEquals(List.of("b", "c", "l"), loop.invars().stream().map(v -> v.name()).toList());
    assertSame(product.outs().get(0), scan.ins().get(scan.ins().size() - 1));
    assertEquals(scan.ins().size(), ((ParamValue.Tuple) scan.params().get("linear").get()).items().size());
  }

  @Test
  void productsOfTheCarryOrOfAConstBySliceStay() {
    Jaxpr body = new Printout()
        .in("a:f32[4,6] b:f32[6,6] c:f32[2,6] x:f32[2,4]")
        .eq("m:f32[2,6]", "dot_general", params("dimension_numbers", DOT, "precision", null,
            "preferred_element_type", dev.jaxc.ir.DType.F32), "c", "b")
        .eq("t:f32[4,4]", "dot_general", params("dimension_numbers", new ParamValue.Tuple(List.of(
                new ParamValue.Tuple(List.of(tuple(1), tuple(1))), new ParamValue.Tuple(List.of(tuple(), tuple())))),
            "precision", null, "preferred_element_type", dev.jaxc.ir.DType.F32), "a", "a")
        .eq("u:f32[6,4]", "dot_general", params("dimension_numbers", new ParamValue.Tuple(List.of(
                new ParamValue.Tuple(List.of(tuple(0), tuple(0))), new ParamValue.Tuple(List.of(tuple(), tuple())))),
            "precision", null, "preferred_element_type", dev.jaxc.ir.DType.F32), "a", "x")
        .eq("q:f32[2,6]", "tanh", "m")
        .out("q", "m");
    Program p = program(rnn(body));
    assertSame(p, ScanMapHoisting.run(p));
  }
}
