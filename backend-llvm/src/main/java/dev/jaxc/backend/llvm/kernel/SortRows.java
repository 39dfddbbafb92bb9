package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.ir.Type.ArrayType;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A sort or top_k as another backend's kernels sort it: the rows along the sorted dimension, each
 * element's packed record ({@link SortRecord}: key fields in sort order, then its position, so
 * records are distinct and any correct sort of them is the CPU's stable one), padding records
 * that sort after every real one, and the results gathered from a sorted record, as {@link
 * SortKernel} does.
 */
public final class SortRows {
  private final KernelContext cx;
  private final SortKernel.Spec s;

  public SortRows(KernelContext cx) {
    this.cx = cx;
    this.s = SortKernel.Spec.of(cx.eqn());
  }

  /** Elements per row of sort or top_k {@code e}. */
  public static long length(dev.jaxc.ir.Eqn e) {
    return SortKernel.Spec.of(e).n();
  }

  /** 64-bit words per record of sort or top_k {@code e}. */
  public static int words(dev.jaxc.ir.Eqn e) {
    return SortKernel.Spec.of(e).layout().words();
  }

  /** Elements per row. */
  public long n() {
    return s.n();
  }

  /** Sorted results kept per row (n for sort, k for top_k). */
  public long kept() {
    return s.kept();
  }

  /** 64-bit words per record. */
  public int words() {
    return s.layout().words();
  }

  /** The operand's shape with the sorted dimension 1: one index per row. */
  public long[] rows() {
    long[] rows = cx.operandType(0).shape().sizes().clone();
    rows[s.axis()] = 1;
    return rows;
  }

  /** The record's words of the element at position {@code p} (i64) of {@code row}. */
  public LLVMValueRef[] record(Index row, LLVMValueRef p) {
    return SortKernel.record(cx, s, row, p);
  }

  /**
   * A padding record for position {@code p} ≥ n (below the next power of two, which the position
   * field holds): every key field at its maximum, so it sorts after every real record (whose
   * positions are below n), and padding records stay distinct.
   */
  public LLVMValueRef[] padding(LLVMValueRef p) {
    Ir ir = cx.ir();
    SortRecord layout = s.layout();
    List<LLVMValueRef> fields = new ArrayList<>();
    int[] widths = layout.widths();
    for (int f = 0; f < widths.length - 1; f++) fields.add(ir.i64(widths[f] == 64 ? -1L : (1L << widths[f]) - 1));
    fields.add(p);
    return layout.pack(ir, fields);
  }

  /** The bits of the position field: positions below 2^bits fit. */
  public int positionBits() {
    int[] widths = s.layout().widths();
    return widths[widths.length - 1];
  }

  /** Stores sorted result {@code q} of {@code row} from the last word of the record sorted there. */
  public void result(Index row, LLVMValueRef q, LLVMValueRef lastWord) {
    SortKernel.result(cx, s, row, q, lastWord);
  }

  /** Whether the rows are empty or nothing is kept (the kernel has nothing to do). */
  public boolean empty() {
    for (long r : rows()) if (r == 0) return true;
    return s.kept() == 0 || ((ArrayType) cx.eqn().ins().get(0).type()).shape().elementCount() == 0;
  }
}
