package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.StepFunctions;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Step;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * One kernel per top-level step of a plan, each {@code void NAME_kK(ptr in0, …, ptr out0, …, ptr
 * workspace)} (the uniform signature of {@link DeviceProgram}): it computes the step's buffer
 * addresses (inputs and outputs are its parameters, temporaries offsets into the workspace) and
 * calls the step's function, emitted by the CPU backend's {@link StepFunctions} with {@link
 * GridRegions} as its parallel regions, or, for reductions and row groups, the block-cooperative
 * kernel {@link GpuReductions} emits. The same code serves the PTX module and the emulation.
 */
final class Kernels {
  private Kernels() {}

  /** The kernels emitted, in launch order. */
  record Emitted(List<LLVMValueRef> functions, List<GridMapping.ProgramLaunch> launches) {}

  static Emitted emit(Ir ir, Plan plan, String name, ThreadIndex index) {
    GpuReductions reductions = new GpuReductions(ir, index);
    StepFunctions steps = new StepFunctions(ir, plan, new GridRegions(ir, index), name, reductions);
    int inputs = plan.inputs().size();
    int outputs = plan.outputs().size();
    LLVMTypeRef[] params = new LLVMTypeRef[inputs + outputs + 1];
    java.util.Arrays.fill(params, ir.ptr);
    LLVMTypeRef type = ir.fnType(ir.voidType, params);
    List<LLVMValueRef> functions = new ArrayList<>();
    List<GridMapping.ProgramLaunch> launches = new ArrayList<>();
    int k = 0;
    for (Step s : plan.steps()) {
      String kernel = name + "_k" + k++;
      LLVMValueRef fn = LLVMAddFunction(ir.module, kernel, type);
      ir.addFunctionAttribute(fn, "nounwind");
      ir.beginFunction(fn);
      LLVMValueRef workspace = LLVMGetParam(fn, inputs + outputs);
      steps.emit(s, b -> {
        if (b instanceof Buffer.Input i) return LLVMGetParam(fn, i.index());
        if (b instanceof Buffer.Output o) return LLVMGetParam(fn, inputs + o.index());
        if (b instanceof Buffer.Temp t) return ir.gep(ir.i8, workspace, ir.i64(t.offset()));
        throw new AssertionError(b);
      });
      LLVMValueRef call = LLVMGetLastInstruction(ir.currentBlock());
      LLVMBuildRetVoid(ir.b);
      functions.add(fn);
      GpuReductions.Launch own = reductions.take();
      launches.add(own != null
          ? new GridMapping.ProgramLaunch(kernel, describe(s), Math.toIntExact(Math.max(1, own.gridX())), own.blockX(), true, true)
          : GridMapping.launch(kernel, describe(s), LLVMGetCalledValue(call)));
    }
    return new Emitted(functions, launches);
  }

  /** The step in a few words: its kind, and a kernel's primitive. */
  static String describe(Step s) {
    if (s instanceof Step.Fusion f) return "fusion of " + f.roots().size() + " root" + (f.roots().size() > 1 ? "s" : "");
    if (s instanceof Step.Kernel k) return k.eqn().primitive();
    if (s instanceof Step.Rows r) {
      StringBuilder b = new StringBuilder("row group:");
      for (Step m : r.steps()) b.append(' ').append(m instanceof Step.Kernel k ? k.eqn().primitive() : "fusion");
      return b.toString();
    }
    if (s instanceof Step.CopyOut) return "output copy";
    throw new AssertionError(s);
  }
}
