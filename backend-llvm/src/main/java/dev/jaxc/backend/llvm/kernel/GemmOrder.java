package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The output order and operand roles of a {@link GemmCore.Spec}, changed without changing a bit
 * of the result: every element is still the same products summed in K order, only where the loops
 * go and which operand the packed form calls A differ.
 */
final class GemmOrder {
  private GemmOrder() {}

  /**
   * {@code s} with its output axes in the order of its result transposed by {@code perm} (output
   * axis i is s's axis {@code perm[i]}), so its loops run in the order the transposed result lies;
   * the store gets s's own index. An operand's in-place layouts (which linearise its axes in
   * output order) are kept only where the permutation keeps the order of the axes it reads.
   */
  static GemmCore.Spec transposed(GemmCore.Spec s, int[] perm) {
    int rank = perm.length;
    long[] out = new long[rank];
    for (int i = 0; i < rank; i++) out[i] = s.out()[perm[i]];
    GemmCore.Store store = (idx, v) -> s.store().at(untransposed(idx, perm), v);
    return new GemmCore.Spec(out, s.red(), transposed(s.a(), perm), transposed(s.b(), perm), s.acc(), store);
  }

  /** s's own output index of index {@code idx} of the transposed order. */
  private static Index untransposed(Index idx, int[] perm) {
    LLVMValueRef[] r = new LLVMValueRef[perm.length];
    for (int i = 0; i < perm.length; i++) r[perm[i]] = idx.get(i);
    return Index.of(r);
  }

  private static GemmCore.Operand transposed(GemmCore.Operand op, int[] perm) {
    boolean inOrder = true;
    int prev = -1;
    for (int i = 0; i < perm.length; i++) {
      if (!op.reads(perm[i])) continue;
      inOrder &= perm[i] > prev;
      prev = perm[i];
    }
    boolean keeps = inOrder;
    return new GemmCore.Operand() {
      @Override
      public GemmCore.Term at(Index out, Index red) {
        return op.at(untransposed(out, perm), red);
      }

      @Override
      public boolean reads(int axis) {
        return op.reads(perm[axis]);
      }

      @Override
      public boolean packable() {
        return op.packable();
      }

      @Override
      public LLVMValueRef rowMajorKN() {
        return keeps ? op.rowMajorKN() : null;
      }

      @Override
      public LLVMValueRef columnMajorNK() {
        return keeps ? op.columnMajorNK() : null;
      }

      @Override
      public LLVMValueRef columnMajorMK() {
        return keeps ? op.columnMajorMK() : null;
      }

      @Override
      public LLVMValueRef rowMajorMK() {
        return keeps ? op.rowMajorMK() : null;
      }

      @Override
      public boolean minorAlongReduction() {
        return op.minorAlongReduction();
      }
    };
  }

  /**
   * Whether a dot_general's contraction {@code s} should be taken with its operands' roles
   * swapped: the innermost output axis (the last longer than 1) is read by A alone (a transposed
   * store, {@link #transposed}), so the packed form's C rows would be stored a whole output row
   * apart per element; swapped, that axis is N and each C row is stored contiguously. Only for
   * real f32/f64 products of one operand dtype: a·b and b·a are the same bits, and the formats of
   * integer and bf16 pairs treat A and B apart. Not for convolutions, whose input packed as B
   * would decode its windows per element (an NCHW convolution so swapped took 1.5× as long).
   */
  static boolean swaps(GemmCore.Spec s) {
    if (!(s.acc() instanceof GemmAccumulator.Plain p) || p.lhs() != p.rhs() || p.acc().isComplex()) return false;
    if (p.acc() != DType.F32 && p.acc() != DType.F64) return false;
    int inner = s.out().length - 1;
    while (inner > 0 && s.out()[inner] == 1) inner--;
    return inner >= 0 && s.a().reads(inner) && !s.b().reads(inner);
  }

  /** {@code s} with A and B exchanged: each element is the same sum of the same products. */
  static GemmCore.Spec swapped(GemmCore.Spec s) {
    GemmAccumulator.Plain p = (GemmAccumulator.Plain) s.acc();
    return new GemmCore.Spec(s.out(), s.red(), asA(s.b()), asB(s.a()), p.swapped(), s.store());
  }

  /** B as an A operand: its [K, N] rows are A's [K, M] columns and its [N, K] columns A's [M, K] rows. */
  private static GemmCore.Operand asA(GemmCore.Operand b) {
    return new GemmLaidOut(b, null, null, b::rowMajorKN, b::columnMajorNK);
  }

  /** A as a B operand: its [K, M] columns are B's [K, N] rows and its [M, K] rows B's [N, K] columns. */
  private static GemmCore.Operand asB(GemmCore.Operand a) {
    return new GemmLaidOut(a, a::columnMajorMK, a::rowMajorMK, null, null);
  }
}
