package dev.jaxc.backend.llvm.kernel;

/**
 * How a packed GEMM is cut up (BLIS's names): the register tile {@code mr × nr} ({@code nr} =
 * {@code vectors} registers of {@code lanes}), K in slices of {@code kc} (a packed B micro-panel
 * {@code kc × nr} stays in L1), M in {@code blocks} blocks of at most {@code mc} rows (a packed A
 * block {@code mc × kc} stays in L2), N in {@code nBlocks} blocks of whole micro-panels. Cache
 * sizes are those of a typical x86-64 / AArch64 core (32 KiB L1d, 512 KiB or more of L2): the
 * compiler does not know the target CPU's.
 */
record GemmBlocking(int mr, int vectors, int lanes, long kc, long mc, long blocks, long nBlocks) {
  static final long L1_BYTES = 32 * 1024;
  static final long L2_BYTES = 512 * 1024;
  /** Multiply-adds from which a contraction is cut into blocks for threads. */
  static final long PARALLEL_WORK = 1L << 20;
  static final long BLOCKS = 16;
  static final long MIN_BLOCK_TILES = 4;
  /**
   * Columns of register tiles an N block has at least: each item packs its own A block, which
   * this many B micro-panels then reuse.
   */
  static final long MIN_N_PANELS = 4;
  /**
   * Up to this many register tiles of M, the tile is made just tall enough (M = 32: 3 × 11 rows,
   * not 3 × 14): each height is a micro-kernel of its own.
   */
  static final long SHORT_TILES = 8;
  /** A shorter tile is taken where it saves more than 1 / PADDING_SAVED of M's computed rows. */
  static final long PADDING_SAVED = 100;
  /**
   * Rows of a register tile at most: a one-vector tile on AVX-512 would otherwise take 29 (one
   * broadcast per row per step already matches the FMAs from 8 rows on).
   */
  static final int MAX_ROWS = 14;
  /**
   * NEON's rows at most: with 14 × 8 (28 accumulators, 2 of B, A's element) LLVM's register
   * allocator rotated accumulators through 12 moves and a stack spill every K step (62
   * instructions for 28 FMAs); 13 × 8 is 45 instructions for 26 FMAs, no moves, no spill — the
   * loads, FMAs and loop control alone (assembly counted for a generic AArch64 core; no AArch64
   * hardware here to time it, qemu's times mean nothing).
   */
  static final int NEON_MAX_ROWS = 13;

  /**
   * Whether the tile is 4 rows of 3 vectors rather than rows of 2: with 16 registers and FMA (AVX2),
   * 12 accumulators, 3 registers of B and 1 broadcast issue 4 broadcasts and 3 loads per 12 FMAs,
   * where 6 × 2 issues 6 and 2. On a Zen 3 (AVX2 + FMA), alternating in one run, matmul 1024 ran
   * 2–12% faster on one thread and 6–10% on two (6 × 16 reached 55–58 GFLOP/s of one core, 4 × 24
   * 63–64). 32 registers keep 2 vectors (14 × 32 on AVX-512, measured on Zen 4; NEON's 13 × 8, {@link #NEON_MAX_ROWS}).
   */
  static boolean wideTile(VectorIsa isa, boolean fused) {
    return fused && isa.registers() == 16;
  }

  int nr() {
    return vectors * lanes;
  }

  /**
   * The blocking for elements of {@code bytes} bytes on {@code isa}, for a contraction of depth
   * {@code k}, {@code m} rows and {@code n} columns, repeated {@code batch} times. Two registers of B, a
   * broadcast of A and (without FMA) a product are live beside the accumulators, which take the
   * rest. M is cut in {@code blocks} blocks of whole register tiles as equal as they can be (sizes
   * differ by at most one tile); threads take whole (batch, N block, M block) items, so a large
   * contraction gets at least {@link #BLOCKS} of them: from M where it allows (blocks of at least
   * {@link #MIN_BLOCK_TILES} register tiles, which reuse a B micro-panel from L1), else from N too
   * ({@code nBlocks} blocks of at least {@link #MIN_N_PANELS} micro-panels).
   */
  static GemmBlocking of(VectorIsa isa, int bytes, long batch, long m, long n, long k) {
    return of(isa, bytes, bytes, 1, isa.fma(), false, batch, m, n, k);
  }

  /**
   * The blocking for C elements of {@code bytes} bytes and packed elements of {@code packedBytes}
   * (K in steps of {@code kStep}: slices are whole steps); {@code fused}: the step needs no
   * register for a product beside the accumulator's; {@code inPlace}: B is small and row-major,
   * so the micro-kernel reads it in place where N is a whole number of tiles.
   */
  static GemmBlocking of(VectorIsa isa, int bytes, int packedBytes, int kStep, boolean fused, boolean inPlace,
      long batch, long m, long n, long k) {
    return of(isa, bytes, packedBytes, kStep, fused, inPlace, 0, batch, m, n, k);
  }

  /** Slices of at least this many K steps where they must lie inside runs ({@link #sliceInRuns}). */
  static final long MIN_RUN_SLICE = 64;

  /**
   * The slice length for K made of runs of {@code run} terms that a slice may not cross (a
   * convolution's A read in place, {@link ConvRows}): the longest whole fraction of a run up to
   * the blocking's {@code kcMax}, or 0 where that is below {@link #MIN_RUN_SLICE} (short slices
   * would call the micro-kernel for a few steps at a time).
   */
  static long sliceInRuns(long run, long kcMax) {
    for (long parts = (run + kcMax - 1) / kcMax; parts <= run; parts++) {
      if (run % parts != 0) continue;
      return run / parts >= MIN_RUN_SLICE ? run / parts : 0;
    }
    return 0;
  }

  /**
   * As above; {@code run} > 0: K slices lie inside runs of that many steps where {@link
   * #sliceInRuns} gives a slice (the caller sees whether kc divides the run).
   */
  static GemmBlocking of(VectorIsa isa, int bytes, int packedBytes, int kStep, boolean fused, boolean inPlace, long run,
      long batch, long m, long n, long k) {
    boolean wide = wideTile(isa, fused);
    int lanes = isa.lanes(bytes);
    // A B read in place with 2 vectors but not with 3 (N = 256: 16 panels of 16, 10.7 of 24) is
    // worth more than the wider tile: packing it each call made matmul_256 16% slower, an RNN step 18%.
    if (wide && inPlace && n % (2L * lanes) == 0 && n % (3L * lanes) != 0) wide = false;
    int vectors = wide ? 3 : 2;
    // A narrow N takes as few vectors as cover it (N = 8 on AVX2: one, not 24 columns of which
    // 16 are padding), the rows filling the registers the columns leave.
    long cover = (n + lanes - 1) / lanes;
    if (cover < vectors) {
      vectors = (int) cover;
      wide = false;
    }
    int spare = vectors + (fused ? 2 : 4);
    int mr = wide ? 4 : Math.min(isa == VectorIsa.NEON ? NEON_MAX_ROWS : MAX_ROWS, (isa.registers() - spare) / vectors);
    long nr = (long) vectors * lanes;
    long kcMax = Math.max(64, Math.min(384, L1_BYTES / (nr * packedBytes) / 8 * 8));
    long slices = (k + kcMax - 1) / kcMax;
    long kc = (k + slices - 1) / slices;  // equal slices: no short last one
    kc = (kc + kStep - 1) / kStep * kStep;
    long inRuns = run > 0 ? sliceInRuns(run, kcMax) : 0;
    if (inRuns > 0) kc = inRuns;
    long tiles = (m + mr - 1) / mr;
    if (tiles <= SHORT_TILES) {
      mr = (int) ((m + tiles - 1) / tiles);  // short M: no padded rows to speak of
    } else {
      // A tile a row or two shorter where that cuts the padded rows of the last tile by more than
      // PADDING_SAVED (M = 256: 20 × 13 rows, not 19 × 14); work goes with rows computed.
      int best = mr;
      for (int r = mr - 1; r >= mr - 2; r--) {
        long padded = (m + r - 1) / r * r;
        long bestPadded = (m + best - 1) / best * best;
        if ((bestPadded - padded) * PADDING_SAVED > m) best = r;
      }
      mr = best;
      tiles = (m + mr - 1) / mr;
    }
    long maxTiles = Math.max(1, L2_BYTES / 2 / (kc * packedBytes) / mr);
    long blocks = (tiles + maxTiles - 1) / maxTiles;
    // Where all of M is one block and B is the wider operand, threads take N blocks only: each
    // B micro-panel is then read from memory once and multiplied by every row of A, where M
    // blocks would each read all of B (an LSTM step's 64 × 1024 × 2048 read its 8 MiB B four times).
    // Only where N gives BLOCKS items of MIN_N_PANELS panels: mlp's 256 × 512 × 512 in 5 N blocks
    // ran 5–10% slower than in 16 M blocks (3 items against 2 on two cores).
    long nPanels = (n + (long) vectors * lanes - 1) / ((long) vectors * lanes);
    boolean splitN = blocks == 1 && n > m && nPanels >= BLOCKS * MIN_N_PANELS;
    if (batch * m * n * k >= PARALLEL_WORK && batch < BLOCKS && !splitN) {
      long wanted = Math.max(blocks, (BLOCKS + batch - 1) / batch);
      blocks = Math.max(blocks, Math.min(wanted, tiles / MIN_BLOCK_TILES));
    }
    long mc = (tiles + blocks - 1) / blocks * mr;
    // Where M gives too few items for threads (M of a few hundred rows), N is cut too.
    // Each item keeps at least PARALLEL_WORK multiply-adds: an RNN step's 32 × 256 × 256 is cut in
    // two N halves of ~18 µs, which the pool's spinning workers pick up at once (rnn_scan −26%,
    // matmul_256 −11% on two Zen 4 cores; 2^19 made batched_matmul's items too small, +11%).
    long nBlocks = 1;
    long work = batch * m * n * k;
    if (work >= PARALLEL_WORK && batch * blocks < BLOCKS) {
      long panels = (n + nr - 1) / nr;
      long wanted = (BLOCKS + batch * blocks - 1) / (batch * blocks);
      long worth = work / (batch * blocks * PARALLEL_WORK);
      nBlocks = Math.max(1, Math.min(Math.min(wanted, worth), panels / MIN_N_PANELS));
    }
    return new GemmBlocking(mr, vectors, lanes, kc, mc, blocks, nBlocks);
  }
}
