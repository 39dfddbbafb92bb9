package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The Philox-4x32-10 block function of XLA's {@code PhiloxBitGenerator}
 * (xla/hlo/builder/lib/prng.cc, {@code Philox4x32}): ten rounds of two 32×32→64 multiplies, the
 * key raised by the Weyl constants after each. The key is known when compiling.
 */
final class Philox {
  private static final long MUL_A = 0xD2511F53L;
  private static final long MUL_B = 0xCD9E8D57L;
  private static final int WEYL_A = 0x9E3779B9;
  private static final int WEYL_B = 0xBB67AE85;
  private static final int ROUNDS = 10;

  private Philox() {}

  /** The four output words ({@code i32}) of counter words {@code x} for the 64-bit key. */
  static LLVMValueRef[] block(Ir ir, LLVMValueRef[] x, long key) {
    int k0 = (int) key;
    int k1 = (int) (key >>> 32);
    LLVMValueRef[] s = x.clone();
    for (int r = 0; r < ROUNDS; r++) {
      LLVMValueRef p0 = ir.mul(ir.zext(s[0], ir.i64), ir.i64(MUL_A));
      LLVMValueRef p1 = ir.mul(ir.zext(s[2], ir.i64), ir.i64(MUL_B));
      s = new LLVMValueRef[] {
          ir.xor(ir.xor(high(ir, p1), s[1]), ir.i32(k0)), ir.trunc(p1, ir.i32),
          ir.xor(ir.xor(high(ir, p0), s[3]), ir.i32(k1)), ir.trunc(p0, ir.i32)};
      k0 += WEYL_A;
      k1 += WEYL_B;
    }
    return s;
  }

  private static LLVMValueRef high(Ir ir, LLVMValueRef product) {
    return ir.trunc(ir.lshr(product, ir.i64(32)), ir.i32);
  }
}
