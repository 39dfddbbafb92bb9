package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The Java generator gives what bench/suite/counter_rng.py gives (values recorded from it with
 * NumPy 2.4), so the suite's inputs are the ones JAX's expected outputs were computed from.
 */
class CounterRandomTest {
  @Test
  void hashMatchesThePythonGenerator() {
    assertEquals(0x10ce132015665d82L, CounterRandom.hash(7, 0));
  }

  @Test
  void floatsAndIntsMatchThePythonGenerator() {
    // counter_rng.array(7, (4,), np.float32, -1, 1) and array(7, (4,), np.int32, 0, 32000)
    ByteBuffer f = CounterRandom.fill(new ArrayType(DType.F32, Shape.of(4)), 7, -1, 1);
    float[] got = new float[4];
    for (int i = 0; i < 4; i++) got[i] = f.getFloat(4 * i);
    assertArrayEquals(new float[] {-0.8687111f, 0.19317627f, 0.18381214f, -0.199391f}, got);
    ByteBuffer n = CounterRandom.fill(new ArrayType(DType.I32, Shape.of(4)), 7, 0, 32000);
    int[] ints = new int[4];
    for (int i = 0; i < 4; i++) ints[i] = n.getInt(4 * i);
    assertArrayEquals(new int[] {25474, 799, 23074, 27499}, ints);
  }

  @Test
  void samplePositionsMatchThePythonGenerator() {
    // counter_rng.sample_positions(1000, 4)
    long[] got = new long[4];
    for (int j = 0; j < 4; j++) got[j] = CounterRandom.samplePosition(j, 1000);
    assertArrayEquals(new long[] {228, 789, 579, 104}, got);
  }
}
