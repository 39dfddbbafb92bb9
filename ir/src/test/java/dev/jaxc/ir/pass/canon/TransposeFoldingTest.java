package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertPrims;
import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import dev.jaxc.ir.testkit.Printout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rewrite's shape (which transposes fold, into which dimension numbers); that the folded dots
 * compute JAX's values is checked by the golden cases {@code dot_transpose_folding} and {@code
 * dot_transposed_lhs_packed} (whose {@code a.T @ b} JAX prints as a transpose and a dot).
 */
class TransposeFoldingTest {
  private static Jaxpr fold(Jaxpr main) {
    Program r = new DeadCodeElimination().apply(new TransposeFolding().apply(program(main)));
    assertWellScoped(r.main());
    typeChecks(r);
    return r.main();
  }

  private static Object dims(long[] lc, long[] rc, long[] lb, long[] rb) {
    return new ParamValue.Tuple(List.of(new ParamValue.Tuple(List.of(tuple(lc), tuple(rc))),
        new ParamValue.Tuple(List.of(tuple(lb), tuple(rb)))));
  }

  private static ParamValue.Tuple tuple(long... xs) {
    return new ParamValue.Tuple(Arrays.stream(xs).mapToObj(ParamValue.Int::of).map(v -> (ParamValue) v).toList());
  }

  private static dev.jaxc.ir.Params dot(Object dims) {
    return params("dimension_numbers", dims, "precision", null, "preferred_element_type", DType.F32);
  }

  private static long[] l(long... xs) {
    return xs;
  }

  @Test
  void aTransposedLhsIsReadAsKByM() {
    Jaxpr r = fold(new Printout()
        .in("a:f32[5,3] b:f32[5,4]")
        .eq("c:f32[3,5]", "transpose", params("permutation", l(1, 0)), "a")
        .eq("d:f32[3,4]", "dot_general", dot(dims(l(1), l(0), l(), l())), "c", "b")
        .out("d"));
    assertPrims(r, "dot_general");
    Eqn d = r.eqns().get(0);
    assertEquals("a", ((Var) d.ins().get(0)).name());
    DotDimensionNumbers dn = DotDimensionNumbers.of(d.params());
    assertArrayEquals(l(0), dn.lhsContract());
    assertArrayEquals(l(0), dn.rhsContract());
  }

  @Test
  void aBatchedSwapOnTheRhsFolds() {
    Jaxpr r = fold(new Printout()
        .in("x:f32[2,3,4] y:f32[2,5,4]")
        .eq("t:f32[2,4,5]", "transpose", params("permutation", l(0, 2, 1)), "y")
        .eq("d:f32[2,3,5]", "dot_general", dot(dims(l(2), l(1), l(0), l(0))), "x", "t")
        .out("d"));
    assertPrims(r, "dot_general");
    DotDimensionNumbers dn = DotDimensionNumbers.of(r.eqns().get(0).params());
    assertArrayEquals(l(2), dn.rhsContract());
    assertArrayEquals(l(0), dn.rhsBatch());
  }

  @Test
  void aTransposeAlsoReadElsewhereStays() {
    Jaxpr r = fold(new Printout()
        .in("a:f32[5,3] b:f32[5,4]")
        .eq("c:f32[3,5]", "transpose", params("permutation", l(1, 0)), "a")
        .eq("d:f32[3,4]", "dot_general", dot(dims(l(1), l(0), l(), l())), "c", "b")
        .out("d", "c"));
    assertPrims(r, "transpose", "dot_general");
    assertEquals("a", ((Var) r.eqns().get(1).ins().get(0)).name());
  }

  @Test
  void freeAxesThatWouldChangeOrderAreNotFolded() {
    // t = transpose(1, 0, 2) of [4, 5, 6]: the dot's free axes (0, 1) of t are axes (1, 0) of the operand.
    Jaxpr r = fold(new Printout()
        .in("x:f32[4,5,6] w:f32[6,7]")
        .eq("t:f32[5,4,6]", "transpose", params("permutation", l(1, 0, 2)), "x")
        .eq("d:f32[5,4,7]", "dot_general", dot(dims(l(2), l(0), l(), l())), "t", "w")
        .out("d"));
    assertPrims(r, "transpose", "dot_general");
    assertEquals("t", ((Var) r.eqns().get(1).ins().get(0)).name());
  }
}
