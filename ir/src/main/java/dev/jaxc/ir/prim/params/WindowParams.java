package dev.jaxc.ir.prim.params;

import static dev.jaxc.ir.prim.params.ParamReads.tuple;

import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;

/**
 * The window of reduce_window, its monoid forms, select_and_scatter(_add) and
 * select_and_gather_add over an operand of rank {@code rank}: {@code window_dimensions
 * window_strides padding=((lo, hi), …)} and, where the primitive has them, {@code base_dilation
 * window_dilation} (ones otherwise, or when absent or None). The decoder checks one positive entry
 * (one pad pair) per operand dimension.
 */
public record WindowParams(
    long[] windowDimensions,
    long[] windowStrides,
    long[][] padding,
    long[] baseDilation,
    long[] windowDilation) {
  /** {@code dilated}: the primitive has dilation params (select_and_scatter has none). */
  public static WindowParams of(Params p, int rank, boolean dilated) {
    long[] dims = p.getLongs("window_dimensions");
    if (dims.length != rank)
      throw new ParamException(
          "got the wrong number of window_dimensions for an operand of rank " + rank
              + ": window_dimensions " + tuple(dims));
    long[] strides = perDim(p.getLongs("window_strides"), "window_strides", rank);
    perDim(dims, "window_dimensions", rank);
    long[][] padding = ParamReads.pairs(p, "padding");
    if (padding.length != rank)
      throw new ParamException("needs " + rank + " padding pairs, got " + padding.length);
    return new WindowParams(dims, strides, padding, dilation(p, "base_dilation", rank, dilated),
        dilation(p, "window_dilation", rank, dilated));
  }

  public long[] padLo() {
    long[] r = new long[padding.length];
    for (int i = 0; i < r.length; i++) r[i] = padding[i][0];
    return r;
  }

  public long[] padHi() {
    long[] r = new long[padding.length];
    for (int i = 0; i < r.length; i++) r[i] = padding[i][1];
    return r;
  }

  private static long[] dilation(Params p, String key, int rank, boolean dilated) {
    return perDim(ParamReads.longsOr(dilated ? p : Params.EMPTY, key, rank, 1), key, rank);
  }

  /** One positive entry per operand dimension. */
  private static long[] perDim(long[] values, String key, int rank) {
    if (values.length != rank)
      throw new ParamException(
          "needs one " + key + " entry per operand dimension (" + rank + "), got "
              + tuple(values));
    for (long v : values)
      if (v < 1) throw new ParamException(key + " must be positive, got " + tuple(values));
    return values;
  }
}
