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

  public ParallelFor(Ir ir, Threading threading, TargetSpec.Arch arch) {
    this.ir = ir;
    this.threading = threading;
    this.runtime = new ThreadRuntime(ir, threading, arch);
  }

  /**
   * Emits {@code body(begin, end)} (i64 values; the body loops over [begin, end) itself) for
   * chunks covering [0, n), n ≥ 1, at the builder's position. {@code grain}: chunk bounds are
   * multiples of it (except n). {@code work}: the region's estimated scalar operations.
   */
  @Override
  public void range(long n, long grain, long work, BiConsumer<LLVMValueRef, LLVMValueRef> body) {
    long units = (n + grain - 1) / grain;
    if (units < 2 || threading.useful(work) < 2 || inParallelBody()) {
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
