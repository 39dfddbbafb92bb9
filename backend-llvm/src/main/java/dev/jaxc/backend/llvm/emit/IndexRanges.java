package dev.jaxc.backend.llvm.emit;

import java.util.ArrayDeque;
import java.util.Deque;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What the loop being emitted knows about its own index variables: {@code lo ≤ i < hi} for a loop
 * that walks one segment of an axis ({@link LoopEmitter#forEachParallelCut}). A generator that
 * picks among operands by that index (concatenate) reads the one operand the segment lies in
 * instead of evaluating every operand and selecting, which LLVM can vectorise only as gathers.
 */
public final class IndexRanges {
  /** {@code lo ≤ var < hi}. */
  public record Known(LLVMValueRef var, long lo, long hi) {}

  private final Deque<Known> known = new ArrayDeque<>();

  void push(LLVMValueRef var, long lo, long hi) {
    known.push(new Known(var, lo, hi));
  }

  void pop() {
    known.pop();
  }

  /** The range known for {@code v}, or null: only a loop variable itself has one. */
  Known of(LLVMValueRef v) {
    for (Known k : known) if (k.var().equals(v)) return k;
    return null;
  }
}
