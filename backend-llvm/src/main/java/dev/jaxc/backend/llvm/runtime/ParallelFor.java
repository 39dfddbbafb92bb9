package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
public final class ParallelFor {
  private static final String BODY = "jaxc_parallel_body_";

  private final Ir ir;
  private final Threading threading;
  private final ThreadRuntime runtime;
  /** Per function that has regions: its thread-count slot (by the function's address). */
  private final Map<Long, LLVMValueRef> counts = new HashMap<>();
  /** Functions whose regions use another function's slot (callee address to caller). */
  private final Map<Long, LLVMValueRef> countOwners = new HashMap<>();

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
    List<LLVMValueRef> captured = Outliner.capture(fn);
    LLVMValueRef ctx = entryAlloca(Math.max(1, captured.size()));
    for (int k = 0; k < captured.size(); k++) {
      ir.store(captured.get(k), ir.gep(ir.i8, ctx, ir.i64((long) Outliner.SLOT * k)), Outliner.SLOT);
    }
    long useful = Math.min(threading.useful(work), units);
    ir.call(runtime.parallelForType(), runtime.parallelFor(), fn, ctx, ir.i64(n), ir.i64(grain), ir.i64(useful),
        threadCount());
  }

  /**
   * The caller's slot for the thread count, 0 until its first region asks: one per function (the
   * entry point), set to 0 at its top, so each call asks at most once.
   */
  private LLVMValueRef threadCount() {
    LLVMValueRef fn = countOwners.getOrDefault(ir.function().address(), ir.function());
    return counts.computeIfAbsent(fn.address(), a -> {
      LLVMBuilderRef b = atEntry(fn);
      try {
        LLVMValueRef slot = LLVMBuildAlloca(b, ir.i64, "");
        LLVMSetAlignment(slot, 8);
        LLVMSetAlignment(LLVMBuildStore(b, ir.i64(0), slot), 8);
        return slot;
      } finally {
        LLVMDisposeBuilder(b);
      }
    });
  }

  /**
   * While {@code callee} is emitted, its regions use {@code caller}'s thread-count slot (a value
   * of the caller, which the callee's emitter must pass in as an argument), so a call of the entry
   * point asks for the thread count once however many functions its schedule is split into.
   * {@code caller} null ends the sharing (before {@code callee} is deleted).
   */
  public void shareThreadCount(LLVMValueRef callee, LLVMValueRef caller) {
    if (caller == null) countOwners.remove(callee.address());
    else countOwners.put(callee.address(), caller);
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

  /** The context: {@code slots} 8-byte slots in the caller's entry block (allocated once per call). */
  private LLVMValueRef entryAlloca(int slots) {
    LLVMBuilderRef b = atEntry(ir.function());
    try {
      LLVMValueRef slot = LLVMBuildAlloca(b, LLVMArrayType2(ir.i64, slots), "");
      LLVMSetAlignment(slot, Outliner.SLOT);
      return slot;
    } finally {
      LLVMDisposeBuilder(b);
    }
  }

  /** A new builder at the top of {@code fn}'s entry block (the caller disposes it). */
  private LLVMBuilderRef atEntry(LLVMValueRef fn) {
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ir.ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first == null || first.isNull()) LLVMPositionBuilderAtEnd(b, entry);
    else LLVMPositionBuilderBefore(b, first);
    return b;
  }
}
