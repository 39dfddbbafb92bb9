package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The one GEMM-shaped loop nest behind dot_general and convolution: {@code C[o] = Σ_r A(o, r) ·
 * B(o, r)} over a row-major output index {@code o} and a reduction index {@code r}. Batch, M and N
 * are the output axes (an operand that ignores an axis is broadcast along it), K the reduction
 * axes; how an operand element is addressed (strides, transposition, convolution windows,
 * padding, groups) is the operand's business, so transposed operands need no copy.
 *
 * <p>Loop order: the output axes before the innermost one, then chunks of {@link #TILE} along the
 * innermost output axis (unit stride in C), then the reduction nest, then the chunk. Each chunk
 * accumulates in a stack tile of accumulators, so the innermost loop is a unit-stride
 * multiply-add LLVM's vectoriser takes, every output element is summed in reduction order, and
 * the accumulator type may be wider than C's (f32 for f16/bf16). The operand that ignores the
 * innermost axis is read once per reduction step. The first outer loop longer than 1 (or the
 * chunk loop) is split across threads; the reduction never is, so each element's sum is the same
 * on any number of threads. Contractions of f32 and f64 accumulation go to the packed form
 * instead ({@link GemmPacked}, where it applies); this nest keeps the rest.
 */
public final class GemmCore {
  /** Output elements accumulated together along the innermost output axis. */
  static final int TILE = 64;
  /** Output elements accumulated together in a vector × matrix product. */
  static final int WIDE_TILE = 1024;
  /** Partial sums per output element in the dot form (two AVX-512 vectors of f32). */
  static final int DOT_LANES = 32;

  /**
   * One operand element as the accumulation reads it. {@code valid} (an {@code i1}, or null for
   * always) says whether the term takes part; where it is false the accumulators keep their value.
   */
  public record Term(Value value, LLVMValueRef valid) {
    /** An element that always takes part. */
    static Term of(Value v) {
      return new Term(v, null);
    }
  }

  /** An operand: its element at output index {@code out} and reduction index {@code red}. */
  public interface Operand {
    Term at(Index out, Index red);

    /**
     * Whether the element depends on output axis {@code axis}; one that does not depend on the
     * innermost axis is read once per reduction step, outside the innermost loop.
     */
    boolean reads(int axis);

    /**
     * Whether a term that does not take part may be read as a zero product instead (so the
     * operand can be packed, {@link GemmPacked}); false where XLA skips such terms.
     */
    default boolean packable() {
      return true;
    }

    /**
     * The address of the operand's buffer where it is B of a packed contraction in its
     * micro-kernel's own layout: element (batch b, reduction k, N index j) at {@code
     * base[(b·K + k)·N + j]}, already in the accumulation dtype and read as is (no conversion, no
     * software flush); null otherwise. {@link GemmPacked} may then skip packing B.
     */
    default LLVMValueRef rowMajorKN() {
      return null;
    }

    /**
     * As {@link #rowMajorKN} for an operand laid out [batch…, N, K] (K its minor axis, as
     * attention's keys in {@code q @ k.T}): element (batch b, reduction k, N index j) at {@code
     * base[(b·N + j)·K + k]}; null otherwise. {@link GemmPacking} then packs B by register
     * transposes.
     */
    default LLVMValueRef columnMajorNK() {
      return null;
    }

    /**
     * For A, the address of its buffer where it is laid out [batch…, K, M] (M minor, as the
     * transposed activations of a weight gradient {@code x.T @ dy}): element (batch b, M index
     * i, reduction k) at {@code base[(b·K + k)·M + i]}; null otherwise. {@link GemmPacking} then
     * packs A by register transposes.
     */
    default LLVMValueRef columnMajorMK() {
      return null;
    }

    /**
     * For A, the address of its buffer where it is laid out [batch…, M, K] (K minor, as the
     * activations of {@code x @ w}): element (batch b, M index i, reduction k) at {@code
     * base[(b·M + i)·K + k]}, read as is; null otherwise. Where the rows are short, {@link
     * GemmPacked} then reads them in place: they already are its packed micro-panels.
     */
    default LLVMValueRef rowMajorMK() {
      return null;
    }

    /**
     * Whether the operand's memory-minor axis is the last reduction axis (consecutive k, adjacent
     * elements): then an output axis that only this operand reads strides through memory, and
     * the nest sums each output element along k instead ({@link Nest#dotForm}).
     */
    default boolean minorAlongReduction() {
      return false;
    }

    /** For A of a channels-first convolution, how its micro-panels can be packed by transposes ({@link ConvColumns}); null otherwise. */
    default ConvColumns convColumns() {
      return null;
    }

    /** For A of a channels-last convolution, how its tiles can be read in place ({@link ConvRows}); null otherwise. */
    default ConvRows convRows() {
      return null;
    }
  }

  /** The contraction: output and reduction extents, the operands, the arithmetic, the result. */
  public record Spec(long[] out, long[] red, Operand a, Operand b, GemmAccumulator acc, Store store) {}

  /** Stores the finished value of output element {@code out}. */
  public interface Store {
    void at(Index out, Value v);
  }

  private final Ir ir;
  private final LoopEmitter loops;

  GemmCore(Ir ir, LoopEmitter loops) {
    this.ir = ir;
    this.loops = loops;
  }

  void emit(Spec s) {
    for (long n : s.out()) if (n == 0) return;
    if (GemmPacked.applies(ir, s)) GemmPacked.emit(ir, loops, s, () -> new Nest(s).emit());
    else new Nest(s).emit();
  }

  /** The loop nest of one contraction. */
  private final class Nest {
    private final Spec s;
    /** The innermost output axis: the last one longer than 1 (those after it are at index 0). */
    private final int inner;
    private final boolean scalar;
    private final boolean aVaries;
    private final boolean bVaries;
    private final boolean single;
    private final List<LLVMValueRef> tiles = new ArrayList<>();

    Nest(Spec s) {
      this.s = s;
      long[] out = s.out();
      int last = Math.max(0, out.length - 1);
      while (last > 0 && out[last] == 1) last--;
      inner = last;
      scalar = out.length == 0;
      aVaries = scalar || s.a().reads(inner);
      bVaries = scalar || s.b().reads(inner);
      single = product(s.red()) == 1;
    }

    /**
     * Loops over the outer axes and the chunks of the innermost one (full chunks, then the rest),
     * split across threads along the first of these longer than 1; each thread has its own tiles.
     */
    void emit() {
      if (dotForm()) {
        emitDots();
        return;
      }
      long extent = scalar ? 1 : s.out()[inner];
      // A vector × matrix (only the innermost output axis varies, over a long reduction) reads
      // the matrix's rows a chunk at a time, 16 KiB apart for 4096 columns: chunks of 64 read 256
      // bytes per row, which no prefetcher follows (1.7× XLA's time for 1024 × 4096); 4 KiB per
      // row, 2.2 times faster (Zen 3).
      boolean vectorMatrix = !scalar && product(Arrays.copyOf(s.out(), inner)) == 1 && product(s.red()) >= TILE;
      int tile = (int) Math.min(vectorMatrix ? WIDE_TILE : TILE, extent);
      long full = extent / tile;
      long rest = extent % tile;
      long[] space = Arrays.copyOf(s.out(), inner + 1);
      space[inner] = full + (rest > 0 ? 1 : 0);
      long work = product(s.out()) * product(s.red());
      loops.forEachParallel(space, work, 1, o -> {
        for (LLVMTypeRef t : s.acc().slots()) tiles.add(ir.entryAlloca(LLVMArrayType2(t, tile), 64));
        Index outer = new Index(o.dims().subList(0, inner));
        LLVMValueRef u = o.get(inner);
        if (rest == 0) {
          chunk(outer, ir.mul(u, ir.i64(tile)), tile);
        } else if (full == 0) {
          chunk(outer, ir.i64(0), (int) rest);
        } else {
          LLVMBasicBlockRef whole = ir.block("gemm.full");
          LLVMBasicBlockRef last = ir.block("gemm.rest");
          LLVMBasicBlockRef done = ir.block("gemm.chunk.end");
          ir.condBr(ir.icmp(LLVMIntULT, u, ir.i64(full)), whole, last);
          ir.at(whole);
          chunk(outer, ir.mul(u, ir.i64(tile)), tile);
          ir.br(done);
          ir.at(last);
          chunk(outer, ir.i64(full * tile), (int) rest);
          ir.br(done);
          ir.at(done);
        }
      });
    }

    /**
     * Whether each output element is better summed along k on its own: a matrix-vector product
     * whose matrix is read along its rows (the innermost output axis read by one operand only,
     * which is k-minor, over a reduction of at least {@link #DOT_LANES} along its last axis).
     * Summing a chunk of outputs together would read that operand with a stride of a whole row
     * per element (gathers); along k both operands are read with unit stride.
     */
    private boolean dotForm() {
      if (scalar || single || !(s.acc() instanceof GemmAccumulator.Plain)) return false;
      long[] red = s.red();
      if (red.length == 0 || red[red.length - 1] < DOT_LANES) return false;
      GemmCore.Operand varying = aVaries && !bVaries ? s.a() : bVaries && !aVaries ? s.b() : null;
      return varying != null && varying.minorAlongReduction();
    }

    /**
     * Every output element (threads over the first outer axis) summed along k in
     * {@link #DOT_LANES} partial sums, lane l taking the k ≡ l (mod lanes) terms of the last
     * reduction axis in order (a loop LLVM vectorises), then the lanes folded in order: a fixed
     * order on any number of threads.
     */
    private void emitDots() {
      long[] red = s.red();
      int last = red.length - 1;
      long kn = red[last];
      long full = kn / DOT_LANES;
      int rest = (int) (kn % DOT_LANES);
      long[] outerRed = Arrays.copyOf(red, last);
      long work = product(s.out()) * product(red);
      GemmAccumulator acc = s.acc();
      loops.forEachParallel(s.out(), work, 1, o -> {
        for (LLVMTypeRef t : acc.slots()) tiles.add(ir.entryAlloca(LLVMArrayType2(t, DOT_LANES), 64));
        List<LLVMValueRef> zero = acc.zero();
        forChunk(DOT_LANES, l -> {
          for (int k = 0; k < tiles.size(); k++) ir.store(zero.get(k), slot(k, l), align(k));
        });
        loops.forEach(outerRed, r -> {
          if (full > 0) counted(ir.i64(full), q -> forChunk(DOT_LANES, l -> addTerm(o, r, ir.add(ir.mul(q, ir.i64(DOT_LANES)), l), l)));
          if (rest > 0) forChunk(rest, l -> addTerm(o, r, ir.add(ir.i64(full * DOT_LANES), l), l));
        });
        List<LLVMValueRef> total = load(ir.i64(0));
        for (int l = 1; l < DOT_LANES; l++) total = combine(total, load(ir.i64(l)));
        s.store().at(o, acc.finish(total));
      });
    }

    /** Lane {@code lane} += the term at output o, outer reduction index r, last reduction index k. */
    private void addTerm(Index o, Index r, LLVMValueRef k, LLVMValueRef lane) {
      List<LLVMValueRef> d = new ArrayList<>(r.dims());
      d.add(k);
      Index red = new Index(d);
      Term a = s.a().at(o, red);
      Term b = s.b().at(o, red);
      List<LLVMValueRef> cur = load(lane);
      List<LLVMValueRef> next = s.acc().step(cur, a.value(), b.value());
      LLVMValueRef valid = and(a.valid(), b.valid());
      for (int t = 0; t < tiles.size(); t++) {
        LLVMValueRef v = valid == null ? next.get(t) : ir.select(valid, next.get(t), cur.get(t));
        ir.store(v, slot(t, lane), align(t));
      }
    }

    /** Two partial sums of the accumulation's slots added. */
    private List<LLVMValueRef> combine(List<LLVMValueRef> x, List<LLVMValueRef> y) {
      List<LLVMValueRef> r = new ArrayList<>();
      for (int t = 0; t < x.size(); t++) {
        LLVMTypeRef ty = s.acc().slots().get(t);
        boolean real = LLVMGetTypeKind(ty) == LLVMFloatTypeKind || LLVMGetTypeKind(ty) == LLVMDoubleTypeKind;
        boolean bool = !real && LLVMGetIntTypeWidth(ty) == 1;
        r.add(real ? ir.fadd(x.get(t), y.get(t)) : bool ? ir.or(x.get(t), y.get(t)) : ir.add(x.get(t), y.get(t)));
      }
      return r;
    }

    /** Output elements {@code start} to {@code start + len} of the innermost axis. */
    private void chunk(Index outer, LLVMValueRef start, int len) {
      GemmAccumulator acc = s.acc();
      List<LLVMValueRef> zero = acc.zero();
      forChunk(len, j -> {
        for (int k = 0; k < tiles.size(); k++) ir.store(zero.get(k), slot(k, j), align(k));
      });
      loops.forEach(s.red(), r -> {
        Term a0 = aVaries ? null : s.a().at(index(outer, start), r);
        Term b0 = bVaries ? null : s.b().at(index(outer, start), r);
        forChunk(len, j -> {
          Index o = index(outer, ir.add(start, j));
          Term a = a0 != null ? a0 : s.a().at(o, r);
          Term b = b0 != null ? b0 : s.b().at(o, r);
          List<LLVMValueRef> cur = load(j);
          List<LLVMValueRef> next = single ? acc.single(a.value(), b.value()) : acc.step(cur, a.value(), b.value());
          LLVMValueRef valid = and(a.valid(), b.valid());
          for (int k = 0; k < tiles.size(); k++) {
            LLVMValueRef v = valid == null ? next.get(k) : ir.select(valid, next.get(k), cur.get(k));
            ir.store(v, slot(k, j), align(k));
          }
        });
      });
      forChunk(len, j -> s.store().at(index(outer, ir.add(start, j)), acc.finish(single ? loadOpaque(j) : load(j))));
    }

    /**
     * A single term's product, read back so that LLVM cannot forward it from the tile: a fused
     * epilogue's add must not contract it into an FMA (unfused, the product went to memory first).
     */
    private List<LLVMValueRef> loadOpaque(LLVMValueRef j) {
      List<LLVMValueRef> r = load(j);
      for (LLVMValueRef v : r) LLVMSetVolatile(v, 1);
      return r;
    }

    private List<LLVMValueRef> load(LLVMValueRef j) {
      List<LLVMValueRef> r = new ArrayList<>();
      for (int k = 0; k < tiles.size(); k++) r.add(ir.load(s.acc().slots().get(k), slot(k, j), align(k)));
      return r;
    }

    private int align(int k) {
      return alignment(s.acc().slots().get(k));
    }

    private LLVMValueRef slot(int k, LLVMValueRef j) {
      return ir.gep(s.acc().slots().get(k), tiles.get(k), j);
    }

    /** The full output index: the outer axes, the innermost at {@code i}, then zeros. */
    private Index index(Index outer, LLVMValueRef i) {
      if (scalar) return Index.SCALAR;
      List<LLVMValueRef> d = new ArrayList<>(outer.dims());
      d.add(i);
      for (int t = inner + 1; t < s.out().length; t++) d.add(ir.i64(0));
      return new Index(d);
    }
  }

  private static long product(long[] xs) {
    return Arrays.stream(xs).reduce(1, (x, y) -> x * y);
  }

  private LLVMValueRef and(LLVMValueRef x, LLVMValueRef y) {
    if (x == null) return y;
    return y == null ? x : ir.and(x, y);
  }

  private void forChunk(int len, Consumer<LLVMValueRef> body) {
    if (len == 1) body.accept(ir.i64(0));
    else counted(ir.i64(len), body);
  }

  /** {@code for (i = 0; i < n; i++) body(i)} with n ≥ 1. */
  private void counted(LLVMValueRef n, Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("gemm.loop");
    LLVMBasicBlockRef exit = ir.block("gemm.end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, ir.i64(0), pre);
    body.accept(i);
    LLVMValueRef next = LLVMBuildNUWAdd(ir.b, i, ir.i64(1), "");
    ir.incoming(i, next, ir.currentBlock());
    ir.condBr(ir.icmp(LLVMIntULT, next, n), loop, exit);
    ir.at(exit);
  }

  /** The natural alignment of an accumulator element (i1 is stored as a byte). */
  private static int alignment(LLVMTypeRef t) {
    return switch (LLVMGetTypeKind(t)) {
      case LLVMIntegerTypeKind -> Math.max(1, LLVMGetIntTypeWidth(t) / 8);
      case LLVMFloatTypeKind -> 4;
      case LLVMDoubleTypeKind -> 8;
      default -> throw new IllegalArgumentException("accumulator of LLVM type kind " + LLVMGetTypeKind(t));
    };
  }
}
