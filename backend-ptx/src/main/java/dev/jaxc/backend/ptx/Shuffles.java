package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Warp shuffles of any scalar compute type through NVVM's 32-bit {@code shfl.sync} intrinsics
 * (all 32 lanes take part, mask 0xffffffff): floats as their bits, narrower integers widened, 64-bit
 * values as two halves.
 */
final class Shuffles {
  /** The c operand for a whole warp: segment mask 0, clamp lane 31. */
  private static final int CLAMP = 0x1f;

  private Shuffles() {}

  /** The value of lane + delta (this lane's own where that is past lane 31). */
  static LLVMValueRef down(Ir ir, LLVMValueRef v, int delta) {
    return shuffle(ir, "down", v, delta);
  }

  /** Lane 0's value. */
  static LLVMValueRef fromLane0(Ir ir, LLVMValueRef v) {
    return shuffle(ir, "idx", v, 0);
  }

  private static LLVMValueRef shuffle(Ir ir, String kind, LLVMValueRef v, int b) {
    LLVMTypeRef t = ir.typeOf(v);
    int kindOf = LLVMGetTypeKind(t);
    if (kindOf == LLVMFloatTypeKind) return ir.bitcast(i32(ir, kind, ir.bitcast(v, ir.i32), b), t);
    if (kindOf == LLVMDoubleTypeKind) return ir.bitcast(shuffle(ir, kind, ir.bitcast(v, ir.i64), b), t);
    if (kindOf == LLVMHalfTypeKind || kindOf == LLVMBFloatTypeKind) {
      return ir.bitcast(shuffle(ir, kind, ir.bitcast(v, ir.intType(16)), b), t);
    }
    if (kindOf != LLVMIntegerTypeKind) throw new IllegalArgumentException("no shuffle for " + kindOf);
    int bits = Ir.intWidth(t);
    if (bits == 32) return i32(ir, kind, v, b);
    if (bits < 32) return ir.trunc(i32(ir, kind, ir.zext(v, ir.i32), b), t);
    if (bits != 64) throw new IllegalArgumentException("no shuffle for i" + bits);
    LLVMValueRef lo = i32(ir, kind, ir.trunc(v, ir.i32), b);
    LLVMValueRef hi = i32(ir, kind, ir.trunc(ir.lshr(v, ir.i64(32)), ir.i32), b);
    return ir.or(ir.zext(lo, ir.i64), ir.shl(ir.zext(hi, ir.i64), ir.i64(32)));
  }

  private static LLVMValueRef i32(Ir ir, String kind, LLVMValueRef v, int b) {
    return ir.intrinsic("llvm.nvvm.shfl.sync." + kind + ".i32", new LLVMTypeRef[0], ir.i32(-1), v, ir.i32(b), ir.i32(CLAMP));
  }
}
