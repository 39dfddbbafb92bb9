package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Emits a top-level schedule as one internal, never-inlined function per step, called in order
 * from the entry point, so that no function grows with the model (LLVM's optimiser and code
 * generator are far worse than linear in a function's size) and identical steps share code.
 *
 * <p>A step function is {@code void NAME.step.K(ptr b0, ptr b1, ..., v0, v1, ...)}: first the
 * address of every buffer the step touches, in the order the step first asks for them, then any
 * other value of the entry point the step's code uses. Parameters carry no {@code noalias}: parallel
 * regions hand them to threads through memory, and accesses through a loaded pointer are not
 * "based on" the argument, so they would be undefined behaviour (split GEMMs gave other bits).
 * The body is first emitted into a scratch function with a placeholder per buffer, then moved
 * into a function of the right signature.
 *
 * <p>Two steps whose functions have the same structure ({@link StepFingerprint}: the same
 * instructions, apart from names) are one function called twice: the layers of a model repeat, and their steps differ only in the buffers they are given.
 * The parallel bodies a step outlines are made canonical the same way first, so steps that call
 * them compare equal.
 */
public final class StepFunctions {
  private static final String SCRATCH = "jaxc.step.scratch";
  private static final String CANDIDATE = "jaxc.step.candidate";

  private final Ir ir;
  private final Plan plan;
  private final ParallelRegions parallel;
  private final String prefix;
  private final ScheduleEmitter emitter;
  /**
   * The functions kept, by structure ({@link StepFingerprint}). Printing a function costs time
   * linear in the whole module, so text is compared only where the structure walk cannot decide.
   */
  private final Map<StepFingerprint, List<Kept>> kept = new HashMap<>();

  private static final class Kept {
    final LLVMValueRef fn;
    String text;

    Kept(LLVMValueRef fn, String text) {
      this.fn = fn;
      this.text = text;
    }
  }
  /** The step being emitted: each buffer's placeholder in the scratch function. */
  private Map<Buffer, LLVMValueRef> placeholders;
  /** The scratch function of the step being emitted (a parallel body asks while it is emitted). */
  private LLVMValueRef scratchFn;
  private int named;

  /** {@code name}: the entry point's; step functions are named {@code name.step.K}. */
  public StepFunctions(Ir ir, Plan plan, ParallelRegions parallel, String name) {
    this(ir, plan, parallel, name, null);
  }

  /** As above, with a backend's {@code override} of some steps' emission (null: none). */
  public StepFunctions(Ir ir, Plan plan, ParallelRegions parallel, String name, ScheduleEmitter.StepOverride override) {
    this.ir = ir;
    this.plan = plan;
    this.parallel = parallel;
    this.prefix = name + ".step.";
    this.emitter = new ScheduleEmitter(ir, plan, parallel, b -> placeholder(b), override);
  }

  /** Emits a call per step at the builder's position; {@code bases}: each buffer's address there. */
  public void emitAll(Function<Buffer, LLVMValueRef> bases) {
    for (Step s : plan.steps()) emit(s, bases);
  }

  /**
   * Emits one step's function (or finds the identical one emitted before) and a call to it at the
   * builder's position; {@code bases}: each buffer's address there. The PTX backend calls this once
   * per kernel.
   */
  public void emit(Step s, Function<Buffer, LLVMValueRef> bases) {
    LLVMValueRef caller = ir.function();
    LLVMValueRef last = LLVMGetLastFunction(ir.module);
    placeholders = new LinkedHashMap<>();
    LLVMValueRef scratch = ir.outlined(SCRATCH, ir.fnType(ir.voidType), f -> {
      scratchFn = f;
      emitter.emit(s);
      LLVMBuildRetVoid(ir.b);
    });
    Map<Buffer, LLVMValueRef> used = placeholders;
    placeholders = null;
    scratchFn = null;

    List<LLVMValueRef> foreign = foreignValues(scratch, caller);
    List<LLVMTypeRef> types = new ArrayList<>();
    for (int k = 0; k < used.size(); k++) types.add(ir.ptr);
    for (LLVMValueRef v : foreign) types.add(LLVMTypeOf(v));
    LLVMValueRef fn = LLVMAddFunction(ir.module, CANDIDATE, ir.fnType(ir.voidType, types.toArray(LLVMTypeRef[]::new)));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    ir.addFunctionAttribute(fn, "noinline");
    ir.addFunctionAttribute(fn, "nounwind");
    // noalias buffers would let LLVM turn copy loops into memcpy calls: the generated code calls
    // only what abi/Libc lists.
    ir.addFunctionAttribute(fn, "no-builtins", "");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(scratch); bb != null && !bb.isNull();
        bb = LLVMGetFirstBasicBlock(scratch)) {
      LLVMRemoveBasicBlockFromParent(bb);
      LLVMAppendExistingBasicBlock(fn, bb);
    }
    List<LLVMValueRef> args = new ArrayList<>();
    int k = 0;
    for (Map.Entry<Buffer, LLVMValueRef> e : used.entrySet()) {
      LLVMValueRef param = LLVMGetParam(fn, k);
      LLVMReplaceAllUsesWith(e.getValue(), param);
      LLVMInstructionEraseFromParent(e.getValue());
      args.add(bases.apply(e.getKey()));
      k++;
    }
    replaceForeign(fn, foreign, used.size());
    args.addAll(foreign);
    LLVMDeleteFunction(scratch);

    // Bodies outlined while emitting the step were appended after `last`, before the candidate.
    List<LLVMValueRef> outlined = new ArrayList<>();
    for (LLVMValueRef f = LLVMGetNextFunction(last); f != null && !f.isNull() && f.address() != fn.address();
        f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f) == 0) outlined.add(f);
    }
    for (int i = outlined.size() - 1; i >= 0; i--) canonical(outlined.get(i), null);
    LLVMValueRef callee = canonical(fn, prefix + named);
    if (callee == fn) named++;
    ir.call(LLVMGlobalGetValueType(callee), callee, args.toArray(LLVMValueRef[]::new));
  }

  /** The scratch function's placeholder for {@code b}'s address, made on first use at its top. */
  private LLVMValueRef placeholder(Buffer b) {
    if (placeholders == null) throw new IllegalStateException("a buffer address asked for outside a step");
    return placeholders.computeIfAbsent(b, x -> {
      LLVMBuilderRef at = LLVMCreateBuilderInContext(ir.ctx);
      try {
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(scratchFn);
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        if (first == null || first.isNull()) LLVMPositionBuilderAtEnd(at, entry);
        else LLVMPositionBuilderBefore(at, first);
        return LLVMBuildFreeze(at, LLVMGetPoison(ir.ptr), "");
      } finally {
        LLVMDisposeBuilder(at);
      }
    });
  }

  /** Values of {@code caller} that instructions of {@code fn} use, in order of first use. */
  private static List<LLVMValueRef> foreignValues(LLVMValueRef fn, LLVMValueRef caller) {
    Map<Long, LLVMValueRef> seen = new LinkedHashMap<>();
    forEachOperand(fn, (inst, k, v) -> {
      if (ownedBy(v, caller)) seen.putIfAbsent(v.address(), v);
    });
    return new ArrayList<>(seen.values());
  }

  /** Replaces each use of {@code foreign[i]} in {@code fn} by its parameter {@code first + i}. */
  private static void replaceForeign(LLVMValueRef fn, List<LLVMValueRef> foreign, int first) {
    if (foreign.isEmpty()) return;
    Map<Long, LLVMValueRef> param = new HashMap<>();
    for (int i = 0; i < foreign.size(); i++) param.put(foreign.get(i).address(), LLVMGetParam(fn, first + i));
    forEachOperand(fn, (inst, k, v) -> {
      LLVMValueRef p = param.get(v.address());
      if (p != null) LLVMSetOperand(inst, k, p);
    });
  }

  private interface OperandVisitor {
    void visit(LLVMValueRef inst, int k, LLVMValueRef operand);
  }

  private static void forEachOperand(LLVMValueRef fn, OperandVisitor visitor) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
        int n = LLVMGetNumOperands(i);
        for (int k = 0; k < n; k++) {
          LLVMValueRef v = LLVMGetOperand(i, k);
          if (v != null && !v.isNull()) visitor.visit(i, k, v);
        }
      }
    }
  }

  /** Whether {@code v} is an instruction or argument of {@code fn}. */
  private static boolean ownedBy(LLVMValueRef v, LLVMValueRef fn) {
    LLVMValueRef owner = null;
    if (isA(LLVMIsAInstruction(v))) owner = LLVMGetBasicBlockParent(LLVMGetInstructionParent(v));
    else if (isA(LLVMIsAArgument(v))) owner = LLVMGetParamParent(v);
    return owner != null && owner.address() == fn.address();
  }

  /**
   * The function that prints as {@code fn} does apart from its name: an earlier one (then {@code
   * fn}, used nowhere else yet or only by calls being emitted, is replaced and deleted) or {@code
   * fn} itself, renamed to {@code name} when that is not null.
   */
  private LLVMValueRef canonical(LLVMValueRef fn, String name) {
    StepFingerprint print = StepFingerprint.of(fn);
    List<Kept> same = kept.computeIfAbsent(print, k -> new ArrayList<>());
    String text = null;
    for (Kept k : same) {
      boolean equal = true;
      if (print.needsText) {  // an instruction the walk does not model: the exact check is the text
        if (text == null) text = text(fn);
        if (k.text == null) k.text = text(k.fn);
        equal = k.text.equals(text);
      }
      if (equal) {
        LLVMReplaceAllUsesWith(fn, k.fn);
        LLVMDeleteFunction(fn);
        return k.fn;
      }
    }
    same.add(new Kept(fn, text));
    if (name != null) LLVMSetValueName2(fn, name, name.length());
    return fn;
  }

  /** The printed function with its own name blanked. */
  private static String text(LLVMValueRef fn) {
    String own = LLVMGetValueName(fn).getString();
    return Llvm.take(LLVMPrintValueToString(fn)).replaceFirst("@" + java.util.regex.Pattern.quote(own) + "\\(", "@(");
  }

  private static boolean isA(LLVMValueRef v) {
    return v != null && !v.isNull();
  }
}
