package dev.jaxc.backend.llvm.emit;

import java.util.function.BiConsumer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * How a loop over [0, n) is spread over the target's workers. The generator asks this interface
 * rather than a runtime: on the CPU {@code runtime.ParallelFor} runs chunks on threads (or the
 * whole range inline); a GPU backend maps the range onto its grid.
 */
public interface ParallelRegions {
  /**
   * Emits {@code body(begin, end)} (i64 values; the body loops over [begin, end) itself) for chunks
   * covering [0, n), n ≥ 1, at the builder's position. {@code grain}: chunk bounds are multiples of
   * it (except n). {@code work}: the region's estimated scalar operations.
   */
  void range(long n, long grain, long work, BiConsumer<LLVMValueRef, LLVMValueRef> body);

  /**
   * Whether {@link #range} with these arguments would run chunks on several workers at once
   * (false: the whole range inline, on the calling thread). A body that needs memory of its own
   * per chunk allocates it only then.
   */
  default boolean splits(long n, long grain, long work) {
    return false;
  }

  /**
   * Whether a parallel loop nest ({@link LoopEmitter#forEachParallel}) should be one region over
   * all its indices, element by element, rather than a region over its outermost axis in chunks:
   * a GPU wants a thread per element (neighbouring threads on neighbouring elements), a CPU wants
   * long runs of the innermost axis per thread.
   */
  default boolean flatIndex() {
    return false;
  }

  /**
   * Whether a step may emit several regions one after another (a concatenation as a loop per
   * operand). A GPU maps a step's single region onto its grid and runs any other step on one
   * thread, so it keeps one region per step.
   */
  default boolean severalPerStep() {
    return true;
  }

  /**
   * The regions of a body that runs once per iteration of a sequential loop (while, scan): on the
   * CPU they need more work to be split, since each iteration's data was just written by one core.
   */
  default ParallelRegions repeated() {
    return this;
  }
}
