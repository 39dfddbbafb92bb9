package dev.jaxc.ir.pass.random;

/**
 * C++'s {@code std::mt19937_64}: the 64-bit Mersenne Twister with the standard's parameters and
 * seeding, which XLA draws its rng keys from ({@link RngUniformKeys}).
 */
final class Mt19937x64 {
  private static final int N = 312;
  private static final int M = 156;
  private static final long MATRIX = 0xB5026F5AA96619E9L;
  private static final long UPPER = 0xFFFFFFFF80000000L;
  private static final long LOWER = 0x7FFFFFFFL;

  private final long[] mt = new long[N];
  private int next = N;

  Mt19937x64(long seed) {
    mt[0] = seed;
    for (int i = 1; i < N; i++) mt[i] = 6364136223846793005L * (mt[i - 1] ^ (mt[i - 1] >>> 62)) + i;
  }

  long next() {
    if (next == N) twist();
    long y = mt[next++];
    y ^= (y >>> 29) & 0x5555555555555555L;
    y ^= (y << 17) & 0x71D67FFFEDA60000L;
    y ^= (y << 37) & 0xFFF7EEE000000000L;
    return y ^ (y >>> 43);
  }

  private void twist() {
    for (int k = 0; k < N; k++) {
      long y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER);
      mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? MATRIX : 0);
    }
    next = 0;
  }
}
