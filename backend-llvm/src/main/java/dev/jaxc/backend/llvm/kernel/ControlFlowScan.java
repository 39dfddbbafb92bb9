package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.ControlFlowPlan;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.ScanParams;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@code scan[jaxpr length num_consts num_carry reverse unroll] *consts *carry *xs}, results
 * {@code *carry *ys}: one sequential loop over the iterations (from the end for {@code
 * reverse}; {@code unroll} is only a hint). Each iteration's x slices are views into the xs
 * buffers and its y slices are written in place into the ys results. Carries alternate between
 * the result buffers and the spares; the length is static, so the initial carry goes to whichever
 * makes the last iteration write the results. A carry the body updates in place (a scatter or
 * dynamic_update_slice of it, {@link dev.jaxc.backend.llvm.plan.Plan#overwrites}) stays in its
 * result buffer: the body reads and writes the same buffer, so each iteration costs the update,
 * not a copy of the whole carry. A scan without carries ({@code lax.map}) runs its iterations on
 * threads where that is worth it ({@link ScanMapThreads}).
 */
final class ControlFlowScan {
  private ControlFlowScan() {}

  static void emit(KernelContext cx, ControlFlowPlan.Scan s) {
    Ir ir = cx.ir();
    ControlFlowBodies bodies = new ControlFlowBodies(cx);
    Params ps = cx.eqn().params();
    ScanParams sp = ParamDecoding.at(cx.eqn(), ScanParams::of);
    int nc = sp.numConsts();
    int nCarry = sp.numCarry();
    long length = sp.length();
    boolean reverse = sp.reverse();
    int n = cx.eqn().ins().size();
    List<LLVMValueRef> consts = bodies.operandBases(0, nc);
    List<LLVMValueRef> xs = bodies.operandBases(nc + nCarry, n);
    List<LLVMValueRef> results = cx.results().subList(0, nCarry);
    List<LLVMValueRef> ys = cx.results().subList(nCarry, cx.results().size());
    List<LLVMValueRef> spares = new ArrayList<>();
    for (Buffer.Temp t : s.spares()) spares.add(bodies.address(t));
    List<Var> bodyInputs = s.body().inputs();
    List<ArrayType> xSlices = new ArrayList<>();
    for (int k = nc + nCarry; k < n; k++) xSlices.add((ArrayType) bodyInputs.get(k).type());
    List<ArrayType> ySlices = new ArrayList<>();
    for (int k = nCarry; k < cx.results().size(); k++) ySlices.add((ArrayType) s.body().outputs().get(k).type());

    if (nCarry == 0 && ScanMapThreads.applies(cx, s.body(), length)) {
      // Iterations without carries are independent: their order (reverse too) does not matter.
      BiConsumer<LLVMValueRef, Function<Buffer, LLVMValueRef>> iteration = (t, temps) ->
          bodies.run(s.body(), ControlFlowBodies.concat(consts, slices(ir, xs, xSlices, t)), slices(ir, ys, ySlices, t), true, temps);
      ScanMapThreads.emit(cx, s.body(), length, bodies, iteration,
          () -> bodies.repeat(length, "scan", t -> iteration.accept(t, cx.bases())));
      return;
    }
    // Iteration i reads the results when length - i is even, so the last one writes them.
    boolean initInResults = length % 2 == 0;
    boolean[] inPlace = new boolean[nCarry];
    for (int k = 0; k < nCarry; k++) {
      inPlace[k] = s.body().overwrites(k) == nc + k;
      bodies.fill(initInResults || inPlace[k] ? results.get(k) : spares.get(k), cx.resultTypes().get(k), nc + k);
    }
    bodies.repeat(length, "scan", i -> {
      LLVMValueRef readsResults = bodies.isEven(ir.sub(ir.i64(length), i));
      List<LLVMValueRef> cur = bodies.choose(readsResults, results, spares);
      List<LLVMValueRef> next = bodies.choose(readsResults, spares, results);
      for (int k = 0; k < nCarry; k++) {
        if (inPlace[k]) {
          cur.set(k, results.get(k));
          next.set(k, results.get(k));
        }
      }
      LLVMValueRef t = reverse ? ir.sub(ir.i64(length - 1), i) : i;
      List<LLVMValueRef> in = ControlFlowBodies.concat(consts, cur, slices(ir, xs, xSlices, t));
      // One iteration (lax.map of one matrix) is no loop: its regions split as anywhere else.
      bodies.run(s.body(), in, ControlFlowBodies.concat(next, slices(ir, ys, ySlices, t)), length > 1);
    });
  }

  /** The address of slice {@code t} of each buffer (row-major: slices are contiguous). */
  private static List<LLVMValueRef> slices(Ir ir, List<LLVMValueRef> bases, List<ArrayType> slice, LLVMValueRef t) {
    List<LLVMValueRef> r = new ArrayList<>();
    for (int k = 0; k < bases.size(); k++) {
      r.add(ir.gep(ir.i8, bases.get(k), ir.mul(t, ir.i64(ControlFlowBodies.bytes(slice.get(k))))));
    }
    return r;
  }
}
