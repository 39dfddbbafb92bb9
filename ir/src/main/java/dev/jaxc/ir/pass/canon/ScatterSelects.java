package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.pass.random.Emitter;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.GatherScatterMode;
import dev.jaxc.ir.prim.params.ScatterParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A scatter of single elements into a broadcast scalar, where each element of the result can be
 * hit by at most {@link #MAX_UPDATES} updates, becomes elementwise selects: for update k in
 * order, {@code acc = select_n(iota == index_k, acc, combine(acc, update_k))}, the index and the
 * update broadcast along the batching dims. This is the transpose of a gather with batching dims
 * ({@code jnp.take_along_axis}, so the gradient of every integer-label cross entropy) or of a few
 * fixed indices: as a kernel it filled the whole array, scattered into it and left the result in
 * memory for its readers; as selects it is an element generator that fuses into them (xent_grad:
 * a 16 MiB array of zeros written and read twice). The result is the kernel's bit for bit: the
 * same combines in the same order (the kernel visits index vectors in row-major order, and for
 * one element of the result only the non-batching dims vary), indices widened by their
 * signedness, a drop where the index lies outside the operand (it then equals no iota), a clamp
 * for CLIP.
 */
final class ScatterSelects implements IrPass {
  /** The most updates one element of the result can receive (index vectors per batch element). */
  static final int MAX_UPDATES = 4;

  @Override
  public Program apply(Program program) {
    return program.withMain(new Walk(FreshNames.after(program)).rewrite(program.main()));
  }

  private static final class Walk extends EqnRewriter {
    private final FreshNames names;
    /** The equations kept so far, by result. */
    private final Map<Var, Eqn> defs = new IdentityHashMap<>();

    Walk(FreshNames names) {
      this.names = names;
    }

    Jaxpr rewrite(Jaxpr main) {
      return jaxpr(main);
    }

    @Override
    protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
      Optional<Primitive> p = Primitive.byName(e.primitive());
      Optional<String> combine = p.flatMap(q -> combiner(q, e));
      Optional<Pairing> pairing = Optional.empty();
      if (combine.isPresent() && ins.size() == 3 && e.outs().size() == 1 && filledWithScalar(ins.get(0))) {
        pairing = pairing(ScatterParams.of(e.params()), ins);
      }
      if (pairing.isEmpty()) {
        keep(e, ins, out);
        Eqn kept = out.get(out.size() - 1);
        for (Var o : kept.outs()) defs.put(o, kept);
        return;
      }
      scope.put(e.outs().get(0), expand(e, pairing.get(), combine.get(), ins, out));
    }

    /** Whether {@code a} is a broadcast_in_dim of a scalar. */
    private boolean filledWithScalar(Atom a) {
      Eqn e = a instanceof Var v ? defs.get(v) : null;
      return e != null && e.primitive().equals("broadcast_in_dim") && e.ins().size() == 1
          && e.ins().get(0).type() instanceof ArrayType t && t.rank() == 0;
    }

    /** The elementwise primitive that combines current and update ("" to overwrite), if any. */
    private static Optional<String> combiner(Primitive p, Eqn e) {
      return switch (p) {
        case SCATTER_ADD -> Optional.of("add");
        case SCATTER_SUB -> Optional.of("sub");
        case SCATTER_MUL -> Optional.of("mul");
        case SCATTER_MIN -> Optional.of("min");
        case SCATTER_MAX -> Optional.of("max");
        case SCATTER -> e.params().isNone("update_jaxpr") ? Optional.of("") : Optional.empty();
        default -> Optional.empty();
      };
    }

    /**
     * How the scatter's dims pair up, where it qualifies: its batching dims, plus each index
     * component that is an iota along an indices dim as long as the operand dim it indexes
     * ({@code x[jnp.arange(n), y]}'s transpose), and at most {@link #MAX_UPDATES} index vectors
     * left for each batch element.
     */
    private Optional<Pairing> pairing(ScatterParams s, List<Atom> ins) {
      ArrayType op = (ArrayType) ins.get(0).type();
      ArrayType idx = (ArrayType) ins.get(1).type();
      ArrayType up = (ArrayType) ins.get(2).type();
      if (s.updateWindowDims().length != 0 || s.mode().isEmpty() || s.mode().get() == GatherScatterMode.ONE_HOT) return Optional.empty();
      if (!op.shape().isStatic() || !idx.shape().isStatic() || !up.shape().isStatic() || op.shape().elementCount() == 0 || up.shape().elementCount() == 0) return Optional.empty();
      // jaxpr add/mul/min/max take no bool operands (the kernel's combine does).
      if (op.dtype() == DType.BOOL) return Optional.empty();
      DType d = idx.dtype();
      if (d.kind() != DType.Kind.INT && d.kind() != DType.Kind.UINT) return Optional.empty();
      if (s.mode().get() == GatherScatterMode.CLIP && d == DType.U64) return Optional.empty();
      long[] is = idx.shape().sizes();
      long[] os = op.shape().sizes();
      if (is.length == 0 || is[is.length - 1] != s.scatterDimsToOperandDims().length) return Optional.empty();
      int n = is.length - 1;
      List<Long> opBatch = new ArrayList<>();
      List<Long> idxBatch = new ArrayList<>();
      for (int i = 0; i < s.operandBatchingDims().length; i++) {
        opBatch.add(s.operandBatchingDims()[i]);
        idxBatch.add(s.scatterIndicesBatchingDims()[i]);
      }
      List<Integer> components = new ArrayList<>();
      for (int j = 0; j < is[n]; j++) {
        long dim = s.scatterDimsToOperandDims()[j];
        int t = componentIota(ins.get(1), j);
        if (t >= 0 && t < n && is[t] == os[(int) dim] && !idxBatch.contains((long) t)) {
          opBatch.add(dim);
          idxBatch.add((long) t);
        } else {
          components.add(j);
        }
      }
      long k = 1;
      for (int i = 0; i < n; i++) if (!idxBatch.contains((long) i)) k *= is[i];
      if (k > MAX_UPDATES) return Optional.empty();
      return Optional.of(new Pairing(s, toArray(opBatch), toArray(idxBatch), components.stream().mapToInt(Integer::intValue).toArray()));
    }

    /** The indices dim along which component {@code j} of {@code indices} equals its coordinate, or -1. */
    private int componentIota(Atom indices, int j) {
      if (!(indices instanceof Var v) || !defs.containsKey(v)) return -1;
      Eqn e = defs.get(v);
      int last = ((ArrayType) v.type()).rank() - 1;
      if (!e.primitive().equals("concatenate") || e.params().getLong("dimension") != last) return -1;
      long at = 0;
      for (Atom part : e.ins()) {
        long width = ((ArrayType) part.type()).shape().sizes()[last];
        if (j < at + width) return width == 1 ? iotaDim(part) : -1;
        at += width;
      }
      return -1;
    }

    /**
     * The dim along which {@code a} equals its coordinate (an iota, broadcast, or put through
     * jnp's negative-index normalisation {@code select_n(x < 0, x, x + n)}, which keeps an iota),
     * or -1.
     */
    private int iotaDim(Atom a) {
      if (!(a instanceof Var v) || !defs.containsKey(v)) return -1;
      Eqn e = defs.get(v);
      switch (e.primitive()) {
        case "iota":
          return (int) e.params().getLong("dimension");
        case "broadcast_in_dim": {
          if (e.ins().size() != 1) return -1;
          int k = iotaDim(e.ins().get(0));
          if (k < 0) return -1;
          long to = e.params().getLongs("broadcast_dimensions")[k];
          long[] from = ((ArrayType) e.ins().get(0).type()).shape().sizes();
          return ((ArrayType) v.type()).shape().sizes()[(int) to] == from[k] ? (int) to : -1;
        }
        case "select_n": {
          if (e.ins().size() != 3 || !(e.ins().get(0) instanceof Var c) || !defs.containsKey(c)) return -1;
          Eqn lt = defs.get(c);
          boolean negative = lt.primitive().equals("lt") && lt.ins().get(0) == e.ins().get(1)
              && lt.ins().get(1) instanceof Literal zero && zero.value().equals(Scalar.Int.of(0));
          return negative ? iotaDim(e.ins().get(1)) : -1;
        }
        default:
          return -1;
      }
    }

    private Atom expand(Eqn e, Pairing pairing, String combine, List<Atom> ins, List<Eqn> out) {
      ScatterParams s = pairing.params();
      Emitter em = new Emitter(names, out, e);
      ArrayType resultType = (ArrayType) e.outs().get(0).type();
      long[] shape = resultType.shape().sizes();
      Shape full = Shape.of(shape);
      ArrayType bools = new ArrayType(DType.BOOL, full);
      Atom indices = ins.get(1);
      DType idxType = ((ArrayType) indices.type()).dtype();
      DType cmp = compareType(idxType, shape);
      long[] is = ((ArrayType) indices.type()).shape().sizes();
      int n = is.length - 1;
      Batch batch = new Batch(pairing);
      int[] kDims = IntStream.range(0, n).filter(i -> !contains(pairing.idxBatch(), i)).toArray();
      long[] kShape = new long[kDims.length];
      long count = 1;
      for (int j = 0; j < kDims.length; j++) count *= kShape[j] = is[kDims[j]];
      Map<Integer, Var> iotas = new HashMap<>();
      Atom acc = ins.get(0);
      for (long k = 0; k < count; k++) {
        long[] at = unravel(k, kShape);
        Atom mask = null;
        for (int j : pairing.components()) {
          int d = (int) s.scatterDimsToOperandDims()[j];
          Atom c = batch.slice(em, indices, is, kDims, at, j);
          if (idxType != cmp) c = em.convert(c, cmp);
          if (s.mode().get() == GatherScatterMode.CLIP) {
            c = em.emit("clamp", Params.EMPTY, (ArrayType) c.type(), Emitter.literal(cmp, 0), c, Emitter.literal(cmp, shape[d] - 1));
          }
          Var eq = em.emit("eq", Params.EMPTY, bools, iota(em, iotas, cmp, full, d), em.broadcastInDim(c, full, batch.operandDims));
          mask = mask == null ? eq : em.emit("and", Params.EMPTY, bools, mask, eq);
        }
        // An inserted dim no index component names starts at 0 (a paired one is named).
        for (long d : s.insertedWindowDims()) {
          if (contains(s.scatterDimsToOperandDims(), d) || shape[(int) d] == 1) continue;
          Var eq = em.emit("eq", Params.EMPTY, bools, iota(em, iotas, cmp, full, (int) d), Emitter.literal(cmp, 0));
          mask = mask == null ? eq : em.emit("and", Params.EMPTY, bools, mask, eq);
        }
        Atom u = em.broadcastInDim(batch.slice(em, ins.get(2), ((ArrayType) ins.get(2).type()).shape().sizes(), kDims, at, -1), full, batch.operandDims);
        Atom next = combine.isEmpty() ? u : em.emit(combine, Params.EMPTY, resultType, acc, u);
        acc = mask == null ? next : em.emit("select_n", Params.EMPTY, resultType, mask, acc, next);
      }
      return acc;
    }

    private static Var iota(Emitter em, Map<Integer, Var> iotas, DType cmp, Shape full, int d) {
      return iotas.computeIfAbsent(d, x -> em.iota(cmp, full, d));
    }

    /** The dtype indices are compared in: theirs widened exactly, int32 where that holds every value. */
    private static DType compareType(DType d, long[] shape) {
      boolean small = Arrays.stream(shape).allMatch(x -> x <= Integer.MAX_VALUE);
      return small && (d == DType.I8 || d == DType.I16 || d == DType.I32 || d == DType.U8 || d == DType.U16) ? DType.I32 : DType.I64;
    }
  }

  /**
   * Operand dims paired with indices dims (batching dims, and index components that are iotas
   * along an indices dim), and the index components left to compare.
   */
  private record Pairing(ScatterParams params, long[] opBatch, long[] idxBatch, int[] components) {}

  private static long[] toArray(List<Long> xs) {
    return xs.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * The indices' batching dims, in their order, and the operand dims they stand for: a slice of
   * the indices or updates at one index vector per batch element, as an array over those operand
   * dims in increasing order (transposed where the pairing crosses), ready to broadcast.
   */
  private static final class Batch {
    final int[] indexDims;
    final long[] operandDims;
    final long[] perm;

    Batch(Pairing p) {
      long[] ib = p.idxBatch().clone();
      Arrays.sort(ib);
      indexDims = new int[ib.length];
      long[] ob = new long[ib.length];
      for (int t = 0; t < ib.length; t++) {
        indexDims[t] = (int) ib[t];
        for (int i = 0; i < ib.length; i++) if (p.idxBatch()[i] == ib[t]) ob[t] = p.opBatch()[i];
      }
      Integer[] order = new Integer[ob.length];
      for (int t = 0; t < order.length; t++) order[t] = t;
      Arrays.sort(order, (a, b) -> Long.compare(ob[a], ob[b]));
      perm = new long[ob.length];
      operandDims = new long[ob.length];
      for (int t = 0; t < order.length; t++) {
        perm[t] = order[t];
        operandDims[t] = ob[order[t]];
      }
    }

    /**
     * {@code x} (whose first {@code n} dims are the indices' batch dims) at update {@code at} of
     * the non-batching dims {@code kDims} and, where {@code component ≥ 0}, that index component
     * of the last dim: an array over the batching dims in operand order.
     */
    Atom slice(Emitter em, Atom x, long[] sizes, int[] kDims, long[] at, int component) {
      long[] start = new long[sizes.length];
      long[] limit = sizes.clone();
      for (int j = 0; j < kDims.length; j++) {
        start[kDims[j]] = at[j];
        limit[kDims[j]] = at[j] + 1;
      }
      if (component >= 0) {
        start[sizes.length - 1] = component;
        limit[sizes.length - 1] = component + 1;
      }
      Atom r = x;
      if (!Arrays.equals(limit, sizes) || Arrays.stream(start).anyMatch(v -> v != 0)) r = em.slice(r, start, limit);
      long[] batchShape = new long[indexDims.length];
      for (int t = 0; t < batchShape.length; t++) batchShape[t] = sizes[indexDims[t]];
      if (!Arrays.equals(((ArrayType) r.type()).shape().sizes(), batchShape)) r = em.reshape(r, Shape.of(batchShape));
      boolean identity = true;
      for (int t = 0; t < perm.length; t++) identity &= perm[t] == t;
      return identity ? r : em.transpose(r, perm);
    }
  }

  private static long[] unravel(long k, long[] shape) {
    long[] r = new long[shape.length];
    for (int j = shape.length - 1; j >= 0; j--) {
      r[j] = k % shape[j];
      k /= shape[j];
    }
    return r;
  }

  private static boolean contains(long[] xs, long x) {
    for (long y : xs) if (y == x) return true;
    return false;
  }
}
