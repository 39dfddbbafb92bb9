package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The module's {@code llvm.global_dtors}: functions run when the library is unloaded ({@code
 * dlclose}, process exit; {@code .fini_array}) or, in-process, when {@code llvm/Jit} closes, so
 * that nothing the module started (pool threads) or kept (cached work memory) outlives its code.
 */
public final class Destructors {
  private static final String NAME = "llvm.global_dtors";
  private static final int PRIORITY = 65535;

  private Destructors() {}

  /** Appends {@code void fn(void)} to the list. */
  public static void add(Ir ir, LLVMValueRef fn) {
    LLVMTypeRef entry = LLVMStructTypeInContext(ir.ctx, new PointerPointer<>(ir.i32, ir.ptr, ir.ptr), 3, 0);
    List<LLVMValueRef> entries = new ArrayList<>();
    LLVMValueRef old = LLVMGetNamedGlobal(ir.module, NAME);
    if (old != null && !old.isNull()) {
      LLVMValueRef init = LLVMGetInitializer(old);
      int n = (int) LLVMGetArrayLength2(LLVMGlobalGetValueType(old));
      for (int k = 0; k < n; k++) entries.add(LLVMGetAggregateElement(init, k));
      LLVMDeleteGlobal(old);
    }
    PointerPointer<LLVMValueRef> fields = new PointerPointer<>(3);
    fields.put(0, ir.i32(PRIORITY)).put(1, fn).put(2, LLVMConstPointerNull(ir.ptr));
    entries.add(LLVMConstStructInContext(ir.ctx, fields, 3, 0));
    PointerPointer<LLVMValueRef> all = new PointerPointer<>(entries.size());
    for (int k = 0; k < entries.size(); k++) all.put(k, entries.get(k));
    LLVMValueRef g = LLVMAddGlobal(ir.module, LLVMArrayType2(entry, entries.size()), NAME);
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetInitializer(g, LLVMConstArray2(entry, all, entries.size()));
  }
}
