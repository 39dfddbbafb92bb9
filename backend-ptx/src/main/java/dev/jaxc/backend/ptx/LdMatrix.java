package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@code ldmatrix.sync.aligned.m8n8.xC.shared.b16} (sm_75 and newer), the warp's load of C (1, 2
 * or 4) 8 × 8 matrices of 16-bit elements from shared memory (PTX ISA 9.7.14.5.15): lanes 8q to
 * 8q + 7 give the addresses of rows 0 to 7 of matrix q (each 16 bytes, 16-byte aligned), and lane
 * l's register q receives row l / 4 of matrix q, its elements 2 (l % 4) (low half) and 2 (l % 4)
 * + 1 — the layout of an mma.sync f16/bf16 fragment register ({@link Mma}).
 *
 * <p>On the GPU the NVVM intrinsic. In the emulation ({@link #emulation}) it is what the warp does
 * together: each lane's register q is read from the row address that lane 8q + l / 4 gave, so a
 * kernel that gives a lane the wrong row gets wrong fragments in the emulation as on the GPU.
 */
final class LdMatrix {
  private LdMatrix() {}

  /** The GPU's instruction: this lane's C registers (i32) from its row's address in a shared array of i16. */
  static LLVMValueRef[] device(Ir ir, int count, LLVMValueRef rowAddress) {
    LLVMTypeRef shared = LLVMPointerTypeInContext(ir.ctx, 3);
    LLVMValueRef p = LLVMBuildAddrSpaceCast(ir.b, rowAddress, shared, "");
    LLVMValueRef r = ir.intrinsic("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x" + count + ".b16", new LLVMTypeRef[] {shared}, p);
    if (count == 1) return new LLVMValueRef[] {r};
    LLVMValueRef[] out = new LLVMValueRef[count];
    for (int q = 0; q < count; q++) out[q] = LLVMBuildExtractValue(ir.b, r, q, "");
    return out;
  }

  /**
   * The warp's instruction in the emulation, an outlined function {@code (tile, rows, sr, d, sd)}:
   * lane l's row address is the element index {@code rows[l·sr]} into the i16 array {@code tile};
   * lane l's register q is written to {@code d[l·sd + q]} (i32).
   */
  static LLVMValueRef emulation(Ir ir, int count) {
    LLVMTypeRef type = ir.fnType(ir.voidType, ir.ptr, ir.ptr, ir.i64, ir.ptr, ir.i64);
    return ir.outlined("jaxc.ldmatrix.emulated.x" + count, type, fn -> {
      LLVMValueRef tile = LLVMGetParam(fn, 0);
      LLVMValueRef rows = LLVMGetParam(fn, 1);
      LLVMValueRef sr = LLVMGetParam(fn, 2);
      LLVMValueRef d = LLVMGetParam(fn, 3);
      LLVMValueRef sd = LLVMGetParam(fn, 4);
      ir.loop(ir.i64(0), ir.i64(BlockCode.WARP), 1, lane -> {
        for (int q = 0; q < count; q++) {
          // "each thread receives row lane / 4 of matrix q, elements 2 (lane % 4) and + 1"
          LLVMValueRef giver = ir.add(ir.i64(8L * q), ir.lshr(lane, ir.i64(2)));
          LLVMValueRef row = ir.load(ir.i64, ir.gep(ir.i64, rows, ir.mul(giver, sr)), 8);
          LLVMValueRef at = ir.add(row, ir.mul(ir.and(lane, ir.i64(3)), ir.i64(2)));
          LLVMValueRef word = ir.load(ir.i32, ir.gep(ir.i16, tile, at), 4);
          ir.store(word, ir.gep(ir.i32, d, ir.add(ir.mul(lane, sd), ir.i64(q))), 4);
        }
      });
      LLVMBuildRetVoid(ir.b);
    });
  }
}
