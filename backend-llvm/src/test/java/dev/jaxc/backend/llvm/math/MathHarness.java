package dev.jaxc.backend.llvm.math;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.llvm.Jit;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.LlvmException;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collection;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMAttributeRef;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * JIT-compiles, for each requested kernel, {@code i32 run_<fn>_<dtype>_<lanes>(i32 n, ptr bufs)}
 * that applies the math function elementwise: bufs[0] holds the element count (i64), then the
 * inputs, then the output. With {@code lanes > 0} the loop steps through {@code <lanes x T>}
 * vectors and calls the vector variant. The module goes through the -O2 pipeline first, so the
 * scalar functions are inlined and the loops vectorised as in jaxc's own output.
 */
final class MathHarness implements AutoCloseable {
  /**
   * BASELINE: this architecture's baseline CPU (on x86-64 without FMA: the worst case for
   * accuracy); HOST: this CPU and its features, FMA and one-instruction rounding included.
   */
  enum Mode {
    BASELINE,
    HOST
  }

  record Kernel(MathFn fn, boolean f64, int lanes) {
    String name() {
      return "run_" + fn.id() + "_" + (f64 ? "f64" : "f32") + "_" + lanes;
    }
  }

  private final LLVMContextRef ctx;
  private final LLVMModuleRef module;
  private final Jit jit;

  /** {@code ftz}: run with the x86 MXCSR flush-to-zero and denormals-are-zero bits set, as XLA does. */
  MathHarness(Collection<Kernel> kernels, Mode mode, boolean ftz) {
    Llvm.init();
    ctx = LLVMContextCreate();
    module = LLVMModuleCreateWithNameInContext("math_test", ctx);
    boolean x86 = TargetSpec.host().arch() == TargetSpec.Arch.X86_64;
    TargetSpec spec = mode == Mode.HOST ? TargetSpec.host() : x86 ? TargetSpec.x86_64() : TargetSpec.aarch64();
    if (ftz && !x86) throw new IllegalStateException("FTZ runs need x86-64");
    addKernels(module, kernels, ftz, spec.roundsNatively());
    try (TargetMachine tm = new TargetMachine(spec.withOptLevel(2))) {
      tm.configure(module);
      if (mode == Mode.HOST) {
        for (LLVMValueRef f = LLVMGetFirstFunction(module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
          if (LLVMIsDeclaration(f) != 0) continue;
          addString(ctx, f, "target-cpu", spec.cpu());
          addString(ctx, f, "target-features", spec.features());
        }
      }
      verify();
      tm.optimize(module);
    }
    jit = new Jit(module, 2);
  }

  private static void addString(LLVMContextRef ctx, LLVMValueRef f, String k, String v) {
    LLVMAttributeRef a = LLVMCreateStringAttribute(ctx, k, k.length(), v, v.length());
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a);
  }

  private void verify() {
    BytePointer err = new BytePointer((BytePointer) null);
    Llvm.check(LLVMVerifyModule(module, LLVMReturnStatusAction, err) != 0, err, "invalid module");
  }

  /** Adds the kernels' loop functions, and the math functions they call, to a module. */
  static void addKernels(LLVMModuleRef module, Collection<Kernel> kernels, boolean ftz) {
    addKernels(module, kernels, ftz, false);
  }

  /** As above; {@code nativeRounding}: the target rounds in one instruction (its floor and rint are the intrinsics). */
  static void addKernels(LLVMModuleRef module, Collection<Kernel> kernels, boolean ftz, boolean nativeRounding) {
    MathLibrary lib = new MathLibrary(module, ftz, false, false, nativeRounding);
    for (Kernel k : kernels) build(module, lib, k, ftz);
  }

  private static void build(LLVMModuleRef module, MathLibrary lib, Kernel k, boolean ftz) {
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef elem = k.f64() ? LLVMDoubleTypeInContext(ctx) : LLVMFloatTypeInContext(ctx);
    LLVMTypeRef type = k.lanes() == 0 ? elem : LLVMVectorType(elem, k.lanes());
    LLVMTypeRef fnType = LLVMFunctionType(i32, new PointerPointer<>(2).put(0, i32).put(1, ptr), 2, 0);
    LLVMValueRef fn = LLVMAddFunction(module, k.name(), fnType);
    if (ftz) {
      addString(ctx, fn, "denormal-fp-math", "preserve-sign,preserve-sign");
      addString(ctx, fn, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    try {
      LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
      LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(ctx, fn, "loop");
      LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
      LLVMPositionBuilderAtEnd(b, entry);
      int arity = k.fn().arity();
      LLVMValueRef[] p = new LLVMValueRef[arity + 2];
      for (int j = 0; j < p.length; j++) {
        PointerPointer<LLVMValueRef> at = new PointerPointer<>(1);
        at.put(0, LLVMConstInt(i64, j, 0));
        LLVMValueRef slot = LLVMBuildGEP2(b, ptr, LLVMGetParam(fn, 1), at, 1, "");
        p[j] = LLVMBuildLoad2(b, ptr, slot, "p" + j);
      }
      LLVMValueRef count = LLVMBuildLoad2(b, i64, p[0], "count");
      LLVMValueRef mxcsr = null;
      if (ftz) {
        mxcsr = LLVMBuildAlloca(b, i32, "mxcsr");
        LLVMValueRef changed = LLVMBuildAlloca(b, i32, "mxcsr_ftz");
        x86(module, b, "llvm.x86.sse.stmxcsr", mxcsr);
        LLVMValueRef old = LLVMBuildLoad2(b, i32, mxcsr, "");
        LLVMBuildStore(b, LLVMBuildOr(b, old, LLVMConstInt(i32, 0x8040, 0), ""), changed);
        x86(module, b, "llvm.x86.sse.ldmxcsr", changed);
      }
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, count, LLVMConstInt(i64, 0, 0), ""), done, loop);

      LLVMPositionBuilderAtEnd(b, loop);
      LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
      int align = k.f64() ? 8 : 4;
      LLVMValueRef[] args = new LLVMValueRef[arity];
      for (int j = 0; j < arity; j++) {
        LLVMValueRef at = LLVMBuildGEP2(b, elem, p[1 + j], new PointerPointer<>(1).put(0, i), 1, "");
        args[j] = LLVMBuildLoad2(b, type, at, "");
        LLVMSetAlignment(args[j], align);
      }
      LLVMValueRef r = lib.call(b, k.fn(), args);
      LLVMValueRef out = LLVMBuildGEP2(b, elem, p[arity + 1], new PointerPointer<>(1).put(0, i), 1, "");
      LLVMSetAlignment(LLVMBuildStore(b, r, out), align);
      LLVMValueRef next = LLVMBuildAdd(b, i, LLVMConstInt(i64, Math.max(1, k.lanes()), 0), "next");
      LLVMAddIncoming(i, new PointerPointer<>(2).put(0, LLVMConstInt(i64, 0, 0)).put(1, next),
          new PointerPointer<>(2).put(0, entry).put(1, loop), 2);
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, count, ""), loop, done);

      LLVMPositionBuilderAtEnd(b, done);
      if (ftz) x86(module, b, "llvm.x86.sse.ldmxcsr", mxcsr);
      LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
    } finally {
      LLVMDisposeBuilder(b);
    }
  }

  private static void x86(LLVMModuleRef module, LLVMBuilderRef b, String name, LLVMValueRef arg) {
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    int id = LLVMLookupIntrinsicID(name, name.length());
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(module, id, new PointerPointer<>(0), 0);
    LLVMTypeRef t = LLVMIntrinsicGetType(ctx, id, new PointerPointer<>(0), 0);
    LLVMBuildCall2(b, t, f, new PointerPointer<>(1).put(0, arg), 1, "");
  }

  /** Applies a float kernel; {@code ys} is null for unary functions. Length must be a multiple of lanes. */
  float[] run(Kernel k, float[] xs, float[] ys) {
    if (k.f64()) throw new IllegalArgumentException(k.name());
    int n = xs.length;
    ByteBuffer[] bufs = buffers(k, n, 4);
    bufs[1].asFloatBuffer().put(xs);
    if (ys != null) bufs[2].asFloatBuffer().put(ys);
    call(k, bufs);
    float[] out = new float[n];
    bufs[bufs.length - 1].asFloatBuffer().get(out);
    return out;
  }

  double[] run(Kernel k, double[] xs, double[] ys) {
    if (!k.f64()) throw new IllegalArgumentException(k.name());
    int n = xs.length;
    ByteBuffer[] bufs = buffers(k, n, 8);
    bufs[1].asDoubleBuffer().put(xs);
    if (ys != null) bufs[2].asDoubleBuffer().put(ys);
    call(k, bufs);
    double[] out = new double[n];
    bufs[bufs.length - 1].asDoubleBuffer().get(out);
    return out;
  }

  private static ByteBuffer[] buffers(Kernel k, int n, int size) {
    if (k.lanes() > 0 && n % k.lanes() != 0) throw new IllegalArgumentException(n + " elements for " + k.name());
    ByteBuffer[] bufs = new ByteBuffer[k.fn().arity() + 2];
    bufs[0] = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    bufs[0].putLong(0, n);
    for (int j = 1; j < bufs.length; j++) {
      bufs[j] = ByteBuffer.allocateDirect(Math.max(size, n * size)).order(ByteOrder.nativeOrder());
    }
    return bufs;
  }

  private void call(Kernel k, ByteBuffer[] bufs) {
    int rc = jit.call(module, k.name(), bufs);
    if (rc != 0) throw new LlvmException(k.name() + " returned " + rc);
  }

  @Override
  public void close() {
    jit.close();
    LLVMContextDispose(ctx);
  }
}
