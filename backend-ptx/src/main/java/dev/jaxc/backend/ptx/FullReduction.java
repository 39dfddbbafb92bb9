package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.prim.Primitive;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A reduction of every element to one result, on a grid of blocks: thread g of the G × 256
 * threads folds elements g + u·S, g + (u + 4)·S, … (S = G × 256, coalesced) into accumulator u of
 * 4 (independent loads in flight), combines them, and the block folds its threads' values by
 * warp shuffles and, across its 8 warps, shared memory and a barrier. Thread 0 writes the block's
 * partial to the call's workspace ({@link LaunchScratch}) and counts the block done (a fence, then an atomic add); the block that
 * counts last folds the G partials in index order the same way and writes the result (and resets
 * the counter for the next launch). The order of the folds is fixed by the shape alone, so the
 * result does not depend on which block finishes last; it is not the CPU's order (float sums
 * differ from XLA:CPU in the last bits, as the CPU's own vector order does).
 */
final class FullReduction {
  private static final int BLOCK = 256;
  private static final int WARPS = BLOCK / BlockCode.WARP;
  /** Most blocks; each folds at least {@link #PER_THREAD} elements per thread. */
  static final int MAX_BLOCKS = 1024;
  private static final long PER_THREAD = 16;
  private static final int UNROLL = 4;

  private FullReduction() {}

  /** Blocks for {@code n} elements. */
  static int blocks(long n) {
    return (int) Math.max(1, Math.min(MAX_BLOCKS, (n + BLOCK * PER_THREAD - 1) / (BLOCK * PER_THREAD)));
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, LaunchScratch scratch, KernelContext cx, Primitive p) {
    DType d = cx.operandType(0).dtype();
    long[] shape = cx.operandType(0).shape().sizes();
    long n = GpuReductions.product(shape);
    int grid = blocks(n);
    long stride = (long) grid * BLOCK;
    Jaxpr combiner = ReductionShapes.combiner(p, d);
    ScalarJaxprEmitter folds = new ScalarJaxprEmitter(ir, cx.lowering());
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMTypeRef part = ElementTypes.compute(ir, d);
    LLVMValueRef[] partials = new LLVMValueRef[d.isComplex() ? 2 : 1];
    for (int k = 0; k < partials.length; k++) partials[k] = scratch.partials(part, grid);
    LLVMValueRef counter = scratch.counters(1);
    LLVMValueRef[] warps = new LLVMValueRef[partials.length];
    for (int k = 0; k < warps.length; k++) warps[k] = bc.shared("jaxc.red.warps", part, WARPS);
    LLVMValueRef lastFlag = bc.shared("jaxc.red.last", ir.i32, 1);
    BlockCode.Slots acc = bc.slots(d, UNROLL);
    BlockCode.Slots other = bc.slots(d, 1);
    LLVMValueRef block = bc.block();

    bc.phase(t -> {
      Value init = ReductionShapes.identity(ir, p, d);
      for (int u = 0; u < UNROLL; u++) acc.store(t, u, init);
      LLVMValueRef g = ir.add(ir.mul(block, ir.i64(BLOCK)), t);
      // Full rounds of UNROLL elements, then the rest one by one into accumulator 0.
      long rounds = n / (UNROLL * stride);
      ir.loop(ir.i64(0), ir.i64(rounds), 1, c -> {
        LLVMValueRef base = ir.add(ir.mul(c, ir.i64(UNROLL * stride)), g);
        for (int u = 0; u < UNROLL; u++) {
          LLVMValueRef i = ir.add(base, ir.i64(u * stride));
          acc.store(t, u, RowReductions.fold(folds, combiner, acc.load(t, u), element(ir, cx, shape, i)));
        }
      });
      ir.loop(ir.add(ir.i64(rounds * UNROLL * stride), g), ir.i64(n), stride,
          i -> acc.store(t, 0, RowReductions.fold(folds, combiner, acc.load(t, 0), element(ir, cx, shape, i))));
      Value a = RowReductions.fold(folds, combiner, acc.load(t, 0), acc.load(t, 1));
      Value b = RowReductions.fold(folds, combiner, acc.load(t, 2), acc.load(t, 3));
      acc.store(t, 0, RowReductions.fold(folds, combiner, a, b));
    });
    blockFold(ir, bc, acc, other, warps, part, folds, combiner, p, d);
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> {
      Value v = acc.load(t, 0);
      store(ir, partials, part, block, v, true);
      // The partial is visible to every block before the count that says it is there.
      LLVMBuildFence(ir.b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
      LLVMValueRef done = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpAdd, counter, ir.i32(1),
          LLVMAtomicOrderingMonotonic, 0);
      LLVMBuildFence(ir.b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
      ir.store(ir.zext(ir.icmp(LLVMIntEQ, done, ir.i32(grid - 1)), ir.i32), lastFlag, 4);
    }));
    bc.barrier();
    LLVMValueRef last = ir.icmp(LLVMIntNE, ir.load(ir.i32, lastFlag, 4), ir.i32(0));
    BlockCode.when(ir, last, () -> {
      bc.phase(t -> {
        acc.store(t, 0, ReductionShapes.identity(ir, p, d));
        ir.loop(t, ir.i64(grid), BLOCK,
            i -> acc.store(t, 0, RowReductions.fold(folds, combiner, acc.load(t, 0), load(ir, partials, part, i))));
      });
      blockFold(ir, bc, acc, other, warps, part, folds, combiner, p, d);
      bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> {
        cx.access().store(cx.results().get(0), cx.resultTypes().get(0), Index.SCALAR, acc.load(t, 0));
        LLVMSetVolatile(LLVMBuildStore(ir.b, ir.i32(0), counter), 1);
      }));
    });
    return new GpuReductions.Launch(grid, BLOCK);
  }

  /**
   * Folds slot 0 of every thread of the block into thread 0's slot 0: shuffles down by 16, …, 1
   * within each warp, lane 0 of each warp to shared memory, a barrier, then warp 0 folds the 8
   * warp values the same way (a barrier after, so the shared array may be written again).
   */
  private static void blockFold(Ir ir, BlockCode bc, BlockCode.Slots acc, BlockCode.Slots other,
      LLVMValueRef[] warps, LLVMTypeRef part, ScalarJaxprEmitter folds, Jaxpr combiner, Primitive p, DType d) {
    warpFold(bc, acc, other, folds, combiner, BlockCode.WARP / 2);
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, bc.lane(t), ir.i64(0)),
        () -> store(ir, warps, part, ir.udiv(t, ir.i64(BlockCode.WARP)), acc.load(t, 0), false)));
    bc.barrier();
    bc.phase(t -> {
      LLVMValueRef inside = ir.icmp(LLVMIntULT, t, ir.i64(WARPS));
      Value init = ReductionShapes.identity(ir, p, d);
      // Threads past the warps' count read warp 0's value and then drop it for the identity.
      LLVMValueRef at = ir.select(inside, t, ir.i64(0));
      Value v = load(ir, warps, part, at, false);
      acc.store(t, 0, v.isComplex()
          ? Value.complex(ir.select(inside, v.re(), init.re()), ir.select(inside, v.im(), init.im()))
          : Value.of(ir.select(inside, v.v(), init.v())));
    });
    warpFold(bc, acc, other, folds, combiner, WARPS / 2);
    bc.barrier();
  }

  private static void warpFold(BlockCode bc, BlockCode.Slots acc, BlockCode.Slots other, ScalarJaxprEmitter folds,
      Jaxpr combiner, int from) {
    for (int h = from; h >= 1; h /= 2) {
      bc.shuffleDown(acc, other, h);
      bc.phase(t -> acc.store(t, 0, RowReductions.fold(folds, combiner, acc.load(t, 0), other.load(t, 0))));
    }
  }

  private static Value element(Ir ir, KernelContext cx, long[] shape, LLVMValueRef i) {
    return cx.operands().get(0).at(GpuReductions.unflatten(ir, i, shape));
  }

  private static void store(Ir ir, LLVMValueRef[] arrays, LLVMTypeRef part, LLVMValueRef i, Value v, boolean volatile_) {
    LLVMValueRef[] parts = v.isComplex() ? new LLVMValueRef[] {v.re(), v.im()} : new LLVMValueRef[] {v.v()};
    for (int k = 0; k < arrays.length; k++) {
      LLVMValueRef s = LLVMBuildStore(ir.b, parts[k], ir.gep(part, arrays[k], i));
      if (volatile_) LLVMSetVolatile(s, 1);
    }
  }

  private static Value load(Ir ir, LLVMValueRef[] arrays, LLVMTypeRef part, LLVMValueRef i) {
    return load(ir, arrays, part, i, true);
  }

  private static Value load(Ir ir, LLVMValueRef[] arrays, LLVMTypeRef part, LLVMValueRef i, boolean volatile_) {
    LLVMValueRef[] parts = new LLVMValueRef[arrays.length];
    for (int k = 0; k < arrays.length; k++) {
      parts[k] = LLVMBuildLoad2(ir.b, part, ir.gep(part, arrays[k], i), "");
      if (volatile_) LLVMSetVolatile(parts[k], 1);
    }
    return parts.length == 2 ? Value.complex(parts[0], parts[1]) : Value.of(parts[0]);
  }
}
