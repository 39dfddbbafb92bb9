package dev.jaxc.backend.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.EntryPoint;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.StepFunctions;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.LlvmException;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.backend.llvm.runtime.ParallelFor;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.ir.Program;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The CPU backend's front door: a canonical, typed program (calls inlined, PRNG keys rewritten)
 * in, a verified LLVM module for one target out, optimised when its first output is asked for. Planning happens first, so
 * unsupported primitives are reported ({@code JaxcException} at the equation) before any LLVM
 * work. The same input always gives the same module, and so byte-identical objects.
 */
public final class Compiler {
  private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private Compiler() {}

  /**
   * Compiles {@code program.main()} as the C ABI entry point {@code name}.
   *
   * @throws dev.jaxc.ir.diag.JaxcException the input uses something not compiled (yet)
   * @throws LlvmException LLVM rejected the module: a jaxc bug
   */
  public static CompiledModule compile(Program program, TargetSpec target, String name) {
    return compile(program, target, name, Consts.NONE);
  }

  /**
   * As above, with the leading constvars' values baked into the module as read-only data
   * ({@code --consts}); they are then no longer inputs of the entry point.
   *
   * @throws IllegalArgumentException more values than constvars, or a value of the wrong size
   */
  public static CompiledModule compile(Program program, TargetSpec target, String name, Consts consts) {
    return compile(program, target, name, consts, Threading.DEFAULT);
  }

  /** As above, with the generated code using threads as {@code threading} says. */
  public static CompiledModule compile(Program program, TargetSpec target, String name, Consts consts,
      Threading threading) {
    return compile(program, target, name, consts, threading, PhaseTimer.NONE);
  }

  /**
   * As above, timing the phases plan, emit IR and verify with {@code timer}, and, when the module
   * is optimised (as its first output is asked for), optimise and codegen.
   */
  public static CompiledModule compile(Program program, TargetSpec target, String name, Consts consts,
      Threading threading, PhaseTimer timer) {
    if (!C_IDENTIFIER.matcher(name).matches()) throw new IllegalArgumentException("not a C identifier: " + name);
    Plan plan = timer.time("plan", () -> plan(program));
    Llvm.init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = LLVMModuleCreateWithNameInContext(name, ctx);
    TargetMachine tm = null;
    try {
      long t0 = System.nanoTime();
      try (Ir ir = new Ir(ctx, module, target)) {
        ParallelFor parallel = new ParallelFor(ir, threading, target.arch());
        EntryPoint.emit(ir, plan, name, consts, target.arch(),
            bases -> new StepFunctions(ir, plan, parallel, name).emitAll(bases));
        parallel.finish(name);
        forTarget(ir, target);
      }
      timer.record("emit IR", System.nanoTime() - t0);
      tm = new TargetMachine(target);
      tm.configure(module);
      timer.run("verify", () -> verify(module));
      return new CompiledModule(ctx, module, tm, plan, name, consts.count(), false, timer);
    } catch (RuntimeException | Error e) {
      if (tm != null) tm.close();
      LLVMDisposeModule(module);
      LLVMContextDispose(ctx);
      throw e;
    }
  }

  /** The plan the CPU module is emitted from. */
  public static Plan plan(Program program) {
    return Planner.plan(program.main(), CpuBackendRules.CPU);
  }

  /**
   * Every defined function is tagged with the target CPU and features, so code generation uses
   * them whichever target machine (the artifact's or MCJIT's) compiles the module, and as free of
   * library-call idioms: a large zero fill (a scan carry's initial zeros) would otherwise become a
   * {@code memset} import, and objects import only malloc, free and the thread functions. And, when
   * the hardware flushes denormals, with {@code "denormal-fp-math"="dynamic"}: LLVM then makes no
   * transformation that depends on how denormals behave. IEEE (the default) would let it rewrite
   * bit tests for zero into float compares, which DAZ answers differently; preserve-sign lets it
   * take a denormal for a zero where its bits are read (it folded frexp's {@code select(|x| <
   * min_normal, x * 2^23, x)} to {@code x}: misc_class_test_denormals). All functions alike:
   * the inliner requires compatible modes. Loops of transcendental functions are vectorised in 512
   * bits where the target has AVX-512 ({@link WideVectors}).
   */
  public static void forTarget(Ir ir, TargetSpec target) {
    for (LLVMValueRef f = LLVMGetFirstFunction(ir.module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f) != 0) continue;
      ir.addFunctionAttribute(f, "no-builtins", "");
      ir.addFunctionAttribute(f, "target-cpu", target.cpu());
      if (!target.features().isEmpty()) ir.addFunctionAttribute(f, "target-features", target.features());
      if (ir.numerics().flushesInHardware()) {
        ir.addFunctionAttribute(f, "denormal-fp-math", "dynamic,dynamic");
        ir.addFunctionAttribute(f, "denormal-fp-math-f32", "dynamic,dynamic");
      }
    }
    WideVectors.mark(ir, target);
  }

  public static void verify(LLVMModuleRef module) {
    BytePointer err = new BytePointer((BytePointer) null);
    Llvm.check(LLVMVerifyModule(module, LLVMReturnStatusAction, err) != 0, err, "generated module is invalid");
  }
}
