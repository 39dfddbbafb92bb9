package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Kernel for {@code threefry2x32 k0 k1 x0 x1}: the 20-round Threefry-2x32 block function of JAX's
 * {@code _threefry2x32_lowering} (jax/_src/random/threefry2x32.py), elementwise over the
 * broadcast shape (rank-0 operands and size-1 dims broadcast), writing both output words per
 * element.
 */
final class ThreefryKernel {
  private static final int[][] ROTATIONS = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  private static final int PARITY = 0x1BD11BDA;

  private ThreefryKernel() {}

  static void emit(KernelContext cx) {
    Ir ir = cx.ir();
    ArrayType out = cx.resultTypes().get(0);
    Shape shape = out.shape();
    // Each output pair is its own: the loop may be split across workers (about 100 ops a pair).
    cx.loops().forEachParallel(shape.sizes(), shape.elementCount() * 100, 1, idx -> {
      LLVMValueRef[] in = new LLVMValueRef[4];
      for (int k = 0; k < 4; k++)
        in[k] = cx.operands().get(k).at(broadcast(ir, cx.operandType(k).shape(), shape, idx)).v();
      LLVMValueRef[] y = block(ir, in[0], in[1], in[2], in[3]);
      for (int r = 0; r < 2; r++) cx.access().store(cx.results().get(r), cx.resultTypes().get(r), idx, Value.of(y[r]));
    });
  }

  /** Where an operand of shape {@code s} is read: rank 0 at the empty index, size-1 dims at 0. */
  private static Index broadcast(Ir ir, Shape s, Shape out, Index idx) {
    if (s.rank() == 0) return Index.SCALAR;
    LLVMValueRef[] j = new LLVMValueRef[s.rank()];
    for (int d = 0; d < j.length; d++) j[d] = s.dim(d) == 1 && out.dim(d) != 1 ? ir.i64(0) : idx.get(d);
    return Index.of(j);
  }

  /** The two output words for key (k0, k1) and counter (x0, x1), all {@code i32}. */
  static LLVMValueRef[] block(Ir ir, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef x0, LLVMValueRef x1) {
    LLVMValueRef[] ks = {k0, k1, ir.xor(ir.xor(k0, k1), ir.i32(PARITY))};
    LLVMValueRef[] x = {ir.add(x0, ks[0]), ir.add(x1, ks[1])};
    // Five groups of four rounds; after group g the key words ks[g+1], ks[g+2] (mod 3) and g+1 are injected.
    for (int g = 0; g < 5; g++) {
      for (int rot : ROTATIONS[g % 2]) {
        x[0] = ir.add(x[0], x[1]);
        x[1] = ir.xor(x[0], ir.intrinsic("llvm.fshl", x[1], x[1], ir.i32(rot)));
      }
      x[0] = ir.add(x[0], ks[(g + 1) % 3]);
      x[1] = ir.add(ir.add(x[1], ks[(g + 2) % 3]), ir.i32(g + 1));
    }
    return x;
  }
}
