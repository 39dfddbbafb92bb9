package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMIntEQ;
import static org.bytedeco.llvm.global.LLVM.LLVMIntUGT;
import static org.bytedeco.llvm.global.LLVM.LLVMIntULT;
import static org.bytedeco.llvm.global.LLVM.LLVMRealUNO;

import dev.jaxc.backend.llvm.emit.HalfFloats;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Kernel for {@code sort} and {@code top_k}. Each row along the sorted dimension is sorted as
 * packed records (key fields, then the element's position: {@link SortRecord}) in the kernel's
 * scratch memory by the module's merge sort ({@link SortFunction}); then every result is gathered
 * from its operand through the sorted positions, so values keep their bits (-0.0, denormals, NaN
 * payloads except bf16's, see {@link #store}). {@code sort} is always stable: for
 * {@code is_stable=False} XLA:CPU leaves the order of ties unspecified (std::sort). {@code top_k}
 * sorts descending, ties by lower position, and keeps the first k.
 */
final class SortKernel {
  private SortKernel() {}

  /** At most this many parts of the rows, each with its own record buffers (threads take parts). */
  private static final long MAX_PARTS = 16;
  /** The parts' record buffers together stay under this (else fewer parts). */
  private static final long MAX_PART_BYTES = 64L << 20;

  /** The scratch of both record buffers per part: parts · 2 · n · words · 8 bytes. */
  static long scratchBytes(Eqn e) {
    Spec s = Spec.of(e);
    long perPart = Math.multiplyExact(2 * 8L * s.layout().words(), s.n());
    return Math.multiplyExact(perPart, parts(e, perPart));
  }

  /** How many parts the rows are cut into, from the shape only (each row is sorted whole). */
  private static long parts(Eqn e, long perPart) {
    Spec s = Spec.of(e);
    long[] shape = ((ArrayType) e.ins().get(0).type()).shape().sizes();
    long rows = 1;
    for (int d = 0; d < shape.length; d++) if (d != s.axis()) rows *= shape[d];
    return Math.max(1, Math.min(Math.min(MAX_PARTS, rows), MAX_PART_BYTES / Math.max(1, perPart)));
  }

  static void emit(KernelContext cx) {
    Ir ir = cx.ir();
    Spec s = Spec.of(cx.eqn());
    ArrayType x = cx.operandType(0);
    long[] rows = x.shape().sizes().clone();
    rows[s.axis()] = 1;
    for (long r : rows) if (r == 0) return;
    if (s.kept() == 0) return;
    int words = s.layout().words();
    long perPart = 2 * 8L * words * s.n();
    long parts = parts(cx.eqn(), perPart);
    long count = Arrays.stream(rows).reduce(1, (p, q) -> p * q);
    long work = count * s.n() * (64 - Long.numberOfLeadingZeros(s.n())) * words;
    LLVMValueRef scratch = cx.scratch();
    LLVMValueRef sort = SortFunction.get(ir, words);
    // Threads take parts of the rows, each part its own record buffers; every row is sorted whole.
    cx.loops().parallel().range(parts, 1, work, (begin, end) -> cx.loops().forRange(begin, end, part -> {
      LLVMValueRef a = ir.gep(ir.i8, scratch, ir.mul(part, ir.i64(perPart)));
      LLVMValueRef b = ir.gep(ir.i64, a, ir.i64(s.n() * words));
      LLVMValueRef lo = ir.udiv(ir.mul(part, ir.i64(count)), ir.i64(parts));
      LLVMValueRef hi = ir.udiv(ir.mul(ir.add(part, ir.i64(1)), ir.i64(count)), ir.i64(parts));
      cx.loops().forRange(lo, hi, flat -> {
        if (selects(s)) selectRow(cx, s, unflatten(ir, flat, rows), a);
        else sortRow(cx, s, unflatten(ir, flat, rows), a, b, sort);
      });
    }));
  }

  /** The row index (axis position 0) of flat row number {@code flat}. */
  private static Index unflatten(Ir ir, LLVMValueRef flat, long[] rows) {
    LLVMValueRef[] idx = new LLVMValueRef[rows.length];
    for (int d = rows.length - 1; d >= 0; d--) {
      if (rows[d] == 1) {
        idx[d] = ir.i64(0);
      } else {
        idx[d] = ir.urem(flat, ir.i64(rows[d]));
        flat = ir.udiv(flat, ir.i64(rows[d]));
      }
    }
    return Index.of(idx);
  }

  private static void sortRow(KernelContext cx, Spec s, Index row, LLVMValueRef a, LLVMValueRef b, LLVMValueRef sort) {
    Ir ir = cx.ir();
    int words = s.layout().words();
    cx.loops().forEach(new long[] {s.n()}, i -> {
      LLVMValueRef p = i.get(0);
      LLVMValueRef[] rec = record(cx, s, row, p);
      for (int w = 0; w < words; w++)
        ir.store(rec[w], ir.gep(ir.i64, a, ir.add(ir.mul(p, ir.i64(words)), ir.i64(w))), 8);
    });
    LLVMValueRef sorted = ir.call(SortFunction.type(ir), sort, a, b, ir.i64(s.n()));
    cx.loops().forEach(new long[] {s.kept()}, i -> {
      LLVMValueRef q = i.get(0);
      LLVMValueRef last = ir.load(ir.i64, ir.gep(ir.i64, sorted, ir.add(ir.mul(q, ir.i64(words)), ir.i64(words - 1))), 8);
      result(cx, s, row, q, last);
    });
  }

  /** Largest k that top_k finds by insertion into a sorted buffer instead of sorting the row. */
  static final long SELECT_MAX_K = 64;

  /**
   * Whether top_k keeps its k smallest records by insertion ({@link #selectRow}): one-word
   * records, k at most {@link #SELECT_MAX_K} and at most an eighth of the row.
   */
  private static boolean selects(Spec s) {
    return s.order() == SortKeys.Order.TOP_K && s.layout().words() == 1 && s.kept() <= SELECT_MAX_K
        && s.kept() * 8 <= s.n();
  }

  /**
   * top_k of one row without sorting it: the k smallest records (the same order the sort gives:
   * records are distinct, as they end in the position) kept ascending in {@code buf}; a record
   * enters when fewer than k are kept or it is below the k-th, shifting the larger ones up. Most
   * elements of a long row only compare with the k-th: 512 rows of 4096 f32 with k = 16 took 4.7×
   * XLA's time as a merge sort of every row.
   */
  private static void selectRow(KernelContext cx, Spec s, Index row, LLVMValueRef buf) {
    Ir ir = cx.ir();
    long k = s.kept();
    LLVMValueRef last = ir.gep(ir.i64, buf, ir.i64(k - 1));
    cx.loops().forEach(new long[] {s.n()}, i -> {
      LLVMValueRef p = i.get(0);
      LLVMValueRef r = record(cx, s, row, p)[0];
      LLVMValueRef filling = ir.icmp(LLVMIntULT, p, ir.i64(k));
      LLVMBasicBlockRef test = ir.block("topk.test");
      LLVMBasicBlockRef insert = ir.block("topk.insert");
      LLVMBasicBlockRef shift = ir.block("topk.shift");
      LLVMBasicBlockRef place = ir.block("topk.place");
      LLVMBasicBlockRef next = ir.block("topk.next");
      ir.condBr(filling, insert, test);
      ir.at(test);
      ir.condBr(ir.icmp(LLVMIntULT, r, ir.load(ir.i64, last, 8)), insert, next);
      // j from min(p, k - 1) down while buf[j - 1] > r: buf[j] = buf[j - 1].
      ir.at(insert);
      LLVMValueRef start = ir.select(filling, p, ir.i64(k - 1));
      ir.br(shift);
      ir.at(shift);
      LLVMValueRef j = ir.phi(ir.i64);
      ir.incoming(j, start, insert);
      LLVMBasicBlockRef check = ir.block("topk.check");
      LLVMBasicBlockRef move = ir.block("topk.move");
      ir.condBr(ir.icmp(LLVMIntEQ, j, ir.i64(0)), place, check);
      ir.at(check);
      LLVMValueRef below = ir.load(ir.i64, ir.gep(ir.i64, buf, ir.sub(j, ir.i64(1))), 8);
      ir.condBr(ir.icmp(LLVMIntUGT, below, r), move, place);
      ir.at(move);
      ir.store(below, ir.gep(ir.i64, buf, j), 8);
      ir.incoming(j, ir.sub(j, ir.i64(1)), move);
      ir.br(shift);
      ir.at(place);
      ir.store(r, ir.gep(ir.i64, buf, j), 8);
      ir.br(next);
      ir.at(next);
    });
    cx.loops().forEach(new long[] {k}, i -> result(cx, s, row, i.get(0), ir.load(ir.i64, ir.gep(ir.i64, buf, i.get(0)), 8)));
  }

  /** The record of the element at position {@code p} of {@code row}: its key fields, then p. */
  static LLVMValueRef[] record(KernelContext cx, Spec s, Index row, LLVMValueRef p) {
    Ir ir = cx.ir();
    Index at = along(row, s.axis(), p);
    List<LLVMValueRef> fields = new ArrayList<>();
    for (int k = 0; k < s.keys(); k++)
      fields.addAll(SortKeys.of(ir, cx.operandType(k).dtype(), cx.operands().get(k).at(at), s.order()));
    fields.add(p);
    return s.layout().pack(ir, fields);
  }

  /**
   * Sorted result {@code q} of {@code row}, from the last word of the record sorted there: every
   * result gathered from its operand at the record's position (top_k: the value and the position).
   */
  static void result(KernelContext cx, Spec s, Index row, LLVMValueRef q, LLVMValueRef lastWord) {
    Ir ir = cx.ir();
    LLVMValueRef from = s.layout().position(ir, lastWord);
    Index src = along(row, s.axis(), from);
    Index dst = along(row, s.axis(), q);
    if (s.order() == SortKeys.Order.TOP_K) {
      store(cx, 0, dst, cx.operands().get(0).at(src));
      store(cx, 1, dst, Value.of(ir.trunc(from, ir.i32)));
    } else {
      for (int k = 0; k < cx.operands().size(); k++) store(cx, k, dst, cx.operands().get(k).at(src));
    }
  }

  /**
   * Stores a value read from an operand. XLA:CPU moves f16 bits unchanged, but f16 values arrive
   * widened to f32 and the rounding store would quiet signalling NaNs, so their bits are restored
   * exactly. (bf16 it sorts in f32, quieting NaNs to sign | 0x7FC0 as the rounding store does.)
   */
  private static void store(KernelContext cx, int result, Index idx, Value v) {
    Ir ir = cx.ir();
    ArrayType t = cx.resultTypes().get(result);
    if (t.dtype() != DType.F16) {
      cx.access().store(cx.results().get(result), t, idx, v);
      return;
    }
    // An f16 NaN widens to sign | 0x7F800000 | payload << 13; anything else narrows exactly.
    LLVMValueRef bits = ir.bitcast(v.v(), ir.i32);
    LLVMValueRef nan = ir.fcmp(LLVMRealUNO, v.v(), v.v());
    LLVMValueRef sign = ir.and(ir.lshr(bits, ir.i32(16)), ir.i32(0x8000));
    LLVMValueRef payload = ir.and(ir.lshr(bits, ir.i32(13)), ir.i32(0x3FF));
    LLVMValueRef nanBits = ir.trunc(ir.or(ir.or(sign, ir.i32(0x7C00)), payload), ir.i16);
    LLVMValueRef half = ir.select(nan, nanBits, HalfFloats.fromF32(ir, DType.F16, v.v()));
    LLVMValueRef at = cx.access().linear(t.shape().sizes(), idx);
    ir.store(half, ir.gep(ir.i16, cx.results().get(result), at), 2);
  }

  static Index along(Index row, int axis, LLVMValueRef i) {
    List<LLVMValueRef> dims = new ArrayList<>(row.dims());
    dims.set(axis, i);
    return new Index(dims);
  }

  /**
   * What a sort or top_k equation sorts: along {@code axis}, {@code n} elements per row, by the
   * first {@code keys} operands, keeping the first {@code kept} of each sorted row.
   */
  record Spec(int axis, long n, int keys, long kept, SortKeys.Order order, SortRecord layout) {
    static Spec of(Eqn e) {
      ArrayType x = (ArrayType) e.ins().get(0).type();
      int rank = x.rank();
      boolean topK = e.primitive().equals("top_k");
      int axis = Math.floorMod(topK ? e.params().getLong("axis", rank - 1) : e.params().getLong("dimension"), rank);
      long n = x.shape().sizes()[axis];
      int keys = topK ? 1 : (int) e.params().getLong("num_keys", 1);
      List<Integer> widths = new ArrayList<>();
      for (int k = 0; k < keys; k++) widths.addAll(SortKeys.widths(((ArrayType) e.ins().get(k).type()).dtype()));
      return new Spec(axis, n, keys, topK ? e.params().getLong("k") : n,
          topK ? SortKeys.Order.TOP_K : SortKeys.Order.SORT, SortRecord.of(widths, n));
    }
  }
}
