package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.BufferAccess;
import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

  private final Ir ir;
  private final BufferAccess access;
  private final ElementGenerator operand;
  private final List<RowBuffer> buffers;
  private final long[] rows;
  private final long[] rest;

  /** Rows of at most this many bytes are prefetched a row ahead (one row must not evict the other). */
  static final long ROW_MAX = 32 * 1024;

  /**
   * {@code operand} (of type {@code type}, read by a member of row group {@code g} after its
   * first), prefetching the next row of each materialised value the group reads by rows (leading
   * dimensions the group's rows, rows of at most {@link #ROW_MAX} bytes); itself where there is
   * none, or on a GPU, whose row group runs a row per block.
   */
  static ElementGenerator around(Ir ir, BufferAccess access, Plan plan, Function<Buffer, LLVMValueRef> bases,
      Step.Rows g, ElementGenerator operand, ArrayType type) {
    if (ir.target() == null || ir.target().arch() == TargetSpec.Arch.NVPTX) return operand;
    long[] rows = g.shape();
    long count = Arrays.stream(rows).reduce(1, (x, y) -> x * y);
    List<RowBuffer> buffers = new ArrayList<>();
    for (Var v : rowInputs(plan, g, rows)) {
      Buffer b = plan.buffer(v);
      long rowBytes = b.bytes() / count;
      if (rowBytes <= ROW_MAX) buffers.add(new RowBuffer(bases.apply(b), rowBytes, b.type().dtype().byteSize()));
    }
    if (buffers.isEmpty()) return operand;
    long[] shape = type.shape().sizes();
    return new NextRowPrefetch(ir, access, operand, buffers, rows, Arrays.copyOfRange(shape, rows.length, shape.length));
  }

  /** The materialised values the group's members read whose leading dimensions are its rows. */
  private static List<Var> rowInputs(Plan plan, Step.Rows g, long[] rows) {
    Map<Var, Boolean> seen = new IdentityHashMap<>();
    List<Var> r = new ArrayList<>();
    for (Step s : g.steps()) {
      if (s instanceof Step.Fusion f) for (Var root : f.roots()) rowInputs(plan, plan.producer(root).eqn(), rows, seen, r);
      else if (s instanceof Step.MultiOutput m) rowInputs(plan, m.kernel().eqn(), rows, seen, r);
      else rowInputs(plan, ((Step.Kernel) s).eqn(), rows, seen, r);
    }
    return r;
  }

  private static void rowInputs(Plan plan, Eqn e, long[] rows, Map<Var, Boolean> seen, List<Var> r) {
    for (Atom a : e.ins()) {
      if (!(a instanceof Var v) || seen.put(v, true) != null) continue;
      if (!plan.isMaterialised(v)) {
        rowInputs(plan, plan.producer(v).eqn(), rows, seen, r);
        continue;
      }
      long[] shape = ((ArrayType) v.type()).shape().sizes();
      if (shape.length > rows.length && Arrays.equals(Arrays.copyOf(shape, rows.length), rows)) r.add(v);
    }
  }

  /** {@code rows}: the group's row dimensions; {@code rest}: the rest of the operand's shape. */
  private NextRowPrefetch(Ir ir, BufferAccess access, ElementGenerator operand, List<RowBuffer> buffers, long[] rows,
      long[] rest) {
    this.ir = ir;
    this.access = access;
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
    LLVMValueRef row = access.linear(rows, new Index(idx.dims().subList(0, rows.length)));
    LLVMValueRef at = access.linear(rest, new Index(idx.dims().subList(rows.length, idx.rank())));
    for (RowBuffer b : buffers) {
      // Integer arithmetic: past the last row the addresses are only prefetched, never read.
      LLVMValueRef start = ir.add(LLVMBuildPtrToInt(ir.b, b.base(), ir.i64, ""),
          ir.add(ir.mul(ir.add(row, ir.i64(1)), ir.i64(b.rowBytes())), ir.mul(at, ir.i64(b.elementBytes()))));
      // Each line's address converted on its own: one pointer with offsets made softmax 5% slower
      // (LLVM scheduled the row loop's address arithmetic worse).
      for (long off = 0; off < count * b.elementBytes(); off += Ir.CACHE_LINE)
        ir.prefetch(LLVMBuildIntToPtr(ir.b, ir.add(start, ir.i64(off)), ir.ptr, ""), 1, false);
    }
  }
}
