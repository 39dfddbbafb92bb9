package dev.jaxc.backend.llvm.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTargetMachineRef;
import org.bytedeco.llvm.LLVM.LLVMTargetRef;

/** An owned LLVM target machine: configures modules for a target and emits them to bytes. */
public final class TargetMachine implements AutoCloseable {
  private final TargetSpec spec;
  private final LLVMTargetMachineRef tm;

  public TargetMachine(TargetSpec spec) {
    Llvm.init();
    this.spec = spec;
    LLVMTargetRef target = new LLVMTargetRef();
    BytePointer err = new BytePointer((BytePointer) null);
    Llvm.check(LLVMGetTargetFromTriple(new BytePointer(spec.triple()), target, err) != 0, err,
        "no LLVM target for " + spec.triple());
    int level = switch (spec.optLevel()) {
      case 0 -> LLVMCodeGenLevelNone;
      case 1 -> LLVMCodeGenLevelLess;
      case 2 -> LLVMCodeGenLevelDefault;
      default -> LLVMCodeGenLevelAggressive;
    };
    this.tm = LLVMCreateTargetMachine(target, spec.triple(), spec.cpu(), spec.features(), level,
        LLVMRelocPIC, LLVMCodeModelDefault);
    if (tm == null || tm.isNull()) throw new LlvmException("cannot create a target machine for " + spec);
  }

  public TargetSpec spec() {
    return spec;
  }

  /** Sets the module's triple and data layout to this machine's. */
  public void configure(LLVMModuleRef module) {
    LLVMSetTarget(module, spec.triple());
    var layout = LLVMCreateTargetDataLayout(tm);
    BytePointer s = LLVMCopyStringRepOfTargetData(layout);
    LLVMSetDataLayout(module, s);
    LLVMDisposeMessage(s);
    LLVMDisposeTargetData(layout);
  }

  /** Runs the new pass manager's default pipeline at the spec's level. */
  public void optimize(LLVMModuleRef module) {
    optimize(module, true);
  }

  /**
   * As above; {@code unrollLoops} false leaves loops as they are unless their metadata asks for
   * unrolling (clang's -fno-unroll-loops). The CPU backend's emitter unrolls what it wants
   * unrolled itself (micro-kernels; lane-vectorised reductions written at the target's vector
   * width), and LLVM's full, partial and runtime unrolling of the rest (after vectorising: copies
   * of runtime-checked vector and scalar loops, 8 to 64 each) doubled the optimise and codegen
   * time of a transformer block while making no suite workload faster (softmax, layernorm and the
   * Newton loop ran 15-25% faster without it; bench/compile/README.md).
   */
  public void optimize(LLVMModuleRef module, boolean unrollLoops) {
    var options = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopUnrolling(options, unrollLoops ? 1 : 0);
    try {
      var e = LLVMRunPasses(module, "default<O" + spec.optLevel() + ">", tm, options);
      if (e != null && !e.isNull()) throw new LlvmException("optimisation failed: " + Llvm.take(LLVMGetErrorMessage(e)));
    } finally {
      LLVMDisposePassBuilderOptions(options);
    }
  }

  /** An object file ({@code asm=false}) or assembly text, as bytes. */
  public byte[] emit(LLVMModuleRef module, boolean asm) {
    LLVMMemoryBufferRef buf = new LLVMMemoryBufferRef();
    BytePointer err = new BytePointer((BytePointer) null);
    Llvm.check(LLVMTargetMachineEmitToMemoryBuffer(tm, module, asm ? LLVMAssemblyFile : LLVMObjectFile, err, buf) != 0,
        err, "code generation failed");
    try {
      BytePointer start = LLVMGetBufferStart(buf);
      byte[] out = new byte[(int) LLVMGetBufferSize(buf)];
      start.capacity(out.length).get(out);
      return out;
    } finally {
      LLVMDisposeMemoryBuffer(buf);
    }
  }

  @Override
  public void close() {
    LLVMDisposeTargetMachine(tm);
  }
}
