package dev.jaxc.backend.llvm.math;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.llvm.Llvm;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMAttributeRef;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * jaxc's math functions for one LLVM module. {@link #call} emits, on first use of a function
 * and type, an internal {@code alwaysinline} function {@code jaxc.<fn>.<type>} (type {@code f32},
 * {@code f64}, or {@code v<N>f32} / {@code v<N>f64} for vectors) whose body is straight-line IR,
 * then calls it. After inlining, loops over elements stay vectorisable, and no function ever calls
 * libm: the same numbers on every target. Semantics follow XLA:CPU, which runs with denormals
 * flushed to zero: see each function's class for its algorithm and denormal convention.
 */
public final class MathLibrary {
  private final LLVMModuleRef module;
  private final LLVMContextRef ctx;
  private final boolean flushDenormals;
  private final boolean arithmeticFlushed;
  private final boolean keepsDenormals;
  private final boolean nativeRounding;
  private final boolean splitRarePaths;
  /** Vector forms kept for the loop vectoriser ({@code llvm.compiler.used}). */
  private final java.util.List<LLVMValueRef> kept = new java.util.ArrayList<>();

  /**
   * {@code flushDenormals}: the code will run with the FTZ and DAZ bits set (MXCSR on x86, FPCR.FZ
   * on AArch64), as XLA runs it. The functions then carry
   * {@code "denormal-fp-math"="preserve-sign,preserve-sign"}, without which LLVM may rewrite a
   * bit test for zero into a float compare that DAZ answers differently; the kernels that call
   * them must carry the same attribute. The results are the same either way.
   */
  public MathLibrary(LLVMModuleRef module, boolean flushDenormals) {
    this(module, flushDenormals, false);
  }

  /**
   * {@code arithmeticFlushed}: the code runs with FTZ set (the entry point and every worker set
   * it), so a result that a float arithmetic instruction produced is already flushed, and a
   * function whose result is such an instruction's (exp's final scaling multiply, logistic's
   * subtraction) skips its software flush ({@link MathEmitter#ftzArithmetic}): three vector
   * instructions fewer per call.
   */
  public MathLibrary(LLVMModuleRef module, boolean flushDenormals, boolean arithmeticFlushed) {
    this(module, flushDenormals, arithmeticFlushed, false);
  }

  /**
   * {@code keepsDenormals}: the code follows XLA:GPU, which keeps denormals (no FTZ/DAZ), so a
   * function whose XLA:CPU form reads a denormal input as zero takes it as it is where XLA:GPU's
   * differs visibly (log(1e-40) = -92.1, not -inf): see {@link MathEmitter#keepsDenormals}.
   */
  public MathLibrary(LLVMModuleRef module, boolean flushDenormals, boolean arithmeticFlushed, boolean keepsDenormals) {
    this(module, flushDenormals, arithmeticFlushed, keepsDenormals, false);
  }

  /**
   * {@code nativeRounding}: the target rounds to an integral float in one instruction (x86-64 with
   * SSE4.1, AArch64, NVPTX), so {@code llvm.floor} and {@code llvm.roundeven} are used where the
   * functions round: exact like the shifter sequences, which remain for baseline x86-64 (there
   * the intrinsics would become libm calls).
   */
  public MathLibrary(LLVMModuleRef module, boolean flushDenormals, boolean arithmeticFlushed, boolean keepsDenormals,
      boolean nativeRounding) {
    this(module, flushDenormals, arithmeticFlushed, keepsDenormals, nativeRounding, false);
  }

  /**
   * {@code splitRarePaths}: sin, cos and tan (and lgamma, digamma) called on scalars call an
   * out-of-line function that LLVM's loop vectoriser replaces by vector forms ({@code
   * vector-function-abi-variant}), each branching once per vector between the common range
   * alone, where every lane is in it (the Cody–Waite reduction below 2^19; x > 0, no
   * reflection), and the whole branch-free function. Straight-line code computes Payne–Hanek for
   * every element, which was 60% of an f32 sin's time. For CPUs: a GPU would diverge per warp.
   */
  public MathLibrary(LLVMModuleRef module, boolean flushDenormals, boolean arithmeticFlushed, boolean keepsDenormals,
      boolean nativeRounding, boolean splitRarePaths) {
    this.splitRarePaths = splitRarePaths;
    this.module = module;
    this.ctx = LLVMGetModuleContext(module);
    this.flushDenormals = flushDenormals;
    this.arithmeticFlushed = arithmeticFlushed;
    this.keepsDenormals = keepsDenormals;
    this.nativeRounding = nativeRounding;
  }

  /** Whether rounding to an integral float is one instruction on the target. */
  boolean nativeRounding() {
    return nativeRounding;
  }

  boolean arithmeticFlushed() {
    return arithmeticFlushed;
  }

  /** Whether the functions give XLA:GPU's results for denormal inputs rather than XLA:CPU's (DAZ). */
  boolean keepsDenormals() {
    return keepsDenormals;
  }

  LLVMModuleRef module() {
    return module;
  }

  LLVMContextRef context() {
    return ctx;
  }

  /**
   * {@code fn(args)} at the builder's position. The arguments share one type: float, double,
   * or a vector of either; the result has that type.
   */
  public LLVMValueRef call(LLVMBuilderRef b, MathFn fn, LLVMValueRef... args) {
    if (args.length != fn.arity()) throw new IllegalArgumentException(fn + " takes " + fn.arity() + " argument(s)");
    LLVMTypeRef type = LLVMTypeOf(args[0]);
    for (LLVMValueRef a : args) {
      if (!LLVMTypeOf(a).equals(type)) throw new IllegalArgumentException(fn + ": arguments of different types");
    }
    boolean split = splitRarePaths && rarePath(fn) && LLVMGetTypeKind(type) != LLVMVectorTypeKind;
    LLVMValueRef f = split ? split(fn, type) : function(fn, type);
    PointerPointer<LLVMValueRef> as = new PointerPointer<>(args.length);
    for (int i = 0; i < args.length; i++) as.put(i, args[i]);
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, as, args.length, "");
    if (split) {
      StringBuilder variants = new StringBuilder();
      boolean f64 = LLVMGetTypeKind(type) == LLVMDoubleTypeKind;
      for (int lanes = 2; lanes <= (f64 ? 8 : 16); lanes *= 2) {
        LLVMValueRef v = split(fn, LLVMVectorType(type, lanes));
        if (variants.length() > 0) variants.append(',');
        variants.append("_ZGV_LLVM_N").append(lanes).append("v".repeat(fn.arity())).append('_')
            .append(LLVMGetValueName(f).getString()).append('(').append(LLVMGetValueName(v).getString()).append(')');
      }
      String k = "vector-function-abi-variant";
      String v = variants.toString();
      LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, k, k.length(), v, v.length()));
    }
    return call;
  }

  /**
   * The functions with a slow path for rare arguments: sin, cos and tan (Payne–Hanek reduction
   * beyond 2^19), lgamma and digamma (the reflection, sin(πx) and a logarithm or division, for
   * x <= 0).
   */
  private static boolean rarePath(MathFn fn) {
    return fn == MathFn.SIN || fn == MathFn.COS || fn == MathFn.TAN || fn == MathFn.LGAMMA || fn == MathFn.DIGAMMA;
  }

  /** Where {@code x} is in {@code fn}'s common range ({@link MathEmitter#commonRange}); false for NaN. */
  private static LLVMValueRef common(MathEmitter e, MathFn fn, LLVMValueRef x) {
    return switch (fn) {
      case LGAMMA, DIGAMMA -> e.gt(x, e.c(0));
      default -> e.lt(e.abs(x), e.c(TrigReduction.COMMON_LIMIT));
    };
  }

  /**
   * {@code jaxc.<fn>.split.<type>}: one branch (a uniform one for vectors) between the function
   * for the common range and the whole function; out of line, without memory effects, so the
   * loop vectoriser maps a scalar call to its vector form of the loop's width.
   */
  private LLVMValueRef split(MathFn fn, LLVMTypeRef type) {
    int lanes = LLVMGetTypeKind(type) == LLVMVectorTypeKind ? LLVMGetVectorSize(type) : 0;
    LLVMTypeRef elem = lanes == 0 ? type : LLVMGetElementType(type);
    boolean f64 = LLVMGetTypeKind(elem) == LLVMDoubleTypeKind;
    String name = "jaxc." + fn.id() + ".split." + (lanes == 0 ? "" : "v" + lanes) + (f64 ? "f64" : "f32");
    LLVMValueRef f = LLVMGetNamedFunction(module, name);
    if (f != null && !f.isNull()) return f;
    f = newFunction(name, fn, type);
    addAttribute(f, "noinline");
    addAttribute(f, "willreturn");
    addAttribute(f, "memory");  // none: its only loads are of constant tables
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    try {
      LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
      LLVMValueRef x = LLVMGetParam(f, 0);
      MathEmitter common = new MathEmitter(this, b, f64, lanes, true);
      LLVMValueRef in = common(common, fn, x);
      if (lanes > 0) {
        LLVMTypeRef boolVec = LLVMTypeOf(in);
        LLVMValueRef reduce = LLVMGetNamedFunction(module, "llvm.vector.reduce.and.v" + lanes + "i1");
        if (reduce == null || reduce.isNull()) {
          PointerPointer<LLVMTypeRef> one = new PointerPointer<>(1);
          one.put(0, boolVec);
          reduce = LLVMAddFunction(module, "llvm.vector.reduce.and.v" + lanes + "i1",
              LLVMFunctionType(LLVMInt1TypeInContext(ctx), one, 1, 0));
        }
        PointerPointer<LLVMValueRef> arg = new PointerPointer<>(1);
        arg.put(0, in);
        in = LLVMBuildCall2(b, LLVMGlobalGetValueType(reduce), reduce, arg, 1, "");
      }
      LLVMBasicBlockRef usual = LLVMAppendBasicBlockInContext(ctx, f, "common");
      LLVMBasicBlockRef rare = LLVMAppendBasicBlockInContext(ctx, f, "rare");
      LLVMBuildCondBr(b, in, usual, rare);
      LLVMPositionBuilderAtEnd(b, usual);
      LLVMBuildRet(b, emit(common, fn, x, null));
      LLVMPositionBuilderAtEnd(b, rare);
      LLVMBuildRet(b, emit(new MathEmitter(this, b, f64, lanes), fn, x, null));
    } finally {
      LLVMDisposeBuilder(b);
    }
    if (lanes > 0) keep(f);
    return f;
  }

  /** Adds {@code f} to {@code llvm.compiler.used}, so no pass deletes it before the vectoriser asks for it. */
  private void keep(LLVMValueRef f) {
    kept.add(f);
    LLVMValueRef old = LLVMGetNamedGlobal(module, "llvm.compiler.used");
    if (old != null && !old.isNull()) LLVMDeleteGlobal(old);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
    PointerPointer<LLVMValueRef> elems = new PointerPointer<>(kept.size());
    for (int i = 0; i < kept.size(); i++) elems.put(i, kept.get(i));
    LLVMValueRef g = LLVMAddGlobal(module, LLVMArrayType(ptr, kept.size()), "llvm.compiler.used");
    LLVMSetInitializer(g, LLVMConstArray(ptr, elems, kept.size()));
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetSection(g, "llvm.metadata");
  }

  /** The function {@code jaxc.<fn>.<type>}, emitted into the module when first asked for. */
  public LLVMValueRef function(MathFn fn, LLVMTypeRef type) {
    int lanes = 0;
    LLVMTypeRef elem = type;
    if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
      lanes = LLVMGetVectorSize(type);
      elem = LLVMGetElementType(type);
    }
    int kind = LLVMGetTypeKind(elem);
    if (kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind) {
      throw new IllegalArgumentException(fn + " is defined on float and double (vectors), not " + typeName(type));
    }
    boolean f64 = kind == LLVMDoubleTypeKind;
    String name = "jaxc." + fn.id() + "." + (lanes == 0 ? "" : "v" + lanes) + (f64 ? "f64" : "f32");
    LLVMValueRef f = LLVMGetNamedFunction(module, name);
    if (f != null && !f.isNull()) return f;
    f = newFunction(name, fn, type);
    addAttribute(f, "alwaysinline");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    try {
      LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
      MathEmitter e = new MathEmitter(this, b, f64, lanes);
      LLVMValueRef x = LLVMGetParam(f, 0);
      LLVMValueRef y = fn.arity() == 2 ? LLVMGetParam(f, 1) : null;
      LLVMBuildRet(b, emit(e, fn, x, y));
    } finally {
      LLVMDisposeBuilder(b);
    }
    return f;
  }

  private static LLVMValueRef emit(MathEmitter e, MathFn fn, LLVMValueRef x, LLVMValueRef y) {
    return switch (fn) {
      case EXP -> Exp.emit(e, x);
      case EXP2 -> Exp2.emit(e, x);
      case EXPM1 -> Expm1.emit(e, x);
      case LOG -> Log.emit(e, x);
      case LOG1P -> Log1p.emit(e, x);
      case SIN -> Sin.emit(e, x);
      case COS -> Cos.emit(e, x);
      case TAN -> Tan.emit(e, x);
      case ASIN -> Asin.emit(e, x);
      case ACOS -> Acos.emit(e, x);
      case ATAN -> Atan.emit(e, x);
      case ATAN2 -> Atan2.emit(e, x, y);
      case SINH -> Sinh.emit(e, x);
      case COSH -> Cosh.emit(e, x);
      case TANH -> Tanh.emit(e, x);
      case ASINH -> Asinh.emit(e, x);
      case ACOSH -> Acosh.emit(e, x);
      case ATANH -> Atanh.emit(e, x);
      case LOGISTIC -> Logistic.emit(e, x);
      case ERF -> Erf.emit(e, x);
      case ERFC -> Erfc.emit(e, x);
      case ERF_INV -> ErfInv.emit(e, x);
      case LGAMMA -> Lgamma.emit(e, x);
      case DIGAMMA -> Digamma.emit(e, x);
      case POW -> Pow.emit(e, x, y);
      case CBRT -> Cbrt.emit(e, x);
      case RSQRT -> Rsqrt.emit(e, x);
    };
  }

  /** A private constant {@code [n x i32]} global, emitted once per module under its name. */
  LLVMValueRef i32Table(String name, int[] values) {
    LLVMValueRef g = LLVMGetNamedGlobal(module, name);
    if (g != null && !g.isNull()) return g;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    PointerPointer<LLVMValueRef> elems = new PointerPointer<>(values.length);
    for (int i = 0; i < values.length; i++) elems.put(i, LLVMConstInt(i32, values[i] & 0xFFFFFFFFL, 0));
    g = LLVMAddGlobal(module, LLVMArrayType(i32, values.length), name);
    LLVMSetInitializer(g, LLVMConstArray(i32, elems, values.length));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 16);
    return g;
  }

  /** An internal {@code nounwind} function {@code name} of {@code fn}'s arity over {@code type}, without a body yet. */
  private LLVMValueRef newFunction(String name, MathFn fn, LLVMTypeRef type) {
    PointerPointer<LLVMTypeRef> params = new PointerPointer<>(fn.arity());
    for (int i = 0; i < fn.arity(); i++) params.put(i, type);
    LLVMValueRef f = LLVMAddFunction(module, name, LLVMFunctionType(type, params, fn.arity(), 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    addAttribute(f, "nounwind");
    denormalAttributes(f);
    return f;
  }

  private void denormalAttributes(LLVMValueRef f) {
    if (!flushDenormals) return;
    String v = "preserve-sign,preserve-sign";
    for (String k : new String[] {"denormal-fp-math", "denormal-fp-math-f32"}) {
      LLVMAttributeRef a = LLVMCreateStringAttribute(ctx, k, k.length(), v, v.length());
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a);
    }
  }

  private void addAttribute(LLVMValueRef f, String attr) {
    int kind = LLVMGetEnumAttributeKindForName(attr, attr.length());
    LLVMAttributeRef a = LLVMCreateEnumAttribute(ctx, kind, 0);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a);
  }

  private static String typeName(LLVMTypeRef t) {
    return Llvm.take(LLVMPrintTypeToString(t));
  }
}
