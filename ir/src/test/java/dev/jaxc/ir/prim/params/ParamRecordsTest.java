package dev.jaxc.ir.prim.params;

import static dev.jaxc.ir.testkit.ParamBuilder.ints;
import static dev.jaxc.ir.testkit.ParamBuilder.member;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.ParamBuilder.record;
import static dev.jaxc.ir.testkit.ParamBuilder.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The param records decode the forms JAX prints (values as in the golden cases' printouts, e.g.
 * {@code dimension_numbers=(([1], [0]), ([], []))}, {@code ConvDimensionNumbers(lhs_spec=(0, 3, 1,
 * 2), …)}), fill in JAX's defaults, and reject malformed params with a located one-line error.
 */
class ParamRecordsTest {
  private static ParamValue list(long... xs) {
    return new ParamValue.Tuple(((ParamValue.Tuple) value(xs)).items(), true);
  }

  private static ParamValue tuple(ParamValue... items) {
    return new ParamValue.Tuple(List.of(items));
  }

  @Test
  void dotDimensionNumbersAsPrinted() {
    // dot_general[dimension_numbers=(([2], [1]), ([0], [0])) precision=None preferred_element_type=float32]
    Params p =
        params(
            "dimension_numbers", tuple(tuple(list(2), list(1)), tuple(list(0), list(0))),
            "precision", new ParamValue.None(),
            "preferred_element_type", new ParamValue.DTypeValue(DType.F32));
    DotDimensionNumbers d = DotDimensionNumbers.of(p);
    assertArrayEquals(ints(2), d.lhsContract());
    assertArrayEquals(ints(1), d.rhsContract());
    assertArrayEquals(ints(0), d.lhsBatch());
    assertArrayEquals(ints(0), d.rhsBatch());
    assertEquals(Optional.empty(), d.algorithm());
    assertEquals(Optional.of(DType.F32), d.preferredElementType());
    Params preset = p.with("precision", member("DotAlgorithmPreset", "BF16_BF16_F32"));
    assertEquals(Optional.of("BF16_BF16_F32"), DotDimensionNumbers.of(preset).algorithm());
  }

  @Test
  void convParamsFromTheRecordAndItsDefaults() {
    // conv_general_dilated[… dimension_numbers=ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2),
    // rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2)) padding=((1, 1), (0, 2)) window_strides=(1, 2)]
    Params p =
        params(
            "dimension_numbers",
                record("ConvDimensionNumbers", "lhs_spec", ints(0, 3, 1, 2), "rhs_spec",
                    ints(3, 2, 0, 1), "out_spec", ints(0, 3, 1, 2)),
            "feature_group_count", 1,
            "lhs_dilation", ints(1, 1),
            "padding", tuple(value(ints(1, 1)), value(ints(0, 2))),
            "preferred_element_type", new ParamValue.None(),
            "window_strides", ints(1, 2));
    ConvParams c = ConvParams.of(p, 4);
    assertArrayEquals(new int[] {3, 2, 0, 1}, c.rhsSpec());
    assertEquals(2, c.spatial());
    assertArrayEquals(new long[] {0, 2}, c.padding()[1]);
    assertArrayEquals(ints(1, 1), c.rhsDilation(), "absent rhs_dilation is ones");
    assertEquals(1, c.batchGroupCount(), "absent batch_group_count is 1");
    ConvParams identity = ConvParams.of(p.with("dimension_numbers", new ParamValue.None()), 4);
    assertArrayEquals(new int[] {0, 1, 2, 3}, identity.outSpec());
    Params badSpec =
        p.with("dimension_numbers",
            record("ConvDimensionNumbers", "lhs_spec", ints(0, 3, 1, 1), "rhs_spec",
                ints(3, 2, 0, 1), "out_spec", ints(0, 3, 1, 2)));
    Params.ParamException e = assertThrows(Params.ParamException.class, () -> ConvParams.of(badSpec, 4));
    assertEquals("lhs_spec (0, 3, 1, 1) must be a permutation of the 4 operand axes", e.getMessage());
  }

  @Test
  void windowParamsDefaultDilationsAndCheckCounts() {
    Params p =
        params(
            "window_dimensions", ints(1, 2, 2, 1),
            "window_strides", ints(1, 2, 2, 1),
            "padding", tuple(value(ints(0, 0)), value(ints(0, 1)), value(ints(0, 1)), value(ints(0, 0))),
            "base_dilation", new ParamValue.None());
    WindowParams w = WindowParams.of(p, 4, true);
    assertArrayEquals(ints(1, 1, 1, 1), w.baseDilation());
    assertArrayEquals(ints(0, 1, 1, 0), w.padHi());
    Params.ParamException e =
        assertThrows(Params.ParamException.class, () -> WindowParams.of(p, 3, true));
    assertEquals(
        "got the wrong number of window_dimensions for an operand of rank 3: window_dimensions"
            + " (1, 2, 2, 1)",
        e.getMessage());
  }

  @Test
  void gatherAndScatterRecordsOldAndNew() {
    Params old =
        params(
            "dimension_numbers",
                record("GatherDimensionNumbers", "offset_dims", ints(1), "collapsed_slice_dims",
                    ints(0), "start_index_map", ints(0)),
            "fill_value", new ParamValue.None(),
            "mode", member("GatherScatterMode", "FILL_OR_DROP"),
            "slice_sizes", ints(1, 5));
    GatherParams g = GatherParams.of(old);
    assertArrayEquals(ints(), g.operandBatchingDims(), "batching fields absent before JAX 0.4.35");
    assertEquals(Optional.of(GatherScatterMode.FILL_OR_DROP), g.mode());
    Params scatter =
        params(
            "dimension_numbers",
                record("ScatterDimensionNumbers", "update_window_dims", ints(), "inserted_window_dims",
                    ints(0), "scatter_dims_to_operand_dims", ints(0), "operand_batching_dims", ints(),
                    "scatter_indices_batching_dims", ints()),
            "mode", member("GatherScatterMode", "CLIP"));
    assertEquals(Optional.of(GatherScatterMode.CLIP), ScatterParams.of(scatter).mode());
    assertThrows(
        Params.ParamException.class,
        () -> GatherScatterMode.required(params("mode", new ParamValue.None())));
  }

  @Test
  void decodingErrorsAreLocatedAtThePrimitive() {
    Span at = new Span(40, 46, 3, 9);
    Eqn e =
        new Eqn(List.of(), "gather", params("slice_sizes", ints(1)), List.of(), at, at);
    JaxcException x = assertThrows(JaxcException.class, () -> ParamDecoding.at(e, GatherParams::of));
    assertEquals("gather: missing parameter 'dimension_numbers'", x.getMessage());
    assertEquals(at, x.span());
  }
}
