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
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * conv_general_dilated on {@link GemmCore}, in direct (im2col-free) form: the output axes are the
 * result's, the reduction axes the kernel window positions and the input features of a group.
 * The lhs element of output position y and window position k along a spatial axis sits at
 * {@code q = y·stride + k·rhs_dilation − pad_low} of the padded, lhs-dilated input: a real element
 * where q lies inside it and is a multiple of lhs_dilation, padding otherwise. Feature groups pick
 * the lhs features of the output feature's group, batch groups its lhs batch slice (group-major).
 *
 * <p>How padding takes part follows XLA:CPU: f16, bf16 and f32 convolutions multiply the kernel
 * by padding and lhs-dilation zeros (so an infinite weight over padding gives NaN) except the
 * lhs-dilated ones {@link #skipsHoles} names; f64 ones skip padding and lhs-dilation holes.
 * Skipping convolutions run as {@link ConvPieces} where they have an interior. f64 depthwise
 * convolutions are expanded to all input features with a block-diagonal kernel (so an infinite input of one group gives the other groups
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
  /** The part of the convolution computed (all of it, or a piece: {@link ConvPieces}). */
  private final ConvView view;

  private GemmConv(Ir ir, GemmParams.ConvDims c, ArrayType lhs, ArrayType rhs, ArrayType res, ConvView view) {
    this.ir = ir;
    this.c = c;
    this.lhsSizes = lhs.shape().sizes();
    this.rhsSizes = rhs.shape().sizes();
    long[] out = res.shape().sizes().clone();
    int d = c.spatial();
    if (view == null) {
      long[] spatialOut = new long[d];
      long[] window = new long[d];
      for (int i = 0; i < d; i++) {
        spatialOut[i] = out[c.out()[2 + i]];
        window[i] = rhsSizes[c.rhs()[2 + i]];
      }
      view = ConvView.whole(spatialOut, window);
    }
    for (int i = 0; i < d; i++) out[c.out()[2 + i]] = view.outCount()[i];
    this.view = view;
    this.outSizes = out;
    this.dtype = lhs.dtype();
    long features = rhsSizes[c.rhs()[0]];
    this.groupFeatures = features / c.featureGroups();
    this.batchFeatures = features / c.batchGroups();
    DType part = dtype.realPart();
    this.expand = part == DType.F64 && c.featureGroups() > 1 && rhsSizes[c.rhs()[1]] == 1;
    boolean zeroPadding = part == DType.F16 || part == DType.BF16 || part == DType.F32;
    this.skip = !view.interior() && dtype.isInexact() && (!zeroPadding || skipsHoles(c));
  }

  /**
   * Whether XLA:CPU skips the lhs-dilation holes and padding of an f32, f16 or bf16 convolution
   * (its other convolutions of those dtypes multiply them as zeros): lhs-dilated 1-D and 2-D
   * convolutions of unit window strides and rhs dilation without feature groups — transposed
   * convolutions and input gradients of unstrided ones. Measured with an infinite weight in JAX
   * 0.10.2 (golden case conv_lhs_dilation_inf_weights): window strides of 2, rhs dilation 2, a
   * 3-D convolution or two feature groups each give NaN where the weight meets a hole.
   */
  private static boolean skipsHoles(GemmParams.ConvDims c) {
    boolean ones = true;
    for (int i = 0; i < c.spatial(); i++) ones &= c.strides()[i] == 1 && c.rhsDilation()[i] == 1;
    boolean lhsDilated = Arrays.stream(c.lhsDilation()).anyMatch(x -> x > 1);
    return lhsDilated && ones && c.featureGroups() == 1 && c.spatial() <= 2;
  }

  /**
   * Emits {@code cx}'s convolution: where its skipped terms keep it off the packed GEMM, as the
   * interior pieces of {@link ConvPieces} (packed GEMMs) and the border around them (the
   * skipping nest); else whole. conv_transpose of stride 2 (8 × 28² × 64 → 56² × 32, 3 × 3) on a
   * Cascade Lake: 7.9 ms whole in the nest, 2.95 in pieces (XLA 5.9).
   */
  static void emit(KernelContext cx) {
    GemmCore core = new GemmCore(cx.ir(), cx.loops());
    GemmConv whole = of(cx, null);
    List<ConvView> pieces = whole.skip ? ConvPieces.plan(whole.axes()) : null;
    List<GemmCore.Spec> specs = pieces == null ? List.of() : pieces.stream().map(v -> of(cx, v).contraction(cx)).toList();
    if (specs.isEmpty() || !GemmPacked.applies(cx.ir(), specs.get(0))) specs = List.of(whole.contraction(cx));
    for (GemmCore.Spec s : specs) core.emit(s);
  }

  /** The contraction of {@code cx}'s convolution (also what the GPU's tiled kernel computes). */
  static GemmCore.Spec spec(KernelContext cx) {
    return of(cx, null).contraction(cx);
  }

  private static GemmConv of(KernelContext cx, ConvView view) {
    ArrayType lhs = cx.operandType(0);
    return new GemmConv(cx.ir(), GemmParams.conv(cx.eqn().params(), lhs.rank()), lhs, cx.operandType(1),
        cx.resultTypes().get(0), view);
  }

  /** The spatial axes' geometry. */
  private ConvPieces.Axis[] axes() {
    int d = c.spatial();
    ConvPieces.Axis[] a = new ConvPieces.Axis[d];
    for (int i = 0; i < d; i++)
      a[i] = new ConvPieces.Axis(view.outCount()[i], lhsSizes[c.lhs()[2 + i]], window(i), c.strides()[i],
          c.lhsDilation()[i], c.rhsDilation()[i], c.padding()[i][0]);
    return a;
  }

  private GemmCore.Spec contraction(KernelContext cx) {
    ArrayType lhs = cx.operandType(0);
    ArrayType rhs = cx.operandType(1);
    ArrayType res = cx.resultTypes().get(0);
    DType out = res.dtype();
    GemmAccumulator acc = dtype.isComplex()
        ? GemmAccumulator.gauss(cx.ir(), dtype, out)
        : GemmAccumulator.plain(cx.ir(), dtype, dtype, cx.ir().numerics().dotAccumulation(dtype, out), out);
    long[] red = reduction();
    // An empty operand leaves only padding: every output element is an empty sum.
    if (lhs.shape().elementCount() == 0 || rhs.shape().elementCount() == 0) red[red.length - 1] = 0;
    GemmCore.Spec spec = new GemmCore.Spec(outSizes, red, lhs(cx.operands().get(0), inPlaceRows(cx), columns(cx)),
        rhs(cx.operands().get(1)), acc, (o, v) -> cx.storeResult(outIndex(o), v));
    boolean split = grouped() && c.batchGroups() == 1 && groupFeatures >= 2;
    return split ? splitGroups(spec) : spec;
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

  /** The window positions taken along spatial axis i. */
  private long window(int i) {
    return view.tapCount()[i];
  }

  /** {@code x0 + step·t} */
  private LLVMValueRef affine(LLVMValueRef t, long x0, long step) {
    return ir.add(ir.mul(t, ir.i64(step)), ir.i64(x0));
  }

  /** Output position along spatial axis i of the view's position t. */
  private LLVMValueRef outAt(int i, LLVMValueRef t) {
    return affine(t, view.outStart()[i], view.outStep()[i]);
  }

  /** Window position along spatial axis i of the view's position j. */
  private LLVMValueRef tapAt(int i, LLVMValueRef j) {
    return affine(j, view.tapStart()[i], view.tapStep()[i]);
  }

  /** The result's index of the view's output index. */
  private Index outIndex(Index o) {
    LLVMValueRef[] idx = new LLVMValueRef[o.rank()];
    for (int i = 0; i < idx.length; i++) idx[i] = o.get(i);
    for (int i = 0; i < c.spatial(); i++) idx[c.out()[2 + i]] = outAt(i, o.get(c.out()[2 + i]));
    return Index.of(idx);
  }

  private boolean grouped() {
    return c.featureGroups() > 1 && !expand;
  }

  /**
   * Whether A's tiles may be read from the input's buffer by address ({@link ConvRows}, {@link
   * ConvColumns}): a whole convolution (not a piece) with spatial axes, without groups, skipped
   * terms or lhs dilation, whose input is a buffer read as it lies.
   */
  private boolean plainInput(KernelContext cx) {
    int d = c.spatial();
    if (d == 0 || skip || expand || c.featureGroups() != 1 || c.batchGroups() != 1) return false;
    DType acc = cx.ir().numerics().dotAccumulation(dtype, cx.resultTypes().get(0).dtype());
    if (!GemmPacked.readsAsIs(cx, 0, dtype, dtype, acc)) return false;
    for (int i = 0; i < d; i++) {
      if (view.outStart()[i] != 0 || view.outStep()[i] != 1 || view.tapStart()[i] != 0 || view.tapStep()[i] != 1) return false;
      if (c.lhsDilation()[i] != 1) return false;
    }
    return true;
  }

  /**
   * How the packed GEMM can read the input's tiles in place ({@link ConvRows}), or null: a whole
   * convolution (not a piece) of an f32 or f64 buffer read as it is (its dtype the accumulation's,
   * denormals left to the hardware), channels-last input (batch, spatial axes in order, features
   * last), the output's batch and spatial axes in that order (so M flattens as the input's rows),
   * no lhs dilation, unit rhs dilation along the last spatial axis, no groups, nothing skipped.
   */
  private ConvRows inPlaceRows(KernelContext cx) {
    int d = c.spatial();
    if (!plainInput(cx)) return null;
    if (c.rhsDilation()[d - 1] != 1) return null;
    if (c.lhs()[0] != 0 || c.lhs()[1] != d + 1) return null;
    for (int i = 0; i < d; i++) if (c.lhs()[2 + i] != 1 + i) return null;
    for (int i = 0; i < d; i++) if (c.out()[2 + i] <= (i == 0 ? c.out()[0] : c.out()[1 + i])) return null;
    long features = lhsSizes[d + 1];
    long kw = window(d - 1);
    long run = kw * features;
    long stride = c.strides()[d - 1] * features;
    long xo = outSizes[c.out()[1 + d]];
    long w = lhsSizes[d];
    long s = c.strides()[d - 1];
    long px = c.padding()[d - 1][0];
    // M flattens (batch, output positions…); K (outer window positions…, offset in the run).
    long[] mSizes = new long[d + 1];
    mSizes[0] = outSizes[c.out()[0]];
    for (int i = 0; i < d; i++) mSizes[1 + i] = outSizes[c.out()[2 + i]];
    long[] kSizes = new long[d];
    for (int i = 0; i < d - 1; i++) kSizes[i] = window(i);
    kSizes[d - 1] = run;
    return new ConvRows() {
      @Override
      public long run() {
        return run;
      }

      @Override
      public long stride() {
        return stride;
      }

      @Override
      public LLVMValueRef[] tile(LLVMValueRef m0, LLVMValueRef k0, int mr) {
        LLVMValueRef[] m = GemmPacking.decode(ir, m0, mSizes);
        LLVMValueRef[] k = GemmPacking.decode(ir, k0, kSizes);
        LLVMValueRef x0 = m[d];
        // The tile's rows share one output row, and every tap of the run lies inside the input.
        LLVMValueRef ok = ir.icmp(LLVMIntULE, ir.add(x0, ir.i64(mr)), ir.i64(xo));
        LLVMValueRef ix0 = ir.sub(ir.mul(x0, ir.i64(s)), ir.i64(px));
        LLVMValueRef ixLast = ir.add(ix0, ir.i64((mr - 1) * s + kw - 1));
        ok = ir.and(ok, ir.and(ir.icmp(LLVMIntSGE, ix0, ir.i64(0)), ir.icmp(LLVMIntSLT, ixLast, ir.i64(w))));
        LLVMValueRef lin = m[0];
        for (int i = 0; i < d - 1; i++) {
          LLVMValueRef iy = ir.sub(ir.add(ir.mul(m[1 + i], ir.i64(c.strides()[i])), ir.mul(k[i], ir.i64(c.rhsDilation()[i]))),
              ir.i64(c.padding()[i][0]));
          ok = ir.and(ok, ir.and(ir.icmp(LLVMIntSGE, iy, ir.i64(0)), ir.icmp(LLVMIntSLT, iy, ir.i64(lhsSizes[1 + i]))));
          lin = ir.add(ir.mul(lin, ir.i64(lhsSizes[1 + i])), iy);
        }
        lin = ir.add(ir.mul(ir.add(ir.mul(lin, ir.i64(w)), ix0), ir.i64(features)), k[d - 1]);
        // Outside the input the address is never read (the tile is packed instead): keep it in range.
        lin = ir.select(ok, lin, ir.i64(0));
        LLVMValueRef base = cx.operandBase(0);
        return new LLVMValueRef[] {ok, ir.gep(ElementTypes.compute(ir, dtype), base, lin)};
      }
    };
  }

  private GemmCore.Operand lhs(ElementGenerator g, ConvRows rows, ConvColumns columns) {
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

      @Override
      public ConvRows convRows() {
        return rows;
      }

      @Override
      public ConvColumns convColumns() {
        return columns;
      }
    };
  }

  /**
   * How A's micro-panels can be packed by transposes ({@link ConvColumns}), or null: a whole
   * convolution (not a piece) without groups or skipped terms, its input a buffer read as it lies,
   * laid out [batch, features, spatial…] with the output's batch and spatial axes in that order,
   * unit window stride and no lhs dilation along the last spatial axis.
   */
  private ConvColumns columns(KernelContext cx) {
    int d = c.spatial();
    if (!plainInput(cx)) return null;
    if (c.strides()[d - 1] != 1) return null;
    if (c.lhs()[0] != 0 || c.lhs()[1] != 1) return null;
    for (int i = 0; i < d; i++) if (c.lhs()[2 + i] != 2 + i) return null;
    for (int i = 0; i < d; i++) if (c.out()[2 + i] <= (i == 0 ? c.out()[0] : c.out()[1 + i])) return null;
    long features = lhsSizes[1];
    long plane = 1;
    for (int i = 0; i < d; i++) plane *= lhsSizes[2 + i];
    long xo = outSizes[c.out()[1 + d]];
    long w = lhsSizes[1 + d];
    long px = c.padding()[d - 1][0];
    long rdx = c.rhsDilation()[d - 1];
    // M flattens (batch, output positions…); K (window positions…, input feature).
    long[] mSizes = new long[d + 1];
    mSizes[0] = outSizes[c.out()[0]];
    for (int i = 0; i < d; i++) mSizes[1 + i] = outSizes[c.out()[2 + i]];
    long[] kSizes = reduction();
    long planeF = plane;
    return new ConvColumns() {
      @Override
      public long plane() {
        return planeF;
      }

      @Override
      public LLVMValueRef[] tile(LLVMValueRef m0, LLVMValueRef k0, int rows, int lanes) {
        LLVMValueRef[] m = GemmPacking.decode(ir, m0, mSizes);
        LLVMValueRef[] k = GemmPacking.decode(ir, k0, kSizes);
        LLVMValueRef x0 = m[d];
        // The rows share one output row, and the features stay in one window position.
        LLVMValueRef ok = ir.icmp(LLVMIntULE, ir.add(x0, ir.i64(rows)), ir.i64(xo));
        ok = ir.and(ok, ir.icmp(LLVMIntULE, ir.add(k[d], ir.i64(lanes)), ir.i64(features)));
        LLVMValueRef ix0 = ir.sub(ir.add(x0, ir.mul(k[d - 1], ir.i64(rdx))), ir.i64(px));
        LLVMValueRef inside = ir.bool(true);
        LLVMValueRef lin = ir.add(ir.mul(m[0], ir.i64(features)), k[d]);
        for (int i = 0; i < d - 1; i++) {
          LLVMValueRef iy = ir.sub(ir.add(ir.mul(m[1 + i], ir.i64(c.strides()[i])), ir.mul(k[i], ir.i64(c.rhsDilation()[i]))),
              ir.i64(c.padding()[i][0]));
          inside = ir.and(inside, ir.and(ir.icmp(LLVMIntSGE, iy, ir.i64(0)), ir.icmp(LLVMIntSLT, iy, ir.i64(lhsSizes[2 + i]))));
          lin = ir.add(ir.mul(lin, ir.i64(lhsSizes[2 + i])), iy);
        }
        lin = ir.add(ir.mul(lin, ir.i64(w)), ix0);
        // Row j reads input column ix0 + j: inside the input, among the tile's rows, on a row inside.
        LLVMValueRef[] lane = new LLVMValueRef[lanes];
        for (int j = 0; j < lanes; j++) {
          LLVMValueRef x = ir.add(ix0, ir.i64(j));
          LLVMValueRef in = j < rows ? ir.and(inside, ir.and(ir.icmp(LLVMIntSGE, x, ir.i64(0)), ir.icmp(LLVMIntSLT, x, ir.i64(w))))
              : ir.bool(false);
          lane[j] = in;
        }
        LLVMValueRef mask = LLVMGetUndef(LLVMVectorType(ir.i1, lanes));
        for (int j = 0; j < lanes; j++) mask = LLVMBuildInsertElement(ir.b, mask, lane[j], ir.i32(j), "");
        // A plain address: a row outside the input (masked off) may put it before the input's start.
        PointerPointer<LLVMValueRef> off = new PointerPointer<>(1);
        off.put(0, ir.select(inside, lin, ir.i64(0)));
        LLVMValueRef at = LLVMBuildGEP2(ir.b, ElementTypes.compute(ir, dtype), cx.operandBase(0), off, 1, "");
        return new LLVMValueRef[] {ok, at, mask};
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
    long y0 = view.outStart()[i];
    long k0 = view.tapStart()[i];
    if (view.interior()) {
      // Every q is a multiple of ld inside the input: the input position is affine in (t, j).
      long ys = view.outStep()[i] * s;
      long ks = view.tapStep()[i] * rd;
      long q0 = y0 * s + k0 * rd - lo;
      if (ys % ld != 0 || ks % ld != 0 || Math.floorMod(q0, ld) != 0) throw new AssertionError("not an interior piece");
      idx[c.lhs()[2 + i]] = ir.add(ir.add(ir.mul(out.get(c.out()[2 + i]), ir.i64(ys / ld)),
          ir.mul(red.get(i), ir.i64(ks / ld))), ir.i64(q0 / ld));
      return null;
    }
    LLVMValueRef q = ir.add(ir.add(ir.mul(outAt(i, out.get(c.out()[2 + i])), ir.i64(s)), ir.mul(tapAt(i, red.get(i)), ir.i64(rd))),
        ir.i64(-lo));
    long qMin = y0 * s + k0 * rd - lo;
    long qMax = (y0 + (view.outCount()[i] - 1) * view.outStep()[i]) * s + (k0 + (window(i) - 1) * view.tapStep()[i]) * rd - lo;
    if (ld == 1 && qMin >= 0 && qMax < size) {
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
        for (int i = 0; i < d; i++) idx[c.rhs()[2 + i]] = tapAt(i, red.get(i));
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
