package dev.jaxc.backend.llvm.kernel;

/**
 * How a packed GEMM is cut up (BLIS's names): the register tile {@code mr × nr} ({@code nr} =
 * {@code vectors} registers of {@code lanes}), K in slices of {@code kc} (a packed B micro-panel
 * {@code kc × nr} stays in L1), M in blocks of {@code mc} rows (a packed A block {@code mc × kc}
 * stays in L2). Cache sizes are those of a typical x86-64 / AArch64 core (32 KiB L1d, 512 KiB or
 * more of L2): the compiler does not know the target CPU's.
 */
record GemmBlocking(int mr, int vectors, int lanes, long kc, long mc, long blocks) {
  static final long L1_BYTES = 32 * 1024;
  static final long L2_BYTES = 512 * 1024;
  /** Multiply-adds from which a contraction is cut into blocks for threads. */
  static final long PARALLEL_WORK = 1L << 21;
  static final long BLOCKS = 16;
  static final long MIN_BLOCK_TILES = 4;
  /**
   * Up to this many register tiles of M, the tile is made just tall enough (M = 32: 3 × 11 rows,
   * not 3 × 14): each height is a micro-kernel of its own.
   */
  static final long SHORT_TILES = 8;

  int nr() {
    return vectors * lanes;
  }

  /**
   * The blocking for elements of {@code bytes} bytes on {@code isa}, for a contraction of depth
   * {@code k}, {@code m} rows and {@code n} columns, repeated {@code batch} times. Two registers of B, a
   * broadcast of A and (without FMA) a product are live beside the accumulators, which take the
   * rest. M blocks are as equal as register tiles allow; threads take whole (batch, M block) items,
   * so a large contraction gets at least {@link #BLOCKS} of them where M allows (blocks of at
   * least {@link #MIN_BLOCK_TILES} register tiles, which reuse a B micro-panel from L1).
   */
  static GemmBlocking of(VectorIsa isa, int bytes, long batch, long m, long n, long k) {
    int vectors = 2;
    int spare = vectors + (isa.fma() ? 2 : 4);
    int mr = (isa.registers() - spare) / vectors;
    int lanes = isa.lanes(bytes);
    long nr = (long) vectors * lanes;
    long kcMax = Math.max(64, Math.min(384, L1_BYTES / (nr * bytes) / 8 * 8));
    long slices = (k + kcMax - 1) / kcMax;
    long kc = (k + slices - 1) / slices;  // equal slices: no short last one
    long tiles = (m + mr - 1) / mr;
    if (tiles <= SHORT_TILES) mr = (int) ((m + tiles - 1) / tiles);  // short M: no padded rows to speak of
    long maxTiles = Math.max(1, L2_BYTES / 2 / (kc * bytes) / mr);
    long blocks = (tiles + maxTiles - 1) / maxTiles;
    if (batch * m * n * k >= PARALLEL_WORK && batch < BLOCKS) {
      long wanted = Math.max(blocks, (BLOCKS + batch - 1) / batch);
      blocks = Math.max(blocks, Math.min(wanted, tiles / MIN_BLOCK_TILES));
    }
    long mc = (tiles + blocks - 1) / blocks * mr;
    return new GemmBlocking(mr, vectors, lanes, kc, mc, blocks);
  }
}
