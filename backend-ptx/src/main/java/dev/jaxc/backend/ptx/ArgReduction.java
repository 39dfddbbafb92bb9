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
import java.util.Arrays;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * argmax or argmin to one result, on one block: thread t folds elements t, t + 256, … with the
 * CPU's combiner (the better value, a NaN first, on a tie the earlier index) into a (value,
 * index) pair in shared memory, then a tree over the pairs halves them after each barrier. The
 * answer does not depend on the order: each merge puts the pair of the smaller index first, so
 * that the combiner, which keeps a NaN or tied accumulator, picks the earliest NaN, else the
 * earliest best value — the CPU's serial answer, bit for bit. (argmax to an array of results is
 * the CPU step on the grid, a thread per result.)
 */
final class ArgReduction {
  private static final int BLOCK = 256;

  private ArgReduction() {}

  /** Whether {@code e} is an argmax/argmin of more than one element to one result. */
  static boolean applies(Primitive p, Eqn e) {
    if (p != Primitive.ARGMAX && p != Primitive.ARGMIN) return false;
    long[] shape = ((ArrayType) e.ins().get(0).type()).shape().sizes();
    int axis = Math.toIntExact(e.params().getLongs("axes")[0]);
    for (int d = 0; d < shape.length; d++) if (d != axis && shape[d] != 1) return false;
    return shape[axis] > 1;
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, KernelContext cx, Primitive p) {
    DType d = cx.operandType(0).dtype();
    DType id = cx.resultTypes().get(0).dtype();
    long[] shape = cx.operandType(0).shape().sizes();
    int axis = Math.toIntExact(cx.eqn().params().getLongs("axes")[0]);
    long n = shape[axis];
    Jaxpr combiner = ReductionShapes.argCombiner(p == Primitive.ARGMAX, d, id);
    ScalarJaxprEmitter folds = new ScalarJaxprEmitter(ir, cx.lowering());
    LLVMTypeRef vt = ElementTypes.compute(ir, d);
    LLVMTypeRef it = ElementTypes.compute(ir, id);
    int vb = ElementTypes.partBytes(d);
    int ib = ElementTypes.partBytes(id);
    BlockCode bc = new BlockCode(ir, index, BLOCK);
    LLVMValueRef values = bc.shared("jaxc.arg.values", vt, BLOCK);
    LLVMValueRef indices = bc.shared("jaxc.arg.indices", it, BLOCK);
    bc.phase(t -> {
      ReduceSlot v = ReduceSlot.of(ir, d);
      ReduceSlot i = ReduceSlot.of(ir, id);
      v.store(ReductionShapes.identity(ir, p == Primitive.ARGMAX ? Primitive.REDUCE_MAX : Primitive.REDUCE_MIN, d));
      i.store(Value.of(LLVMConstInt(it, 0, 0)));
      ir.loop(t, ir.i64(n), BLOCK, k -> {
        LLVMValueRef[] at = new LLVMValueRef[shape.length];
        Arrays.fill(at, ir.i64(0));
        at[axis] = k;
        Value x = cx.operands().get(0).at(Index.of(at));
        List<Value> r = folds.emit(combiner, List.of(v.load(), i.load(), x, Value.of(ir.intCast(k, it, false))));
        v.store(r.get(0));
        i.store(r.get(1));
      });
      ir.store(v.load().v(), ir.gep(vt, values, t), vb);
      ir.store(i.load().v(), ir.gep(it, indices, t), ib);
      v.release();
      i.release();
    });
    for (int h = BLOCK / 2; h >= 1; h /= 2) {
      bc.barrier();
      long half = h;
      bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntULT, t, ir.i64(half)), () -> {
        LLVMValueRef u = ir.add(t, ir.i64(half));
        LLVMValueRef av = ir.load(vt, ir.gep(vt, values, t), vb);
        LLVMValueRef ai = ir.load(it, ir.gep(it, indices, t), ib);
        LLVMValueRef bv = ir.load(vt, ir.gep(vt, values, u), vb);
        LLVMValueRef bi = ir.load(it, ir.gep(it, indices, u), ib);
        // The pair of the smaller index is the accumulator (u's chunk may start earlier: the identity's index 0).
        LLVMValueRef swap = ir.icmp(LLVMIntULT, bi, ai);
        Value accV = Value.of(ir.select(swap, bv, av));
        Value accI = Value.of(ir.select(swap, bi, ai));
        Value xV = Value.of(ir.select(swap, av, bv));
        Value xI = Value.of(ir.select(swap, ai, bi));
        List<Value> r = folds.emit(combiner, List.of(accV, accI, xV, xI));
        ir.store(r.get(0).v(), ir.gep(vt, values, t), vb);
        ir.store(r.get(1).v(), ir.gep(it, indices, t), ib);
      }));
    }
    bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> {
      Value r = Value.of(ir.load(it, ir.gep(it, indices, ir.i64(0)), ib));
      LLVMValueRef[] o = new LLVMValueRef[cx.resultTypes().get(0).shape().rank()];
      Arrays.fill(o, ir.i64(0));
      cx.access().store(cx.results().get(0), cx.resultTypes().get(0), Index.of(o), r);
    }));
    return new GpuReductions.Launch(1, BLOCK);
  }
}
