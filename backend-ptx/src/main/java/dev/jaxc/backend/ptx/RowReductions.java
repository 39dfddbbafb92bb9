package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.backend.llvm.kernel.ScheduleEmitter;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A row group ({@code Step.Rows}: softmax, layernorm) or a row reduction as one kernel with a
 * warp per row, {@link #WARPS} rows per block. Each member runs for the warp's row in turn: a
 * fusion group's elements of the row are written by the 32 lanes with unit stride (coalesced); a
 * reduction folds exactly as the CPU's ReduceLanes folds a row: lane L of the CPU's {@code lanes}
 * accumulators (element k to lane k mod lanes, chunks then the tail) is thread L mod 32's slot L /
 * 32, the slots within a thread are combined pairwise as the CPU combines lanes j and j + h for h
 * ≥ 32, then {@code shfl.down} by 16, …, 1 does the rest of the pairwise tree, so the result has
 * the CPU's bits; lane 0's result is broadcast ({@code shfl.idx}) and every lane stores it. Between
 * members the warp synchronises ({@code bar.warp.sync}), so a member reads what any lane wrote for
 * an earlier one at the row.
 */
final class RowReductions {
  static final int WARPS = 8;
  private static final int BLOCK = WARPS * BlockCode.WARP;

  private RowReductions() {}

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, ScheduleEmitter em, long[] rows, List<Step> members) {
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    long count = GpuReductions.product(rows);
    LLVMValueRef first = ir.mul(bc.block(), ir.i64(WARPS));
    for (int i = 0; i < members.size(); i++) {
      Step s = members.get(i);
      // A member may read what another lane of the warp wrote for an earlier one (a [rows, 1]
      // value written by lane 0, a short row folded by fewer lanes than wrote it).
      if (i > 0) bc.warpSync();
      if (s instanceof Step.Fusion f) {
        fusion(ir, bc, em, f, rows, count, first);
      } else if (s instanceof Step.Kernel k) {
        reduction(ir, bc, em.context(k.eqn()), rows, count, first);
      } else {
        throw new AssertionError(s);
      }
    }
    return new GpuReductions.Launch((count + WARPS - 1) / WARPS, BLOCK);
  }

  /** Thread t's row (flat): the block's first row plus its warp. */
  private static LLVMValueRef row(Ir ir, LLVMValueRef first, LLVMValueRef t) {
    return ir.add(first, ir.udiv(t, ir.i64(BlockCode.WARP)));
  }

  private static void fusion(Ir ir, BlockCode bc, ScheduleEmitter em, Step.Fusion f, long[] rows, long count,
      LLVMValueRef first) {
    long[] shape = ((ArrayType) f.roots().get(0).type()).shape().sizes();
    long[] rest = Arrays.copyOfRange(shape, rows.length, shape.length);
    long n = GpuReductions.product(rest);
    bc.phase(t -> {
      LLVMValueRef row = row(ir, first, t);
      BlockCode.when(ir, ir.icmp(LLVMIntULT, row, ir.i64(count)), () -> {
        Index r = GpuReductions.unflatten(ir, row, rows);
        ir.loop(bc.lane(t), ir.i64(n), BlockCode.WARP, i -> {
          List<LLVMValueRef> dims = new ArrayList<>(r.dims());
          dims.addAll(GpuReductions.unflatten(ir, i, rest).dims());
          Index idx = new Index(dims);
          for (Var root : f.roots()) {
            ElementGenerator g = em.rootGenerator(root);
            em.access().store(em.base(em.plan().buffer(root)), (ArrayType) root.type(), idx, g.at(idx));
          }
        });
      });
    });
  }

  private static void reduction(Ir ir, BlockCode bc, KernelContext cx, long[] rows, long count, LLVMValueRef first) {
    Eqn e = cx.eqn();
    Primitive p = Primitive.byName(e.primitive()).orElseThrow();
    DType d = cx.operandType(0).dtype();
    long[] shape = cx.operandType(0).shape().sizes();
    int rank = shape.length;
    long m = shape[rank - 1];
    long lanes = ReductionShapes.lanes(d, m);
    int perThread = (int) Math.max(1, lanes / BlockCode.WARP);
    long[] redOuter = Arrays.copyOfRange(shape, rows.length, rank - 1);
    Jaxpr combiner = ReductionShapes.combiner(p, d);
    ScalarJaxprEmitter folds = new ScalarJaxprEmitter(ir, cx.lowering());
    BlockCode.Slots acc = bc.slots(d, perThread);
    BlockCode.Slots other = bc.slots(d, 1);
    bc.phase(t -> {
      Value init = ReductionShapes.identity(ir, p, d);
      for (int j = 0; j < perThread; j++) acc.store(t, j, init);
      LLVMValueRef row = row(ir, first, t);
      LLVMValueRef lane = bc.lane(t);
      LLVMValueRef active = ir.icmp(LLVMIntULT, row, ir.i64(count));
      // With fewer than 32 lanes, threads past them hold only the identity.
      if (lanes < BlockCode.WARP) active = ir.and(active, ir.icmp(LLVMIntULT, lane, ir.i64(lanes)));
      BlockCode.when(ir, active, () -> {
        Index r = GpuReductions.unflatten(ir, row, rows);
        cx.loops().forEach(redOuter, red -> {
          long chunks = m / lanes;
          ir.loop(ir.i64(0), ir.i64(chunks), 1, c -> {
            LLVMValueRef start = ir.add(ir.mul(c, ir.i64(lanes)), lane);
            for (int j = 0; j < perThread; j++) {
              LLVMValueRef k = ir.add(start, ir.i64((long) j * BlockCode.WARP));
              acc.store(t, j, fold(folds, combiner, acc.load(t, j), element(cx, r, red, k)));
            }
          });
          long tail = m % lanes;
          for (int j = 0; j < perThread && (long) j * BlockCode.WARP < tail; j++) {
            int jj = j;
            LLVMValueRef pos = ir.add(lane, ir.i64((long) j * BlockCode.WARP));
            BlockCode.when(ir, ir.icmp(LLVMIntULT, pos, ir.i64(tail)), () -> {
              LLVMValueRef k = ir.add(ir.i64(chunks * lanes), pos);
              acc.store(t, jj, fold(folds, combiner, acc.load(t, jj), element(cx, r, red, k)));
            });
          }
        });
      });
      // The CPU's lane pairs j, j + h for h ≥ 32 are slots of one thread.
      for (int h = perThread / 2; h >= 1; h /= 2) {
        for (int j = 0; j < h; j++) acc.store(t, j, fold(folds, combiner, acc.load(t, j), acc.load(t, j + h)));
      }
    });
    for (long h = Math.min(BlockCode.WARP, lanes) / 2; h >= 1; h /= 2) {
      bc.shuffleDown(acc, other, (int) h);
      bc.phase(t -> acc.store(t, 0, fold(folds, combiner, acc.load(t, 0), other.load(t, 0))));
    }
    bc.broadcastLane0(acc, other);
    bc.phase(t -> {
      LLVMValueRef row = row(ir, first, t);
      BlockCode.when(ir, ir.icmp(LLVMIntULT, row, ir.i64(count)), () -> {
        Index r = GpuReductions.unflatten(ir, row, rows);
        cx.access().store(cx.results().get(0), cx.resultTypes().get(0), r, other.load(t, 0));
      });
    });
  }

  /** The operand element at row r, other reduced indices red, last index k. */
  private static Value element(KernelContext cx, Index r, Index red, LLVMValueRef k) {
    List<LLVMValueRef> dims = new ArrayList<>(r.dims());
    dims.addAll(red.dims());
    dims.add(k);
    return cx.operands().get(0).at(new Index(dims));
  }

  static Value fold(ScalarJaxprEmitter folds, Jaxpr combiner, Value acc, Value x) {
    return folds.emit(combiner, List.of(acc, x)).get(0);
  }

  /** Whether every member of a row group over {@code rows} is a fusion or a row reduction over them. */
  static boolean fits(List<Step> members, int rows) {
    for (Step s : members) {
      if (s instanceof Step.Fusion) continue;
      if (!(s instanceof Step.Kernel k)) return false;
      Primitive p = Primitive.byName(k.eqn().primitive()).orElse(null);
      if (p == null || ReductionShapes.form(p, k.eqn()) != ReductionShapes.Form.LANES) return false;
      int rank = ((ArrayType) k.eqn().ins().get(0).type()).shape().sizes().length;
      int[] axes = ReductionShapes.axes(k.eqn());
      if (rank - axes.length != rows) return false;
      for (int j = 0; j < axes.length; j++) if (axes[j] != rows + j) return false;
    }
    return true;
  }
}
