package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.SortRows;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.prim.Primitive;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * sort and top_k with a block per row: the row's records ({@link SortRows}: the CPU's packed key
 * fields and position, distinct, so any correct sort is the CPU's stable one, NaN order and all)
 * are loaded into shared memory, padded to a power of two P with records that sort last, sorted
 * by a bitonic network (log P · (log P + 1) / 2 compare-exchange phases separated by barriers,
 * thread t taking pairs t, t + 256, …), and the first n (top_k: k) gathered into the results as
 * the CPU does. Rows whose padded records exceed {@link #MAX_WORDS} 64-bit words of shared memory
 * keep the CPU step, a thread per row.
 */
final class GpuSort {
  private static final int BLOCK = 256;
  /** Most shared 64-bit record words per block (32 KiB). */
  static final long MAX_WORDS = 4096;

  private GpuSort() {}

  static boolean applies(Primitive p, Eqn e) {
    if (p != Primitive.SORT && p != Primitive.TOP_K) return false;
    long n = SortRows.length(e);
    return n >= 2 && padded(n) * SortRows.words(e) <= MAX_WORDS;
  }

  private static long padded(long n) {
    return Long.highestOneBit(n - 1) << 1;
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx) {
    SortRows sr = new SortRows(cx);
    long[] rows = sr.rows();
    long count = GpuReductions.product(rows);
    if (sr.empty()) return new GpuReductions.Launch(1, BLOCK);
    long n = sr.n();
    long size = padded(n);
    int log = Long.numberOfTrailingZeros(size);
    int w = sr.words();
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef rec = bc.shared("jaxc.sort.records", ir.i64, Math.toIntExact(size * w));
    Index row = GpuReductions.unflatten(ir, bc.block(), rows);
    bc.phase(t -> ir.loop(t, ir.i64(size), BLOCK, i -> ir.ifElse(ir.icmp(LLVMIntULT, i, ir.i64(n)), "sort",
        () -> put(ir, rec, w, i, sr.record(row, i)), () -> put(ir, rec, w, i, sr.padding(i)))));
    // Stage a merges bitonic runs of 2^a; step b compares records 2^(a-1-b) apart.
    ir.loop(ir.i64(1), ir.i64(log + 1), 1, a -> ir.loop(ir.i64(0), a, 1, b -> {
      bc.barrier();
      LLVMValueRef j = ir.shl(ir.i64(1), ir.sub(ir.sub(a, ir.i64(1)), b));
      LLVMValueRef k = ir.shl(ir.i64(1), a);
      bc.phase(t -> ir.loop(t, ir.i64(size), BLOCK, i -> {
        LLVMValueRef l = ir.xor(i, j);
        BlockCode.when(ir, ir.icmp(LLVMIntUGT, l, i), () -> {
          LLVMValueRef ascending = ir.icmp(LLVMIntEQ, ir.and(i, k), ir.i64(0));
          LLVMValueRef[] x = get(ir, rec, w, i);
          LLVMValueRef[] y = get(ir, rec, w, l);
          BlockCode.when(ir, ir.icmp(LLVMIntEQ, greater(ir, x, y), ascending), () -> {
            put(ir, rec, w, i, y);
            put(ir, rec, w, l, x);
          });
        });
      }));
    }));
    bc.barrier();
    bc.phase(t -> ir.loop(t, ir.i64(sr.kept()), BLOCK, q ->
        sr.result(row, q, ir.load(ir.i64, ir.gep(ir.i64, rec, ir.add(ir.mul(q, ir.i64(w)), ir.i64(w - 1))), 8))));
    return new GpuReductions.Launch(count, BLOCK);
  }

  /** Whether record x sorts after record y: their words compared as unsigned, first word first. */
  private static LLVMValueRef greater(Ir ir, LLVMValueRef[] x, LLVMValueRef[] y) {
    LLVMValueRef r = ir.icmp(LLVMIntUGT, x[x.length - 1], y[y.length - 1]);
    for (int k = x.length - 2; k >= 0; k--)
      r = ir.or(ir.icmp(LLVMIntUGT, x[k], y[k]), ir.and(ir.icmp(LLVMIntEQ, x[k], y[k]), r));
    return r;
  }

  private static LLVMValueRef[] get(Ir ir, LLVMValueRef rec, int w, LLVMValueRef i) {
    LLVMValueRef[] r = new LLVMValueRef[w];
    for (int k = 0; k < w; k++) r[k] = ir.load(ir.i64, ir.gep(ir.i64, rec, ir.add(ir.mul(i, ir.i64(w)), ir.i64(k))), 8);
    return r;
  }

  private static void put(Ir ir, LLVMValueRef rec, int w, LLVMValueRef i, LLVMValueRef[] words) {
    for (int k = 0; k < w; k++) ir.store(words[k], ir.gep(ir.i64, rec, ir.add(ir.mul(i, ir.i64(w)), ir.i64(k))), 8);
  }
}
