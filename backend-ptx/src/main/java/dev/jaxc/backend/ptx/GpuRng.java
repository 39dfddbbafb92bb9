package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.RngUniformParts;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * rng_uniform on one block: thread 0 counts the execution (the CPU kernel's atomic add on the
 * equation's module global, once per launch) into shared memory, a barrier, then thread t
 * computes Philox blocks t, t + 256, … of that execution ({@link RngUniformParts}: the CPU's
 * state, bits and conversion, so the same numbers; each block is independent).
 */
final class GpuRng {
  private static final int BLOCK = 256;

  private GpuRng() {}

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx) {
    RngUniformParts parts = new RngUniformParts(cx);
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef count = bc.shared("jaxc.rng.execution", ir.i64, 1);
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> ir.store(parts.execution(), count, 8)));
    bc.barrier();
    bc.phase(t -> {
      RngUniformParts.Prepared x = parts.prepare(ir.load(ir.i64, count, 8));
      ir.loop(t, ir.i64(parts.blocks()), BLOCK, j -> parts.block(x, j));
    });
    return new GpuReductions.Launch(1, BLOCK);
  }
}
