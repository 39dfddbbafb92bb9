package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Plan;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Device memory a kernel needs only while it runs (a grid's partial results, and the counters its
 * blocks count themselves done with), in the call's workspace: the host library gives each call
 * in flight its own work block, so calls on several streams at once never share it (module
 * globals were shared by every call in a context).
 *
 * <p>Two regions after the plan's buffers and the host's read-back slots: counters (i32), which
 * are zero before and after every launch (a kernel's last block resets the ones it used; the host
 * library zeroes the region when it allocates a work block: {@link #zeroedOffset}), then partials.
 * Kernels run one after another, so every kernel's counters and partials start at their region's
 * start and each region is as large as the largest kernel's need. Where the regions start is
 * known only once every kernel is emitted (read-back slots are added as loops are met), so
 * kernels load the two offsets from constant globals whose values {@link #place} sets then; the
 * optimiser folds the loads.
 */
final class LaunchScratch {
  private final Ir ir;
  private final LLVMValueRef countersAt;
  private final LLVMValueRef partialsAt;
  /** The workspace parameter of the kernel being emitted. */
  private LLVMValueRef workspace;
  private long counters;
  private long partials;
  private long mostCounters;
  private long mostPartials;
  private long zeroedOffset;

  LaunchScratch(Ir ir) {
    this.ir = ir;
    // Declarations until placed: nothing can fold a value that is not yet known.
    this.countersAt = LLVMAddGlobal(ir.module, ir.i64, "jaxc.scratch.counters");
    this.partialsAt = LLVMAddGlobal(ir.module, ir.i64, "jaxc.scratch.partials");
  }

  /** A new kernel, whose workspace parameter is {@code workspace}: its scratch starts empty. */
  void begin(LLVMValueRef workspace) {
    this.workspace = workspace;
    counters = 0;
    partials = 0;
  }

  /** {@code n} i32 counters of this kernel, zero when it starts; it must leave them zero. */
  LLVMValueRef counters(long n) {
    LLVMValueRef p = address(countersAt, counters * 4);
    counters += n;
    mostCounters = Math.max(mostCounters, counters * 4);
    return p;
  }

  /** {@code n} values of the scalar {@code type} of this kernel, 16-byte aligned. */
  LLVMValueRef partials(LLVMTypeRef type, long n) {
    LLVMValueRef p = address(partialsAt, partials);
    partials += (n * scalarBytes(type) + 15) / 16 * 16;
    mostPartials = Math.max(mostPartials, partials);
    return p;
  }

  /**
   * Places the regions from {@code base} (a multiple of {@link Plan#ALIGNMENT}) and returns their
   * bytes (0 when no kernel needed scratch).
   */
  long place(long base) {
    long partialsBase = base + align(mostCounters);
    zeroedOffset = base;
    for (LLVMValueRef g : new LLVMValueRef[] {countersAt, partialsAt}) {
      LLVMSetInitializer(g, ir.i64(g == countersAt ? base : partialsBase));
      LLVMSetGlobalConstant(g, 1);
      LLVMSetLinkage(g, LLVMInternalLinkage);
    }
    return align(mostCounters) + align(mostPartials);
  }

  /** The workspace offset of the counters, which must be zero when a work block is first used. */
  long zeroedOffset() {
    return zeroedOffset;
  }

  /** The counters' bytes (0: none). */
  long zeroedBytes() {
    return align(mostCounters);
  }

  private static long scalarBytes(LLVMTypeRef t) {
    int kind = LLVMGetTypeKind(t);
    if (kind == LLVMIntegerTypeKind) return (LLVMGetIntTypeWidth(t) + 7) / 8;
    if (kind == LLVMHalfTypeKind || kind == LLVMBFloatTypeKind) return 2;
    if (kind == LLVMFloatTypeKind) return 4;
    if (kind == LLVMDoubleTypeKind) return 8;
    throw new IllegalArgumentException("scratch of a non-scalar type");
  }

  private static long align(long bytes) {
    return (bytes + Plan.ALIGNMENT - 1) / Plan.ALIGNMENT * Plan.ALIGNMENT;
  }

  /**
   * workspace + offset global + {@code extra}, computed at the top of the function being emitted
   * so that it dominates every phase of a block-cooperative kernel (the workspace is a parameter
   * of the kernel; the step function being emitted gets it as an argument).
   */
  private LLVMValueRef address(LLVMValueRef offsetGlobal, long extra) {
    if (workspace == null) throw new IllegalStateException("scratch asked for outside a kernel");
    return ir.atEntry(at -> {
      LLVMValueRef offset = LLVMBuildLoad2(at, ir.i64, offsetGlobal, "");
      LLVMValueRef[] index = {LLVMBuildAdd(at, offset, ir.i64(extra), "")};
      return LLVMBuildGEP2(at, ir.i8, workspace, new org.bytedeco.javacpp.PointerPointer<>(index), 1, "");
    });
  }
}
