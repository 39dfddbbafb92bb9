package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import java.util.Optional;

/**
 * gather's params: the {@code GatherDimensionNumbers(offset_dims=…, collapsed_slice_dims=…,
 * start_index_map=…, operand_batching_dims=…, start_indices_batching_dims=…)} record (three fields
 * before JAX 0.4.35; the batching ones are then empty), {@code slice_sizes}, the mode, and {@code
 * fill_value} as printed (None: JAX's default for the dtype). The index vector is always the last
 * dim of the indices.
 */
public record GatherParams(
    long[] offsetDims,
    long[] collapsedSliceDims,
    long[] startIndexMap,
    long[] operandBatchingDims,
    long[] startIndicesBatchingDims,
    long[] sliceSizes,
    Optional<GatherScatterMode> mode,
    ParamValue fillValue) {
  public static GatherParams of(Params p) {
    ParamValue.Record r = ParamReads.record(p, "dimension_numbers", "GatherDimensionNumbers");
    return new GatherParams(
        ParamReads.field(r, "offset_dims", true),
        ParamReads.field(r, "collapsed_slice_dims", true),
        ParamReads.field(r, "start_index_map", true),
        ParamReads.field(r, "operand_batching_dims", false),
        ParamReads.field(r, "start_indices_batching_dims", false),
        p.getLongs("slice_sizes"),
        GatherScatterMode.of(p),
        p.get("fill_value").orElse(new ParamValue.None()));
  }
}
