package dev.jaxc.cli;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Type.ArrayType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A counter-based generator (splitmix64's finaliser over {@code seed * C1 + (index + 1) * C2}):
 * any element of any array comes from (seed, index) alone. bench/suite/counter_rng.py is the same
 * generator in NumPy; the benchmark suite's inputs are made by both and must agree bit for bit.
 */
final class CounterRandom {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final long SEED_MUL = 0xD1B54A32D192ED03L;
  /** The seed of the positions at which the suite stores large outputs. */
  static final long SAMPLE_SEED = 0x5A3D1EL;

  private CounterRandom() {}

  /** h(seed, index). */
  static long hash(long seed, long index) {
    long z = seed * SEED_MUL + (index + 1) * GOLDEN;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A double in [lo, hi) from the hash's top 24 bits (rounded to the target dtype by the caller). */
  static double uniform(long h, double lo, double hi) {
    return lo + (hi - lo) * ((h >>> 40) * 0x1p-24);
  }

  /** An integer in [lo, hi). */
  static long uniformInt(long h, long lo, long hi) {
    return lo + Long.remainderUnsigned(h, hi - lo);
  }

  /** The flat position of stored sample {@code j} of an output of {@code n} elements. */
  static long samplePosition(long j, long n) {
    return Long.remainderUnsigned(hash(SAMPLE_SEED, j), n);
  }

  /**
   * A new little-endian direct buffer of type {@code t} filled from {@code seed}: floats in [lo,
   * hi), integers in [lo, hi), booleans 0 or 1. 16-bit floats take the bits of the f32 value
   * truncated (bf16) or a random normal half below 1 in magnitude (f16); dtypes without arithmetic
   * here (sub-byte ints, f8) get random bytes.
   */
  static ByteBuffer fill(ArrayType t, long seed, double lo, double hi) {
    long n = t.shape().elementCount();
    DType d = t.dtype();
    ByteBuffer b = ByteBuffer.allocateDirect((int) Math.max(1, n * d.byteSize())).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = 0; i < n; i++) {
      long h = hash(seed, i);
      int at = (int) (i * d.byteSize());
      switch (d) {
        case F32 -> b.putFloat(at, (float) uniform(h, lo, hi));
        case F64 -> b.putDouble(at, uniform(h, lo, hi));
        case BF16 -> b.putShort(at, (short) (Float.floatToRawIntBits((float) uniform(h, lo, hi)) >>> 16));
        case F16 -> b.putShort(at, (short) ((h >>> 63) << 15 | (1 + Long.remainderUnsigned(h >>> 20, 14)) << 10 | (h & 0x3FF)));
        case C64 -> {
          b.putFloat(at, (float) uniform(h, lo, hi));
          b.putFloat(at + 4, (float) uniform(hash(~seed, i), lo, hi));
        }
        case C128 -> {
          b.putDouble(at, uniform(h, lo, hi));
          b.putDouble(at + 8, uniform(hash(~seed, i), lo, hi));
        }
        case BOOL -> b.put(at, (byte) (h >>> 63));
        case I8, U8 -> b.put(at, (byte) uniformInt(h, (long) lo, (long) hi));
        case I16, U16 -> b.putShort(at, (short) uniformInt(h, (long) lo, (long) hi));
        case I32, U32 -> b.putInt(at, (int) uniformInt(h, (long) lo, (long) hi));
        case I64, U64 -> b.putLong(at, uniformInt(h, (long) lo, (long) hi));
        default -> {
          for (int k = 0; k < d.byteSize(); k++) b.put(at + k, (byte) (h >>> (8 * k)));
        }
      }
    }
    return b;
  }
}
