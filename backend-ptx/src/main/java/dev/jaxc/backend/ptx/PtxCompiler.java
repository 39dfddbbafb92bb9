package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.ConstsGlobals;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The PTX backend's front door: a lowered program (as {@code cli/HostRun.lower} gives it) in, the
 * PTX module and its launches ({@link DeviceProgram}) out. Planning, step emission, element
 * generators and the math library are the CPU backend's; what differs is the parallel regions
 * ({@link GridRegions}), the kernels around the steps ({@link Kernels}), the numerics ({@link
 * PtxTarget#NUMERICS}) and the target. Unsupported primitives are reported by the planner
 * ({@code JaxcException} at the equation) before any LLVM work.
 */
public final class PtxCompiler {
  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** LLVM's calling convention for PTX entry functions ({@code ptx_kernel}). */
  private static final int PTX_KERNEL = 71;
  /** NVPTX's address space of global memory. */
  private static final int GLOBAL_SPACE = 1;

  private PtxCompiler() {}

  /** The plan both the PTX module and the emulation are emitted from. */
  public static Plan plan(Program program) {
    return Planner.plan(program.main(), CpuBackendRules.WITHOUT_MULTI_OUTPUT);
  }

  /**
   * Compiles {@code program.main()} for GPU architecture {@code sm} as model {@code name}.
   *
   * @throws dev.jaxc.ir.diag.JaxcException the input uses something not compiled (yet)
   * @throws IllegalArgumentException {@code name} is not a C identifier or {@code sm} not supported
   */
  public static DeviceProgram compile(Program program, String sm, String name) {
    return compileDescribed(program, sm, name).program();
  }

  /** A compiled program and, per kernel of its launch table, the step it runs and whether it is grid-mapped. */
  public record Described(DeviceProgram program, List<String> steps, List<Boolean> mapped) {}

  /** As {@link #compile}, with each launch's step described (for the PTX file's comments, tests). */
  public static Described compileDescribed(Program program, String sm, String name) {
    return compileDescribed(program, sm, name, HostControl.Policy.fromEnvironment());
  }

  /** As {@link #compileDescribed(Program, String, String)}, with control flow driven from the host by {@code policy}. */
  public static Described compileDescribed(Program program, String sm, String name, HostControl.Policy policy) {
    return compileDescribed(program, sm, name, policy, Consts.NONE);
  }

  /**
   * As above, with the leading {@code consts.count()} inputs (constvars, {@code --consts}) baked
   * into the PTX module as initialised global-space arrays: the driver uploads them when it loads
   * the module, and they are no longer inputs of the program.
   *
   * @throws IllegalArgumentException a value does not fit its constvar
   */
  public static Described compileDescribed(Program program, String sm, String name, HostControl.Policy policy,
      Consts consts) {
    if (!C_IDENTIFIER.matcher(name).matches()) throw new IllegalArgumentException("not a C identifier: " + name);
    TargetSpec target = PtxTarget.spec(sm);
    Plan plan = plan(program);
    Llvm.init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = LLVMModuleCreateWithNameInContext(name, ctx);
    try (TargetMachine tm = new TargetMachine(target)) {
      Kernels.Emitted kernels;
      try (Ir ir = new Ir(ctx, module, target, PtxTarget.NUMERICS)) {
        LLVMValueRef[] baked = ConstsGlobals.emit(ir, plan, consts, GLOBAL_SPACE);
        kernels = Kernels.emit(ir, plan, name, new ThreadIndex.Ptx(), policy, baked);
        for (LLVMValueRef k : kernels.functions()) {
          LLVMSetFunctionCallConv(k, PTX_KERNEL);
          MmaGemm.annotate(k, sm);
        }
        forDevice(ir, target);
      }
      tm.configure(module);
      Compiler.verify(module);
      tm.optimize(module);
      String ptx = new String(tm.emit(module, true), StandardCharsets.UTF_8);
      List<DeviceProgram.Launch> launches = new ArrayList<>();
      List<String> steps = new ArrayList<>();
      List<Boolean> mapped = new ArrayList<>();
      for (GridMapping.ProgramLaunch l : kernels.launches()) {
        launches.add(new DeviceProgram.Launch(l.kernel(), l.gridX(), l.blockX(), 0));
        steps.add(l.step());
        mapped.add(l.mapped());
      }
      DeviceProgram p = new DeviceProgram(name, sm, ptx, launches, kernels.program(), kernels.workspaceBytes(),
          kernels.zeroedOffset(), kernels.zeroedBytes(), bytes(plan.inputs().subList(consts.count(), plan.inputs().size())), bytes(plan.outputs()));
      return new Described(p, steps, mapped);
    } finally {
      LLVMDisposeModule(module);
      LLVMContextDispose(ctx);
    }
  }

  /**
   * Device functions: for the target's CPU and PTX version, free of library-call idioms (no
   * {@code memcpy}), and inlinable: the step functions and region bodies the CPU backend keeps
   * out of line (for compile time and thread pools) are small kernels' whole work here, and
   * inlined the region's context stays in registers.
   */
  private static void forDevice(Ir ir, TargetSpec target) {
    int noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef f = LLVMGetFirstFunction(ir.module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f) != 0) continue;
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
      ir.addFunctionAttribute(f, "no-builtins", "");
      ir.addFunctionAttribute(f, "target-cpu", target.cpu());
      ir.addFunctionAttribute(f, "target-features", target.features());
    }
  }

  static List<Long> bytes(List<? extends Atom> atoms) {
    List<Long> r = new ArrayList<>();
    for (Atom a : atoms) {
      ArrayType t = (ArrayType) a.type();
      r.add(t.shape().elementCount() * t.dtype().byteSize());
    }
    return r;
  }
}
