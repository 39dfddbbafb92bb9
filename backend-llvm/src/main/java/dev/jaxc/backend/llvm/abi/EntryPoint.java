package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The C ABI of architecture.md:
 *
 * <pre>
 * int32_t NAME(const void *const *inputs, void *const *outputs);
 * int32_t NAME_num_inputs(void);
 * int32_t NAME_num_outputs(void);
 * </pre>
 *
 * NAME checks its arguments (error 1), allocates the workspace with {@code malloc} (error 2 if
 * that fails; aligned to 64 bytes by hand, since malloc promises 16), runs the schedule, frees
 * the workspace and returns 0. It is reentrant and thread-safe: its only global state is the
 * rng_uniform kernels' execution counters, advanced atomically.
 */
public final class EntryPoint {
  private EntryPoint() {}

  /**
   * Emits the three functions; {@code schedule} emits the body given each buffer's address.
   * Returns {@code NAME}.
   */
  public static LLVMValueRef emit(Ir ir, Plan plan, String name, Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    return emit(ir, plan, name, Consts.NONE, schedule);
  }

  /**
   * As above, with the leading {@code consts.count()} inputs (constvars) baked into the module:
   * they are read from constant globals, and the caller's {@code inputs} array holds the rest.
   */
  public static LLVMValueRef emit(Ir ir, Plan plan, String name, Consts consts,
      Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    LLVMValueRef[] baked = ConstsGlobals.emit(ir, plan, consts);
    int numInputs = plan.inputs().size() - baked.length;
    int numOutputs = plan.outputs().size();
    constant(ir, name + "_num_inputs", numInputs);
    constant(ir, name + "_num_outputs", numOutputs);
    LLVMValueRef fn = LLVMAddFunction(ir.module, name, ir.fnType(ir.i32, ir.ptr, ir.ptr));
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    LLVMValueRef inputs = LLVMGetParam(fn, 0);
    LLVMValueRef outputs = LLVMGetParam(fn, 1);
    LLVMBasicBlockRef bad = ir.block("bad_arguments");
    LLVMBasicBlockRef load = ir.block("load_pointers");
    LLVMValueRef arraysNull = ir.bool(false);
    if (numInputs > 0) arraysNull = ir.or(arraysNull, isNull(ir, inputs));
    if (numOutputs > 0) arraysNull = ir.or(arraysNull, isNull(ir, outputs));
    ir.condBr(arraysNull, bad, load);
    ir.at(bad);
    ir.ret(ir.i32(ErrorCode.BAD_ARGUMENTS.code()));

    ir.at(load);
    Map<Buffer, LLVMValueRef> bases = new IdentityHashMap<>();
    LLVMValueRef[] in = new LLVMValueRef[baked.length + numInputs];
    LLVMValueRef[] out = new LLVMValueRef[numOutputs];
    LLVMValueRef anyNull = ir.bool(false);
    List<Var> inVars = plan.inputs();
    System.arraycopy(baked, 0, in, 0, baked.length);
    for (int k = 0; k < numInputs; k++) {
      int i = baked.length + k;
      in[i] = ir.load(ir.ptr, ir.gep(ir.ptr, inputs, ir.i64(k)), 8);
      if (elements(inVars.get(i)) > 0) anyNull = ir.or(anyNull, isNull(ir, in[i]));
    }
    for (int k = 0; k < numOutputs; k++) {
      out[k] = ir.load(ir.ptr, ir.gep(ir.ptr, outputs, ir.i64(k)), 8);
      if (elements(plan.outputs().get(k)) > 0) anyNull = ir.or(anyNull, isNull(ir, out[k]));
    }
    LLVMBasicBlockRef allocate = ir.block("allocate");
    ir.condBr(anyNull, bad, allocate);
    ir.at(allocate);

    LLVMValueRef workspace = null;
    LLVMValueRef aligned = LLVMConstPointerNull(ir.ptr);  // only empty temporaries without one
    if (plan.workspaceBytes() > 0) {
      workspace = Libc.malloc(ir, ir.i64(plan.workspaceBytes() + Plan.ALIGNMENT - 1));
      LLVMBasicBlockRef oom = ir.block("out_of_memory");
      LLVMBasicBlockRef run = ir.block("run");
      ir.condBr(isNull(ir, workspace), oom, run);
      ir.at(oom);
      ir.ret(ir.i32(ErrorCode.OUT_OF_MEMORY.code()));
      ir.at(run);
      LLVMValueRef address = LLVMBuildPtrToInt(ir.b, workspace, ir.i64, "");
      LLVMValueRef pad = ir.and(ir.sub(ir.i64(0), address), ir.i64(Plan.ALIGNMENT - 1));
      aligned = ir.gep(ir.i8, workspace, pad);
    }
    for (Buffer.Temp t : plan.workspaceBuffers()) bases.put(t, ir.gep(ir.i8, aligned, ir.i64(t.offset())));
    schedule.accept(b -> {
      if (b instanceof Buffer.Input i) return in[i.index()];
      if (b instanceof Buffer.Output o) return out[o.index()];
      if (b instanceof Buffer.Temp t) {
        LLVMValueRef p = bases.get(t);
        if (p == null) throw new IllegalStateException("no address for " + t);
        return p;
      }
      throw new AssertionError(b);
    });
    if (workspace != null) Libc.free(ir, workspace);
    ir.ret(ir.i32(ErrorCode.OK.code()));
    return fn;
  }

  private static long elements(Atom a) {
    return ((ArrayType) a.type()).shape().elementCount();
  }

  private static LLVMValueRef isNull(Ir ir, LLVMValueRef p) {
    return LLVMBuildIsNull(ir.b, p, "");
  }

  private static void constant(Ir ir, String name, int value) {
    LLVMValueRef fn = LLVMAddFunction(ir.module, name, ir.fnType(ir.i32));
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    ir.ret(ir.i32(value));
  }
}
