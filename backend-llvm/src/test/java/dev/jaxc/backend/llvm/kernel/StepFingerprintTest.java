package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
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

  /** {@code for (i = 0; i < 8; i++) p[i] = 0} with its latch marked by {@link Ir}: kept scalar or not unrolled. */
  private LLVMValueRef loop(boolean scalar) {
    try (Ir ir = new Ir(ctx, mod)) {
      LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
      LLVMValueRef f = LLVMAddFunction(mod, "loop" + made++, ir.fnType(ir.voidType, ir.ptr));
      ir.beginFunction(f);
      LLVMBasicBlockRef entry = ir.currentBlock();
      LLVMBasicBlockRef body = ir.block("body");
      LLVMBasicBlockRef done = ir.block("done");
      ir.br(body);
      ir.at(body);
      LLVMBuilderRef lb = LLVMCreateBuilderInContext(ctx);
      LLVMPositionBuilderAtEnd(lb, body);
      LLVMValueRef i = LLVMBuildPhi(lb, i64, "i");
      LLVMValueRef p = LLVMBuildGEP2(lb, LLVMInt32TypeInContext(ctx), LLVMGetParam(f, 0),
          new org.bytedeco.javacpp.PointerPointer<LLVMValueRef>(1).put(0, i), 1, "p");
      LLVMBuildStore(lb, LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0), p);
      LLVMValueRef next = LLVMBuildAdd(lb, i, LLVMConstInt(i64, 1, 0), "next");
      LLVMValueRef more = LLVMBuildICmp(lb, LLVMIntULT, next, LLVMConstInt(i64, 8, 0), "more");
      LLVMDisposeBuilder(lb);
      ir.at(body);
      if (scalar) ir.condBrScalar(more, body, done);
      else ir.condBrNoUnroll(more, body, done);
      LLVMAddIncoming(i, new org.bytedeco.javacpp.PointerPointer<LLVMValueRef>(2).put(0, LLVMConstInt(i64, 0, 0)).put(1, next),
          new org.bytedeco.javacpp.PointerPointer<LLVMBasicBlockRef>(2).put(0, entry).put(1, body), 2);
      LLVMPositionBuilderAtEnd(b, done);
      LLVMBuildRetVoid(b);
      return f;
    }
  }

  @Test
  void loopsWithTheSamePropertiesAreEqualAndOthersDiffer() {
    StepFingerprint a = StepFingerprint.of(loop(true));
    StepFingerprint b2 = StepFingerprint.of(loop(true));
    assertEquals(a, b2);  // their loop IDs are distinct nodes (!0, !3): text would differ
    assertFalse(a.needsText);
    assertNotEquals(a, StepFingerprint.of(loop(false)));
  }
}
