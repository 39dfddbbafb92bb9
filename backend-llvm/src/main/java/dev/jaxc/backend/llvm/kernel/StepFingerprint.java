package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.llvm.LLVM.LLVMAttributeRef;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueMetadataEntry;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A function's structure as numbers, for finding identical step functions without printing them
 * (printing one function costs time linear in the whole module). Walks the function once: per
 * instruction its opcode, result type, operands and the flags the emitter can set (predicates,
 * alignment, orderings, wrap and fast-math flags, GEP source types, call attributes, shuffle
 * masks, aggregate indices, phi blocks, a loop's {@code llvm.loop} properties). A value of the
 * function itself is named by its position
 * (parameter, block, instruction), anything else (constants, globals, functions, types and
 * attributes, all uniqued in the LLVM context) by its address. Two functions with equal codes
 * are the same function apart from their names and the names of their values.
 *
 * <p>An instruction this walk does not fully model, or one that carries metadata other than a loop
 * ID, sets {@link #needsText}: such a function is also compared by its printed text. A loop ID is
 * a distinct node naming itself, so two equal loops print differently ({@code !7} and {@code
 * !9}); the walk takes its properties instead (its other operands, uniqued nodes such as
 * {@code !{!"llvm.loop.unroll.disable"}}). Comparing text made every function with a marked loop
 * unique: a 12-layer transformer kept 267 functions where 82 differ. Addresses change from run to
 * run, but only equality is used, so which steps are shared does not.
 */
final class StepFingerprint {
  final long[] code;
  final boolean needsText;
  private final int hash;

  private StepFingerprint(long[] code, boolean needsText) {
    this.code = code;
    this.needsText = needsText;
    this.hash = Arrays.hashCode(code);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StepFingerprint f && f.hash == hash && Arrays.equals(f.code, code);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  private static final long LOCAL = 1;
  private static final long OTHER = 2;
  private static final long NONE = 3;

  static StepFingerprint of(LLVMValueRef fn) {
    Walk w = new Walk();
    return w.run(fn);
  }

  private static final class Walk {
    private long[] out = new long[256];
    private int loopKind;
    private int n;
    private boolean needsText;
    /** Parameters, blocks and instructions of the function, by address: their positions. */
    private final Map<Long, Integer> local = new HashMap<>();

    private void put(long v) {
      if (n == out.length) out = Arrays.copyOf(out, n * 2);
      out[n++] = v;
    }

    private void value(LLVMValueRef v) {
      if (v == null || v.isNull()) {
        put(NONE);
        return;
      }
      Integer at = local.get(v.address());
      if (at != null) {
        put(LOCAL);
        put(at);
      } else {
        put(OTHER);
        put(v.address());
      }
    }

    private void block(LLVMBasicBlockRef b) {
      value(b == null || b.isNull() ? null : LLVMBasicBlockAsValue(b));
    }

    private void attributes(LLVMValueRef fnOrCall, int index, boolean call) {
      int count = call ? LLVMGetCallSiteAttributeCount(fnOrCall, index) : LLVMGetAttributeCountAtIndex(fnOrCall, index);
      put(count);
      if (count == 0) return;
      try (PointerPointer<LLVMAttributeRef> arr = new PointerPointer<>(count)) {
        if (call) LLVMGetCallSiteAttributes(fnOrCall, index, arr);
        else LLVMGetAttributesAtIndex(fnOrCall, index, arr);
        long[] addrs = new long[count];
        for (int k = 0; k < count; k++) addrs[k] = arr.get(k).address();
        Arrays.sort(addrs);  // attributes are uniqued: an attribute set is its sorted addresses
        for (long a : addrs) put(a);
      }
    }

    StepFingerprint run(LLVMValueRef fn) {
      loopKind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), "llvm.loop", 9);
      int params = LLVMCountParams(fn);
      for (int p = 0; p < params; p++) local.put(LLVMGetParam(fn, p).address(), local.size());
      int blocks = 0;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
        local.put(LLVMBasicBlockAsValue(bb).address(), local.size());
        blocks++;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
          local.put(i.address(), local.size());
        }
      }
      put(LLVMGlobalGetValueType(fn).address());
      put(LLVMGetFunctionCallConv(fn));
      put(LLVMGetLinkage(fn));
      put(params);
      put(blocks);
      attributes(fn, LLVMAttributeFunctionIndex, false);
      for (int p = 0; p <= params; p++) attributes(fn, p, false);
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
        put(-1);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
          instruction(i);
        }
      }
      return new StepFingerprint(Arrays.copyOf(out, n), needsText);
    }

    /** A loop ID's properties; any other metadata: compare the printed text. */
    private void metadata(LLVMValueRef i) {
      SizeTPointer count = new SizeTPointer(1);
      LLVMValueMetadataEntry all = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, count);
      try {
        if (count.get() != 1 || LLVMValueMetadataEntriesGetKind(all, 0) != loopKind) {
          needsText = true;
          return;
        }
      } finally {
        LLVMDisposeValueMetadataEntries(all);
      }
      LLVMValueRef id = LLVMGetMetadata(i, loopKind);
      int n = LLVMGetMDNodeNumOperands(id);
      PointerPointer<LLVMValueRef> ops = new PointerPointer<LLVMValueRef>(n);
      LLVMGetMDNodeOperands(id, ops);
      put(n);
      for (int k = 1; k < n; k++) put(ops.get(k).address());  // operand 0 is the node itself
    }

    private void instruction(LLVMValueRef i) {
      int op = LLVMGetInstructionOpcode(i);
      put(op);
      put(LLVMTypeOf(i).address());
      if (LLVMHasMetadata(i) != 0) metadata(i);
      int operands = LLVMGetNumOperands(i);
      put(operands);
      for (int k = 0; k < operands; k++) value(LLVMGetOperand(i, k));
      if (LLVMCanValueUseFastMathFlags(i) != 0) put(LLVMGetFastMathFlags(i));
      if (op == LLVMRet || op == LLVMBr || op == LLVMSwitch || op == LLVMUnreachable || op == LLVMSelect
          || op == LLVMFreeze || op == LLVMExtractElement || op == LLVMInsertElement
          || op == LLVMFNeg || op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul || op == LLVMFDiv || op == LLVMFRem
          || op == LLVMURem || op == LLVMSRem || op == LLVMXor || op == LLVMAnd
          || op == LLVMTrunc || op == LLVMSExt || op == LLVMFPToUI || op == LLVMFPToSI || op == LLVMSIToFP
          || op == LLVMFPTrunc || op == LLVMFPExt || op == LLVMPtrToInt || op == LLVMIntToPtr || op == LLVMBitCast) {
        return;  // type, operands and fast-math flags are all there is
      }
      if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl) {
        put(LLVMGetNSW(i));
        put(LLVMGetNUW(i));
      } else if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMLShr || op == LLVMAShr) {
        put(LLVMGetExact(i));
      } else if (op == LLVMOr) {
        put(LLVMGetIsDisjoint(i));
      } else if (op == LLVMZExt || op == LLVMUIToFP) {
        put(LLVMGetNNeg(i));
      } else if (op == LLVMICmp) {
        put(LLVMGetICmpPredicate(i));
      } else if (op == LLVMFCmp) {
        put(LLVMGetFCmpPredicate(i));
      } else if (op == LLVMLoad || op == LLVMStore) {
        put(LLVMGetAlignment(i));
        put(LLVMGetVolatile(i));
        put(LLVMGetOrdering(i));
        put(LLVMIsAtomicSingleThread(i));
      } else if (op == LLVMAlloca) {
        put(LLVMGetAllocatedType(i).address());
        put(LLVMGetAlignment(i));
      } else if (op == LLVMGetElementPtr) {
        put(LLVMGetGEPSourceElementType(i).address());
        put(LLVMGEPGetNoWrapFlags(i));
      } else if (op == LLVMPHI) {
        int in = LLVMCountIncoming(i);
        put(in);
        for (int k = 0; k < in; k++) block(LLVMGetIncomingBlock(i, k));
      } else if (op == LLVMCall) {
        put(LLVMGetCalledFunctionType(i).address());
        put(LLVMGetInstructionCallConv(i));
        put(LLVMGetTailCallKind(i));
        int args = LLVMGetNumArgOperands(i);
        attributes(i, LLVMAttributeFunctionIndex, true);
        for (int k = 0; k <= args; k++) attributes(i, k, true);
      } else if (op == LLVMShuffleVector) {
        int m = LLVMGetNumMaskElements(i);
        put(m);
        for (int k = 0; k < m; k++) put(LLVMGetMaskValue(i, k));
      } else if (op == LLVMExtractValue || op == LLVMInsertValue) {
        int m = LLVMGetNumIndices(i);
        put(m);
        IntPointer idx = LLVMGetIndices(i);
        for (int k = 0; k < m; k++) put(idx.get(k));
      } else if (op == LLVMAtomicRMW) {
        put(LLVMGetAtomicRMWBinOp(i));
        put(LLVMGetOrdering(i));
        put(LLVMGetVolatile(i));
        put(LLVMIsAtomicSingleThread(i));
        put(LLVMGetAlignment(i));
      } else if (op == LLVMAtomicCmpXchg) {
        put(LLVMGetCmpXchgSuccessOrdering(i));
        put(LLVMGetCmpXchgFailureOrdering(i));
        put(LLVMGetWeak(i));
        put(LLVMGetVolatile(i));
        put(LLVMIsAtomicSingleThread(i));
        put(LLVMGetAlignment(i));
      } else if (op == LLVMFence) {
        put(LLVMGetOrdering(i));
        put(LLVMIsAtomicSingleThread(i));
      } else {
        needsText = true;  // not modelled here: compare the printed text as well
      }
    }
  }
}
