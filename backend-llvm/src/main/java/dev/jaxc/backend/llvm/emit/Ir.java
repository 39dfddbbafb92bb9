package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.function.Consumer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The LLVM builder of one module, with the small helpers every emitter uses, so the Bytedeco
 * spelling lives in one place. Owns the builder (closed with {@link #close()}); the context and
 * module belong to the caller. Values get no names: the IR stays compact and deterministic.
 */
public final class Ir implements AutoCloseable {
  public final LLVMContextRef ctx;
  public final LLVMModuleRef module;
  public final LLVMBuilderRef b;
  public final LLVMTypeRef i1;
  public final LLVMTypeRef i8;
  public final LLVMTypeRef i16;
  public final LLVMTypeRef i32;
  public final LLVMTypeRef i64;
  public final LLVMTypeRef f32;
  public final LLVMTypeRef f64;
  public final LLVMTypeRef ptr;
  public final LLVMTypeRef voidType;
  private final Numerics numerics;
  private LLVMValueRef function;
  /** The machine the code is for (kernels pick vector widths from it), or null if unknown. */
  private final TargetSpec target;

  /** A builder for code with XLA:CPU's numerics, denormals flushed by the hardware. */
  public Ir(LLVMContextRef ctx, LLVMModuleRef module) {
    this(ctx, module, null, Numerics.XLA_CPU);
  }

  /** A builder for code for {@code target} with XLA:CPU's numerics. */
  public Ir(LLVMContextRef ctx, LLVMModuleRef module, TargetSpec target) {
    this(ctx, module, target, Numerics.XLA_CPU);
  }

  public Ir(LLVMContextRef ctx, LLVMModuleRef module, Numerics numerics) {
    this(ctx, module, null, numerics);
  }

  public Ir(LLVMContextRef ctx, LLVMModuleRef module, TargetSpec target, Numerics numerics) {
    this.target = target;
    this.ctx = ctx;
    this.module = module;
    this.numerics = numerics;
    this.b = LLVMCreateBuilderInContext(ctx);
    i1 = LLVMInt1TypeInContext(ctx);
    i8 = LLVMInt8TypeInContext(ctx);
    i16 = LLVMInt16TypeInContext(ctx);
    i32 = LLVMInt32TypeInContext(ctx);
    i64 = LLVMInt64TypeInContext(ctx);
    f32 = LLVMFloatTypeInContext(ctx);
    f64 = LLVMDoubleTypeInContext(ctx);
    ptr = LLVMPointerTypeInContext(ctx, 0);
    voidType = LLVMVoidTypeInContext(ctx);
  }

  /** Whether f16 → f32 conversions are emitted as LLVM's fpext ({@link #nativeHalfWidening}). */
  private boolean nativeHalfWidening;

  /**
   * Runs {@code body} with f16 → f32 conversions ({@link HalfFloats#toF32}) emitted as LLVM's
   * {@code fpext}, exact as the integer form, for a target whose instruction for it is known (the
   * GPU's tensor-core kernel, where the integer form cost about 15 instructions per element); NaN
   * payloads may then differ, so only code whose NaNs stay unobserved bits may ask for it.
   */
  public void nativeHalfWidening(Runnable body) {
    boolean was = nativeHalfWidening;
    nativeHalfWidening = true;
    try {
      body.run();
    } finally {
      nativeHalfWidening = was;
    }
  }

  /** Whether f16 → f32 widenings keep signalling NaNs signalling ({@link #keepingHalfNaNs}). */
  private boolean keepHalfNaNs;

  /**
   * Evaluates {@code body} with f16 → f32 widenings keeping a signalling NaN's quiet bit clear, as
   * the integer form does, where the target's instruction would set it: for code that observes
   * f16 bits through the widened value (sort moves them, the total-order comparisons order them).
   */
  public <T> T keepingHalfNaNs(java.util.function.Supplier<T> body) {
    boolean was = keepHalfNaNs;
    keepHalfNaNs = true;
    try {
      return body.get();
    } finally {
      keepHalfNaNs = was;
    }
  }

  /** Whether {@link #keepingHalfNaNs} is in effect. */
  public boolean keepsHalfNaNs() {
    return keepHalfNaNs;
  }

  /** Whether {@link #nativeHalfWidening} is in effect. */
  public boolean nativeHalfWidening() {
    return nativeHalfWidening;
  }

  /** The target machine, or null where the module's target is unknown (kernels then use baseline code). */
  public TargetSpec target() {
    return target;
  }

  /** The numerics policy emitters ask (denormals, contraction, reciprocal division). */
  public Numerics numerics() {
    return numerics;
  }

  @Override
  public void close() {
    LLVMDisposeBuilder(b);
  }

  // ---- functions and blocks

  public LLVMTypeRef fnType(LLVMTypeRef ret, LLVMTypeRef... params) {
    return LLVMFunctionType(ret, array(params), params.length, 0);
  }

  /** Starts emitting into a new block named "entry" of {@code fn}. */
  public void beginFunction(LLVMValueRef fn) {
    function = fn;
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  }

  public LLVMValueRef function() {
    return function;
  }

  public LLVMBasicBlockRef block(String name) {
    return LLVMAppendBasicBlockInContext(ctx, function, name);
  }

  public LLVMBasicBlockRef currentBlock() {
    return LLVMGetInsertBlock(b);
  }

  public void at(LLVMBasicBlockRef block) {
    LLVMPositionBuilderAtEnd(b, block);
  }

  public void br(LLVMBasicBlockRef to) {
    LLVMBuildBr(b, to);
  }

  public void condBr(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise) {
    LLVMBuildCondBr(b, cond, then, otherwise);
  }

  /**
   * A loop's latch branch that tells LLVM not to unroll the loop ({@code llvm.loop.unroll.disable}):
   * for a loop whose trip count LLVM bounds by a small constant, which its full unrolling would
   * otherwise turn into a scalar copy before the loop vectoriser could take it.
   */
  public void condBrNoUnroll(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise) {
    condBrLoop(cond, then, otherwise, flag("llvm.loop.unroll.disable"));
  }

  /**
   * A loop's latch branch that asks LLVM to unroll the loop fully ({@code llvm.loop.unroll.full}):
   * a short loop of constant trip count whose copies the SLP vectoriser should take. The CPU
   * backend's pipeline unrolls no loop that does not ask for it ({@code TargetMachine.optimize}).
   */
  public void condBrUnrollFull(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise) {
    condBrLoop(cond, then, otherwise, flag("llvm.loop.unroll.full"));
  }

  /**
   * A loop's latch branch asking that the vector loop the vectoriser makes of this one be unrolled
   * fully ({@code llvm.loop.vectorize.followup_vectorized} with {@code llvm.loop.unroll.full}):
   * for a loop over a fixed array of accumulator lanes inside a longer loop, whose vector loop
   * (two trips of four registers on AVX2) otherwise indexes the array by its counter, so the
   * accumulators stay in memory, a store and a load per vector and element chunk. Unrolled, SROA
   * makes them registers. A loop the vectoriser leaves alone, and the scalar loop it keeps where
   * it checks aliasing at run time, stay loops.
   */
  public void condBrVectorizeThenUnroll(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise) {
    String key = "llvm.loop.vectorize.followup_vectorized";
    PointerPointer<LLVMMetadataRef> followup = new PointerPointer<LLVMMetadataRef>(2)
        .put(0, LLVMMDStringInContext2(ctx, key, key.length())).put(1, flag("llvm.loop.unroll.full"));
    condBrLoop(cond, then, otherwise, LLVMMDNodeInContext2(ctx, followup, 2));
  }

  /**
   * A loop's latch branch that tells LLVM to keep the loop scalar: neither vectorised
   * ({@code llvm.loop.vectorize.enable} false, which also rules out interleaving) nor unrolled.
   * For a loop that walks memory with a stride on both sides, which the vectoriser would turn
   * into gathers and scatters, and unrolled bodies into thousands of instructions.
   */
  public void condBrScalar(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise) {
    LLVMMetadataRef no = LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(ctx), 0, 0));
    PointerPointer<LLVMMetadataRef> vec = new PointerPointer<LLVMMetadataRef>(2)
        .put(0, LLVMMDStringInContext2(ctx, "llvm.loop.vectorize.enable", 26)).put(1, no);
    condBrLoop(cond, then, otherwise, LLVMMDNodeInContext2(ctx, vec, 2), flag("llvm.loop.unroll.disable"));
  }

  /** A metadata node holding one string: a loop property without a value. */
  private LLVMMetadataRef flag(String name) {
    // (new PointerPointer<>(one pointer) would wrap that pointer, not hold it: put it in a slot.)
    PointerPointer<LLVMMetadataRef> s = new PointerPointer<LLVMMetadataRef>(1).put(0,
        LLVMMDStringInContext2(ctx, name, name.length()));
    return LLVMMDNodeInContext2(ctx, s, 1);
  }

  /** A latch branch carrying an {@code llvm.loop} ID with the given properties. */
  private void condBrLoop(LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef otherwise,
      LLVMMetadataRef... properties) {
    LLVMValueRef br = LLVMBuildCondBr(b, cond, then, otherwise);
    LLVMMetadataRef self = LLVMTemporaryMDNode(ctx, (PointerPointer<?>) null, 0);
    PointerPointer<LLVMMetadataRef> ops = new PointerPointer<LLVMMetadataRef>(properties.length + 1).put(0, self);
    for (int i = 0; i < properties.length; i++) ops.put(i + 1, properties[i]);
    LLVMMetadataRef id = LLVMMDNodeInContext2(ctx, ops, properties.length + 1);
    // Attached first, so the attachment follows the node when the self-reference re-uniques it.
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9), LLVMMetadataAsValue(ctx, id));
    LLVMMetadataReplaceAllUsesWith(self, id);  // a loop ID names itself, as LLVM requires
  }

  public void ret(LLVMValueRef v) {
    LLVMBuildRet(b, v);
  }

  public LLVMValueRef phi(LLVMTypeRef t) {
    return LLVMBuildPhi(b, t, "");
  }

  public void incoming(LLVMValueRef phi, LLVMValueRef v, LLVMBasicBlockRef from) {
    LLVMAddIncoming(phi, array(v), array(from), 1);
  }

  /**
   * A static stack slot of type {@code t}: an alloca at the top of the current function's entry
   * block, whatever the builder's position, so it is allocated once per call (not per loop
   * iteration) and LLVM can promote it. {@code align}: bytes, or 0 for the type's own.
   */
  public LLVMValueRef entryAlloca(LLVMTypeRef t, int align) {
    return atEntry(at -> {
      LLVMValueRef slot = LLVMBuildAlloca(at, t, "");
      if (align > 0) LLVMSetAlignment(slot, align);
      return slot;
    });
  }

  /**
   * What {@code emit} builds with a builder at the top of the current function's entry block,
   * whatever this builder's position: values that dominate the whole function.
   */
  public <T> T atEntry(java.util.function.Function<LLVMBuilderRef, T> emit) {
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(function());
    LLVMBuilderRef at = LLVMCreateBuilderInContext(ctx);
    try {
      LLVMValueRef first = LLVMGetFirstInstruction(entry);
      if (first == null || first.isNull()) LLVMPositionBuilderAtEnd(at, entry);
      else LLVMPositionBuilderBefore(at, first);
      return emit.apply(at);
    } finally {
      LLVMDisposeBuilder(at);
    }
  }

  /**
   * The module's internal, always-inlined helper function {@code name}, emitted by {@code body}
   * (which receives the function, positioned at its entry) the first time it is asked for.
   */
  public LLVMValueRef helper(String name, LLVMTypeRef fnType, Consumer<LLVMValueRef> body) {
    return internal(name, fnType, "alwaysinline", body);
  }

  /**
   * Like {@link #helper}, but never inlined and free of library-call idioms ({@code memcpy} …):
   * for larger routines called once per row or tile (a sort), not per element.
   */
  public LLVMValueRef outlined(String name, LLVMTypeRef fnType, Consumer<LLVMValueRef> body) {
    LLVMValueRef fn = internal(name, fnType, "noinline", body);
    addFunctionAttribute(fn, "no-builtins", "");
    return fn;
  }

  private LLVMValueRef internal(String name, LLVMTypeRef fnType, String inlining, Consumer<LLVMValueRef> body) {
    LLVMValueRef fn = LLVMGetNamedFunction(module, name);
    if (fn != null && !fn.isNull()) return fn;
    fn = LLVMAddFunction(module, name, fnType);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    addFunctionAttribute(fn, inlining);
    addFunctionAttribute(fn, "nounwind");
    LLVMBasicBlockRef savedBlock = currentBlock();
    LLVMValueRef savedFunction = function;
    beginFunction(fn);
    body.accept(fn);
    function = savedFunction;
    if (savedBlock != null && !savedBlock.isNull()) at(savedBlock);
    return fn;
  }

  public void addFunctionAttribute(LLVMValueRef fn, String name) {
    int kind = LLVMGetEnumAttributeKindForName(name, name.length());
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
  }

  public void addFunctionAttribute(LLVMValueRef fn, String key, String value) {
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(ctx, key, key.length(), value, value.length()));
  }

  /**
   * {@code for (i = begin; i < end; i += step) body(i)}, nothing when begin ≥ end: a plain counted
   * loop (no metadata; the CPU kernels' loops with vectoriser hints are LoopEmitter's and
   * GemmPacking's).
   */
  public void loop(LLVMValueRef begin, LLVMValueRef end, long step, java.util.function.Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef pre = currentBlock();
    LLVMBasicBlockRef head = block("loop");
    LLVMBasicBlockRef exit = block("loop.end");
    condBr(icmp(LLVMIntULT, begin, end), head, exit);
    at(head);
    LLVMValueRef i = phi(i64);
    incoming(i, begin, pre);
    body.accept(i);
    LLVMValueRef next = add(i, i64(step));
    incoming(i, next, currentBlock());
    condBr(icmp(LLVMIntULT, next, end), head, exit);
    at(exit);
  }

  public LLVMValueRef call(LLVMTypeRef fnType, LLVMValueRef fn, LLVMValueRef... args) {
    return LLVMBuildCall2(b, fnType, fn, array(args), args.length, "");
  }

  /** Calls the intrinsic {@code name} overloaded on {@code overloads}. */
  public LLVMValueRef intrinsic(String name, LLVMTypeRef[] overloads, LLVMValueRef... args) {
    int id = LLVMLookupIntrinsicID(name, name.length());
    if (id == 0) throw new IllegalArgumentException("no intrinsic " + name);
    PointerPointer<LLVMTypeRef> tys = array(overloads);
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(module, id, tys, overloads.length);
    LLVMTypeRef type = LLVMIntrinsicGetType(ctx, id, tys, overloads.length);
    return call(type, decl, args);
  }

  /** An intrinsic overloaded on the type of its first argument ({@code llvm.fabs}, ...). */
  public LLVMValueRef intrinsic(String name, LLVMValueRef... args) {
    return intrinsic(name, new LLVMTypeRef[] {typeOf(args[0])}, args);
  }

  // ---- types and constants

  public LLVMTypeRef typeOf(LLVMValueRef v) {
    return LLVMTypeOf(v);
  }

  public LLVMTypeRef intType(int bits) {
    return LLVMIntTypeInContext(ctx, bits);
  }

  public static int intWidth(LLVMTypeRef t) {
    return LLVMGetIntTypeWidth(t);
  }

  public LLVMValueRef constInt(LLVMTypeRef t, long v) {
    return LLVMConstInt(t, v, 0);
  }

  public LLVMValueRef i64(long v) {
    return constInt(i64, v);
  }

  public LLVMValueRef i32(long v) {
    return constInt(i32, v);
  }

  public LLVMValueRef constReal(LLVMTypeRef t, double v) {
    return LLVMConstReal(t, v);
  }

  public LLVMValueRef bool(boolean v) {
    return constInt(i1, v ? 1 : 0);
  }

  // ---- integer arithmetic

  public LLVMValueRef add(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildAdd(b, x, y, "");
  }

  public LLVMValueRef sub(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSub(b, x, y, "");
  }

  public LLVMValueRef mul(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildMul(b, x, y, "");
  }

  public LLVMValueRef sdiv(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSDiv(b, x, y, "");
  }

  public LLVMValueRef udiv(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildUDiv(b, x, y, "");
  }

  public LLVMValueRef srem(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSRem(b, x, y, "");
  }

  public LLVMValueRef urem(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildURem(b, x, y, "");
  }

  public LLVMValueRef and(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildAnd(b, x, y, "");
  }

  public LLVMValueRef or(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildOr(b, x, y, "");
  }

  public LLVMValueRef xor(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildXor(b, x, y, "");
  }

  /** Whether pointer {@code p} is null (an i1). */
  public LLVMValueRef isNull(LLVMValueRef p) {
    return LLVMBuildIsNull(b, p, "");
  }

  public LLVMValueRef not(LLVMValueRef x) {
    return LLVMBuildNot(b, x, "");
  }

  public LLVMValueRef shl(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildShl(b, x, y, "");
  }

  public LLVMValueRef lshr(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildLShr(b, x, y, "");
  }

  public LLVMValueRef ashr(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildAShr(b, x, y, "");
  }

  public LLVMValueRef icmp(int pred, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildICmp(b, pred, x, y, "");
  }

  public LLVMValueRef select(LLVMValueRef c, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(b, c, x, y, "");
  }

  public LLVMValueRef trunc(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildTrunc(b, x, t, "");
  }

  public LLVMValueRef zext(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildZExt(b, x, t, "");
  }

  public LLVMValueRef sext(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildSExt(b, x, t, "");
  }

  /** Truncates or extends (sign- or zero-) an integer to {@code t}. */
  public LLVMValueRef intCast(LLVMValueRef x, LLVMTypeRef t, boolean signed) {
    return LLVMBuildIntCast2(b, x, t, signed ? 1 : 0, "");
  }

  public LLVMValueRef bitcast(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildBitCast(b, x, t, "");
  }

  /**
   * {@code if (cond) then() else otherwise()} at the builder's position, in blocks named
   * {@code prefix.partial}, {@code prefix.whole} and {@code prefix.end}; the builder ends at the join.
   */
  public void ifElse(LLVMValueRef cond, String prefix, Runnable then, Runnable otherwise) {
    LLVMBasicBlockRef yes = block(prefix + ".partial");
    LLVMBasicBlockRef no = block(prefix + ".whole");
    LLVMBasicBlockRef join = block(prefix + ".end");
    condBr(cond, yes, no);
    at(yes);
    then.run();
    br(join);
    at(no);
    otherwise.run();
    br(join);
    at(join);
  }

  // ---- floating point; fmul/fadd/fsub may be contracted into FMAs, as XLA:CPU does

  public LLVMValueRef fadd(LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef v = LLVMBuildFAdd(b, x, y, "");
    return fusesNoProduct(x) || fusesNoProduct(y) ? v : contract(v);
  }

  public LLVMValueRef fsub(LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef v = LLVMBuildFSub(b, x, y, "");
    return fusesNoProduct(x) || fusesNoProduct(y) ? v : contract(v);
  }

  public LLVMValueRef fmul(LLVMValueRef x, LLVMValueRef y) {
    return contract(LLVMBuildFMul(b, x, y, ""));
  }

  public LLVMValueRef fdiv(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildFDiv(b, x, y, "");
  }

  /** An exactly rounded add that must not be fused with a neighbouring multiply. */
  public LLVMValueRef faddExact(LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildFAdd(b, x, y, "");
  }

  public LLVMValueRef fneg(LLVMValueRef x) {
    return LLVMBuildFNeg(b, x, "");
  }

  public LLVMValueRef fcmp(int pred, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildFCmp(b, pred, x, y, "");
  }

  public LLVMValueRef fabs(LLVMValueRef x) {
    return intrinsic("llvm.fabs", x);
  }

  public LLVMValueRef copysign(LLVMValueRef magnitude, LLVMValueRef sign) {
    return intrinsic("llvm.copysign", magnitude, sign);
  }

  public LLVMValueRef sitofp(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildSIToFP(b, x, t, "");
  }

  public LLVMValueRef uitofp(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildUIToFP(b, x, t, "");
  }

  public LLVMValueRef fpext(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildFPExt(b, x, t, "");
  }

  public LLVMValueRef fptrunc(LLVMValueRef x, LLVMTypeRef t) {
    return LLVMBuildFPTrunc(b, x, t, "");
  }

  /**
   * Whether x is a multiply that must stay rounded on its own (built without the contract flag,
   * e.g. by Ftz in hardware mode): an add of it then gets no contract flag either. x86's DAG
   * combiner asks both instructions for the flag, but AArch64's machine combiner asks only the
   * add, and fused an uncontracted product into fmadd (misc_fma_not_contracted under qemu).
   */
  private static boolean fusesNoProduct(LLVMValueRef x) {
    LLVMValueRef i = LLVMIsAInstruction(x);
    if (i == null || i.isNull() || LLVMGetInstructionOpcode(i) != LLVMFMul) return false;
    return (LLVMGetFastMathFlags(i) & LLVMFastMathAllowContract) == 0;
  }

  private LLVMValueRef contract(LLVMValueRef v) {
    if (numerics.contractMultiplyAdd() && LLVMCanValueUseFastMathFlags(v) != 0) LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
    return v;
  }

  // ---- memory

  public LLVMValueRef gep(LLVMTypeRef elem, LLVMValueRef base, LLVMValueRef index) {
    return LLVMBuildInBoundsGEP2(b, elem, base, array(index), 1, "");
  }

  public LLVMValueRef load(LLVMTypeRef t, LLVMValueRef p, int align) {
    LLVMValueRef v = LLVMBuildLoad2(b, t, p, "");
    LLVMSetAlignment(v, align);
    return v;
  }

  public void store(LLVMValueRef v, LLVMValueRef p, int align) {
    LLVMSetAlignment(LLVMBuildStore(b, v, p), align);
  }

  /** A cache line: the stride of {@link #prefetch}. */
  public static final int CACHE_LINE = 64;

  /**
   * Prefetches into all cache levels, for reading or {@code write}, the lines of bytes [p, p +
   * bytes), one per {@link #CACHE_LINE}. The addresses need not be valid (a prefetch never faults),
   * so they are computed without {@code inbounds}.
   */
  public void prefetch(LLVMValueRef p, long bytes, boolean write) {
    for (long off = 0; off < bytes; off += CACHE_LINE) {
      LLVMValueRef at = off == 0 ? p : LLVMBuildGEP2(b, i8, p, array(i64(off)), 1, "");
      intrinsic("llvm.prefetch", new LLVMTypeRef[] {ptr}, at, i32(write ? 1 : 0), i32(3), i32(1));
    }
  }

  // ---- helpers

  @SafeVarargs
  static <T extends org.bytedeco.javacpp.Pointer> PointerPointer<T> array(T... xs) {
    PointerPointer<T> pp = new PointerPointer<>(xs.length);
    for (int i = 0; i < xs.length; i++) pp.put(i, xs[i]);
    return pp;
  }
}
