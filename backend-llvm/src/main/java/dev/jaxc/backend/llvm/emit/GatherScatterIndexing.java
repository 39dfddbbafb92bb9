package dev.jaxc.backend.llvm.emit;

import static dev.jaxc.backend.llvm.emit.GatherScatterParams.contains;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.params.GatherParams;
import dev.jaxc.ir.prim.params.GatherScatterMode;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Start indices as XLA:CPU reads them, and gather split into the start of a slice (per index
 * vector) and an element of it (per offset), so a kernel can hoist the first out of its inner
 * loop and a fusion can compose both into one generator. XLA widens an index to 64 bits by its
 * own signedness and clamps start indices into [0, dim - slice size], comparing unsigned for
 * unsigned dtypes; JAX lowers FILL_OR_DROP gathers to a mask on the indices converted to int32
 * (int64 when an operand dim exceeds int32) followed by that clamping gather.
 */
public final class GatherScatterIndexing {
  private final Ir ir;

  public GatherScatterIndexing(Ir ir) {
    this.ir = ir;
  }

  private static ArrayType type(Atom a) {
    return (ArrayType) a.type();
  }

  private static boolean signed(DType d) {
    return d.kind() == DType.Kind.INT;
  }

  /** An index of dtype {@code d} as i64, extended by its signedness. */
  public LLVMValueRef widen(DType d, Value v) {
    return ir.intCast(v.v(), ir.i64, signed(d));
  }

  /** Component {@code k} of the index vector at batch position {@code batch}, as i64. */
  public LLVMValueRef component(ElementGenerator indices, DType d, LLVMValueRef[] batch, int k) {
    List<LLVMValueRef> at = new ArrayList<>(List.of(batch));
    at.add(ir.i64(k));
    return widen(d, indices.at(new Index(at)));
  }

  /** {@code i} clamped into [0, max] (max ≥ 0); unsigned indices are never below 0. */
  public LLVMValueRef clamp(LLVMValueRef i, boolean signed, long max) {
    LLVMValueRef hi = ir.i64(max);
    if (!signed) return ir.select(ir.icmp(LLVMIntUGT, i, hi), hi, i);
    LLVMValueRef lo = ir.select(ir.icmp(LLVMIntSLT, i, ir.i64(0)), ir.i64(0), i);
    return ir.select(ir.icmp(LLVMIntSGT, lo, hi), hi, lo);
  }

  /** Clamps a start index of dtype {@code d} so a slice of {@code size} fits in {@code dim}. */
  public LLVMValueRef clampStart(LLVMValueRef i, DType d, long dim, long size) {
    return clamp(i, signed(d), Math.max(0, dim - size));
  }

  /** x if c, else y (c is i1). */
  public Value select(LLVMValueRef c, Value x, Value y) {
    if (x.isComplex()) return Value.complex(ir.select(c, x.re(), y.re()), ir.select(c, x.im(), y.im()));
    return Value.of(ir.select(c, x.v(), y.v()));
  }

  /** The slice one index vector selects: its operand start, and whether a filling gather keeps it. */
  public record Start(LLVMValueRef[] at, LLVMValueRef inside) {}

  /** {@code gather operand indices} of one equation (see {@link #gather}). */
  public GatherLowering gather(Eqn e, ElementGenerator operand, ElementGenerator indices) {
    return new GatherLowering(e, operand, indices);
  }

  /**
   * Output dims not in {@code offset_dims} walk the indices' batch dims in order; offset dims
   * walk the operand dims that are neither collapsed nor batching, in order, from the start.
   */
  public final class GatherLowering {
    private final Eqn e;
    private final GatherParams g;
    private final GatherScatterMode mode;
    private final ElementGenerator operand;
    private final ElementGenerator indices;
    private final long[] op;
    private final DType indexDType;
    private final int[] batchAt;  // the output position of each batch dim of the indices
    private final int[] window;  // the operand dims the offset dims walk, in order
    private final LLVMTypeRef maskType;

    private GatherLowering(Eqn e, ElementGenerator operand, ElementGenerator indices) {
      this.e = e;
      this.g = GatherScatterParams.gather(e);
      this.mode = GatherScatterParams.mode(e);
      this.operand = operand;
      this.indices = indices;
      this.op = type(e.ins().get(0)).shape().sizes();
      ArrayType idx = type(e.ins().get(1));
      this.indexDType = idx.dtype();
      int outRank = type(e.outs().get(0)).shape().rank();
      batchAt = new int[idx.shape().rank() - 1];
      for (int i = 0, b = 0; i < outRank; i++) if (!contains(g.offsetDims(), i)) batchAt[b++] = i;
      window = new int[g.offsetDims().length];
      for (int d = 0, j = 0; d < op.length; d++) {
        if (!contains(g.collapsedSliceDims(), d) && !contains(g.operandBatchingDims(), d)) window[j++] = d;
      }
      boolean wide = false;
      for (long n : op) wide |= n > Integer.MAX_VALUE;
      maskType = wide ? ir.i64 : ir.i32;
    }

    /** True if the offset dims are the output's trailing dims (the batch dims lead). */
    public boolean offsetsTrail() {
      for (int j = 0; j < batchAt.length; j++) if (batchAt[j] != j) return false;
      return true;
    }

    /** The indices' batch dims (the output's non-offset dims). */
    public long[] batchShape() {
      long[] out = type(e.outs().get(0)).shape().sizes();
      long[] r = new long[batchAt.length];
      for (int j = 0; j < r.length; j++) r[j] = out[batchAt[j]];
      return r;
    }

    /** The slice sizes along the offset dims. */
    public long[] windowShape() {
      long[] r = new long[window.length];
      for (int j = 0; j < r.length; j++) r[j] = g.sliceSizes()[window[j]];
      return r;
    }

    public Start start(LLVMValueRef[] batch) {
      LLVMValueRef[] at = new LLVMValueRef[op.length];
      for (int d = 0; d < op.length; d++) at[d] = ir.i64(0);
      LLVMValueRef inside = ir.bool(true);
      boolean fill = mode == GatherScatterMode.FILL_OR_DROP;
      for (int k = 0; k < g.startIndexMap().length; k++) {
        int d = (int) g.startIndexMap()[k];
        LLVMValueRef s = component(indices, indexDType, batch, k);
        long size = g.sliceSizes()[d];
        if (fill) {
          s = ir.sext(ir.trunc(s, maskType), ir.i64);
          LLVMValueRef c = clamp(s, true, Math.max(0, op[d] - size));
          inside = ir.and(inside, ir.icmp(LLVMIntEQ, c, s));
          s = c;
        } else {
          s = clampStart(s, indexDType, op[d], size);
        }
        at[d] = s;
      }
      for (int i = 0; i < g.operandBatchingDims().length; i++) {
        at[(int) g.operandBatchingDims()[i]] = batch[(int) g.startIndicesBatchingDims()[i]];
      }
      return new Start(at, inside);
    }

    /** The element at {@code offsets} (one per offset dim, in order) of the slice at {@code s}. */
    public Value element(Start s, LLVMValueRef[] offsets) {
      LLVMValueRef[] at = s.at().clone();
      for (int j = 0; j < window.length; j++) at[window[j]] = ir.add(at[window[j]], offsets[j]);
      Value v = operand.at(Index.of(at));
      return mode == GatherScatterMode.FILL_OR_DROP ? select(s.inside(), v, fillValue()) : v;
    }

    /** The whole gather as one generator over the output index. */
    public ElementGenerator generator() {
      return idx -> {
        LLVMValueRef[] batch = new LLVMValueRef[batchAt.length];
        for (int j = 0; j < batch.length; j++) batch[j] = idx.get(batchAt[j]);
        LLVMValueRef[] offsets = new LLVMValueRef[window.length];
        for (int j = 0; j < offsets.length; j++) offsets[j] = idx.get((int) g.offsetDims()[j]);
        return element(start(batch), offsets);
      };
    }

    /**
     * The printed {@code fill_value} converted to the dtype, or JAX's default when it is None:
     * NaN for inexact dtypes, the minimum of signed and the maximum of unsigned integers, True.
     */
    private Value fillValue() {
      DType d = type(e.outs().get(0)).dtype();
      ParamValue v = g.fillValue();
      if (v instanceof ParamValue.None) {
        if (d.isInexact()) return Conversions.convert(ir, Value.of(ir.constReal(ir.f64, Double.NaN)), DType.F64, d);
        if (d == DType.BOOL) return Value.of(ir.bool(true));
        long extreme = signed(d) ? -1L << (d.byteSize() * 8 - 1) : -1L;
        return Value.of(ir.constInt(ElementTypes.compute(ir, d), extreme));
      }
      if (v instanceof ParamValue.Int i)
        return Conversions.convert(ir, Value.of(ir.i64(i.value().longValue())), DType.I64, d);
      if (v instanceof ParamValue.Float f)
        return Conversions.convert(ir, Value.of(ir.constReal(ir.f64, f.value())), DType.F64, d);
      if (v instanceof ParamValue.Bool b)
        return Conversions.convert(ir, Value.of(ir.bool(b.value())), DType.BOOL, d);
      throw GatherScatterParams.error(e, "fill_value " + v);
    }
  }
}
