package dev.jaxc.backend.llvm.kernel;

/**
 * The part of a convolution a {@link GemmConv} computes, per spatial axis i: output positions
 * {@code outStart[i] + outStep[i]·t} for t below {@code outCount[i]}, and window positions
 * {@code tapStart[i] + tapStep[i]·j} for j below {@code tapCount[i]} (batch and feature axes
 * whole). {@code interior}: every term of the part is a real input element, none skipped
 * ({@link ConvPieces}).
 */
record ConvView(long[] outStart, long[] outStep, long[] outCount, long[] tapStart, long[] tapStep, long[] tapCount,
    boolean interior) {
  /** All of a convolution with {@code out} output and {@code window} window positions per spatial axis. */
  static ConvView whole(long[] out, long[] window) {
    int d = out.length;
    long[] ones = new long[d];
    java.util.Arrays.fill(ones, 1);
    return new ConvView(new long[d], ones, out.clone(), new long[d], ones.clone(), window.clone(), false);
  }
}
