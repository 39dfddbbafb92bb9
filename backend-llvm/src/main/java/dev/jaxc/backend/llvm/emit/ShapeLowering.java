package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The shape family as index rewrites: each maps an output index to an operand index (or picks
 * among operands) and calls the operand's generator there. Operands are only ever evaluated at
 * in-bounds indices, so a padded or concatenated position never loads out of range; where a
 * choice is made, the unused candidates are evaluated at a clamped index and discarded by a
 * select, which keeps loop bodies branch-free.
 */
final class ShapeLowering {
  private final Ir ir;
  private final Arith arith;
  private final IndexRanges ranges;

  ShapeLowering(Ir ir, Arith arith, IndexRanges ranges) {
    this.ir = ir;
    this.arith = arith;
    this.ranges = ranges;
  }

  static ArrayType type(Atom a) {
    return (ArrayType) a.type();
  }

  private static long[] sizes(Atom a) {
    return type(a).shape().sizes();
  }

  private LLVMValueRef zero() {
    return ir.i64(0);
  }

  /** Operand dim i is output dim bd[i]; a size-1 operand dim stays at 0. */
  ElementGenerator broadcastInDim(Eqn e, ElementGenerator x) {
    long[] in = sizes(e.ins().get(0));
    long[] out = sizes(e.outs().get(0));
    long[] bd = e.params().getLongsOpt("broadcast_dimensions").orElse(new long[0]);
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[in.length];
      for (int i = 0; i < in.length; i++) {
        int o = (int) bd[i];
        j[i] = in[i] == 1 && out[o] != 1 ? zero() : idx.get(o);
      }
      return x.at(Index.of(j));
    };
  }

  /** NumPy broadcasting: operand dims align with the trailing output dims. */
  ElementGenerator broadcastTo(Eqn e, ElementGenerator x) {
    long[] in = sizes(e.ins().get(0));
    long[] out = sizes(e.outs().get(0));
    int lead = out.length - in.length;
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[in.length];
      for (int i = 0; i < in.length; i++) j[i] = in[i] == 1 && out[lead + i] != 1 ? zero() : idx.get(lead + i);
      return x.at(Index.of(j));
    };
  }

  /** Out dim i is operand dim perm[i]. */
  ElementGenerator transpose(Eqn e, ElementGenerator x) {
    long[] perm = e.params().getLongs("permutation");
    return idx -> x.at(permuted(idx, perm));
  }

  private static Index permuted(Index idx, long[] perm) {
    LLVMValueRef[] j = new LLVMValueRef[perm.length];
    for (int i = 0; i < perm.length; i++) j[(int) perm[i]] = idx.get(i);
    return Index.of(j);
  }

  /** Drops size-1 dims: the operand index has 0 there. */
  ElementGenerator squeeze(Eqn e, ElementGenerator x) {
    int rank = sizes(e.ins().get(0)).length;
    boolean[] dropped = new boolean[rank];
    for (long d : e.params().getLongs("dimensions")) dropped[Math.floorMod(d, rank)] = true;
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[rank];
      int o = 0;
      for (int i = 0; i < rank; i++) j[i] = dropped[i] ? zero() : idx.get(o++);
      return x.at(Index.of(j));
    };
  }

  /**
   * Row-major reinterpretation; with {@code dimensions} (old JAX) the operand is transposed by
   * that permutation first. Dims are matched in runs of equal element count, so adding or
   * removing size-1 dims, or splitting one dim, costs no division by a run it does not touch.
   */
  ElementGenerator reshape(Eqn e, ElementGenerator x) {
    long[] in = sizes(e.ins().get(0));
    long[] out = sizes(e.outs().get(0));
    long[] perm = e.params().isNone("dimensions") ? null : e.params().getLongs("dimensions");
    long[] mid = in;
    if (perm != null) {
      mid = new long[in.length];
      for (int i = 0; i < in.length; i++) mid[i] = in[(int) perm[i]];
    }
    long[] from = mid;
    return idx -> {
      Index j = reindex(idx, out, from);
      return x.at(perm == null ? j : unpermute(j, perm));
    };
  }

  /** j is an index of the operand transposed by perm; the operand index is j[perm^-1]. */
  private static Index unpermute(Index j, long[] perm) {
    LLVMValueRef[] r = new LLVMValueRef[perm.length];
    for (int i = 0; i < perm.length; i++) r[(int) perm[i]] = j.get(i);
    return Index.of(r);
  }

  /** The index into shape {@code to} of the element at {@code idx} of shape {@code from}, same order. */
  private Index reindex(Index idx, long[] from, long[] to) {
    LLVMValueRef[] r = new LLVMValueRef[to.length];
    int a = 0;
    int b = 0;
    while (a < from.length || b < to.length) {
      // The next run: the fewest dims on each side with equal products (trailing 1s join it).
      int a0 = a;
      int b0 = b;
      long pa = a < from.length ? from[a++] : 1;
      long pb = b < to.length ? to[b++] : 1;
      while (pa != pb) {
        if (pa < pb) pa *= from[a++];
        else pb *= to[b++];
      }
      if (pa != 0) {
        while (a < from.length && from[a] == 1 && (b >= to.length || to[b] != 1)) a++;
        while (b < to.length && to[b] == 1 && (a >= from.length || from[a] != 1)) b++;
      }
      mapRun(idx, from, a0, a, to, b0, b, r);
    }
    return Index.of(r);
  }

  private void mapRun(Index idx, long[] from, int a0, int a1, long[] to, int b0, int b1, LLVMValueRef[] r) {
    int fromBig = single(from, a0, a1);
    int toBig = single(to, b0, b1);
    if (fromBig != -2 && toBig != -2) {  // at most one non-1 dim on each side: copy it
      for (int j = b0; j < b1; j++) r[j] = j == toBig && fromBig >= 0 ? idx.get(fromBig) : zero();
      return;
    }
    LLVMValueRef linear = zero();
    for (int i = a0; i < a1; i++) linear = ir.add(ir.mul(linear, ir.i64(from[i])), idx.get(i));
    for (int j = b1 - 1; j >= b0; j--) {
      r[j] = j == b0 ? linear : ir.urem(linear, ir.i64(to[j]));
      if (j > b0) linear = ir.udiv(linear, ir.i64(to[j]));
    }
  }

  /** The one dim of size ≠ 1 in [lo, hi), -1 if none, -2 if several. */
  private static int single(long[] s, int lo, int hi) {
    int found = -1;
    for (int i = lo; i < hi; i++) {
      if (s[i] != 1) {
        if (found >= 0) return -2;
        found = i;
      }
    }
    return found;
  }

  ElementGenerator rev(Eqn e, ElementGenerator x) {
    long[] in = sizes(e.ins().get(0));
    long[] dims = e.params().getLongs("dimensions");
    return idx -> {
      LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
      for (long d : dims) j[(int) d] = ir.sub(ir.i64(in[(int) d] - 1), j[(int) d]);
      return x.at(Index.of(j));
    };
  }

  ElementGenerator slice(Eqn e, ElementGenerator x) {
    Params p = e.params();
    long[] start = p.getLongs("start_indices");
    long[] strides = p.isNone("strides") ? null : p.getLongs("strides");
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[start.length];
      for (int d = 0; d < start.length; d++) {
        LLVMValueRef o = idx.get(d);
        if (strides != null && strides[d] != 1) o = ir.mul(o, ir.i64(strides[d]));
        j[d] = start[d] == 0 ? o : ir.add(o, ir.i64(start[d]));
      }
      return x.at(Index.of(j));
    };
  }

  /**
   * {@code pad x v}: per dim (lo, hi, interior), any of them negative except interior. Output
   * position o is operand element t/(interior+1) where t = o - lo, when t ≥ 0, t is a multiple of
   * interior+1 and the quotient is in range; otherwise the padding value.
   */
  ElementGenerator pad(Eqn e, ElementGenerator x, ElementGenerator value) {
    long[] in = sizes(e.ins().get(0));
    long[][] config = PadConfig.of(e.params(), in.length);
    boolean empty = type(e.ins().get(0)).shape().elementCount() == 0;
    return idx -> {
      Value v = value.at(Index.SCALAR);
      if (empty) return v;
      LLVMValueRef inside = ir.bool(true);
      LLVMValueRef[] j = new LLVMValueRef[in.length];
      for (int d = 0; d < in.length; d++) {
        long lo = config[d][0];
        long step = config[d][2] + 1;
        LLVMValueRef t = lo == 0 ? idx.get(d) : ir.sub(idx.get(d), ir.i64(lo));
        LLVMValueRef q = t;
        LLVMValueRef ok = ir.icmp(LLVMIntULT, t, ir.i64((in[d] - 1) * step + 1));  // 0 ≤ t ≤ last
        if (step != 1) {
          q = ir.udiv(t, ir.i64(step));
          ok = ir.and(ok, ir.icmp(LLVMIntEQ, ir.urem(t, ir.i64(step)), zero()));
        }
        inside = ir.and(inside, ok);
        j[d] = ir.select(ok, q, zero());
      }
      return arith.select(inside, x.at(Index.of(j)), v);
    };
  }

  /** Picks the operand whose range along {@code dimension} holds the output position. */
  ElementGenerator concatenate(Eqn e, List<ElementGenerator> xs) {
    int dim = e.params().getInt("dimension");
    List<Integer> parts = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    long offset = 0;
    for (int k = 0; k < xs.size(); k++) {
      long n = sizes(e.ins().get(k))[dim];
      if (n > 0) {
        parts.add(k);
        offsets.add(offset);
      }
      offset += n;
    }
    return idx -> {
      Value r = null;
      LLVMValueRef o = idx.get(dim);
      IndexRanges.Known known = ranges.of(o);
      if (known != null) {
        // The loop walks a segment of this axis: where it lies in one operand, read only that one.
        for (int p = 0; p < parts.size(); p++) {
          long n = sizes(e.ins().get(parts.get(p)))[dim];
          long at = offsets.get(p);
          if (known.lo() >= at && known.hi() <= at + n) {
            LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
            j[dim] = at == 0 ? o : ir.sub(o, ir.i64(at));
            return xs.get(parts.get(p)).at(Index.of(j));
          }
        }
      }
      for (int p = parts.size() - 1; p >= 0; p--) {
        int k = parts.get(p);
        long n = sizes(e.ins().get(k))[dim];
        LLVMValueRef t = ir.sub(o, ir.i64(offsets.get(p)));
        LLVMValueRef in = ir.icmp(LLVMIntULT, t, ir.i64(n));
        LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
        j[dim] = ir.select(in, t, zero());
        Value v = xs.get(k).at(Index.of(j));
        r = r == null ? v : arith.select(in, v, r);
      }
      return r;
    };
  }

  /** The output index along {@code dimension}, converted to the dtype. */
  ElementGenerator iota(Eqn e) {
    ArrayType out = type(e.outs().get(0));
    int dim = e.params().getInt("dimension");
    return idx -> Conversions.convert(ir, Value.of(idx.get(dim)), DType.I64, out.dtype());
  }

  /**
   * Start indices are clamped into [0, size - slice_size] (read signed or unsigned per their
   * dtype), then added to the output index.
   */
  ElementGenerator dynamicSlice(Eqn e, List<ElementGenerator> ops) {
    long[] in = sizes(e.ins().get(0));
    long[] out = sizes(e.outs().get(0));
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[in.length];
      for (int d = 0; d < in.length; d++) {
        ArrayType it = type(e.ins().get(1 + d));
        LLVMValueRef s = ir.intCast(ops.get(1 + d).at(Index.SCALAR).v(), ir.i64, it.dtype().kind() == DType.Kind.INT);
        LLVMValueRef hi = ir.i64(in[d] - out[d]);
        s = ir.select(ir.icmp(LLVMIntSLT, s, zero()), zero(), s);
        s = ir.select(ir.icmp(LLVMIntSGT, s, hi), hi, s);
        j[d] = ir.add(s, idx.get(d));
      }
      return ops.get(0).at(Index.of(j));
    };
  }

  /** Result k of split: offset along the axis by the sizes before it. */
  ElementGenerator split(Eqn e, int result, ElementGenerator x) {
    int rank = sizes(e.ins().get(0)).length;
    int axis = Math.floorMod(e.params().getLong("axis"), rank);
    long offset = 0;
    for (int k = 0; k < result; k++) offset += sizes(e.outs().get(k))[axis];
    long off = offset;
    return idx -> {
      LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
      if (off != 0) j[axis] = ir.add(j[axis], ir.i64(off));
      return x.at(Index.of(j));
    };
  }

  /** Output position modulo the operand's size, per dim. */
  ElementGenerator tile(Eqn e, ElementGenerator x) {
    long[] in = sizes(e.ins().get(0));
    long[] out = sizes(e.outs().get(0));
    return idx -> {
      LLVMValueRef[] j = new LLVMValueRef[in.length];
      for (int d = 0; d < in.length; d++) j[d] = in[d] == out[d] ? idx.get(d) : ir.urem(idx.get(d), ir.i64(in[d]));
      return x.at(Index.of(j));
    };
  }

  /** {@code stack[axis]}: the new dim picks the operand. */
  ElementGenerator stack(Eqn e, List<ElementGenerator> xs) {
    int rank = sizes(e.outs().get(0)).length;
    int axis = Math.floorMod(e.params().getLong("axis"), rank);
    return idx -> {
      List<LLVMValueRef> rest = new ArrayList<>(idx.dims());
      LLVMValueRef k = rest.remove(axis);
      Index j = new Index(rest);
      Value r = xs.get(xs.size() - 1).at(j);
      for (int p = xs.size() - 2; p >= 0; p--) r = arith.select(ir.icmp(LLVMIntEQ, k, ir.i64(p)), xs.get(p).at(j), r);
      return r;
    };
  }

  /** {@code unstack[axis]}: result k is the operand at position k along the axis. */
  ElementGenerator unstack(Eqn e, int result, ElementGenerator x) {
    int rank = sizes(e.ins().get(0)).length;
    int axis = Math.floorMod(e.params().getLong("axis"), rank);
    return idx -> {
      List<LLVMValueRef> j = new ArrayList<>(idx.dims());
      j.add(axis, ir.i64(result));
      return x.at(new Index(j));
    };
  }

  /** The operand index of a same-rank elementwise operand: size-1 dims stay at 0 (rank 0: scalar). */
  static Index broadcastOperand(Ir ir, Shape operand, Shape out, Index idx) {
    if (operand.rank() == 0) return Index.SCALAR;
    LLVMValueRef[] j = new LLVMValueRef[operand.rank()];
    for (int d = 0; d < j.length; d++) j[d] = operand.dim(d) == 1 && out.dim(d) != 1 ? ir.i64(0) : idx.get(d);
    return Index.of(j);
  }
}
