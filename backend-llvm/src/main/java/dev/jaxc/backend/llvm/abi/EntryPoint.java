package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
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
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The C ABI of architecture.md, and what jaxc adds to it:
 *
 * <pre>
 * int32_t NAME(const void *const *inputs, void *const *outputs);
 * int32_t NAME_num_inputs(void);
 * int32_t NAME_num_outputs(void);
 * int64_t NAME_workspace_size(void);   // bytes of work memory one call needs (0: none)
 * int32_t NAME_with_workspace(const void *const *inputs, void *const *outputs, void *workspace);
 * </pre>
 *
 * Both entry points set the float mode of the module's {@link dev.jaxc.backend.llvm.emit.Numerics}
 * ({@link FloatMode}: FTZ/DAZ) and restore the caller's before returning, then call the internal,
 * never inlined {@code NAME.run(inputs, outputs, workspace)}, which checks its arguments (error 1)
 * and runs the schedule. {@code NAME} takes its work memory from a one-block cache (a global
 * pointer claimed with an atomic exchange and put back after the call, so repeated calls reuse
 * memory whose pages are already mapped); a caller that finds the cache empty (the first call,
 * or a concurrent one) {@code malloc}s a block (error 2 if that fails), and of two blocks put
 * back one is freed. {@code NAME_with_workspace} uses the caller's memory: at least {@code
 * NAME_workspace_size()} bytes, 64-byte aligned (error 1 otherwise; ignored when the size is 0).
 * Both are reentrant and thread-safe: the cache is claimed atomically, and the only other global
 * state is the rng_uniform kernels' execution counters, advanced atomically, and the thread pool.
 * The cached block is freed when the library is unloaded ({@code llvm.global_dtors}).
 */
public final class EntryPoint {
  private EntryPoint() {}

  /**
   * Emits the functions; {@code schedule} emits the body given each buffer's address. Returns
   * {@code NAME}.
   */
  public static LLVMValueRef emit(Ir ir, Plan plan, String name, TargetSpec.Arch arch,
      Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    return emit(ir, plan, name, Consts.NONE, arch, schedule);
  }

  /**
   * As above, with the leading {@code consts.count()} inputs (constvars) baked into the module:
   * they are read from constant globals, and the caller's {@code inputs} array holds the rest.
   */
  public static LLVMValueRef emit(Ir ir, Plan plan, String name, Consts consts, TargetSpec.Arch arch,
      Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    return emit(ir, plan, name, ConstsGlobals.emit(ir, plan, consts, 0), arch, schedule);
  }

  /**
   * As above, with the baked inputs' globals emitted already ({@link ConstsGlobals#emit}, which
   * other code of the module reads too: the PTX backend's emulated kernels).
   */
  public static LLVMValueRef emit(Ir ir, Plan plan, String name, LLVMValueRef[] baked, TargetSpec.Arch arch,
      Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    int numInputs = plan.inputs().size() - baked.length;
    int numOutputs = plan.outputs().size();
    constant(ir, name + "_num_inputs", ir.i32, numInputs);
    constant(ir, name + "_num_outputs", ir.i32, numOutputs);
    constant(ir, name + "_workspace_size", ir.i64, plan.workspaceBytes());
    LLVMValueRef cache = null;
    if (plan.workspaceBytes() > 0) {
      cache = LLVMAddGlobal(ir.module, ir.ptr, name + ".workspace_cache");
      LLVMSetLinkage(cache, LLVMInternalLinkage);
      LLVMSetInitializer(cache, LLVMConstPointerNull(ir.ptr));
      LLVMSetAlignment(cache, 8);
      Destructors.add(ir, freeCache(ir, name, cache));
    }
    LLVMValueRef run = run(ir, plan, name, baked, numInputs, numOutputs, cache, schedule);

    LLVMValueRef fn = LLVMAddFunction(ir.module, name, ir.fnType(ir.i32, ir.ptr, ir.ptr));
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    ir.ret(inMode(ir, arch, () -> ir.call(runType(ir), run, LLVMGetParam(fn, 0), LLVMGetParam(fn, 1),
        LLVMConstPointerNull(ir.ptr))));

    LLVMValueRef with = LLVMAddFunction(ir.module, name + "_with_workspace", ir.fnType(ir.i32, ir.ptr, ir.ptr, ir.ptr));
    ir.addFunctionAttribute(with, "nounwind");
    ir.beginFunction(with);
    LLVMValueRef ws = LLVMGetParam(with, 2);
    if (plan.workspaceBytes() > 0) {
      LLVMValueRef misaligned = ir.icmp(LLVMIntNE,
          ir.and(LLVMBuildPtrToInt(ir.b, ws, ir.i64, ""), ir.i64(Plan.ALIGNMENT - 1)), ir.i64(0));
      LLVMBasicBlockRef bad = ir.block("bad_workspace");
      LLVMBasicBlockRef ok = ir.block("call");
      ir.condBr(ir.or(ir.isNull(ws), misaligned), bad, ok);
      ir.at(bad);
      ir.ret(ir.i32(ErrorCode.BAD_ARGUMENTS.code()));
      ir.at(ok);
    }
    ir.ret(inMode(ir, arch, () -> ir.call(runType(ir), run, LLVMGetParam(with, 0), LLVMGetParam(with, 1), ws)));
    return fn;
  }

  /** {@code body()} between saving and restoring the caller's float mode, if the numerics set one. */
  private static LLVMValueRef inMode(Ir ir, TargetSpec.Arch arch, java.util.function.Supplier<LLVMValueRef> body) {
    if (!ir.numerics().flushesInHardware()) return body.get();
    FloatMode.Saved saved = FloatMode.enter(ir, arch);
    LLVMValueRef rc = body.get();
    FloatMode.leave(ir, arch, saved);
    return rc;
  }

  private static LLVMTypeRef runType(Ir ir) {
    return ir.fnType(ir.i32, ir.ptr, ir.ptr, ir.ptr);
  }

  /**
   * {@code i32 NAME.run(inputs, outputs, workspace)}: argument checks, work memory (the given
   * block, else the cache's or a new one), the schedule.
   */
  private static LLVMValueRef run(Ir ir, Plan plan, String name, LLVMValueRef[] baked, int numInputs, int numOutputs,
      LLVMValueRef cache, Consumer<Function<Buffer, LLVMValueRef>> schedule) {
    LLVMValueRef fn = LLVMAddFunction(ir.module, name + ".run", runType(ir));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    ir.addFunctionAttribute(fn, "nounwind");
    ir.addFunctionAttribute(fn, "noinline");  // keeps its float code after the mode is set
    ir.beginFunction(fn);
    LLVMValueRef inputs = LLVMGetParam(fn, 0);
    LLVMValueRef outputs = LLVMGetParam(fn, 1);
    LLVMValueRef given = LLVMGetParam(fn, 2);
    LLVMBasicBlockRef bad = ir.block("bad_arguments");
    LLVMBasicBlockRef load = ir.block("load_pointers");
    LLVMValueRef arraysNull = ir.bool(false);
    if (numInputs > 0) arraysNull = ir.or(arraysNull, ir.isNull(inputs));
    if (numOutputs > 0) arraysNull = ir.or(arraysNull, ir.isNull(outputs));
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
      if (elements(inVars.get(i)) > 0) anyNull = ir.or(anyNull, ir.isNull(in[i]));
    }
    for (int k = 0; k < numOutputs; k++) {
      out[k] = ir.load(ir.ptr, ir.gep(ir.ptr, outputs, ir.i64(k)), 8);
      if (elements(plan.outputs().get(k)) > 0) anyNull = ir.or(anyNull, ir.isNull(out[k]));
    }
    LLVMBasicBlockRef allocate = ir.block("allocate");
    ir.condBr(anyNull, bad, allocate);
    ir.at(allocate);
    for (int k = 0; k < numOutputs; k++) {
      ArrayType t = (ArrayType) plan.outputs().get(k).type();
      OutputPages.advise(ir, out[k], t.shape().elementCount() * t.dtype().byteSize());
    }

    LLVMValueRef aligned = LLVMConstPointerNull(ir.ptr);  // only empty temporaries without one
    LLVMValueRef block = null;  // the cached or malloc'ed block (not the caller's), or null
    if (plan.workspaceBytes() > 0) {
      LLVMBasicBlockRef own = ir.block("own_workspace");
      LLVMBasicBlockRef fresh = ir.block("malloc_workspace");
      LLVMBasicBlockRef oom = ir.block("out_of_memory");
      LLVMBasicBlockRef run = ir.block("run");
      LLVMBasicBlockRef entry = ir.currentBlock();
      ir.condBr(ir.isNull(given), own, run);
      ir.at(own);
      LLVMValueRef cached = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpXchg, cache, LLVMConstPointerNull(ir.ptr),
          LLVMAtomicOrderingAcquire, 0);
      LLVMBasicBlockRef ownEnd = ir.currentBlock();
      ir.condBr(ir.isNull(cached), fresh, run);
      ir.at(fresh);
      LLVMValueRef allocated = Libc.malloc(ir, ir.i64(plan.workspaceBytes() + Plan.ALIGNMENT - 1));
      ir.condBr(ir.isNull(allocated), oom, run);
      ir.at(oom);
      ir.ret(ir.i32(ErrorCode.OUT_OF_MEMORY.code()));
      ir.at(run);
      block = ir.phi(ir.ptr);
      ir.incoming(block, LLVMConstPointerNull(ir.ptr), entry);
      ir.incoming(block, cached, ownEnd);
      ir.incoming(block, allocated, fresh);
      LLVMValueRef address = LLVMBuildPtrToInt(ir.b, block, ir.i64, "");
      LLVMValueRef pad = ir.and(ir.sub(ir.i64(0), address), ir.i64(Plan.ALIGNMENT - 1));
      // The caller's block is aligned already (checked); an own block is aligned by hand.
      aligned = ir.select(ir.isNull(block), given, ir.gep(ir.i8, block, pad));
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
    if (block != null) {
      LLVMBasicBlockRef putBack = ir.block("cache_workspace");
      LLVMBasicBlockRef freeOther = ir.block("free_other");
      LLVMBasicBlockRef done = ir.block("done");
      ir.condBr(ir.isNull(block), done, putBack);
      ir.at(putBack);
      LLVMValueRef other = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpXchg, cache, block,
          LLVMAtomicOrderingAcquireRelease, 0);
      ir.condBr(ir.isNull(other), done, freeOther);
      ir.at(freeOther);
      Libc.free(ir, other);  // a concurrent call put one back first: keep one
      ir.br(done);
      ir.at(done);
    }
    ir.ret(ir.i32(ErrorCode.OK.code()));
    return fn;
  }

  /** {@code void NAME.free_workspace()}: frees the cached block (a destructor: library unload). */
  private static LLVMValueRef freeCache(Ir ir, String name, LLVMValueRef cache) {
    return ir.outlined(name + ".free_workspace", ir.fnType(ir.voidType), f -> {
      LLVMValueRef p = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpXchg, cache, LLVMConstPointerNull(ir.ptr),
          LLVMAtomicOrderingAcquire, 0);
      Libc.free(ir, p);  // free(NULL) does nothing
      LLVMBuildRetVoid(ir.b);
    });
  }

  private static long elements(Atom a) {
    return ((ArrayType) a.type()).shape().elementCount();
  }

  private static void constant(Ir ir, String name, LLVMTypeRef t, long value) {
    LLVMValueRef fn = LLVMAddFunction(ir.module, name, ir.fnType(t));
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    ir.ret(ir.constInt(t, value));
  }
}
