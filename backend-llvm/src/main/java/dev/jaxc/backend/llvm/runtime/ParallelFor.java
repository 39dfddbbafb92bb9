package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.List;
import java.util.function.BiConsumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Parallel regions of one module. {@link #range} emits a loop body over [0, n) either inline or,
 * when the region's work is worth more than one thread ({@link Threading}), outlined into {@code
 * void jaxc_parallel_body_K(ptr ctx, i64 begin, i64 end)} that {@code jaxc_parallel_for}
 * ({@link ThreadRuntime}) runs in chunks across threads. The values the body uses from the caller
 * are captured into a context on the caller's stack ({@link Outliner}). Regions never nest: one
 * inside a parallel body runs inline.
 */
public final class ParallelFor implements ParallelRegions {
  /** The parallel bodies' names begin with this. */
  public static final String BODY = "jaxc_parallel_body_";

  private final Ir ir;
  private final Threading threading;
  private final ThreadRuntime runtime;

  /**
   * How much more work a region inside a loop body (while, scan) needs per thread. Such a region
   * runs once per iteration on data the previous, serial, equations just wrote in one core's
   * cache: split across threads, each iteration moves those lines between cores and wakes the
   * pool. Measured on 2 Zen 4 cores: svd's bidiagonalisation of 256×256 (256 iterations of
   * 64K-element updates) took 24 ms on two threads against 6.6 ms on one, and 6.2 ms with this
   * factor (2: 10.9 ms; 8 and 16: 7.2 and 6.6 ms, but 16 made newton_while's 1M-element body
   * serial, 1.27 → 1.67 ms; at 4 it stays split, 1.25 ms).
   */
  static final long REPEATED_FACTOR = 4;

  public ParallelFor(Ir ir, Threading threading, TargetSpec.Arch arch) {
    this(ir, threading, new ThreadRuntime(ir, threading, arch));
  }

  private ParallelFor(Ir ir, Threading threading, ThreadRuntime runtime) {
    this.ir = ir;
    this.threading = threading;
    this.runtime = runtime;
  }

  @Override
  public ParallelRegions repeated() {
    return new ParallelFor(ir, threading.withMinWork(threading.minWork() * REPEATED_FACTOR), runtime);
  }

  /**
   * Emits {@code body(begin, end)} (i64 values; the body loops over [begin, end) itself) for
   * chunks covering [0, n), n ≥ 1, at the builder's position. {@code grain}: chunk bounds are
   * multiples of it (except n). {@code work}: the region's estimated scalar operations.
   */
  @Override
  public void range(long n, long grain, long work, BiConsumer<LLVMValueRef, LLVMValueRef> body) {
    long units = (n + grain - 1) / grain;
    if (!splits(n, grain, work)) {
      body.accept(ir.i64(0), ir.i64(n));
      return;
    }
    LLVMValueRef fn = ir.outlined(freshName(), runtime.bodyType(), f -> {
      body.accept(LLVMGetParam(f, 1), LLVMGetParam(f, 2));
      LLVMBuildRetVoid(ir.b);
    });
    LLVMValueRef ctx = Outliner.context(ir, fn);
    long useful = Math.min(threading.useful(work), units);
    ir.call(runtime.parallelForType(), runtime.parallelFor(), fn, ctx, ir.i64(n), ir.i64(grain), ir.i64(useful));
  }

  /**
   * Emits what the C ABI adds for threads, once the module's regions are emitted: {@code int32_t
   * NAME_set_num_threads(int32_t n)} (see {@link ThreadRuntime#emitSetter}).
   */
  public void finish(String name) {
    runtime.emitSetter(name);
  }

  @Override
  public boolean splits(long n, long grain, long work) {
    long units = (n + grain - 1) / grain;
    return units >= 2 && threading.useful(work) >= 2 && !inParallelBody();
  }

  private boolean inParallelBody() {
    return LLVMGetValueName(ir.function()).getString().startsWith(BODY);
  }

  private String freshName() {
    for (int k = 0; ; k++) {
      LLVMValueRef f = LLVMGetNamedFunction(ir.module, BODY + k);
      if (f == null || f.isNull()) return BODY + k;
    }
  }
}
