package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.ReductionShapes;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A reduction of the leading dimensions (a column sum) with a thread per kept position:
 * neighbouring threads read neighbouring elements of each reduced row (coalesced). Each thread
 * folds its column exactly as the CPU's ReduceColumns does, part by part (the parts' row ranges
 * from the shape, each folded in row order from the identity) and then the parts in order, so the
 * result has the CPU's bits, without its scratch rows.
 */
final class ColumnReduction {
  private static final int BLOCK = 256;

  private ColumnReduction() {}

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx, Primitive p) {
    DType d = cx.operandType(0).dtype();
    long[] shape = cx.operandType(0).shape().sizes();
    int lead = ReductionShapes.axes(cx.eqn()).length;
    long[] leadShape = Arrays.copyOfRange(shape, 0, lead);
    long[] keptShape = Arrays.copyOfRange(shape, lead, shape.length);
    long rows = GpuReductions.product(leadShape);
    long width = GpuReductions.product(keptShape);
    long parts = ReductionShapes.columnParts(rows, width);
    Jaxpr combiner = ReductionShapes.combiner(p, d);
    ScalarJaxprEmitter folds = new ScalarJaxprEmitter(ir, cx.lowering());
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef block = bc.block();
    bc.phase(t -> {
      LLVMValueRef col = ir.add(ir.mul(block, ir.i64(BLOCK)), t);
      BlockCode.when(ir, ir.icmp(LLVMIntULT, col, ir.i64(width)), () -> {
        Index k = GpuReductions.unflatten(ir, col, keptShape);
        ReduceSlot total = ReduceSlot.of(ir, d);
        ReduceSlot partial = ReduceSlot.of(ir, d);
        for (long b = 0; b < parts; b++) {
          long lo = b * rows / parts;
          long hi = (b + 1) * rows / parts;
          partial.store(ReductionShapes.identity(ir, p, d));
          ir.loop(ir.i64(lo), ir.i64(hi), 1, s -> {
            List<LLVMValueRef> dims = new ArrayList<>(GpuReductions.unflatten(ir, s, leadShape).dims());
            dims.addAll(k.dims());
            Value x = cx.operands().get(0).at(new Index(dims));
            partial.store(RowReductions.fold(folds, combiner, partial.load(), x));
          });
          total.store(b == 0 ? partial.load() : RowReductions.fold(folds, combiner, total.load(), partial.load()));
        }
        cx.access().store(cx.results().get(0), cx.resultTypes().get(0), k, total.load());
        partial.release();
        total.release();
      });
    });
    return new GpuReductions.Launch((width + BLOCK - 1) / BLOCK, BLOCK);
  }
}
