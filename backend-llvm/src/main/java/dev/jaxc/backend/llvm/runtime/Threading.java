package dev.jaxc.backend.llvm.runtime;

/**
 * How generated code uses threads. {@code threads}: 0 decides at run time ({@code
 * JAXC_NUM_THREADS} if it is a positive integer, else the number of online CPUs, at most {@link
 * #MAX_THREADS}); a positive count is baked in and the variable ignored (1: no thread code at all).
 * {@code minWork}: the estimated work (scalar operations) each thread must get at least; a region
 * with less than twice that runs inline, with no thread code.
 */
public record Threading(int threads, long minWork) {
  /** The most threads one parallel region runs on (the pool keeps one handle per worker). */
  public static final int MAX_THREADS = 64;

  /**
   * One fused elementwise op on an element or one GEMM multiply-add costs about 0.1 ns in
   * vectorised code, so 2^16 of them (about 7 µs) make a share worth a thread: the pool's parked
   * or spinning workers pick a region up in a few µs. Measured on 2 Zen 4 cores (C ABI, fresh
   * process, medians of 60 calls, alternated): against 2^20, which was chosen when every region
   * created and joined its threads, mlp 2.05 → 1.90 ms, transformer_block 10.5 → 10.2 ms, a
   * 1M-element Newton while loop 10.4 → 9.7 ms, softmax and rnn_scan unchanged (2^18 lay between).
   */
  public static final long DEFAULT_MIN_WORK = 1L << 16;

  /** Threads decided at run time, regions split where each thread gets enough work. */
  public static final Threading DEFAULT = new Threading(0, DEFAULT_MIN_WORK);

  /** Single-threaded code that imports nothing for threads. */
  public static final Threading SERIAL = new Threading(1, DEFAULT_MIN_WORK);

  public Threading {
    if (threads < 0 || threads > MAX_THREADS) throw new IllegalArgumentException("threads " + threads + " not in [0, " + MAX_THREADS + "]");
    if (minWork < 1) throw new IllegalArgumentException("minWork " + minWork + " < 1");
  }

  /** {@code threads} threads (0: decided at run time), with the same work threshold. */
  public Threading withThreads(int n) {
    return new Threading(n, minWork);
  }

  public Threading withMinWork(long w) {
    return new Threading(threads, w);
  }

  /**
   * The most threads worth using on a region of estimated {@code work}; 1 means it runs inline
   * with no thread code.
   */
  int useful(long work) {
    long bound = threads == 0 ? MAX_THREADS : threads;
    return (int) Math.max(1, Math.min(bound, work / minWork));
  }
}
