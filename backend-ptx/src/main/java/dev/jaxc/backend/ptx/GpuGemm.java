package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.GemmAccumulator;
import dev.jaxc.backend.llvm.kernel.GemmCore;
import dev.jaxc.backend.llvm.kernel.GemmKernel;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.ir.Eqn;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * dot_general and conv_general_dilated as a tiled GEMM through shared memory: the contraction
 * the CPU computes ({@link GemmKernel#spec}: its operands' own addressing, fused producers,
 * padding, groups, the accumulator's arithmetic) with its output axes split into batch (read by
 * both operands, or by neither), M (read by lhs only) and N (read by rhs only). A block of 256
 * threads (16 × 16) computes a 16 rm × 16 rn tile of one batch element ({@link Tile}: 128 × 128,
 * 64 × 64 or 32 × 32, {@link #tile}), a grid of batch × M tiles × N tiles blocks. K goes in slices
 * of {@link #TK}: the block loads the slice's lhs and rhs tiles into shared memory (rm and rn
 * elements per thread, the rhs coalesced along N), a barrier, each thread adds the slice's terms
 * to its rm × rn outputs (rows ty + 16i, columns tx + 16j, so the stores are coalesced along N) in
 * registers, a barrier. Every output adds its terms one by
 * one in K order, as the CPU's loop nest does, so results are the CPU's. Indices past M, N or K
 * are clamped for the loads (their values are never used: the slice loop stops at K, and only
 * outputs inside the tile's bounds are stored).
 */
final class GpuGemm {
  private static final int BLOCK = 256;
  private static final int TX = 16;
  private static final int TY = BLOCK / TX;
  static final int TK = 16;
  /** About one block per multiprocessor of a recent GPU (108 on an A100, 132 on an H100/H200). */
  static final long WAVE = 128;
  /** Static shared memory a kernel may declare. */
  private static final long SHARED_LIMIT = 48 * 1024;

  /**
   * A tile shape: each thread's {@code rm} × {@code rn} outputs, so a block's tile is {@code 16 rm}
   * × {@code 16 rn}.
   */
  record Tile(int rm, int rn) {
    int tm() {
      return TY * rm;
    }

    int tn() {
      return TX * rn;
    }

    /** The lhs tile's row stride in shared memory: one more than tm, so a warp's stores hit 32 banks. */
    int aStride() {
      return tm() + 1;
    }

    /** Shared bytes for values of {@code bytes} bytes (all parts) in both tiles, validity flags included. */
    long shared(int bytes) {
      return (long) TK * (aStride() + tn()) * (bytes + 1);
    }
  }

  /** Largest first: 128 × 128 (8 × 8 per thread), 64 × 64, 32 × 32. */
  private static final Tile[] TILES = {new Tile(8, 8), new Tile(4, 4), new Tile(2, 2)};

  /**
   * The largest tile that still gives a wave of blocks ({@link #WAVE}; the smallest where none
   * does) and whose shared arrays fit: big tiles load each operand element fewer times, small ones
   * keep more multiprocessors busy on small products.
   */
  static Tile tile(long batch, long m, long n, int bytes) {
    Tile forced = forced();
    if (forced != null && forced.shared(bytes) <= SHARED_LIMIT) return forced;
    return ruleTile(batch, m, n, bytes);
  }

  /**
   * The tile the wave rule picks, whatever {@link #forced} says; 128 × 128 narrowed to 128 × 64 (64
   * × 128) where N (M) is at most 64, so that half of each tile does not idle: conv2d's 64 output
   * channels took 0.178 ms on an H200 in 128 × 128 tiles, 0.159 in 128 × 64.
   */
  static Tile ruleTile(long batch, long m, long n, int bytes) {
    Tile chosen = TILES[TILES.length - 1];
    for (int i = TILES.length - 1; i >= 0; i--) {
      Tile t = TILES[i];
      if (t.shared(bytes) > SHARED_LIMIT) continue;
      if (i == TILES.length - 1 || blocks(t, batch, m, n) >= WAVE) chosen = t;
    }
    if (chosen.equals(TILES[0]) && n <= TILES[0].tn() / 2 && m > n) return new Tile(TILES[0].rm(), TILES[0].rn() / 2);
    if (chosen.equals(TILES[0]) && m <= TILES[0].tm() / 2 && n > m) return new Tile(TILES[0].rm() / 2, TILES[0].rn());
    return chosen;
  }

  /** Whether the rule took a tile of the largest class (128 rows or columns): the SIMT kernel keeps f32 products there. */
  static boolean largest(Tile t) {
    return Math.max(t.rm(), t.rn()) == TILES[0].rm();
  }

  /**
   * The tile {@code JAXC_PTX_GEMM_TILE} (or the system property {@code jaxc.ptx.gemmTile}) forces,
   * as {@code RMxRN} outputs per thread (e.g. {@code 8x8}): for tests of every tile shape on small
   * products and for timing the shapes against each other; null where unset or not of that form
   * (as {@code JAXC_PTX_HOST_CONTROL}, an unknown value leaves the rule).
   */
  static Tile forced() {
    String v = System.getProperty("jaxc.ptx.gemmTile", System.getenv("JAXC_PTX_GEMM_TILE"));
    if (v == null) return null;
    String[] parts = v.strip().split("x");
    if (parts.length != 2 || !parts[0].matches("[0-9]{1,2}") || !parts[1].matches("[0-9]{1,2}")) return null;
    int rm = Integer.parseInt(parts[0]);
    int rn = Integer.parseInt(parts[1]);
    return rm >= 1 && rn >= 1 && rm <= 16 && rn <= 16 ? new Tile(rm, rn) : null;
  }

  static long blocks(Tile t, long batch, long m, long n) {
    return batch * ((m + t.tm() - 1) / t.tm()) * ((n + t.tn() - 1) / t.tn());
  }

  private GpuGemm() {}

  static boolean applies(Eqn e) {
    return e.primitive().equals("dot_general") || e.primitive().equals("conv_general_dilated");
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, LaunchScratch scratch, KernelContext cx) {
    GemmCore.Spec s = GemmKernel.spec(cx);
    long[] out = s.out();
    for (long n : out) if (n == 0) return new GpuReductions.Launch(1, BLOCK);
    List<Integer> batch = new ArrayList<>();
    List<Integer> ms = new ArrayList<>();
    List<Integer> ns = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      boolean a = s.a().reads(i);
      boolean b = s.b().reads(i);
      (a && !b ? ms : b && !a ? ns : batch).add(i);
    }
    long m = extent(out, ms);
    long n = extent(out, ns);
    long k = GpuReductions.product(s.red());
    Axes axes = new Axes(out, batch, ms, ns);
    // A bound on an operand value's bytes: no wider than the accumulator's slots, 8 bytes each.
    Tile tile = tile(extent(out, batch), m, n, 8 * s.acc().slots().size());
    Mma kind = MmaGemm.kind(ir, s, m, n, k, largest(ruleTile(extent(out, batch), m, n, 8 * s.acc().slots().size())));
    if (kind != null) return MmaGemm.emit(ir, index, scratch, s, kind, axes, extent(out, batch), m, n, k);
    new GpuGemm.Body(ir, new BlockCode(ir, index, BLOCK), s, tile, batch, ms, ns, m, n, k).emit();
    return new GpuReductions.Launch(blocks(tile, extent(out, batch), m, n), BLOCK);
  }

  /** The output's axes split into batch, M (lhs only) and N (rhs only). */
  record Axes(long[] out, List<Integer> batch, List<Integer> ms, List<Integer> ns) {
    /** The output index of batch element {@code b}, M index {@code row}, N index {@code col} (flat). */
    Index outIndex(Ir ir, LLVMValueRef b, LLVMValueRef row, LLVMValueRef col) {
      LLVMValueRef[] idx = new LLVMValueRef[out.length];
      place(ir, idx, batch, b);
      place(ir, idx, ms, row);
      place(ir, idx, ns, col);
      return Index.of(idx);
    }

    private void place(Ir ir, LLVMValueRef[] idx, List<Integer> axes, LLVMValueRef flat) {
      for (int d = axes.size() - 1; d >= 0; d--) {
        long size = out[axes.get(d)];
        idx[axes.get(d)] = d == 0 ? flat : ir.urem(flat, ir.i64(size));
        if (d > 0) flat = ir.udiv(flat, ir.i64(size));
      }
    }
  }

  private static long extent(long[] out, List<Integer> axes) {
    long p = 1;
    for (int a : axes) p *= out[a];
    return p;
  }

  /** One kernel's code. */
  private static final class Body {
    private final Ir ir;
    private final BlockCode bc;
    private final GemmCore.Spec s;
    private final GemmAccumulator acc;
    private final List<Integer> batch;
    private final List<Integer> ms;
    private final List<Integer> ns;
    private final long m;
    private final long n;
    private final long k;
    private final long mTiles;
    private final long nTiles;
    private final boolean single;
    private final int tm;
    private final int tn;
    private final int rm;
    private final int rn;
    private final int aStride;
    /** The tiles in shared memory, one array per part of an operand value, made at the first load. */
    private Staged aTile;
    private Staged bTile;

    Body(Ir ir, BlockCode bc, GemmCore.Spec s, Tile tile, List<Integer> batch, List<Integer> ms, List<Integer> ns,
        long m, long n, long k) {
      this.ir = ir;
      this.bc = bc;
      this.s = s;
      this.acc = s.acc();
      this.batch = batch;
      this.ms = ms;
      this.ns = ns;
      this.m = m;
      this.n = n;
      this.k = k;
      this.tm = tile.tm();
      this.tn = tile.tn();
      this.rm = tile.rm();
      this.rn = tile.rn();
      this.aStride = tile.aStride();
      this.mTiles = (m + tm - 1) / tm;
      this.nTiles = (n + tn - 1) / tn;
      this.single = k == 1;
    }

    void emit() {
      LLVMValueRef block = bc.block();
      LLVMValueRef nt = ir.urem(block, ir.i64(nTiles));
      LLVMValueRef rest = ir.udiv(block, ir.i64(nTiles));
      LLVMValueRef mt = ir.urem(rest, ir.i64(mTiles));
      LLVMValueRef b = ir.udiv(rest, ir.i64(mTiles));
      LLVMValueRef m0 = ir.mul(mt, ir.i64(tm));
      LLVMValueRef n0 = ir.mul(nt, ir.i64(tn));
      List<LLVMTypeRef> types = acc.slots();
      List<BlockCode.Slots> regs = new ArrayList<>();
      for (LLVMTypeRef t : types) regs.add(bc.slots(t, align(t), rm * rn));
      bc.phase(t -> {
        List<LLVMValueRef> zero = acc.zero();
        for (int r = 0; r < rm * rn; r++) for (int q = 0; q < types.size(); q++) regs.get(q).store(t, r, Value.of(zero.get(q)));
      });
      long slices = (k + TK - 1) / TK;
      ir.loop(ir.i64(0), ir.i64(slices), 1, slice -> {
        LLVMValueRef k0 = ir.mul(slice, ir.i64(TK));
        bc.phase(t -> {
          for (int u = 0; u < tm * TK / BLOCK; u++) {
            LLVMValueRef e = ir.add(t, ir.i64((long) u * BLOCK));
            LLVMValueRef kk = ir.urem(e, ir.i64(TK));
            LLVMValueRef mm = ir.udiv(e, ir.i64(TK));
            LLVMValueRef row = clamp(ir.add(m0, mm), m);
            LLVMValueRef red = clamp(ir.add(k0, kk), k);
            GemmCore.Term term = s.a().at(outIndex(b, row, ir.i64(0)), GpuReductions.unflatten(ir, red, s.red()));
            if (aTile == null) aTile = new Staged("jaxc.gemm.a", term, TK * aStride);
            aTile.store(ir.add(ir.mul(kk, ir.i64(aStride)), mm), term);
          }
          for (int u = 0; u < TK * tn / BLOCK; u++) {
            LLVMValueRef e = ir.add(t, ir.i64((long) u * BLOCK));
            LLVMValueRef nn = ir.urem(e, ir.i64(tn));
            LLVMValueRef kk = ir.udiv(e, ir.i64(tn));
            LLVMValueRef col = clamp(ir.add(n0, nn), n);
            LLVMValueRef red = clamp(ir.add(k0, kk), k);
            GemmCore.Term term = s.b().at(outIndex(b, ir.i64(0), col), GpuReductions.unflatten(ir, red, s.red()));
            if (bTile == null) bTile = new Staged("jaxc.gemm.b", term, TK * tn);
            bTile.store(ir.add(ir.mul(kk, ir.i64(tn)), nn), term);
          }
        });
        bc.barrier();
        LLVMValueRef kn = ir.select(ir.icmp(LLVMIntULT, ir.sub(ir.i64(k), k0), ir.i64(TK)), ir.sub(ir.i64(k), k0),
            ir.i64(TK));
        bc.phase(t -> {
          LLVMValueRef tx = ir.urem(t, ir.i64(TX));
          LLVMValueRef ty = ir.udiv(t, ir.i64(TX));
          ir.loop(ir.i64(0), kn, 1, kk -> {
            GemmCore.Term[] as = new GemmCore.Term[rm];
            GemmCore.Term[] bs = new GemmCore.Term[rn];
            for (int i = 0; i < rm; i++)
              as[i] = aTile.load(ir.add(ir.mul(kk, ir.i64(aStride)), ir.add(ty, ir.i64((long) TY * i))));
            for (int j = 0; j < rn; j++)
              bs[j] = bTile.load(ir.add(ir.mul(kk, ir.i64(tn)), ir.add(tx, ir.i64((long) TX * j))));
            for (int i = 0; i < rm; i++) {
              for (int j = 0; j < rn; j++) {
                int r = i * rn + j;
                List<LLVMValueRef> cur = new ArrayList<>();
                for (BlockCode.Slots q : regs) cur.add(q.load(t, r).v());
                List<LLVMValueRef> next = single ? acc.single(as[i].value(), bs[j].value())
                    : acc.step(cur, as[i].value(), bs[j].value());
                LLVMValueRef valid = and(as[i].valid(), bs[j].valid());
                for (int q = 0; q < regs.size(); q++) {
                  LLVMValueRef v = valid == null ? next.get(q) : ir.select(valid, next.get(q), cur.get(q));
                  regs.get(q).store(t, r, Value.of(v));
                }
              }
            }
          });
        });
        bc.barrier();
      });
      bc.phase(t -> {
        LLVMValueRef tx = ir.urem(t, ir.i64(TX));
        LLVMValueRef ty = ir.udiv(t, ir.i64(TX));
        for (int i = 0; i < rm; i++) {
          for (int j = 0; j < rn; j++) {
            int r = i * rn + j;
            LLVMValueRef row = ir.add(m0, ir.add(ty, ir.i64((long) TY * i)));
            LLVMValueRef col = ir.add(n0, ir.add(tx, ir.i64((long) TX * j)));
            LLVMValueRef inside = ir.and(ir.icmp(LLVMIntULT, row, ir.i64(m)), ir.icmp(LLVMIntULT, col, ir.i64(n)));
            BlockCode.when(ir, inside, () -> {
              List<LLVMValueRef> cur = new ArrayList<>();
              for (BlockCode.Slots q : regs) cur.add(q.load(t, r).v());
              s.store().at(outIndex(b, row, col), acc.finish(cur));
            });
          }
        }
      });
    }

    /** {@code i} where below {@code extent}, else 0 (a valid index whose value is not used). */
    private LLVMValueRef clamp(LLVMValueRef i, long extent) {
      return ir.select(ir.icmp(LLVMIntULT, i, ir.i64(extent)), i, ir.i64(0));
    }

    private Index outIndex(LLVMValueRef b, LLVMValueRef row, LLVMValueRef col) {
      return new Axes(s.out(), batch, ms, ns).outIndex(ir, b, row, col);
    }

    private LLVMValueRef and(LLVMValueRef x, LLVMValueRef y) {
      if (x == null) return y;
      return y == null ? x : ir.and(x, y);
    }

    /** An operand's tile in shared memory: an array per part of its values, and its terms' validity. */
    private final class Staged {
      private final LLVMTypeRef[] types;
      private final LLVMValueRef[] parts;
      private final LLVMValueRef valid;

      Staged(String name, GemmCore.Term first, int size) {
        Value v = first.value();
        LLVMValueRef[] ps = v.isComplex() ? new LLVMValueRef[] {v.re(), v.im()} : new LLVMValueRef[] {v.v()};
        types = new LLVMTypeRef[ps.length];
        parts = new LLVMValueRef[ps.length];
        for (int q = 0; q < ps.length; q++) {
          types[q] = LLVMTypeOf(ps[q]);
          parts[q] = bc.shared(name, types[q], size);
        }
        valid = first.valid() == null ? null : bc.shared(name + ".valid", ir.i8, size);
      }

      void store(LLVMValueRef i, GemmCore.Term term) {
        Value v = term.value();
        LLVMValueRef[] ps = v.isComplex() ? new LLVMValueRef[] {v.re(), v.im()} : new LLVMValueRef[] {v.v()};
        for (int q = 0; q < ps.length; q++) ir.store(ps[q], ir.gep(types[q], parts[q], i), align(types[q]));
        if (valid == null && term.valid() != null) throw new IllegalStateException("a term's validity after terms without");
        if (valid != null) {
          LLVMValueRef ok = term.valid() == null ? LLVMConstInt(ir.i8, 1, 0) : ir.zext(term.valid(), ir.i8);
          ir.store(ok, ir.gep(ir.i8, valid, i), 1);
        }
      }

      GemmCore.Term load(LLVMValueRef i) {
        LLVMValueRef[] ps = new LLVMValueRef[types.length];
        for (int q = 0; q < ps.length; q++) ps[q] = ir.load(types[q], ir.gep(types[q], parts[q], i), align(types[q]));
        Value v = ps.length == 2 ? Value.complex(ps[0], ps[1]) : Value.of(ps[0]);
        LLVMValueRef ok = valid == null ? null : ir.icmp(LLVMIntNE, ir.load(ir.i8, ir.gep(ir.i8, valid, i), 1), LLVMConstInt(ir.i8, 0, 0));
        return new GemmCore.Term(v, ok);
      }
    }
  }

  /** The natural alignment of a value of {@code t} in memory (i1 as a byte). */
  static int align(LLVMTypeRef t) {
    return switch (LLVMGetTypeKind(t)) {
      case LLVMIntegerTypeKind -> Math.max(1, LLVMGetIntTypeWidth(t) / 8);
      case LLVMHalfTypeKind, LLVMBFloatTypeKind -> 2;
      case LLVMFloatTypeKind -> 4;
      case LLVMDoubleTypeKind -> 8;
      default -> throw new IllegalArgumentException("a GEMM value of LLVM type kind " + LLVMGetTypeKind(t));
    };
  }
}
