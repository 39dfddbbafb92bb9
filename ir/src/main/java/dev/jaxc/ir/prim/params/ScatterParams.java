package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import java.util.Optional;

/**
 * The params of scatter and its combining forms: the {@code ScatterDimensionNumbers(…)} record
 * (three fields before JAX 0.4.35; the batching ones are then empty) and the mode.
 */
public record ScatterParams(
    long[] updateWindowDims,
    long[] insertedWindowDims,
    long[] scatterDimsToOperandDims,
    long[] operandBatchingDims,
    long[] scatterIndicesBatchingDims,
    Optional<GatherScatterMode> mode) {
  public static ScatterParams of(Params p) {
    ParamValue.Record r = ParamReads.record(p, "dimension_numbers", "ScatterDimensionNumbers");
    return new ScatterParams(
        ParamReads.field(r, "update_window_dims", true),
        ParamReads.field(r, "inserted_window_dims", true),
        ParamReads.field(r, "scatter_dims_to_operand_dims", true),
        ParamReads.field(r, "operand_batching_dims", false),
        ParamReads.field(r, "scatter_indices_batching_dims", false),
        GatherScatterMode.of(p));
  }
}
