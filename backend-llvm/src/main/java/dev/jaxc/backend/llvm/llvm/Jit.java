package dev.jaxc.backend.llvm.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMExecutionEngineRef;
import org.bytedeco.llvm.LLVM.LLVMGenericValueRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Runs compiled code in this process, with no JNI code of jaxc's own: MCJIT's LLVMRunFunction
 * calls a function of the main-like type {@code i32 (i32 n, ptr buffers)} directly. The buffers
 * are direct ByteBuffers, passed as an array of pointers.
 */
public final class Jit implements AutoCloseable {
  private final LLVMExecutionEngineRef engine;

  /** Takes ownership of the module. */
  public Jit(LLVMModuleRef module, int optLevel) {
    Llvm.init();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    var options = new org.bytedeco.llvm.LLVM.LLVMMCJITCompilerOptions();
    LLVMInitializeMCJITCompilerOptions(options, options.sizeof());
    options.OptLevel(optLevel);
    engine = new LLVMExecutionEngineRef();
    BytePointer err = new BytePointer((BytePointer) null);
    Llvm.check(LLVMCreateMCJITCompilerForModule(engine, module, options, options.sizeof(), err) != 0,
        err, "cannot create the JIT");
  }

  /** Calls {@code i32 name(i32 n, ptr buffers)} with the buffers' addresses; returns its result. */
  public int call(LLVMModuleRef module, String name, ByteBuffer... buffers) {
    LLVMValueRef fn = LLVMGetNamedFunction(module, name);
    if (fn == null || fn.isNull()) throw new LlvmException("no function " + name + " in the JIT module");
    PointerPointer<Pointer> ptrs = new PointerPointer<>(buffers.length);
    for (int i = 0; i < buffers.length; i++) {
      if (!buffers[i].isDirect()) throw new IllegalArgumentException("buffer " + i + " is not direct");
      ptrs.put(i, new Pointer(buffers[i]));
    }
    LLVMGenericValueRef n = LLVMCreateGenericValueOfInt(LLVMInt32TypeInContext(LLVMGetModuleContext(module)), buffers.length, 0);
    LLVMGenericValueRef p = LLVMCreateGenericValueOfPointer(ptrs);
    PointerPointer<LLVMGenericValueRef> args = new PointerPointer<LLVMGenericValueRef>(2);
    args.put(0, n);
    args.put(1, p);
    LLVMGenericValueRef r = LLVMRunFunction(engine, fn, 2, args);
    try {
      return (int) LLVMGenericValueToInt(r, 1);
    } finally {
      LLVMDisposeGenericValue(r);
      LLVMDisposeGenericValue(n);
      LLVMDisposeGenericValue(p);
      ptrs.close();
      // The pointers do not keep the buffers alive: without this fence the collector may free a
      // direct buffer (an input the caller no longer reads) while the compiled code still runs.
      Reference.reachabilityFence(buffers);
    }
  }

  @Override
  public void close() {
    LLVMRunStaticDestructors(engine);  // stops the module's threads, frees what it cached
    LLVMDisposeExecutionEngine(engine);
  }
}
