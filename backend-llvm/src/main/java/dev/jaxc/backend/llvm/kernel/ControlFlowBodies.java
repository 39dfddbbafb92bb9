package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMBuildPtrToInt;
import static org.bytedeco.llvm.global.LLVM.LLVMIntEQ;
import static org.bytedeco.llvm.global.LLVM.LLVMIntNE;
import static org.bytedeco.llvm.global.LLVM.LLVMIntULT;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What cond, while and scan share: running a nested plan with its inputs and outputs bound to
 * addresses, operand addresses, copies of stored bits between buffers, and sequential loops
 * (iterations of a body depend on each other, unlike {@link dev.jaxc.backend.llvm.emit.LoopEmitter}'s
 * element loops, which later versions may split across threads).
 */
final class ControlFlowBodies {
  private final KernelContext cx;
  private final Ir ir;

  ControlFlowBodies(KernelContext cx) {
    this.cx = cx;
    this.ir = cx.ir();
  }

  /**
   * Emits {@code body}'s schedule at the builder's position, its {@code Input k} at {@code
   * inputs[k]} (null for an input the planner replaced by a literal: never read) and its {@code
   * Output k} at {@code outputs[k]}; its temporaries are in the shared workspace.
   */
  void run(Plan body, List<LLVMValueRef> inputs, List<LLVMValueRef> outputs) {
    run(body, inputs, outputs, false);
  }

  /** {@link #run}; {@code repeated}: the body runs once per iteration of a loop. */
  void run(Plan body, List<LLVMValueRef> inputs, List<LLVMValueRef> outputs, boolean repeated) {
    run(body, inputs, outputs, repeated, cx.bases());
  }

  /** {@link #run} with the body's temporaries (workspace buffers) at {@code temps}' addresses. */
  void run(Plan body, List<LLVMValueRef> inputs, List<LLVMValueRef> outputs, boolean repeated,
      Function<Buffer, LLVMValueRef> temps) {
    Function<Buffer, LLVMValueRef> outer = temps;
    ParallelRegions regions = repeated ? cx.loops().parallel().repeated() : cx.loops().parallel();
    new ScheduleEmitter(ir, body, regions, b -> {
      if (b instanceof Buffer.Input i) {
        LLVMValueRef p = inputs.get(i.index());
        if (p == null) throw new IllegalStateException("body input " + i.index() + " is a substituted literal");
        return p;
      }
      if (b instanceof Buffer.Output o) return outputs.get(o.index());
      if (b instanceof Buffer.Temp) return outer.apply(b);
      throw new AssertionError(b);
    }).emitAll();
  }

  /** Addresses of operands {@code from..to-1}; null for a literal (substituted into the bodies). */
  List<LLVMValueRef> operandBases(int from, int to) {
    List<LLVMValueRef> r = new ArrayList<>();
    for (int k = from; k < to; k++) r.add(cx.eqn().ins().get(k) instanceof Var ? cx.operandBase(k) : null);
    return r;
  }

  LLVMValueRef address(Buffer b) {
    return cx.bases().apply(b);
  }

  /** Stores operand {@code k} (of type {@code t}) into the buffer at {@code dst}. */
  void fill(LLVMValueRef dst, ArrayType t, int k) {
    Atom a = cx.eqn().ins().get(k);
    if (a instanceof Var) {
      // The planner may give the result the operand's buffer (InPlaceUpdates): nothing to copy.
      LLVMValueRef src = cx.operandBase(k);
      LLVMBasicBlockRef copy = ir.block("fill.copy");
      LLVMBasicBlockRef done = ir.block("fill.done");
      ir.condBr(ir.icmp(LLVMIntEQ, LLVMBuildPtrToInt(ir.b, src, ir.i64, ""), LLVMBuildPtrToInt(ir.b, dst, ir.i64, "")), done, copy);
      ir.at(copy);
      copy(t, src, dst);
      ir.br(done);
      ir.at(done);
    } else {
      ElementGenerator g = cx.operands().get(k);
      cx.loops().forEach(t.shape().sizes(), idx -> cx.access().store(dst, t, idx, g.at(idx)));
    }
  }

  /** Copies a {@code t} array's stored bits from {@code src} to {@code dst} (no conversion). */
  void copy(ArrayType t, LLVMValueRef src, LLVMValueRef dst) {
    LLVMTypeRef st = ElementTypes.storage(ir, t.dtype());
    int align = ElementTypes.partBytes(t.dtype());
    cx.loops().forEach(new long[] {parts(t)}, idx -> {
      LLVMValueRef v = ir.load(st, ir.gep(st, src, idx.get(0)), align);
      ir.store(v, ir.gep(st, dst, idx.get(0)), align);
    });
  }

  /**
   * vmap's batched while: where the predicate ({@code bool[B...]}, a prefix of {@code t}'s shape)
   * is false, the new carry at {@code next} takes the old value at {@code cur} back.
   */
  void keepWhereFalse(LLVMValueRef pred, ArrayType predType, ArrayType t, LLVMValueRef cur, LLVMValueRef next) {
    long rows = predType.shape().elementCount();
    if (rows == 0) return;
    long inner = parts(t) / rows;
    LLVMTypeRef st = ElementTypes.storage(ir, t.dtype());
    int align = ElementTypes.partBytes(t.dtype());
    cx.loops().forEach(new long[] {rows, inner}, idx -> {
      LLVMValueRef keep = ir.icmp(LLVMIntNE, ir.load(ir.i8, ir.gep(ir.i8, pred, idx.get(0)), 1), ir.constInt(ir.i8, 0));
      LLVMValueRef pos = ir.add(ir.mul(idx.get(0), ir.i64(inner)), idx.get(1));
      LLVMValueRef to = ir.gep(st, next, pos);
      LLVMValueRef fresh = ir.load(st, to, align);
      LLVMValueRef old = ir.load(st, ir.gep(st, cur, pos), align);
      ir.store(ir.select(keep, fresh, old), to, align);
    });
  }

  /** Whether any of the {@code n} stored bools at {@code p} is true. */
  LLVMValueRef any(LLVMValueRef p, long n) {
    if (n == 0) return ir.bool(false);
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("any");
    LLVMBasicBlockRef exit = ir.block("any.end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    LLVMValueRef acc = ir.phi(ir.i8);
    ir.incoming(i, ir.i64(0), pre);
    ir.incoming(acc, ir.constInt(ir.i8, 0), pre);
    LLVMValueRef or = ir.or(acc, ir.load(ir.i8, ir.gep(ir.i8, p, i), 1));
    LLVMValueRef next = ir.add(i, ir.i64(1));
    ir.incoming(i, next, loop);
    ir.incoming(acc, or, loop);
    ir.condBr(ir.icmp(LLVMIntULT, next, ir.i64(n)), loop, exit);
    ir.at(exit);
    return ir.icmp(LLVMIntNE, or, ir.constInt(ir.i8, 0));
  }

  /** Emits {@code body(i)} for i = 0 .. n-1 in order, as one loop (nothing for n = 0). */
  void repeat(long n, String name, Consumer<LLVMValueRef> body) {
    if (n == 0) return;
    if (n == 1) {
      body.accept(ir.i64(0));
      return;
    }
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block(name);
    LLVMBasicBlockRef exit = ir.block(name + ".end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, ir.i64(0), pre);
    body.accept(i);
    LLVMValueRef next = ir.add(i, ir.i64(1));
    ir.incoming(i, next, ir.currentBlock());
    ir.condBr(ir.icmp(LLVMIntULT, next, ir.i64(n)), loop, exit);
    ir.at(exit);
  }

  /** For each k: {@code c ? a[k] : b[k]} (choosing between two buffers of a carry). */
  List<LLVMValueRef> choose(LLVMValueRef c, List<LLVMValueRef> a, List<LLVMValueRef> b) {
    List<LLVMValueRef> r = new ArrayList<>();
    for (int k = 0; k < a.size(); k++) r.add(ir.select(c, a.get(k), b.get(k)));
    return r;
  }

  /** Whether {@code x} is even (an i64). */
  LLVMValueRef isEven(LLVMValueRef x) {
    return ir.icmp(LLVMIntEQ, ir.and(x, ir.i64(1)), ir.i64(0));
  }

  /** Stored scalars of a {@code t} array: elements, twice for complex (re, im). */
  static long parts(ArrayType t) {
    return t.shape().elementCount() * (t.dtype().isComplex() ? 2 : 1);
  }

  /** Bytes of a {@code t} array: the stride of a scan slice. */
  static long bytes(ArrayType t) {
    return t.shape().elementCount() * t.dtype().byteSize();
  }

  @SafeVarargs
  static List<LLVMValueRef> concat(List<LLVMValueRef>... lists) {
    List<LLVMValueRef> r = new ArrayList<>();
    for (List<LLVMValueRef> l : lists) r.addAll(l);
    return r;
  }
}
