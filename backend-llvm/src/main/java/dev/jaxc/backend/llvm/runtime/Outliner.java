package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Turns a function whose body was emitted with the caller's values in scope into a real outlined
 * function: every operand that is an instruction or argument of another function (a buffer
 * address, a loop index of an enclosing loop, a loaded scalar, …) is <i>captured</i>: read from
 * slot k of the context its first parameter points to (8 bytes a slot; the caller stores the value
 * there). A caller's GEP with constant indices (a workspace buffer's address) is recomputed
 * in the function from its captured base instead, so alias analysis still sees that buffers of
 * one workspace do not overlap. The capture code goes at the top of the entry block.
 */
public final class Outliner {
  /** Bytes per context slot: every scalar a generator computes fits. */
  public static final int SLOT = 8;

  private final LLVMValueRef fn;
  private final LLVMValueRef ctx;
  private final LLVMBuilderRef b;
  private final Map<Long, LLVMValueRef> replaced = new HashMap<>();
  private final List<LLVMValueRef> captured = new ArrayList<>();

  private Outliner(LLVMValueRef fn, LLVMBuilderRef b) {
    this.fn = fn;
    this.ctx = LLVMGetParam(fn, 0);
    this.b = b;
  }

  /**
   * Outlines the captures of {@code fn} ({@link #capture}) and stores the caller's values in a
   * context of {@link #SLOT}-byte slots in the caller's entry block (allocated once per call);
   * returns the context, {@code fn}'s first argument. The builder stays in the caller.
   */
  public static LLVMValueRef context(Ir ir, LLVMValueRef fn) {
    List<LLVMValueRef> captured = capture(fn);
    LLVMValueRef ctx = ir.entryAlloca(LLVMArrayType2(ir.i64, Math.max(1, captured.size())), SLOT);
    for (int k = 0; k < captured.size(); k++) {
      ir.store(captured.get(k), ir.gep(ir.i8, ctx, ir.i64((long) SLOT * k)), SLOT);
    }
    return ctx;
  }

  /**
   * Rewrites {@code fn} (whose first parameter is the context pointer) to read its captures from
   * the context; returns the captured values of the caller, slot by slot.
   *
   * @throws IllegalStateException a captured value is a stack slot of the caller (threads must not
   *     share it: the body must allocate its own) or does not fit a slot
   */
  public static List<LLVMValueRef> capture(LLVMValueRef fn) {
    List<LLVMValueRef> instructions = new ArrayList<>();
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
        instructions.add(i);
      }
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
    try {
      LLVMPositionBuilderBefore(b, instructions.get(0));
      Outliner o = new Outliner(fn, b);
      for (LLVMValueRef i : instructions) o.rewriteOperands(i);
      return o.captured;
    } finally {
      LLVMDisposeBuilder(b);
    }
  }

  private void rewriteOperands(LLVMValueRef inst) {
    int n = LLVMGetNumOperands(inst);
    for (int k = 0; k < n; k++) {
      LLVMValueRef v = LLVMGetOperand(inst, k);
      if (foreign(v)) LLVMSetOperand(inst, k, replacement(v));
    }
  }

  /** Whether {@code v} belongs to another function (so it cannot be used here as it is). */
  private boolean foreign(LLVMValueRef v) {
    if (v == null || v.isNull()) return false;
    LLVMValueRef owner = null;
    if (isA(LLVMIsAInstruction(v))) owner = LLVMGetBasicBlockParent(LLVMGetInstructionParent(v));
    else if (isA(LLVMIsAArgument(v))) owner = LLVMGetParamParent(v);
    return owner != null && owner.address() != fn.address();
  }

  private LLVMValueRef replacement(LLVMValueRef v) {
    LLVMValueRef r = replaced.get(v.address());
    if (r != null) return r;
    if (isA(LLVMIsAAllocaInst(v))) {
      throw new IllegalStateException("a parallel body uses a stack slot of its caller; threads would share it");
    }
    if (isA(LLVMIsAGetElementPtrInst(v)) && constantIndices(v)) {
      r = LLVMInstructionClone(v);
      rewriteOperands(r);  // the base's replacement goes before the clone
      LLVMInsertIntoBuilder(b, r);
    } else {
      LLVMTypeRef t = LLVMTypeOf(v);
      if (!fitsSlot(t)) throw new IllegalStateException("a parallel body captures a value of LLVM type kind " + LLVMGetTypeKind(t));
      LLVMContextRef c = LLVMGetTypeContext(t);
      LLVMValueRef[] offset = {LLVMConstInt(LLVMInt64TypeInContext(c), (long) SLOT * captured.size(), 0)};
      LLVMValueRef at = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(c), ctx, new PointerPointer<>(offset), 1, "");
      r = LLVMBuildLoad2(b, t, at, "");
      LLVMSetAlignment(r, SLOT);
      captured.add(v);
    }
    replaced.put(v.address(), r);
    return r;
  }

  private static boolean constantIndices(LLVMValueRef gep) {
    for (int k = 1; k < LLVMGetNumOperands(gep); k++) if (!isA(LLVMIsAConstantInt(LLVMGetOperand(gep, k)))) return false;
    return true;
  }

  /** Scalars of at most 64 bits and pointers (vectors are made later, by LLVM). */
  private static boolean fitsSlot(LLVMTypeRef t) {
    int kind = LLVMGetTypeKind(t);
    if (kind == LLVMIntegerTypeKind) return LLVMGetIntTypeWidth(t) <= 64;
    return kind == LLVMPointerTypeKind || kind == LLVMFloatTypeKind || kind == LLVMDoubleTypeKind
        || kind == LLVMHalfTypeKind || kind == LLVMBFloatTypeKind;
  }

  private static boolean isA(LLVMValueRef v) {
    return v != null && !v.isNull();
  }
}
