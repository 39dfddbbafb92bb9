package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import java.util.HashMap;
import java.util.Map;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Decides a kernel's launch from its emitted step function. A step may run on a grid of many
 * threads only if every thread may run all of its code outside its one parallel region: exactly
 * one {@code jaxc.grid.for} call, no loop around it (no cycle in the step's control flow), no store
 * except to the thread's own stack, no call except the region and side-effect-free intrinsics.
 * Then its chunks are spread over the grid; every other step (an argmax over everything, a
 * GEMM, sort, control flow, an output copy) runs as one thread, whose grid-stride loops cover
 * every chunk.
 */
final class GridMapping {
  /** Threads per block of a grid-mapped kernel. */
  static final int BLOCK = 256;
  /** Most blocks launched; the grid-stride loop covers the rest. */
  static final int MAX_BLOCKS = 65535;

  private GridMapping() {}

  /** The launch of kernel {@code name}, whose body is {@code step}. */
  static ProgramLaunch launch(String name, String step, LLVMValueRef fn) {
    long chunks = chunks(fn);
    if (chunks < 1) return new ProgramLaunch(name, step, 1, 1, false, false);
    int block = (int) Math.min(BLOCK, chunks);
    long blocks = Math.min(MAX_BLOCKS, (chunks + block - 1) / block);
    return new ProgramLaunch(name, step, (int) blocks, block, true, false);
  }

  /**
   * A kernel's launch, what step it runs, whether its work is spread over the grid, and whether
   * its threads cooperate within a block ({@link BlockCode}: the emulation calls it once per block).
   */
  record ProgramLaunch(String kernel, String step, int gridX, int blockX, boolean mapped, boolean cooperative) {}

  /**
   * The region's chunk count (at least 1) if the step may run on a grid, 1 for straight-line
   * code (a scalar step, launched as one thread: all it needs), else 0.
   */
  private static long chunks(LLVMValueRef fn) {
    if (hasCycle(fn)) return 0;
    long chunks = 0;
    int regions = 0;
    boolean shared = false;  // writes memory other threads see, or calls what might
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
        int op = LLVMGetInstructionOpcode(i);
        if (op == LLVMCall) {
          LLVMValueRef callee = LLVMGetCalledValue(i);
          String name = LLVMGetValueName(callee).getString();
          if (name.equals(GridRegions.GRID_FOR)) {
            regions++;
            long n = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2));
            long grain = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 3));
            chunks = (n + grain - 1) / grain;
          } else if (!pureIntrinsic(name)) {
            shared = true;
          }
        } else if (op == LLVMStore) {
          if (!onStack(LLVMGetOperand(i, 1))) shared = true;
        } else if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg || op == LLVMFence || op == LLVMInvoke) {
          shared = true;
        }
      }
    }
    if (regions == 0) return 1;  // straight-line code (a scalar step): one thread is all it needs
    return regions == 1 && !shared ? Math.max(1, chunks) : 0;
  }

  private static boolean pureIntrinsic(String name) {
    return name.startsWith("llvm.") && !name.startsWith("llvm.mem");
  }

  private static boolean onStack(LLVMValueRef p) {
    while (p != null && !p.isNull() && LLVMIsAGetElementPtrInst(p) != null && !LLVMIsAGetElementPtrInst(p).isNull()) {
      p = LLVMGetOperand(p, 0);
    }
    return p != null && !p.isNull() && LLVMIsAAllocaInst(p) != null && !LLVMIsAAllocaInst(p).isNull();
  }

  /** Whether the function's control flow has a loop (depth-first search for a back edge). */
  private static boolean hasCycle(LLVMValueRef fn) {
    Map<Long, Integer> state = new HashMap<>();  // 1: on the path, 2: done
    return visit(LLVMGetEntryBasicBlock(fn), state);
  }

  private static boolean visit(LLVMBasicBlockRef bb, Map<Long, Integer> state) {
    Integer s = state.get(bb.address());
    if (s != null) return s == 1;
    state.put(bb.address(), 1);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (term != null && !term.isNull()) {
      int n = LLVMGetNumSuccessors(term);
      for (int k = 0; k < n; k++) if (visit(LLVMGetSuccessor(term, k), state)) return true;
    }
    state.put(bb.address(), 2);
    return false;
  }
}
