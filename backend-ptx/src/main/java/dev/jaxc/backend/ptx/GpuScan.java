package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A cumulative op over few long lines, a block per line, in XLA:CPU's order (the CPU's
 * CumulativeKernel: blocks of 16 scanned from the identity, the block totals scanned the same
 * way level by level up to a top of at most 16 items, each result combine(in-block scan, scan of
 * the blocks before it), every fold ascending; reversed: suffixes and the blocks after). That
 * tree is parallel as it stands: going up, a thread per block of 16 folds its block's total
 * (level l's totals are level l + 1's items); thread 0 scans the top; going down, a thread per
 * block scans its items and combines each with the neighbouring block's result one level up, so
 * every result has the CPU's bits. Barriers separate the levels; each level's items and then its
 * results live in an array per line in the call's workspace ({@link LaunchScratch}). Many lines keep the CPU step, a thread per line.
 */
final class GpuScan {
  private static final int BLOCK = 256;
  private static final int B = ReductionShapes.SCAN_BLOCK;
  /** Up to this many lines a block each; more lines are a thread each (the CPU step on the grid). */
  private static final long MAX_LINES = 64;
  /** Most elements of the level arrays, all lines together. */
  private static final long MAX_LEVELS = 1L << 24;

  private GpuScan() {}

  static boolean applies(Primitive p, Eqn e) {
    switch (p) {
      case CUMSUM, CUMPROD, CUMMAX, CUMMIN, CUMLOGSUMEXP -> {}
      default -> { return false; }
    }
    ArrayType t = (ArrayType) e.ins().get(0).type();
    if (t.dtype().isComplex()) return false;
    long[] shape = t.shape().sizes();
    int axis = Math.toIntExact(e.params().getLong("axis"));
    long n = shape[axis];
    long lines = t.shape().elementCount() / Math.max(1, n);
    return n > B && lines >= 1 && lines <= MAX_LINES && lines * levelItems(n) <= MAX_LEVELS;
  }

  /** Item counts per level: n, then the block counts, down to 16 or fewer. */
  private static long[] sizes(long n) {
    List<Long> s = new ArrayList<>(List.of(n));
    while (s.get(s.size() - 1) > B) s.add((s.get(s.size() - 1) + B - 1) / B);
    return s.stream().mapToLong(Long::longValue).toArray();
  }

  private static long levelItems(long n) {
    long[] s = sizes(n);
    long total = 0;
    for (int l = 1; l < s.length; l++) total += s[l];
    return total;
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, LaunchScratch scratch, KernelContext cx, Primitive p) {
    Eqn e = cx.eqn();
    DType d = cx.operandType(0).dtype();
    long[] shape = cx.operandType(0).shape().sizes();
    int axis = Math.toIntExact(e.params().getLong("axis"));
    boolean reverse = e.params().getBool("reverse", false);
    long n = shape[axis];
    long[] lineShape = shape.clone();
    lineShape[axis] = 1;
    long lines = GpuReductions.product(lineShape);
    long[] sizes = sizes(n);
    int top = sizes.length - 1;
    long[] offset = new long[sizes.length];  // level l ≥ 1's array within a line's part
    long per = 0;
    for (int l = 1; l < sizes.length; l++) {
      offset[l] = per;
      per += sizes[l];
    }
    Jaxpr combiner = ReductionShapes.scanCombiner(p, d);
    ScalarJaxprEmitter folds = new ScalarJaxprEmitter(ir, cx.lowering());
    LLVMTypeRef ct = ElementTypes.compute(ir, d);
    int align = ElementTypes.partBytes(d) < 4 && !d.isInteger() ? 4 : Math.max(1, ElementTypes.partBytes(d));
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef levels = scratch.partials(ct, per * lines);
    LLVMValueRef line = bc.block();
    Index at0 = GpuReductions.unflatten(ir, line, lineShape);
    LLVMValueRef base = ir.mul(line, ir.i64(per));
    Scan s = new Scan(ir, cx, folds, combiner, ReductionShapes.identity(ir, p, d), axis, at0, levels, base, offset, ct, align);
    // Up: level l's block totals are level l + 1's items.
    for (int l = 0; l < top; l++) {
      int level = l;
      if (l > 0) bc.barrier();
      bc.phase(t -> ir.loop(t, ir.i64(sizes[level + 1]), BLOCK, b -> {
        ReduceSlot acc = ReduceSlot.of(ir, d);
        acc.store(s.init);
        s.items(level, b, sizes[level], x -> acc.store(s.combine(acc.load(), x)));
        s.put(level + 1, b, acc.load());
        acc.release();
      }));
    }
    // The top: at most 16 items, scanned by thread 0 in place.
    bc.barrier();
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> s.block(top, ir.i64(0), sizes[top], null, reverse)));
    // Down: each block's scan combined with the neighbouring block's result one level up.
    for (int l = top - 1; l >= 0; l--) {
      int level = l;
      bc.barrier();
      bc.phase(t -> ir.loop(t, ir.i64(sizes[level + 1]), BLOCK, b -> s.block(level, b, sizes[level], sizes[level + 1], reverse)));
    }
    return new GpuReductions.Launch(lines, BLOCK);
  }

  /** One line's levels: level 0 is the operand and the result, level l ≥ 1 an array per line. */
  private static final class Scan {
    final Ir ir;
    final KernelContext cx;
    final ScalarJaxprEmitter folds;
    final Jaxpr combiner;
    final Value init;
    final int axis;
    final Index line;
    final LLVMValueRef levels;
    final LLVMValueRef base;
    final long[] offset;
    final LLVMTypeRef ct;
    final int align;

    Scan(Ir ir, KernelContext cx, ScalarJaxprEmitter folds, Jaxpr combiner, Value init, int axis, Index line,
        LLVMValueRef levels, LLVMValueRef base, long[] offset, LLVMTypeRef ct, int align) {
      this.ir = ir;
      this.cx = cx;
      this.folds = folds;
      this.combiner = combiner;
      this.init = init;
      this.axis = axis;
      this.line = line;
      this.levels = levels;
      this.base = base;
      this.offset = offset;
      this.ct = ct;
      this.align = align;
    }

    Value combine(Value acc, Value x) {
      return folds.emit(combiner, List.of(acc, x)).get(0);
    }

    private Index at(LLVMValueRef k) {
      List<LLVMValueRef> dims = new ArrayList<>(line.dims());
      dims.set(axis, k);
      return new Index(dims);
    }

    private LLVMValueRef slot(int l, LLVMValueRef k) {
      return ir.gep(ct, levels, ir.add(base, ir.add(ir.i64(offset[l]), k)));
    }

    Value get(int l, LLVMValueRef k) {
      return l == 0 ? cx.operands().get(0).at(at(k)) : Value.of(ir.load(ct, slot(l, k), align));
    }

    void put(int l, LLVMValueRef k, Value v) {
      if (l == 0) cx.access().store(cx.results().get(0), cx.resultTypes().get(0), at(k), v);
      else ir.store(v.v(), slot(l, k), align);
    }

    /** {@code body(item)} for the items of block b of level l (of n items), ascending. */
    void items(int l, LLVMValueRef b, long n, java.util.function.Consumer<Value> body) {
      LLVMValueRef first = ir.mul(b, ir.i64(B));
      ir.loop(ir.i64(0), ir.i64(B), 1, j -> {
        LLVMValueRef k = ir.add(first, j);
        BlockCode.when(ir, ir.icmp(LLVMIntULT, k, ir.i64(n)), () -> body.accept(get(l, k)));
      });
    }

    /**
     * Scans block b of level l (n items) in place: forward, result k = combine(fold(init, items
     * of the block up to k), result of block b − 1 one level up, or init for the first); reversed,
     * the suffix folds (ascending, from k to the block's end) and block b + 1. {@code blocks}: the
     * level above's item count, null at the top (no level above: the fold alone).
     */
    void block(int l, LLVMValueRef b, long n, Long blocks, boolean reverse) {
      DType d = cx.operandType(0).dtype();
      Value exclusive = null;
      if (blocks != null) {
        ReduceSlot e = ReduceSlot.of(ir, d);
        e.store(init);
        LLVMValueRef nb = reverse ? ir.add(b, ir.i64(1)) : ir.sub(b, ir.i64(1));
        LLVMValueRef has = reverse ? ir.icmp(LLVMIntULT, nb, ir.i64(blocks)) : ir.icmp(LLVMIntNE, b, ir.i64(0));
        BlockCode.when(ir, has, () -> e.store(get(l + 1, nb)));
        exclusive = e.load();
        e.release();
      }
      Value ex = exclusive;
      long size = blocks == null ? n : B;
      LLVMValueRef first = blocks == null ? ir.i64(0) : ir.mul(b, ir.i64(B));
      if (!reverse) {
        ReduceSlot acc = ReduceSlot.of(ir, d);
        acc.store(init);
        ir.loop(ir.i64(0), ir.i64(size), 1, j -> {
          LLVMValueRef k = ir.add(first, j);
          BlockCode.when(ir, ir.icmp(LLVMIntULT, k, ir.i64(n)), () -> {
            acc.store(combine(acc.load(), get(l, k)));
            put(l, k, ex == null ? acc.load() : combine(acc.load(), ex));
          });
        });
        acc.release();
        return;
      }
      // Reversed: each position's suffix folded ascending (as the CPU's 16-entry buffer does).
      ReduceSlot items = ReduceSlot.array(ir, d, B);
      ir.loop(ir.i64(0), ir.i64(size), 1, j -> {
        LLVMValueRef k = ir.add(first, j);
        BlockCode.when(ir, ir.icmp(LLVMIntULT, k, ir.i64(n)), () -> items.store(j, get(l, k)));
      });
      ir.loop(ir.i64(0), ir.i64(size), 1, j -> {
        LLVMValueRef k = ir.add(first, j);
        BlockCode.when(ir, ir.icmp(LLVMIntULT, k, ir.i64(n)), () -> {
          ReduceSlot acc = ReduceSlot.of(ir, d);
          acc.store(init);
          ir.loop(j, ir.i64(size), 1, u -> BlockCode.when(ir, ir.icmp(LLVMIntULT, ir.add(first, u), ir.i64(n)),
              () -> acc.store(combine(acc.load(), items.load(u)))));
          put(l, k, ex == null ? acc.load() : combine(acc.load(), ex));
          acc.release();
        });
      });
      items.release();
    }
  }
}
