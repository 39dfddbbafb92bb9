package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Emits baked constvars ({@link Consts}) as private constant globals of raw bytes, aligned like
 * workspace buffers (64 bytes), so they land in the artifact's read-only data and LLVM may fold
 * loads from them. On a GPU they are globals of the device's global address space (initialised
 * data of the PTX module, uploaded by the driver when it loads the module).
 */
public final class ConstsGlobals {
  private ConstsGlobals() {}

  /**
   * The address of each baked input, in order, as a generic pointer; the globals live in LLVM
   * address space {@code addressSpace} (0 on a CPU; NVPTX's global space is 1).
   *
   * @throws IllegalArgumentException more values than constvars, or a value of the wrong size
   */
  public static LLVMValueRef[] emit(Ir ir, Plan plan, Consts consts, int addressSpace) {
    List<Var> constvars = plan.jaxpr().constvars();
    if (consts.count() > constvars.size())
      throw new IllegalArgumentException(consts.count() + " values for " + constvars.size() + " constvars");
    LLVMValueRef[] r = new LLVMValueRef[consts.count()];
    for (int k = 0; k < r.length; k++) {
      Var v = constvars.get(k);
      ArrayType t = (ArrayType) v.type();
      byte[] data = consts.values().get(k);
      long bytes = t.shape().elementCount() * t.dtype().byteSize();
      if (data.length != bytes)
        throw new IllegalArgumentException("constvar " + v.name() + " is " + t.text() + " (" + bytes + " bytes), got " + data.length + " bytes");
      LLVMValueRef g = global(ir, k, data, addressSpace);
      r[k] = addressSpace == 0 ? g : LLVMConstAddrSpaceCast(g, ir.ptr);
    }
    return r;
  }

  private static LLVMValueRef global(Ir ir, int k, byte[] data, int addressSpace) {
    LLVMValueRef init;
    try (BytePointer p = new BytePointer(Math.max(1, data.length))) {  // a 0-byte one may be null
      p.put(data, 0, data.length);
      init = LLVMConstStringInContext2(ir.ctx, p, data.length, 1);
    }
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(ir.module, LLVMTypeOf(init), "jaxc_const_" + k, addressSpace);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, Plan.ALIGNMENT);
    return g;
  }
}
