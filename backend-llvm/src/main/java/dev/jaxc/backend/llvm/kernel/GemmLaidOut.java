package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import java.util.function.Supplier;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * An operand read as {@code op} reads it, whose in-place layouts ({@link
 * GemmCore.Operand#rowMajorKN} [K, N], {@link GemmCore.Operand#columnMajorNK} [N, K], {@link
 * GemmCore.Operand#columnMajorMK} [K, M], {@link GemmCore.Operand#rowMajorMK} [M, K]) are given
 * apart: each supplier (null: not so laid out) is asked only when the packed form reads the
 * operand in place or packs it from there, so an address is computed only where it is used.
 */
record GemmLaidOut(GemmCore.Operand op, Supplier<LLVMValueRef> kn, Supplier<LLVMValueRef> nk,
    Supplier<LLVMValueRef> km, Supplier<LLVMValueRef> mk) implements GemmCore.Operand {
  @Override
  public GemmCore.Term at(Index out, Index red) {
    return op.at(out, red);
  }

  @Override
  public boolean reads(int axis) {
    return op.reads(axis);
  }

  @Override
  public boolean packable() {
    return op.packable();
  }

  @Override
  public boolean minorAlongReduction() {
    return op.minorAlongReduction();
  }

  @Override
  public LLVMValueRef rowMajorKN() {
    return kn == null ? null : kn.get();
  }

  @Override
  public LLVMValueRef columnMajorNK() {
    return nk == null ? null : nk.get();
  }

  @Override
  public LLVMValueRef columnMajorMK() {
    return km == null ? null : km.get();
  }

  @Override
  public LLVMValueRef rowMajorMK() {
    return mk == null ? null : mk.get();
  }
}
