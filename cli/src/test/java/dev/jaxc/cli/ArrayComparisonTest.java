package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.ir.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArrayComparisonTest {
  private static NpyArray f32(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) b.putFloat(x);
    return NpyArray.of(DType.F32, new long[] {v.length}, b.array());
  }

  private static NpyArray i32(int... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int x : v) b.putInt(x);
    return NpyArray.of(DType.I32, new long[] {v.length}, b.array());
  }

  private static Optional<String> cmp(NpyArray want, NpyArray got) {
    return ArrayComparison.compare(want, got, 1e-6, 1e-6);
  }

  @Test
  void noToleranceMeansTheSameBitsButAnyNan() {
    assertEquals(Optional.empty(), ArrayComparison.compare(f32(0f, -0f, 1.5f), f32(0f, -0f, 1.5f), 0, 0));
    assertEquals(Optional.of("1 of 1 elements differ; first at flat index 0: got 0.0, expected -0.0"),
        ArrayComparison.compare(f32(-0f), f32(0f), 0, 0));
    assertTrue(ArrayComparison.compare(f32(1f), f32(Math.nextUp(1f)), 0, 0).isPresent());
    assertEquals(Optional.empty(), ArrayComparison.compare(f32(Float.NaN), f32(Float.intBitsToFloat(0xFFC00000)), 0, 0));
    // Any tolerance, however small, compares values: the zeros' signs no longer count.
    assertEquals(Optional.empty(), ArrayComparison.compare(f32(-0f), f32(0f), 0, 1e-30));
  }

  @Test
  void anOutputBelowAtolIsComparedAtItsOwnScale() {
    // Gradients of magnitude 1e-7 with atol 1e-6: zeros must not pass, a close answer must.
    assertTrue(cmp(f32(1e-7f, -2e-7f), f32(0f, 0f)).isPresent());
    assertEquals(Optional.empty(), cmp(f32(1e-7f, -2e-7f), f32(1.0000001e-7f, -2.0000002e-7f)));
    assertTrue(cmp(f32(1e-7f, -2e-7f), f32(1.1e-7f, -2e-7f)).isPresent());
    // All zeros expected: zeros (and denormals) pass, a small number does not.
    assertEquals(Optional.empty(), cmp(f32(0f, 0f), f32(0f, 1e-40f)));
    assertTrue(cmp(f32(0f, 0f), f32(0f, 1e-9f)).isPresent());
    // One value at atol or above: atol as given, for every element.
    assertEquals(Optional.empty(), cmp(f32(1e-7f, 1f), f32(0f, 1f)));
  }

  @Test
  void floatsWithinToleranceNanWhereNanInfinitiesExactly() {
    assertEquals(Optional.empty(), cmp(f32(1f, Float.NaN, Float.NEGATIVE_INFINITY, 0f), f32(1.0000005f, Float.NaN, Float.NEGATIVE_INFINITY, 5e-7f)));
    assertEquals(Optional.of("1 of 2 elements differ; first at flat index 1: got 1.0, expected NaN"), cmp(f32(1f, Float.NaN), f32(1f, 1f)));
    assertTrue(cmp(f32(1f), f32(Float.NaN)).isPresent());
    assertTrue(cmp(f32(Float.POSITIVE_INFINITY), f32(Float.MAX_VALUE)).isPresent());
    assertTrue(cmp(f32(Float.POSITIVE_INFINITY), f32(Float.NEGATIVE_INFINITY)).isPresent());
    assertTrue(cmp(f32(1f), f32(1.00001f)).isPresent());
  }

  @Test
  void integersExactlyAndTypesMustMatch() {
    assertEquals(Optional.empty(), cmp(i32(1, -7), i32(1, -7)));
    assertEquals(Optional.of("1 of 2 elements differ; first at flat index 0: got 2, expected 1"), cmp(i32(1, -7), i32(2, -7)));
    assertEquals(Optional.of("got int32[2], expected float32[2]"), cmp(f32(1f, 2f), i32(1, 2)));
    assertEquals(Optional.of("got int32[3], expected int32[2]"), cmp(i32(1, 2), i32(1, 2, 3)));
  }

  @Test
  void halfPrecisionDecoding() {
    // f16 bit patterns: 0x3c00 = 1, 0x0001 = 2^-24, 0xfc00 = -inf, 0x7e00 = NaN, 0xc000 = -2.
    assertEquals(1.0, ArrayComparison.halfToDouble(0x3C00));
    assertEquals(0x1p-24, ArrayComparison.halfToDouble(0x0001));
    assertEquals(Double.NEGATIVE_INFINITY, ArrayComparison.halfToDouble(0xFC00));
    assertTrue(Double.isNaN(ArrayComparison.halfToDouble(0x7E00)));
    assertEquals(-2.0, ArrayComparison.halfToDouble(0xC000));
    assertEquals(65504.0, ArrayComparison.halfToDouble(0x7BFF));
  }
}
