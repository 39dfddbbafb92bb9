package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Functions that differ in anything but value names must get different codes. */
class StepFingerprintTest {
  private LLVMContextRef ctx;
  private LLVMModuleRef mod;
  private LLVMBuilderRef b;
  private int made;

  @BeforeEach
  void setUp() {
    ctx = LLVMContextCreate();
    mod = LLVMModuleCreateWithNameInContext("m", ctx);
    b = LLVMCreateBuilderInContext(ctx);
  }

  @AfterEach
  void tearDown() {
    LLVMDisposeBuilder(b);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
  }

  /** {@code p[0] = (p[0] OP k) PRED 0 ? 1 : 2}, its values named {@code name}. */
  private LLVMValueRef fn(int k, int pred, boolean nsw, int align, String name) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMValueRef f = LLVMAddFunction(mod, "f" + made++, LLVMFunctionType(LLVMVoidTypeInContext(ctx), ptr, 1, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef x = LLVMBuildLoad2(b, i32, LLVMGetParam(f, 0), name);
    LLVMSetAlignment(x, align);
    LLVMValueRef c = LLVMConstInt(i32, k, 0);
    LLVMValueRef s = nsw ? LLVMBuildNSWAdd(b, x, c, name) : LLVMBuildAdd(b, x, c, name);
    LLVMValueRef cmp = LLVMBuildICmp(b, pred, s, LLVMConstInt(i32, 0, 0), name);
    LLVMValueRef sel = LLVMBuildSelect(b, cmp, LLVMConstInt(i32, 1, 0), LLVMConstInt(i32, 2, 0), name);
    LLVMBuildStore(b, sel, LLVMGetParam(f, 0));
    LLVMBuildRetVoid(b);
    return f;
  }

  @Test
  void sameStructureUnderOtherNamesIsEqual() {
    StepFingerprint a = StepFingerprint.of(fn(3, LLVMIntSLT, false, 4, "a"));
    StepFingerprint c = StepFingerprint.of(fn(3, LLVMIntSLT, false, 4, "zz"));
    assertEquals(a, c);
    assertEquals(a.hashCode(), c.hashCode());
    assertFalse(a.needsText);
  }

  @Test
  void constantsPredicatesFlagsAndAlignmentsDiffer() {
    StepFingerprint a = StepFingerprint.of(fn(3, LLVMIntSLT, false, 4, "a"));
    assertNotEquals(a, StepFingerprint.of(fn(4, LLVMIntSLT, false, 4, "a")));
    assertNotEquals(a, StepFingerprint.of(fn(3, LLVMIntSGT, false, 4, "a")));
    assertNotEquals(a, StepFingerprint.of(fn(3, LLVMIntSLT, true, 4, "a")));
    assertNotEquals(a, StepFingerprint.of(fn(3, LLVMIntSLT, false, 1, "a")));
  }
}
