package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Where a kernel's code reads which thread it is: on the GPU the PTX special registers, in the
 * emulated launch four globals the emulation driver sets before it runs each thread of each
 * block ({@link EmulatedLaunch}). The kernel IR is otherwise the same on both.
 */
sealed interface ThreadIndex permits ThreadIndex.Ptx, ThreadIndex.Emulated {
  /** {@code {block, thread, blocks, threadsPerBlock}} as i64 values at the builder's position. */
  LLVMValueRef[] read(Ir ir);

  /** The thread's index in the grid and the grid's thread count, i64. */
  default LLVMValueRef[] global(Ir ir) {
    LLVMValueRef[] r = read(ir);
    LLVMValueRef id = ir.add(ir.mul(r[0], r[3]), r[1]);
    return new LLVMValueRef[] {id, ir.mul(r[2], r[3])};
  }

  /** {@code %ctaid.x}, {@code %tid.x}, {@code %nctaid.x}, {@code %ntid.x}. */
  final class Ptx implements ThreadIndex {
    private static final String[] REGISTERS = {"ctaid.x", "tid.x", "nctaid.x", "ntid.x"};

    @Override
    public LLVMValueRef[] read(Ir ir) {
      LLVMValueRef[] r = new LLVMValueRef[4];
      for (int k = 0; k < 4; k++) {
        LLVMValueRef v = ir.intrinsic("llvm.nvvm.read.ptx.sreg." + REGISTERS[k], new LLVMTypeRef[0]);
        r[k] = LLVMBuildZExt(ir.b, v, ir.i64, "");
      }
      return r;
    }
  }

  /** Internal i64 globals of the emulation module, named {@code jaxc.emu.*}. */
  final class Emulated implements ThreadIndex {
    static final String[] GLOBALS = {"jaxc.emu.block", "jaxc.emu.thread", "jaxc.emu.blocks", "jaxc.emu.threads"};

    @Override
    public LLVMValueRef[] read(Ir ir) {
      LLVMValueRef[] r = new LLVMValueRef[4];
      for (int k = 0; k < 4; k++) r[k] = ir.load(ir.i64, global(ir, k), 8);
      return r;
    }

    /** Global {@code k} of {@link #GLOBALS}, made on first use. */
    static LLVMValueRef global(Ir ir, int k) {
      LLVMValueRef g = LLVMGetNamedGlobal(ir.module, GLOBALS[k]);
      if (g != null && !g.isNull()) return g;
      g = LLVMAddGlobal(ir.module, ir.i64, GLOBALS[k]);
      LLVMSetLinkage(g, LLVMInternalLinkage);
      LLVMSetInitializer(g, ir.i64(k >= 2 ? 1 : 0));
      LLVMSetAlignment(g, 8);
      return g;
    }
  }
}
