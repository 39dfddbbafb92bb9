package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.ConstsGlobals;
import dev.jaxc.backend.llvm.abi.Libc;
import dev.jaxc.backend.llvm.abi.EntryPoint;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import java.util.List;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The PTX path's kernels run on this machine's CPU: the same kernel IR as {@link PtxCompiler}
 * emits (same plan, numerics, launches and grid mapping), with thread and block indices read from
 * globals ({@link ThreadIndex.Emulated}), compiled for the host, under the CPU backend's C ABI
 * entry point ({@code NAME(inputs, outputs)}, so {@code jaxc run}/{@code check} call it through
 * MCJIT as they call host code). The entry point runs the program as the host library does
 * ({@link ProgramEmitter}: host-driven loops and branches, read-backs from the workspace) and
 * each launch as the GPU would: for every block, for every thread of the block, it sets the
 * indices and calls the kernel. Threads run one after another, each to its end. A cooperative
 * kernel (barriers, shuffles: {@link BlockCode}) is called once per block and runs each of its
 * phases for all threads of the block before the next (POCL's scheme).
 */
public final class EmulatedLaunch {
  private EmulatedLaunch() {}

  /** Compiles the emulation of {@code program.main()} for {@code sm} as entry point {@code name}. */
  public static CompiledModule compile(Program program, String sm, String name) {
    return compile(program, sm, name, HostControl.Policy.fromEnvironment());
  }

  /** As {@link #compile(Program, String, String)}, with control flow driven from the host by {@code policy}. */
  public static CompiledModule compile(Program program, String sm, String name, HostControl.Policy policy) {
    return compile(program, sm, name, policy, Consts.NONE);
  }

  /** As above, with the leading {@code consts.count()} inputs baked in, as {@link PtxCompiler} bakes them. */
  public static CompiledModule compile(Program program, String sm, String name, HostControl.Policy policy, Consts consts) {
    TargetSpec device = PtxTarget.spec(sm);
    Plan plan = PtxCompiler.plan(program);
    Llvm.init();
    TargetSpec host = TargetSpec.host();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = LLVMModuleCreateWithNameInContext(name, ctx);
    TargetMachine tm = null;
    try {
      // The device's spec: kernels choose their code for the GPU (no C library, no CPU vectors).
      try (Ir ir = new Ir(ctx, module, device, PtxTarget.NUMERICS)) {
        LLVMValueRef[] baked = ConstsGlobals.emit(ir, plan, consts, 0);
        Kernels.Emitted kernels = Kernels.emit(ir, plan, name, new ThreadIndex.Emulated(), policy, baked);
        EntryPoint.emit(ir, plan, name, baked, host.arch(), bases -> launchAll(ir, plan, baked.length, kernels, bases));
        // Tagged with this CPU and its features (MCJIT's own machine is generic): a GPU always has
        // FMA, and without the host's, llvm.fmuladd would round twice where the GPU rounds once.
        Compiler.forTarget(ir, host);
      }
      tm = new TargetMachine(host);
      tm.configure(module);
      Compiler.verify(module);
      tm.optimize(module);
      return new CompiledModule(ctx, module, tm, plan, name, consts.count());
    } catch (RuntimeException | Error e) {
      if (tm != null) tm.close();
      LLVMDisposeModule(module);
      LLVMContextDispose(ctx);
      throw e;
    }
  }

  /**
   * Runs the program ({@link ProgramEmitter}): each launch as for each block, for each thread: set
   * the indices, call the kernel; a read-back loads the workspace.
   */
  private static void launchAll(Ir ir, Plan plan, int baked, Kernels.Emitted kernels, Function<Buffer, LLVMValueRef> bases) {
    int inputs = plan.inputs().size() - baked;
    int outputs = plan.outputs().size();
    LLVMValueRef[] args = new LLVMValueRef[inputs + outputs + 2];
    for (int i = 0; i < inputs; i++) {
      args[i] = bases.apply(new Buffer.Input(baked + i, (ArrayType) plan.inputs().get(baked + i).type()));
    }
    for (int o = 0; o < outputs; o++) args[inputs + o] = bases.apply(new Buffer.Output(o, (ArrayType) plan.outputs().get(o).type()));
    // Slots the host reads back lie after the plan's workspace: then the emulation has its own block.
    boolean own = kernels.workspaceBytes() > plan.workspaceBytes();
    LLVMValueRef block = own ? Libc.malloc(ir, ir.i64(kernels.workspaceBytes() + Plan.ALIGNMENT - 1)) : null;
    LLVMValueRef ws;
    if (own) {
      LLVMValueRef address = LLVMBuildPtrToInt(ir.b, block, ir.i64, "");
      ws = ir.gep(ir.i8, block, ir.and(ir.sub(ir.i64(0), address), ir.i64(Plan.ALIGNMENT - 1)));
      // As the host library's new work block: memory of no known value (a pattern here, so that
      // a kernel that read what no launch wrote fails its case), the counters zero.
      fill(ir, ws, 0, kernels.workspaceBytes(), 0xA5A5A5A5A5A5A5A5L);
      fill(ir, ws, kernels.zeroedOffset(), kernels.zeroedOffset() + kernels.zeroedBytes(), 0);
    } else {
      ws = workspace(ir, plan, bases);
    }
    args[inputs + outputs] = ws;
    List<LLVMValueRef> fns = kernels.functions();
    ProgramEmitter.emit(ir, kernels.program(), new ProgramEmitter.Host() {
      @Override
      public void launch(int k, LLVMValueRef iteration) {
        GridMapping.ProgramLaunch l = kernels.launches().get(k);
        LLVMValueRef fn = fns.get(k);
        args[inputs + outputs + 1] = iteration;
        ir.store(ir.i64(l.gridX()), ThreadIndex.Emulated.global(ir, 2), 8);
        ir.store(ir.i64(l.blockX()), ThreadIndex.Emulated.global(ir, 3), 8);
        ir.loop(ir.i64(0), ir.i64(l.gridX()), 1, b -> {
          ir.store(b, ThreadIndex.Emulated.global(ir, 0), 8);
          if (l.cooperative()) {
            ir.store(ir.i64(0), ThreadIndex.Emulated.global(ir, 1), 8);
            ir.call(LLVMGlobalGetValueType(fn), fn, args);
            return;
          }
          ir.loop(ir.i64(0), ir.i64(l.blockX()), 1, t -> {
            ir.store(t, ThreadIndex.Emulated.global(ir, 1), 8);
            ir.call(LLVMGlobalGetValueType(fn), fn, args);
          });
        });
      }

      @Override
      public LLVMValueRef read(long offset, int bytes) {
        LLVMValueRef p = ir.gep(ir.i8, ws, ir.i64(offset));
        return bytes == 1 ? ir.intCast(ir.load(ir.i8, p, 1), ir.i32, false) : ir.load(ir.i32, p, 4);
      }
    });
    if (own) Libc.free(ir, block);
  }

  /** Stores {@code pattern} in the 8-byte words of [{@code from}, {@code to}) of {@code ws} (both multiples of 8). */
  private static void fill(Ir ir, LLVMValueRef ws, long from, long to, long pattern) {
    ir.loop(ir.i64(from / 8), ir.i64(to / 8), 1, i -> ir.store(ir.i64(pattern), ir.gep(ir.i64, ws, i), 8));
  }

  /** The workspace's base: a temporary's address less its offset (null when there is none). */
  private static LLVMValueRef workspace(Ir ir, Plan plan, Function<Buffer, LLVMValueRef> bases) {
    List<Buffer.Temp> temps = plan.workspaceBuffers();
    if (plan.workspaceBytes() == 0 || temps.isEmpty()) return LLVMConstPointerNull(ir.ptr);
    Buffer.Temp t = temps.get(0);
    return ir.gep(ir.i8, bases.apply(t), ir.i64(-t.offset()));
  }
}
