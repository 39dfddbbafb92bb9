package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.ControlFlowPlan;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@code while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts] *cond_consts *body_consts
 * *carry}. The carries start in the result buffers; each iteration evaluates the condition into
 * the predicate buffer, and the body reads the current buffers and writes the other ones (result
 * or spare), which then become current. If the loop ends with the carries in the spares, they are
 * copied back. A carry the body updates in place ({@link
 * dev.jaxc.backend.llvm.plan.Plan#overwrites}; not under a batched predicate of several
 * elements, which needs the old value) stays in its result buffer and is never copied.
 *
 * <p>vmap's batched predicate ({@code bool[B...]}, JAX's {@code _while_lowering}): the loop runs
 * while any element is true, and after each body, carry elements whose predicate was false take
 * their old value back ({@code _pred_bcast_select_hlo}).
 */
final class ControlFlowWhile {
  private ControlFlowWhile() {}

  static void emit(KernelContext cx, ControlFlowPlan.While w) {
    Ir ir = cx.ir();
    ControlFlowBodies bodies = new ControlFlowBodies(cx);
    WhileParams params = ParamDecoding.at(cx.eqn(), WhileParams::of);
    int cn = params.condNconsts();
    int bn = params.bodyNconsts();
    List<LLVMValueRef> condConsts = bodies.operandBases(0, cn);
    List<LLVMValueRef> bodyConsts = bodies.operandBases(cn, cn + bn);
    List<LLVMValueRef> results = cx.results();
    List<ArrayType> types = cx.resultTypes();
    List<LLVMValueRef> spares = new ArrayList<>();
    for (Buffer.Temp t : w.spares()) spares.add(bodies.address(t));
    LLVMValueRef pred = bodies.address(w.predicate());
    ArrayType predType = w.predicate().type();

    for (int k = 0; k < results.size(); k++) bodies.fill(results.get(k), types.get(k), cn + bn + k);
    LLVMBasicBlockRef entry = ir.currentBlock();
    LLVMBasicBlockRef header = ir.block("while");
    LLVMBasicBlockRef body = ir.block("while.body");
    LLVMBasicBlockRef exit = ir.block("while.end");
    ir.br(header);
    ir.at(header);
    LLVMValueRef inResults = ir.phi(ir.i1);
    ir.incoming(inResults, ir.bool(true), entry);
    List<LLVMValueRef> cur = bodies.choose(inResults, results, spares);
    List<LLVMValueRef> next = bodies.choose(inResults, spares, results);
    // A batched predicate of one element ends the loop when it is false: no carry to restore.
    boolean restores = w.batched() && predType.shape().elementCount() > 1;
    boolean[] inPlace = new boolean[results.size()];
    for (int k = 0; k < results.size(); k++) {
      inPlace[k] = !restores && w.body().overwrites(k) == bn + k;
      if (inPlace[k]) {
        cur.set(k, results.get(k));
        next.set(k, results.get(k));
      }
    }
    bodies.run(w.cond(), ControlFlowBodies.concat(condConsts, cur), List.of(pred), true);
    LLVMValueRef go = w.batched()
        ? bodies.any(pred, predType.shape().elementCount())
        : cx.access().load(pred, predType, Index.SCALAR).v();
    ir.condBr(go, body, exit);

    ir.at(body);
    bodies.run(w.body(), ControlFlowBodies.concat(bodyConsts, cur), next, true);
    if (restores) {
      for (int k = 0; k < results.size(); k++) bodies.keepWhereFalse(pred, predType, types.get(k), cur.get(k), next.get(k));
    }
    LLVMValueRef swapped = ir.not(inResults);
    ir.incoming(inResults, swapped, ir.currentBlock());
    ir.br(header);

    ir.at(exit);
    if (results.isEmpty()) return;
    LLVMBasicBlockRef copyBack = ir.block("while.copy");
    LLVMBasicBlockRef done = ir.block("while.done");
    ir.condBr(inResults, done, copyBack);
    ir.at(copyBack);
    for (int k = 0; k < results.size(); k++) if (!inPlace[k]) bodies.copy(types.get(k), spares.get(k), results.get(k));
    ir.br(done);
    ir.at(done);
  }
}
