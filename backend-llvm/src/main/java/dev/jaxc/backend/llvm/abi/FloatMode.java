package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The floating-point mode generated code runs in when its {@code Numerics} flush denormals in
 * hardware: flush-to-zero, denormals-are-zero and round-to-nearest, as XLA:CPU runs.
 *
 * <ul>
 *   <li>x86-64 (SSE2 and up, so the baseline too): MXCSR bits FTZ (15) and DAZ (6) set, rounding
 *       control (13–14) cleared, through {@code llvm.x86.sse.stmxcsr}/{@code ldmxcsr}. The x87
 *       unit is never used. F16C conversions ignore these bits, which jaxc's integer f16/bf16
 *       rounding does not use anyway.
 *   <li>AArch64: FPCR.FZ (24) set, which flushes both inputs and results of single and double
 *       precision arithmetic (half precision has its own FZ16, untouched: f16 is computed in f32),
 *       RMode (22–23) cleared, through {@code llvm.aarch64.get.fpcr}/{@code set.fpcr}.
 * </ul>
 *
 * {@link #enter} saves the caller's register and writes it only if it differs (the register write
 * costs a few ns, the usual caller already runs in the default mode, so it is written twice per
 * call); {@link #leave} puts it back. The code between them must be a call of a function that is
 * never inlined: LLVM treats float arithmetic as independent of the mode, so only a call keeps
 * it from being moved across the register write.
 */
public final class FloatMode {
  private static final long X86_FTZ_DAZ = (1L << 15) | (1L << 6);
  private static final long X86_ROUNDING = 3L << 13;
  private static final long ARM_FZ = 1L << 24;
  private static final long ARM_RMODE = 3L << 22;

  /** The caller's register value and whether it was changed. */
  public record Saved(LLVMValueRef old, LLVMValueRef changed) {}

  private FloatMode() {}

  /** Saves the caller's mode and sets jaxc's; at the builder's position. */
  public static Saved enter(Ir ir, TargetSpec.Arch arch) {
    LLVMValueRef old = read(ir, arch);
    LLVMTypeRef t = ir.typeOf(old);
    LLVMValueRef wanted = switch (arch) {
      case X86_64 -> ir.or(ir.and(old, ir.constInt(t, ~X86_ROUNDING)), ir.constInt(t, X86_FTZ_DAZ));
      case AARCH64 -> ir.or(ir.and(old, ir.constInt(t, ~ARM_RMODE)), ir.constInt(t, ARM_FZ));
      case NVPTX -> throw new IllegalArgumentException("no float control register on " + arch);
    };
    LLVMValueRef changed = ir.icmp(LLVMIntNE, wanted, old);
    when(ir, changed, () -> write(ir, arch, wanted));
    return new Saved(old, changed);
  }

  /** Restores what {@link #enter} saved. */
  public static void leave(Ir ir, TargetSpec.Arch arch, Saved s) {
    when(ir, s.changed(), () -> write(ir, arch, s.old()));
  }

  /** Sets jaxc's mode for good (a worker thread of jaxc's own). */
  public static void set(Ir ir, TargetSpec.Arch arch) {
    enter(ir, arch);
  }

  private static LLVMValueRef read(Ir ir, TargetSpec.Arch arch) {
    return switch (arch) {
      case X86_64 -> {
        LLVMValueRef slot = slot(ir);
        ir.intrinsic("llvm.x86.sse.stmxcsr", new LLVMTypeRef[0], slot);
        yield ir.load(ir.i32, slot, 4);
      }
      case AARCH64 -> ir.intrinsic("llvm.aarch64.get.fpcr", new LLVMTypeRef[0]);
      case NVPTX -> throw new IllegalArgumentException("no float control register on " + arch);
    };
  }

  private static void write(Ir ir, TargetSpec.Arch arch, LLVMValueRef v) {
    switch (arch) {
      case X86_64 -> {
        LLVMValueRef slot = slot(ir);
        ir.store(v, slot, 4);
        ir.intrinsic("llvm.x86.sse.ldmxcsr", new LLVMTypeRef[0], slot);
      }
      case AARCH64 -> ir.intrinsic("llvm.aarch64.set.fpcr", new LLVMTypeRef[0], v);
      case NVPTX -> throw new IllegalArgumentException("no float control register on " + arch);
    }
  }

  /** A 4-byte stack slot in the function's entry block. */
  private static LLVMValueRef slot(Ir ir) {
    LLVMBasicBlockRef here = ir.currentBlock();
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(ir.function());
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first == null || first.isNull()) LLVMPositionBuilderAtEnd(ir.b, entry);
    else LLVMPositionBuilderBefore(ir.b, first);
    LLVMValueRef a = LLVMBuildAlloca(ir.b, ir.i32, "");
    LLVMSetAlignment(a, 4);
    ir.at(here);
    return a;
  }

  private static void when(Ir ir, LLVMValueRef cond, Runnable then) {
    LLVMBasicBlockRef yes = ir.block("fpmode");
    LLVMBasicBlockRef next = ir.block("fpmode.done");
    ir.condBr(cond, yes, next);
    ir.at(yes);
    then.run();
    ir.br(next);
    ir.at(next);
  }
}
