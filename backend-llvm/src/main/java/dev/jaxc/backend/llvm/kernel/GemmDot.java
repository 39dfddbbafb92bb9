package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Conversions;
import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * dot_general on {@link GemmCore}: the output axes are the result's (batch, lhs free, rhs free),
 * the reduction axes the contracting dimensions in lhs order, and each operand reads its own
 * buffer at the index those name, so any dimension order needs no copy.
 *
 * <p>Dtypes as JAX lowers for CPU: operands of different dtypes are first converted to the result
 * dtype; the algorithm preset F32_F32_F32 converts them to f32 (XLA:CPU rejects the other
 * presets but DEFAULT). XLA:CPU then accumulates as {@code Numerics.dotAccumulation} says.
 */
final class GemmDot {
  private GemmDot() {}

  static void emit(KernelContext cx) {
    GemmCore.Spec s = spec(cx);
    new GemmCore(cx.ir(), cx.loops()).emit(GemmOrder.swaps(s) ? GemmOrder.swapped(s) : s);
  }

  /** The contraction of {@code cx}'s dot_general (also what the GPU's tiled kernel computes). */
  static GemmCore.Spec spec(KernelContext cx) {
    Ir ir = cx.ir();
    ArrayType lhs = cx.operandType(0);
    ArrayType rhs = cx.operandType(1);
    ArrayType res = cx.resultTypes().get(0);
    GemmParams.DotDims dn = GemmParams.dot(cx.eqn().params());
    DType out = res.dtype();
    DType a = lhs.dtype();
    DType b = rhs.dtype();
    DType as;
    DType acc;
    Optional<String> algorithm = GemmParams.dotAlgorithm(cx.eqn().params());
    if (algorithm.isPresent() && !algorithm.get().equals("DEFAULT")) {
      if (!algorithm.get().equals("F32_F32_F32"))
        throw new JaxcException("unsupported dot_general precision " + algorithm.get()
            + " (XLA:CPU accepts only the DEFAULT and F32_F32_F32 algorithms)", cx.eqn().span());
      as = DType.F32;
      acc = DType.F32;
    } else {
      as = a == b ? a : out;
      acc = ir.numerics().dotAccumulation(as, out);
    }
    int nb = dn.lhsBatch().length;
    int lhsFree = lhs.rank() - nb - dn.lhsContract().length;
    GemmCore.Operand lhsOp = operand(ir, cx.operands().get(0), a, as, lhs.rank(), dn.lhsBatch(), dn.lhsContract(), nb);
    GemmCore.Operand rhsOp = operand(ir, cx.operands().get(1), b, as, rhs.rank(), dn.rhsBatch(), dn.rhsContract(), nb + lhsFree);
    if (inPlace(cx, 1, b, as, acc, rhs.rank(), dn.rhsBatch(), dn.rhsContract(), false)) {
      rhsOp = inPlace(rhsOp, () -> cx.operandBase(1), Layout.B_KN);
    } else if (inPlace(cx, 1, b, as, acc, rhs.rank(), dn.rhsBatch(), dn.rhsContract(), true)) {
      rhsOp = inPlace(rhsOp, () -> cx.operandBase(1), Layout.B_NK);
    }
    if (inPlace(cx, 0, a, as, acc, lhs.rank(), dn.lhsBatch(), dn.lhsContract(), false)) {
      lhsOp = inPlace(lhsOp, () -> cx.operandBase(0), Layout.A_KM);
    } else if (inPlace(cx, 0, a, as, acc, lhs.rank(), dn.lhsBatch(), dn.lhsContract(), true)) {
      lhsOp = inPlace(lhsOp, () -> cx.operandBase(0), Layout.A_MK);
    }
    long[] red = new long[dn.lhsContract().length];
    for (int k = 0; k < red.length; k++) red[k] = lhs.shape().sizes()[(int) dn.lhsContract()[k]];
    GemmCore.Spec spec = new GemmCore.Spec(res.shape().sizes(), red, lhsOp, rhsOp,
        GemmAccumulator.plain(ir, as, as, acc, out), cx::storeResult);
    // A result only a transpose reads is stored in the transpose's order (plan/Epilogues).
    int[] perm = cx.resultPermutation();
    return perm == null ? spec : GemmOrder.transposed(spec, perm);
  }

  /** How an operand read from its buffer lies in memory (batch axes first in every case). */
  private enum Layout {
    /** rhs [batch…, K, N]: read in place or packed by row copies. */
    B_KN,
    /** rhs [batch…, N, K]: packed by register transposes. */
    B_NK,
    /** lhs [batch…, K, M]: packed by register transposes. */
    A_KM,
    /** lhs [batch…, M, K]: read in place where K is one slice. */
    A_MK
  }

  /**
   * Whether operand {@code operand} lies in memory as the packed GEMM can read it from its buffer: a
   * buffer (not a literal) laid out [batch…, K, free] (batch axes first in order, one contracting
   * axis, then one free axis; {@code freeFirst}: [batch…, free, K]), whose dtype is the
   * accumulation dtype (f32 or f64) and whose elements are read as they are (denormals flushed by
   * the hardware, not in software).
   */
  private static boolean inPlace(KernelContext cx, int operand, DType b, DType as, DType acc, int rank, long[] batch,
      long[] contract, boolean freeFirst) {
    if (!GemmPacked.readsAsIs(cx, operand, b, as, acc)) return false;
    if (rank != batch.length + 2 || contract.length != 1 || contract[0] != batch.length + (freeFirst ? 1 : 0)) return false;
    for (int i = 0; i < batch.length; i++) if (batch[i] != i) return false;
    return true;
  }

  /** {@code op} with its buffer's address (asked only when the packed form reads it in place or packs it from there). */
  private static GemmCore.Operand inPlace(GemmCore.Operand op, Supplier<LLVMValueRef> base, Layout layout) {
    return switch (layout) {
      case B_KN -> new GemmLaidOut(op, base, null, null, null);
      case B_NK -> new GemmLaidOut(op, null, base, null, null);
      case A_KM -> new GemmLaidOut(op, null, null, base, null);
      case A_MK -> new GemmLaidOut(op, null, null, null, base);
    };
  }

  /**
   * An operand of rank {@code rank} whose batch axes are the first output axes, whose free axes
   * (in order) are the output axes from {@code freeAt}, and whose contracting axes are the
   * reduction axes; its elements enter as dtype {@code as}.
   */
  private static GemmCore.Operand operand(Ir ir, ElementGenerator g, DType d, DType as, int rank, long[] batch,
      long[] contract, int freeAt) {
    int[] fromOut = new int[rank];  // the output axis an operand axis reads, or -1
    int[] fromRed = new int[rank];  // the reduction axis it reads, or -1
    Arrays.fill(fromOut, -1);
    Arrays.fill(fromRed, -1);
    for (int k = 0; k < batch.length; k++) fromOut[(int) batch[k]] = k;
    for (int k = 0; k < contract.length; k++) fromRed[(int) contract[k]] = k;
    int free = freeAt;
    for (int i = 0; i < rank; i++) if (fromOut[i] < 0 && fromRed[i] < 0) fromOut[i] = free++;
    return new GemmCore.Operand() {
      @Override
      public GemmCore.Term at(Index out, Index red) {
        LLVMValueRef[] idx = new LLVMValueRef[rank];
        for (int i = 0; i < rank; i++) idx[i] = fromOut[i] >= 0 ? out.get(fromOut[i]) : red.get(fromRed[i]);
        return GemmCore.Term.of(Conversions.convert(ir, g.at(Index.of(idx)), d, as));
      }

      @Override
      public boolean reads(int axis) {
        for (int i : fromOut) if (i == axis) return true;
        return false;
      }

      @Override
      public boolean minorAlongReduction() {
        return rank > 0 && contract.length > 0 && fromRed[rank - 1] == contract.length - 1;
      }
    };
  }
}
