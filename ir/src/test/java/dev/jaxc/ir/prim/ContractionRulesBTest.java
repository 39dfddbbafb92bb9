package dev.jaxc.ir.prim;

import static dev.jaxc.ir.testkit.ParamBuilder.ints;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.ParamBuilder.value;
import static dev.jaxc.ir.testkit.Rules.apply;
import static dev.jaxc.ir.testkit.Rules.rejects;
import static dev.jaxc.ir.testkit.TypeText.texts;
import static dev.jaxc.ir.testkit.TypeText.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** dot_general and conv_general_dilated beyond the JAX facts: param forms, symbolic dims. */
class ContractionRulesBTest {

  private static ParamValue dn(long[] lc, long[] rc, long[] lb, long[] rb, boolean lists) {
    return new ParamValue.Tuple(
        List.of(
            new ParamValue.Tuple(List.of(tuple(lc, lists), tuple(rc, lists))),
            new ParamValue.Tuple(List.of(tuple(lb, lists), tuple(rb, lists)))));
  }

  private static ParamValue tuple(long[] xs, boolean list) {
    return new ParamValue.Tuple(((ParamValue.Tuple) value(xs)).items(), list);
  }

  /** §8.2: 0.4.2+ prints {@code (([1], [0]), ([], []))}, 0.4.1 {@code (((1,), (0,)), ((), ()))}. */
  @Test
  void dotGeneralReadsBothDimensionNumberForms() {
    for (boolean lists : List.of(true, false)) {
      Params p =
          params(
              "dimension_numbers",
              dn(ints(2), ints(1), ints(0), ints(0), lists),
              "precision",
              null,
              "preferred_element_type",
              null);
      assertEquals(
          List.of("f32[5,2,4]"), texts(apply("dot_general", p, types("f32[5,2,3]", "f32[5,3,4]"))));
    }
  }

  /** Shape-polymorphic dims move through; equal symbolic dims contract. */
  @Test
  void dotGeneralKeepsSymbolicAndShardedDims() {
    Params p = params("dimension_numbers", dn(ints(1), ints(0), ints(), ints(), true));
    assertEquals(
        List.of("f32[b,2*c]"), texts(apply("dot_general", p, types("f32[b,k]", "f32[k,2*c]"))));
    assertEquals(
        List.of("f32[8@x,4]"), texts(apply("dot_general", p, types("f32[8@x,3]", "f32[3,4]"))));
    assertEquals(1, rejects("dot_general", p, types("f32[b,k]", "f32[3,4]")).operand());
  }

  @Test
  void dotGeneralPreferredAndAlgorithm() {
    Params wide =
        params(
            "dimension_numbers",
            dn(ints(1), ints(0), ints(), ints(), true),
            "preferred_element_type",
            DType.I8);
    rejects("dot_general", wide, types("i32[2,3]", "i32[3,4]"));
    // With an algorithm preset JAX skips the width check.
    Params preset = wide.with("precision", new ParamValue.Text("BF16_BF16_F32"));
    assertEquals(
        List.of("i8[2,4]"), texts(apply("dot_general", preset, types("i32[2,3]", "i32[3,4]"))));
    Params tuple =
        wide.with(
            "precision",
            new ParamValue.Tuple(
                List.of(
                    new ParamValue.Enum("Precision", "HIGHEST"),
                    new ParamValue.Enum("Precision", "HIGHEST"))));
    rejects("dot_general", tuple, types("i32[2,3]", "i32[3,4]"));
  }

  /** Equal XLA precedence but different dtypes: JAX's "argument type error". */
  @Test
  void dotGeneralRejectsIncomparableDTypes() {
    Params p = params("dimension_numbers", dn(ints(1), ints(0), ints(), ints(), true));
    rejects("dot_general", p, types("f8_e4m3[2,3]", "f8_e4m3fnuz[3,4]"));
    rejects("dot_general", p, types("float0[2,3]", "f32[3,4]"));
    rejects("dot_general", p, types("key<fry>[2,3]", "f32[3,4]"));
  }

  @Test
  void dotGeneralRejectsMalformedDimensionNumbers() {
    TypeRuleException e =
        assertThrows(
            TypeRuleException.class,
            () ->
                apply(
                    "dot_general",
                    params("dimension_numbers", ints(1, 0)),
                    types("f32[2,3]", "f32[3,4]")));
    assertTrue(e.getMessage().startsWith("dot_general: parameter 'dimension_numbers' must be"),
        e.getMessage());
  }

  // ---- conv ----------------------------------------------------------------------------------

  private static Params conv(Object dimensionNumbers) {
    return params(
        "batch_group_count",
        1,
        "dimension_numbers",
        dimensionNumbers,
        "feature_group_count",
        1,
        "lhs_dilation",
        ints(1, 1),
        "padding",
        List.of(ints(1, 1), ints(0, 0)),
        "precision",
        null,
        "preferred_element_type",
        null,
        "rhs_dilation",
        ints(1, 1),
        "window_strides",
        ints(1, 2));
  }

  private static ParamValue specs(long[] lhs, long[] rhs, long[] out) {
    return new ParamValue.Record(
        "ConvDimensionNumbers",
        Map.of(
            "lhs_spec",
            value(lhs),
            "rhs_spec",
            value(rhs),
            "out_spec",
            value(out)));
  }

  /** {@code dimension_numbers=None}: NCHW, OIHW, NCHW. */
  @Test
  void convWithoutDimensionNumbersIsNchw() {
    assertEquals(
        List.of("f32[2,4,9,4]"),
        texts(apply("conv_general_dilated", conv(null), types("f32[2,3,9,9]", "f32[4,3,3,3]"))));
  }

  /** §8.2 NHWC/HWIO example specs, also as a plain 3-tuple. */
  @Test
  void convNhwcSpecsAsRecordOrTuple() {
    long[] nhwc = ints(0, 3, 1, 2);
    long[] hwio = ints(3, 2, 0, 1);
    List<Type> in = types("f32[2,9,7,3]", "f32[3,3,3,8]");
    assertEquals(
        List.of("f32[2,9,3,8]"),
        texts(apply("conv_general_dilated", conv(specs(nhwc, hwio, nhwc)), in)));
    assertEquals(
        List.of("f32[2,9,3,8]"),
        texts(apply("conv_general_dilated", conv(List.of(nhwc, hwio, nhwc)), in)));
  }

  @Test
  void convRejectsBadSpecsAndWindowParams() {
    List<Type> in = types("f32[2,3,9,9]", "f32[4,3,3,3]");
    rejects(
        "conv_general_dilated",
        conv(specs(ints(0, 1, 2, 2), ints(0, 1, 2, 3), ints(0, 1, 2, 3))),
        in);
    rejects("conv_general_dilated", conv(specs(ints(0, 1, 2), ints(0, 1, 2), ints(0, 1, 2))), in);
    rejects(
        "conv_general_dilated",
        conv(null).with("window_strides", value(ints(1))),
        in);
    rejects(
        "conv_general_dilated",
        conv(null).with("window_strides", value(ints(0, 1))),
        in);
    rejects(
        "conv_general_dilated",
        conv(null).with("rhs_dilation", value(ints(0, 1))),
        in);
    rejects(
        "conv_general_dilated",
        conv(null).with("padding", value(List.of(ints(1, 1)))),
        in);
    rejects(
        "conv_general_dilated", conv(null).with("feature_group_count", ParamValue.Int.of(0)), in);
    rejects("conv_general_dilated", conv(null), types("f32[2,3,b,9]", "f32[4,3,3,3]"));
    rejects("conv_general_dilated", conv(null), types("f32[3]", "f32[4]"));
  }

  @Test
  void convBothGroupCountsAboveOneIsAnError() {
    Params p =
        conv(null)
            .with("feature_group_count", ParamValue.Int.of(2))
            .with("batch_group_count", ParamValue.Int.of(2));
    rejects("conv_general_dilated", p, types("f32[4,4,9,9]", "f32[4,2,3,3]"));
  }

  @Test
  void convPreferredElementType() {
    List<Type> in = types("f32[2,3,9,9]", "f32[4,3,3,3]");
    assertEquals(
        List.of("f64[2,4,9,4]"),
        texts(
            apply(
                "conv_general_dilated",
                conv(null).with("preferred_element_type", new ParamValue.DTypeValue(DType.F64)),
                in)));
    rejects(
        "conv_general_dilated",
        conv(null).with("preferred_element_type", new ParamValue.DTypeValue(DType.F16)),
        in);
    rejects(
        "conv_general_dilated",
        conv(null).with("preferred_element_type", new ParamValue.DTypeValue(DType.U32)),
        types("i8[2,3,9,9]", "i8[4,3,3,3]"));
    assertEquals(
        List.of("f32[2,4,9,4]"),
        texts(
            apply(
                "conv_general_dilated",
                conv(null).with("preferred_element_type", new ParamValue.DTypeValue(DType.F32)),
                types("u8[2,3,9,9]", "u8[4,3,3,3]"))));
  }
}
