package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Type.ArrayType;
import java.util.Arrays;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * conv_general_dilated on {@link GemmCore}, in direct (im2col-free) form: the output axes are the
 * result's, the reduction axes the kernel window positions and the input features of a group.
 * The lhs element of output position y and window position k along a spatial axis sits at
 * {@code q = y·stride + k·rhs_dilation − pad_low} of the padded, lhs-dilated input: a real element
 * where q lies inside it and is a multiple of lhs_dilation, padding otherwise. Feature groups pick
 * the lhs features of the output feature's group, batch groups its lhs batch slice (group-major).
 *
 * <p>How padding takes part follows XLA:CPU: f16, bf16 and f32 convolutions without lhs dilation
 * multiply the kernel by padding zeros (so an infinite weight over padding gives NaN); the others
 * skip padding and lhs-dilation holes. f64 depthwise convolutions are expanded to all input
 * features with a block-diagonal kernel (so an infinite input of one group gives the other groups
 * NaN). Complex convolutions are three real ones ({@link GemmAccumulator#gauss}), as JAX lowers
 * them for CPU.
 */
final class GemmConv {
  private final Ir ir;
  private final GemmParams.ConvDims c;
  private final long[] lhsSizes;
  private final long[] rhsSizes;
  private final long[] outSizes;
  private final DType dtype;
  private final long groupFeatures;   // output features per feature group
  private final long batchFeatures;   // output features per batch group
  private final boolean expand;
  private final boolean skip;

  private GemmConv(Ir ir, GemmParams.ConvDims c, ArrayType lhs, ArrayType rhs, ArrayType res) {
    this.ir = ir;
    this.c = c;
    this.lhsSizes = lhs.shape().sizes();
    this.rhsSizes = rhs.shape().sizes();
    this.outSizes = res.shape().sizes();
    this.dtype = lhs.dtype();
    long features = rhsSizes[c.rhs()[0]];
    this.groupFeatures = features / c.featureGroups();
    this.batchFeatures = features / c.batchGroups();
    DType part = dtype.realPart();
    this.expand = part == DType.F64 && c.featureGroups() > 1 && rhsSizes[c.rhs()[1]] == 1;
    boolean lhsDilated = Arrays.stream(c.lhsDilation()).anyMatch(x -> x > 1);
    boolean zeroPadding = part == DType.F16 || part == DType.BF16 || part == DType.F32;
    this.skip = dtype.isInexact() && (lhsDilated || !zeroPadding);
  }

  static void emit(KernelContext cx) {
    new GemmCore(cx.ir(), cx.loops()).emit(spec(cx));
  }

  /** The contraction of {@code cx}'s convolution (also what the GPU's tiled kernel computes). */
  static GemmCore.Spec spec(KernelContext cx) {
    ArrayType lhs = cx.operandType(0);
    ArrayType rhs = cx.operandType(1);
    ArrayType res = cx.resultTypes().get(0);
    GemmConv conv = new GemmConv(cx.ir(), GemmParams.conv(cx.eqn().params(), lhs.rank()), lhs, rhs, res);
    DType out = res.dtype();
    GemmAccumulator acc = conv.dtype.isComplex()
        ? GemmAccumulator.gauss(cx.ir(), conv.dtype, out)
        : GemmAccumulator.plain(cx.ir(), conv.dtype, conv.dtype, cx.ir().numerics().dotAccumulation(conv.dtype, out), out);
    long[] red = conv.reduction();
    // An empty operand leaves only padding: every output element is an empty sum.
    if (lhs.shape().elementCount() == 0 || rhs.shape().elementCount() == 0) red[red.length - 1] = 0;
    GemmCore.Spec spec = new GemmCore.Spec(conv.outSizes, red, conv.lhs(cx.operands().get(0)),
        conv.rhs(cx.operands().get(1)), acc, cx::storeResult);
    boolean split = conv.grouped() && conv.c.batchGroups() == 1 && conv.groupFeatures >= 2;
    return split ? conv.splitGroups(spec) : spec;
  }

  /**
   * A feature-grouped convolution with the output feature axis o split in two, (group, feature in
   * group), so the group is a batch axis (read by both operands) and the feature in the group is N
   * (read by the kernel only): a GEMM per group for {@link GemmPacked}, where unsplit the feature
   * axis is read by both operands and N would be 1. Row-major, the split axes lie in memory as o
   * did; operands and store see o = group · features + feature.
   */
  private GemmCore.Spec splitGroups(GemmCore.Spec s) {
    int f = c.out()[1];
    long[] out = new long[outSizes.length + 1];
    for (int i = 0, j = 0; i < outSizes.length; i++) {
      if (i == f) {
        out[j++] = c.featureGroups();
        out[j++] = groupFeatures;
      } else {
        out[j++] = outSizes[i];
      }
    }
    return new GemmCore.Spec(out, s.red(), split(s.a(), f, false), split(s.b(), f, true), s.acc(),
        (o, v) -> s.store().at(merge(o, f), v));
  }

  /**
   * {@code op} over the split output axes: both operands read the group axis, only the kernel
   * ({@code readsFeature}) the feature in the group.
   */
  private GemmCore.Operand split(GemmCore.Operand op, int f, boolean readsFeature) {
    return new GemmCore.Operand() {
      @Override
      public GemmCore.Term at(Index out, Index red) {
        return op.at(merge(out, f), red);
      }

      @Override
      public boolean reads(int axis) {
        if (axis == f) return true;
        if (axis == f + 1) return readsFeature;
        return op.reads(axis < f ? axis : axis - 1);
      }

      @Override
      public boolean packable() {
        return op.packable();
      }
    };
  }

  /** The output index of a split index: axes f and f + 1 (group, feature) become o. */
  private Index merge(Index split, int f) {
    LLVMValueRef[] idx = new LLVMValueRef[split.rank() - 1];
    for (int i = 0, j = 0; i < split.rank(); i++) {
      if (i == f) {
        idx[j++] = ir.add(ir.mul(split.get(f), ir.i64(groupFeatures)), split.get(f + 1));
        i++;
      } else {
        idx[j++] = split.get(i);
      }
    }
    return Index.of(idx);
  }

  /** The window positions per spatial axis, then the input features (all of them if expanded). */
  private long[] reduction() {
    int d = c.spatial();
    long[] red = new long[d + 1];
    for (int i = 0; i < d; i++) red[i] = window(i);
    red[d] = expand ? lhsSizes[c.lhs()[1]] : rhsSizes[c.rhs()[1]];
    return red;
  }

  /** The kernel's extent along spatial axis i. */
  private long window(int i) {
    return rhsSizes[c.rhs()[2 + i]];
  }

  private boolean grouped() {
    return c.featureGroups() > 1 && !expand;
  }

  private GemmCore.Operand lhs(ElementGenerator g) {
    int d = c.spatial();
    long inFeatures = rhsSizes[c.rhs()[1]];
    long outBatch = outSizes[c.out()[0]];
    return new GemmCore.Operand() {
      @Override
      public GemmCore.Term at(Index out, Index red) {
        LLVMValueRef[] idx = new LLVMValueRef[lhsSizes.length];
        LLVMValueRef o = out.get(c.out()[1]);
        LLVMValueRef n = out.get(c.out()[0]);
        idx[c.lhs()[0]] = c.batchGroups() > 1 ? ir.add(ir.mul(ir.udiv(o, ir.i64(batchFeatures)), ir.i64(outBatch)), n) : n;
        LLVMValueRef f = red.get(d);
        idx[c.lhs()[1]] = grouped() ? ir.add(ir.mul(ir.udiv(o, ir.i64(groupFeatures)), ir.i64(inFeatures)), f) : f;
        LLVMValueRef valid = null;
        for (int i = 0; i < d; i++) {
          LLVMValueRef ok = spatial(i, out, red, idx);
          if (ok != null) valid = valid == null ? ok : ir.and(valid, ok);
        }
        Value v = g.at(Index.of(idx));
        if (valid == null) return GemmCore.Term.of(v);
        return skip ? new GemmCore.Term(v, valid) : GemmCore.Term.of(select(valid, v, zero()));
      }

      @Override
      public boolean reads(int axis) {
        if (axis == c.out()[1]) return grouped() || c.batchGroups() > 1;
        return true;
      }

      @Override
      public boolean packable() {
        return !skip;
      }
    };
  }

  /**
   * Sets the lhs index of spatial axis i for output position {@code out} and window position
   * {@code red}; returns whether that is a real input element, or null if it always is.
   */
  private LLVMValueRef spatial(int i, Index out, Index red, LLVMValueRef[] idx) {
    long s = c.strides()[i];
    long rd = c.rhsDilation()[i];
    long ld = c.lhsDilation()[i];
    long lo = c.padding()[i][0];
    long size = lhsSizes[c.lhs()[2 + i]];
    LLVMValueRef q = ir.add(ir.add(ir.mul(out.get(c.out()[2 + i]), ir.i64(s)), ir.mul(red.get(i), ir.i64(rd))), ir.i64(-lo));
    long qMax = (outSizes[c.out()[2 + i]] - 1) * s + (window(i) - 1) * rd - lo;
    if (ld == 1 && lo <= 0 && qMax < size) {
      idx[c.lhs()[2 + i]] = q;  // the window never leaves the input on this axis
      return null;
    }
    long dilated = (size - 1) * ld + 1;
    LLVMValueRef ok = ir.and(ir.icmp(LLVMIntSGE, q, ir.i64(0)), ir.icmp(LLVMIntSLT, q, ir.i64(dilated)));
    LLVMValueRef pos = q;
    if (ld > 1) {
      ok = ir.and(ok, ir.icmp(LLVMIntEQ, ir.urem(q, ir.i64(ld)), ir.i64(0)));
      pos = ir.udiv(q, ir.i64(ld));
    }
    idx[c.lhs()[2 + i]] = ir.select(ok, pos, ir.i64(0));  // an address inside the buffer either way
    return ok;
  }

  private GemmCore.Operand rhs(ElementGenerator g) {
    int d = c.spatial();
    return new GemmCore.Operand() {
      @Override
      public GemmCore.Term at(Index out, Index red) {
        LLVMValueRef[] idx = new LLVMValueRef[rhsSizes.length];
        LLVMValueRef o = out.get(c.out()[1]);
        idx[c.rhs()[0]] = o;
        for (int i = 0; i < d; i++) idx[c.rhs()[2 + i]] = red.get(i);
        if (!expand) {
          idx[c.rhs()[1]] = red.get(d);
          return GemmCore.Term.of(g.at(Index.of(idx)));
        }
        // Block-diagonal: input feature f meets output feature o only in o's group.
        idx[c.rhs()[1]] = ir.i64(0);
        LLVMValueRef mine = ir.icmp(LLVMIntEQ, red.get(d), ir.udiv(o, ir.i64(groupFeatures)));
        return GemmCore.Term.of(select(mine, g.at(Index.of(idx)), zero()));
      }

      @Override
      public boolean reads(int axis) {
        return axis == c.out()[1];
      }
    };
  }

  private Value select(LLVMValueRef cond, Value x, Value y) {
    if (x.isComplex()) return Value.complex(ir.select(cond, x.re(), y.re()), ir.select(cond, x.im(), y.im()));
    return Value.of(ir.select(cond, x.v(), y.v()));
  }

  /** A zero of the operands' dtype, in its compute type. */
  private Value zero() {
    var t = ElementTypes.compute(ir, dtype);
    return switch (dtype.kind()) {
      case BOOL, INT, UINT -> Value.of(ir.constInt(t, 0));
      case FLOAT -> Value.of(ir.constReal(t, 0.0));
      case COMPLEX -> Value.complex(ir.constReal(t, 0.0), ir.constReal(t, 0.0));
      case OTHER -> throw new IllegalArgumentException("convolution of " + dtype);
    };
  }
}
