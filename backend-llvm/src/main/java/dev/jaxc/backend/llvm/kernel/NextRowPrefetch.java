package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A row reduction's operand in a row group that can also prefetch the group's next row. A row
 * group's first member reads its row from memory (softmax's max pass); the later members compute
 * from the row while it is in L1 (the exp pass), and during that compute no load misses, so the
 * hardware prefetchers stop and the next row's first pass waits on memory again. Fed from the
 * reduction's chunk loop ({@link ReduceLanes}), this prefetches the next row of each buffer the
 * group reads by rows, a few cache lines per chunk, so those reads overlap the compute.
 */
final class NextRowPrefetch implements ElementGenerator {
  /** A buffer read by rows: its address, bytes per row and per element. */
  record RowBuffer(LLVMValueRef base, long rowBytes, int elementBytes) {}

  private static final long LINE = 64;

  private final Ir ir;
  private final ElementGenerator operand;
  private final List<RowBuffer> buffers;
  private final long[] rows;
  private final long[] rest;

  /** {@code rows}: the group's row dimensions; {@code rest}: the rest of the operand's shape. */
  NextRowPrefetch(Ir ir, ElementGenerator operand, List<RowBuffer> buffers, long[] rows, long[] rest) {
    this.ir = ir;
    this.operand = operand;
    this.buffers = List.copyOf(buffers);
    this.rows = rows.clone();
    this.rest = rest.clone();
  }

  @Override
  public Value at(Index index) {
    return operand.at(index);
  }

  /** Prefetches, in each row buffer, the next row's part that elements idx … idx + count − 1 take in this row. */
  void prefetch(Index idx, long count) {
    LLVMValueRef row = linear(rows, idx, 0);
    LLVMValueRef at = linear(rest, idx, rows.length);
    for (RowBuffer b : buffers) {
      // Integer arithmetic: past the last row the addresses are only prefetched, never read.
      LLVMValueRef start = ir.add(LLVMBuildPtrToInt(ir.b, b.base(), ir.i64, ""),
          ir.add(ir.mul(ir.add(row, ir.i64(1)), ir.i64(b.rowBytes())), ir.mul(at, ir.i64(b.elementBytes()))));
      for (long off = 0; off < count * b.elementBytes(); off += LINE) {
        LLVMValueRef p = LLVMBuildIntToPtr(ir.b, ir.add(start, ir.i64(off)), ir.ptr, "");
        ir.intrinsic("llvm.prefetch", new LLVMTypeRef[] {ir.ptr}, p, ir.i32(0), ir.i32(3), ir.i32(1));
      }
    }
  }

  /** The row-major position of dimensions from..from + sizes.length − 1 of idx in sizes. */
  private LLVMValueRef linear(long[] sizes, Index idx, int from) {
    LLVMValueRef r = ir.i64(0);
    for (int d = 0; d < sizes.length; d++) r = ir.add(ir.mul(r, ir.i64(sizes[d])), idx.get(from + d));
    return r;
  }
}
