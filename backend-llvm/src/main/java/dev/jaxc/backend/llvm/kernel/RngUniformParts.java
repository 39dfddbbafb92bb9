package dev.jaxc.backend.llvm.kernel;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * An rng_uniform as another backend's kernels split it ({@link RngUniformKernel}): the execution
 * count, taken once per execution, then the Philox blocks, each on its own and in any order, so
 * threads may share them.
 */
public final class RngUniformParts {
  private final RngUniformKernel.Blocks blocks;

  public RngUniformParts(KernelContext cx) {
    this.blocks = new RngUniformKernel.Blocks(cx);
  }

  /** Philox blocks of the result (the last one partial when the size is not a multiple). */
  public long blocks() {
    return blocks.full + (blocks.tail > 0 ? 1 : 0);
  }

  /** Counts this execution (emit exactly once per execution): its number, i64. */
  public LLVMValueRef execution() {
    return blocks.execution();
  }

  /** An execution's state and value conversion, from {@link #prepare}. */
  public static final class Prepared {
    private final RngUniformKernel.Blocks.Execution x;

    private Prepared(RngUniformKernel.Blocks.Execution x) {
      this.x = x;
    }
  }

  /** Execution {@code count}'s state and value conversion (lo and hi read): once per thread, before its blocks. */
  public Prepared prepare(LLVMValueRef count) {
    return new Prepared(blocks.prepare(count));
  }

  /** Stores block {@code j} (i64) of a prepared execution. */
  public void block(Prepared p, LLVMValueRef j) {
    blocks.block(p.x, j);
  }
}
