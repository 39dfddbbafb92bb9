package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Packing for {@link GemmPacked}: copies a K slice of B and a block of A, read through the
 * operands' own addressing (so transposes, strides, batch axes, fused producers, dtype conversion
 * and convolution windows cost nothing more here), into the micro-kernel's layout:
 * B micro-panel q holds {@code b[k][q·nr + j]} at {@code (q·depth + k)·nr + j}, A micro-panel p
 * holds {@code a[p·mr + i][k]} at {@code (p·mr + i)·depth + k} (for 16-bit pairs, depth is
 * rounded up to even and B's K steps go in pairs, {@link #bSlot}). Both are written in address order,
 * and the innermost loop of each walks an operand axis (N for B, the last reduction axis for A),
 * so where that axis is the operand's minor one it is a vectorisable copy. Rows and columns past M and N are
 * zero (their results are never stored), and their operand index is clamped into range.
 */
final class GemmPacking {
  private final Ir ir;
  private final GemmCore.Spec s;
  private final GemmAccumulator.Plain acc;
  private final GemmBlocking bl;
  private final GemmFormat fmt;
  private final LLVMTypeRef t;
  private final int bytes;

  GemmPacking(Ir ir, GemmCore.Spec s, GemmAccumulator.Plain acc, GemmBlocking bl, GemmFormat fmt) {
    this.ir = ir;
    this.s = s;
    this.acc = acc;
    this.bl = bl;
    this.fmt = fmt;
    this.t = fmt.packed();
    this.bytes = fmt.packedBytes();
  }

  /** {@code depth} rounded up to whole micro-kernel steps. */
  private LLVMValueRef pad(LLVMValueRef depth) {
    return fmt.pad(ir, depth);
  }

  /**
   * Where B element (kk, column j of panel q) goes: {@code (q·depth + kk)·nr + j}; for groups of
   * g = kStep K steps (integers), the g steps of a column are adjacent: {@code q·depth·nr +
   * (kk / g)·g·nr + g·j + kk % g}.
   */
  private LLVMValueRef bSlot(LLVMValueRef bp, LLVMValueRef q, LLVMValueRef depth, LLVMValueRef kk, LLVMValueRef j) {
    int nr = bl.nr();
    int g = fmt.kStep();
    if (g == 1) return ir.gep(t, bp, ir.add(ir.mul(ir.add(ir.mul(q, depth), kk), ir.i64(nr)), j));
    LLVMValueRef panel = ir.mul(ir.mul(q, pad(depth)), ir.i64(nr));
    LLVMValueRef group = ir.mul(ir.udiv(kk, ir.i64(g)), ir.i64((long) g * nr));
    LLVMValueRef lane = ir.add(ir.mul(j, ir.i64(g)), ir.urem(kk, ir.i64(g)));
    return ir.gep(t, bp, ir.add(ir.add(panel, group), lane));
  }

  /**
   * Packs B for K [k0, k0 + depth) and all n columns (nPad with the zero columns); {@code out}
   * makes the output index of an N index (B ignores the M axes).
   */
  void packB(LLVMValueRef bp, LLVMValueRef k0, LLVMValueRef depth, long n, long nPad, long[] nSizes,
      Function<LLVMValueRef[], Index> out, LLVMValueRef rows, LLVMValueRef cols, long ldCols) {
    int nr = bl.nr();
    LLVMValueRef zero = LLVMConstNull(t);
    long whole = (rows == null && cols == null) || fmt.kStep() > 1 ? 0 : n / nr;
    if (whole > 0 && cols != null) {
      transposed(bp, depth, whole, cols, ldCols);
      if (whole * nr == nPad) return;
    }
    if (whole > 0 && rows != null) {
      // B's own rows (row kk at rows + kk·n): each whole panel's row is one vector copy. Written
      // element by element, LLVM kept 32 scalar loads and stores per row (it cannot tell the
      // input from the packed buffer), and the packing took a fifth of mlp's time.
      LLVMTypeRef panelRow = LLVMVectorType(t, nr);
      rangeScalar(ir, ir.i64(0), depth, kk -> {
        LLVMValueRef src = ir.gep(t, rows, ir.mul(kk, ir.i64(n)));
        rangeScalar(ir, ir.i64(0), ir.i64(whole), q ->
            ir.store(ir.load(panelRow, ir.gep(t, src, ir.mul(q, ir.i64(nr))), bytes), bSlot(bp, q, depth, kk, ir.i64(0)), bytes));
      });
      if (whole * nr == nPad) return;
    }
    long firstPanel = whole;
    // K outermost: B's rows are read in address order where N is its minor axis. Only the nr
    // loop is a copy LLVM should vectorise (SLP, once unrolled); over K and panels both source
    // and packed panel are strided, and vectorised (N ≤ nr leaves K innermost, as for mlp's
    // 512 × 10 weights) they became 16-wide gathers and scatters, unrolled.
    // Groups: the last group's steps past depth are zero (written first; real steps overwrite them).
    if (fmt.kStep() > 1) rangeScalar(ir, ir.i64(0), ir.i64(nPad / nr), q -> rangeUnrolled(ir, ir.i64(0), ir.i64(nr), j -> {
      for (int z = 1; z < fmt.kStep(); z++) ir.store(zero, bSlot(bp, q, depth, ir.sub(pad(depth), ir.i64(z)), j), bytes);
    }));
    rangeScalar(ir, ir.i64(0), depth, kk -> rangeScalar(ir, ir.i64(firstPanel), ir.i64(nPad / nr), q -> {
      Index red = Index.of(decode(ir, ir.add(k0, kk), s.red()));
      LLVMValueRef c0 = ir.mul(q, ir.i64(nr));
      if (inOneRun(nSizes)) {
        ir.store(panelRow(decode(ir, c0, nSizes), red, nSizes, out), bSlot(bp, q, depth, kk, ir.i64(0)), bytes);
      } else {
        rangeUnrolled(ir, ir.i64(0), ir.i64(nr), j ->
            ir.store(bTerm(ir.add(c0, j), null, j, red, n, nPad, nSizes, out), bSlot(bp, q, depth, kk, j), bytes));
      }
    }));
  }

  /**
   * The nr terms of a micro-panel's row that lies along one run of the last N axis ({@link
   * #inOneRun}; {@code d0} its first column decoded) as one vector: all read before any is
   * stored, so the reads of consecutive elements become vector loads (stored one by one, LLVM
   * kept each load behind the store before it, not knowing the operand from the packed buffer).
   */
  private LLVMValueRef panelRow(LLVMValueRef[] d0, Index red, long[] nSizes, Function<LLVMValueRef[], Index> out) {
    int nr = bl.nr();
    LLVMValueRef row = LLVMGetUndef(LLVMVectorType(t, nr));
    for (int j = 0; j < nr; j++) {
      LLVMValueRef v = bTerm(null, d0, ir.i64(j), red, nr, nr, nSizes, out);
      row = LLVMBuildInsertElement(ir.b, row, v, ir.i32(j), "");
    }
    return row;
  }

  /**
   * Whether every micro-panel's columns lie along one run of B's last N axis (its extent a
   * multiple of nr, over several N axes): the panel's first column is then decoded once and the
   * others step its last index, so the column copy is plain address arithmetic (a vector load
   * where that axis is B's minor one) instead of a division per element. Float formats only (one
   * K step per packed element).
   */
  private boolean inOneRun(long[] nSizes) {
    return fmt.kStep() == 1 && nSizes.length > 1 && nSizes[nSizes.length - 1] % bl.nr() == 0;
  }

  /**
   * B's packed term at column {@code col} and reduction index {@code red}: zero past N (the column
   * index clamped into range) and where the operand skips the term. With {@code d0} (the panel's
   * first column decoded, {@link #inOneRun}) the column is d0 with {@code j} added to its last index.
   */
  private LLVMValueRef bTerm(LLVMValueRef col, LLVMValueRef[] d0, LLVMValueRef j, Index red, long n, long nPad,
      long[] nSizes, Function<LLVMValueRef[], Index> out) {
    LLVMValueRef[] idx;
    LLVMValueRef valid = null;
    if (d0 != null) {
      idx = d0.clone();
      idx[idx.length - 1] = ir.add(d0[idx.length - 1], j);
    } else {
      valid = n == nPad ? null : ir.icmp(LLVMIntULT, col, ir.i64(n));
      if (valid != null) col = ir.select(valid, col, ir.i64(n - 1));
      idx = decode(ir, col, nSizes);
    }
    GemmCore.Term e = s.b().at(out.apply(idx), red);
    LLVMValueRef v = fmt.rhsTerm(ir, acc, e.value(), acc.rhs());
    valid = and(valid, e.valid());
    return valid == null ? v : ir.select(valid, v, LLVMConstNull(t));
  }

  /**
   * Packs B's micro-panel {@code q} alone (columns [q·nr, q·nr + nr), K [k0, k0 + depth)) into
   * {@code bp} as panel 0, for a float format: a whole panel of B's own rows ({@code rows}) by one
   * vector copy per K step, of B's own columns ({@code cols}, K steps {@code ldCols} apart) by
   * register transposes, anything else (the last, partial panel) element by element.
   */
  void packBPanel(LLVMValueRef bp, LLVMValueRef k0, LLVMValueRef depth, LLVMValueRef q, long n, long nPad,
      long[] nSizes, Function<LLVMValueRef[], Index> out, LLVMValueRef rows, LLVMValueRef cols, long ldCols) {
    int nr = bl.nr();
    int lanes = bl.lanes();
    LLVMValueRef c0 = ir.mul(q, ir.i64(nr));
    LLVMBasicBlockRef done = ir.block("gemm.bpanel.done");
    if (rows != null || cols != null) {
      LLVMBasicBlockRef fast = ir.block("gemm.bpanel.whole");
      LLVMBasicBlockRef slow = ir.block("gemm.bpanel.part");
      ir.condBr(ir.icmp(LLVMIntULE, ir.add(c0, ir.i64(nr)), ir.i64(n)), fast, slow);
      ir.at(fast);
      if (rows != null) {
        LLVMTypeRef panelRow = LLVMVectorType(t, nr);
        LLVMValueRef src = ir.gep(t, rows, c0);
        rangeScalar(ir, ir.i64(0), depth, kk -> ir.store(ir.load(panelRow, ir.gep(t, src, ir.mul(kk, ir.i64(n))), bytes),
            ir.gep(t, bp, ir.mul(kk, ir.i64(nr))), bytes));
      } else {
        LLVMValueRef blocks = ir.udiv(depth, ir.i64(lanes));
        rangeScalar(ir, ir.i64(0), blocks, kb -> {
          LLVMValueRef kk = ir.mul(kb, ir.i64(lanes));
          for (int j0 = 0; j0 < nr; j0 += lanes) {
            int j = j0;
            copyTransposed(r -> ir.gep(t, cols, ir.add(ir.mul(ir.add(c0, ir.i64(j + r)), ir.i64(ldCols)), kk)),
                c -> ir.gep(t, bp, ir.add(ir.mul(ir.add(kk, ir.i64(c)), ir.i64(nr)), ir.i64(j))));
          }
        });
        rangeScalar(ir, ir.mul(blocks, ir.i64(lanes)), depth, kk -> rangeUnrolled(ir, ir.i64(0), ir.i64(nr), j ->
            ir.store(ir.load(t, ir.gep(t, cols, ir.add(ir.mul(ir.add(c0, j), ir.i64(ldCols)), kk)), bytes),
                ir.gep(t, bp, ir.add(ir.mul(kk, ir.i64(nr)), j)), bytes)));
      }
      ir.br(done);
      ir.at(slow);
    }
    LLVMValueRef[] d0 = inOneRun(nSizes) ? decode(ir, c0, nSizes) : null;
    rangeScalar(ir, ir.i64(0), depth, kk -> {
      Index red = Index.of(decode(ir, ir.add(k0, kk), s.red()));
      if (d0 != null) {
        ir.store(panelRow(d0, red, nSizes, out), ir.gep(t, bp, ir.mul(kk, ir.i64(nr))), bytes);
      } else {
        rangeUnrolled(ir, ir.i64(0), ir.i64(nr), j -> ir.store(bTerm(ir.add(c0, j), null, j, red, n, nPad, nSizes, out),
            ir.gep(t, bp, ir.add(ir.mul(kk, ir.i64(nr)), j)), bytes));
      }
    });
    ir.br(done);
    ir.at(done);
  }

  /**
   * Packs the {@code whole} full panels of a B stored [N, K] (column j's K slice at {@code cols +
   * j·ld}) in blocks of L × L (L = lanes): L loads along K from L columns, a transpose in
   * registers ({@link #transpose}), L stores along N. Element by element, the packing took 28% of an attention's time
   * whose keys are laid out so ({@code einsum("bqhd,bkhd->bhqk")}). K steps past the last whole
   * block go element by element.
   */
  private void transposed(LLVMValueRef bp, LLVMValueRef depth, long whole, LLVMValueRef cols, long ld) {
    int nr = bl.nr();
    int lanes = bl.lanes();
    LLVMValueRef blocks = ir.udiv(depth, ir.i64(lanes));
    rangeScalar(ir, ir.i64(0), ir.i64(whole), q -> rangeScalar(ir, ir.i64(0), blocks, kb -> {
      LLVMValueRef kk = ir.mul(kb, ir.i64(lanes));
      for (int j0 = 0; j0 < nr; j0 += lanes) {
        int j = j0;
        copyTransposed(
            r -> ir.gep(t, cols, ir.add(ir.mul(ir.add(ir.mul(q, ir.i64(nr)), ir.i64(j + r)), ir.i64(ld)), kk)),
            c -> bSlot(bp, q, depth, ir.add(kk, ir.i64(c)), ir.i64(j)));
      }
    }));
    rangeScalar(ir, ir.mul(blocks, ir.i64(lanes)), depth, kk -> rangeScalar(ir, ir.i64(0), ir.i64(whole), q ->
        rangeUnrolled(ir, ir.i64(0), ir.i64(nr), j -> {
          LLVMValueRef col = ir.add(ir.mul(q, ir.i64(nr)), j);
          ir.store(ir.load(t, ir.gep(t, cols, ir.add(ir.mul(col, ir.i64(ld)), kk)), bytes), bSlot(bp, q, depth, kk, j), bytes);
        })));
  }

  /**
   * Loads L vectors of L elements from {@code from(0 … L-1)}, transposes them ({@link
   * #transpose}) and stores vector i at {@code to(i)} (L = lanes).
   */
  private void copyTransposed(IntFunction<LLVMValueRef> from, IntFunction<LLVMValueRef> to) {
    copyTransposed(from, to, bl.lanes(), null);
  }

  /**
   * As {@link #copyTransposed(IntFunction, IntFunction)}, the loads masked by {@code mask} (lanes
   * off read as zero; null: plain loads), storing only vectors 0 … {@code stores} − 1.
   */
  private void copyTransposed(IntFunction<LLVMValueRef> from, IntFunction<LLVMValueRef> to, int stores, LLVMValueRef mask) {
    int lanes = bl.lanes();
    LLVMTypeRef vec = LLVMVectorType(t, lanes);
    LLVMValueRef[] v = new LLVMValueRef[lanes];
    for (int i = 0; i < lanes; i++) {
      v[i] = mask == null ? ir.load(vec, from.apply(i), bytes)
          : ir.intrinsic("llvm.masked.load", new LLVMTypeRef[] {vec, ir.ptr}, from.apply(i), ir.i32(bytes), mask,
              LLVMConstNull(vec));
    }
    transpose(v);
    for (int i = 0; i < stores; i++) ir.store(v[i], to.apply(i), bytes);
  }

  /**
   * One micro-panel's L (lanes) K steps from a channels-first convolution's input ({@link
   * ConvColumns}): K step c's rows are the elements at {@code src + c·plane} (rows off in {@code
   * mask} read as zero); transposed, row i's L steps go to {@code dst + i·lda} for the panel's mr
   * rows.
   */
  void transposedRows(LLVMValueRef src, LLVMValueRef mask, long plane, LLVMValueRef dst, LLVMValueRef lda) {
    copyTransposed(c -> plainGep(src, c * plane), r -> ir.gep(t, dst, ir.mul(ir.i64(r), lda)), bl.mr(), mask);
  }

  /** {@code p + n} elements, a plain (not inbounds) address: a masked-off row may lie outside the input. */
  private LLVMValueRef plainGep(LLVMValueRef p, long n) {
    PointerPointer<LLVMValueRef> off = new PointerPointer<>(1);
    off.put(0, ir.i64(n));
    return LLVMBuildGEP2(ir.b, t, p, off, 1, "");
  }

  /**
   * Transposes the L × L matrix whose rows are the vectors {@code v} (L = v.length, a power of
   * two) in place: log2 L rounds, round h swapping the off-diagonal h × h blocks of every 2h × 2h
   * block by two shuffles per pair of rows.
   */
  private void transpose(LLVMValueRef[] v) {
    int lanes = v.length;
    for (int h = lanes / 2; h >= 1; h /= 2) {
      for (int i = 0; i < lanes; i++) {
        if ((i & h) != 0) continue;
        int[] lo = new int[lanes];
        int[] hi = new int[lanes];
        for (int x = 0; x < lanes; x++) {
          lo[x] = (x & h) == 0 ? x : lanes + x - h;
          hi[x] = (x & h) == 0 ? x + h : lanes + x;
        }
        LLVMValueRef a = v[i];
        LLVMValueRef b = v[i + h];
        v[i] = shuffle(a, b, lo);
        v[i + h] = shuffle(a, b, hi);
      }
    }
  }

  private LLVMValueRef shuffle(LLVMValueRef a, LLVMValueRef b, int[] mask) {
    PointerPointer<LLVMValueRef> m = new PointerPointer<>(mask.length);
    for (int i = 0; i < mask.length; i++) m.put(i, ir.i32(mask[i]));
    return LLVMBuildShuffleVector(ir.b, a, b, LLVMConstVector(m, mask.length), "");
  }

  /**
   * Packs A for K [k0, k0 + depth) and M rows [m0, m0 + rows) ({@code panels} micro-panels, the
   * last filled up with zero rows; rows {@code lda} packed elements apart); {@code out} makes the output index of an M index. Where the
   * format is {@linkplain GemmFormat#corrected() corrected}, {@code rowSums[r]} gets the sum of
   * row r's packed terms added (set, on the {@code first} slice).
   */
  void packA(LLVMValueRef ap, LLVMValueRef k0, LLVMValueRef depth, LLVMValueRef m0, LLVMValueRef rows,
      LLVMValueRef panels, long[] mSizes, Function<LLVMValueRef[], Index> out, LLVMValueRef rowSums,
      LLVMValueRef first, LLVMValueRef cols, long ld, LLVMValueRef lda) {
    int mr = bl.mr();
    int lanes = bl.lanes();
    LLVMValueRef zero = LLVMConstNull(t);
    // A laid out [K, M] (cols: element (k0, m0), K steps ld apart): whole blocks of L rows and L K
    // steps by register transposes; the rest (the K tail of those rows, the other rows) below.
    LLVMValueRef fastRows = ir.i64(0);
    LLVMValueRef fastK = ir.i64(0);
    if (cols != null) {
      fastRows = ir.mul(ir.udiv(rows, ir.i64(lanes)), ir.i64(lanes));
      fastK = ir.mul(ir.udiv(depth, ir.i64(lanes)), ir.i64(lanes));
      LLVMValueRef ld0 = lda;
      rangeScalar(ir, ir.i64(0), ir.udiv(rows, ir.i64(lanes)), rb -> rangeScalar(ir, ir.i64(0), ir.udiv(depth, ir.i64(lanes)), kb -> {
        LLVMValueRef r0 = ir.mul(rb, ir.i64(lanes));
        LLVMValueRef kk = ir.mul(kb, ir.i64(lanes));
        copyTransposed(c -> ir.gep(t, cols, ir.add(ir.mul(ir.add(kk, ir.i64(c)), ir.i64(ld)), r0)),
            r -> ir.gep(t, ap, ir.add(ir.mul(ir.add(r0, ir.i64(r)), ld0), kk)));
      }));
    }
    LLVMValueRef fastRowsF = fastRows;
    LLVMValueRef fastKF = fastK;
    // Rows stay a scalar loop: unrolled, each of the mr rows had its own vectorised run loop.
    rangeScalar(ir, ir.i64(0), panels, p -> rangeScalar(ir, ir.i64(0), ir.i64(mr), i -> {
      LLVMValueRef r = ir.add(ir.mul(p, ir.i64(mr)), i);
      // Rows packed above need only their K tail.
      LLVMValueRef kFrom = cols == null ? ir.i64(0) : ir.select(ir.icmp(LLVMIntULT, r, fastRowsF), fastKF, ir.i64(0));
      LLVMValueRef valid = ir.icmp(LLVMIntULT, r, rows);
      LLVMValueRef row = ir.add(m0, ir.select(valid, r, ir.sub(rows, ir.i64(1))));
      Index o = out.apply(decode(ir, row, mSizes));
      LLVMValueRef dst = ir.gep(t, ap, ir.mul(r, lda));
      // Groups: the row's steps past depth are zero (written first; real steps overwrite them).
      for (int z = 1; z < fmt.kStep(); z++) ir.store(zero, ir.gep(t, dst, ir.sub(pad(depth), ir.i64(z))), bytes);
      Runnable rest = () -> reduction(ir.add(k0, kFrom), ir.sub(depth, kFrom), (kk, red) -> {
        GemmCore.Term e = s.a().at(o, red);
        LLVMValueRef v = fmt.lhsTerm(ir, acc, e.value(), acc.lhs());
        LLVMValueRef ok = and(valid, e.valid());
        ir.store(ir.select(ok, v, zero), ir.gep(t, dst, ir.add(kFrom, kk)), bytes);
      });
      if (cols == null) rest.run();
      else ir.ifElse(ir.icmp(LLVMIntULT, kFrom, depth), "pack.a.rest", rest, () -> {});
      if (fmt.corrected()) addRowSum(dst, pad(depth), ir.gep(ir.i32, rowSums, r), first);
    }));
  }

  /** {@code *sum = (first ? 0 : *sum) + Σ row[0, n)}, the packed bytes read in A's signedness. */
  private void addRowSum(LLVMValueRef row, LLVMValueRef n, LLVMValueRef sum, LLVMValueRef first) {
    LLVMValueRef slot = ir.entryAlloca(ir.i32, 4);
    ir.store(ir.select(first, ir.i32(0), ir.load(ir.i32, sum, 4)), slot, 4);
    range(ir, ir.i64(0), n, kk -> {
      LLVMValueRef x = ir.load(t, ir.gep(t, row, kk), bytes);
      x = fmt.signedA() ? LLVMBuildSExt(ir.b, x, ir.i32, "") : LLVMBuildZExt(ir.b, x, ir.i32, "");
      ir.store(ir.add(ir.load(ir.i32, slot, 4), x), slot, 4);
    });
    ir.store(ir.load(ir.i32, slot, 4), sum, 4);
  }

  /**
   * {@code body(kk, index of k0 + kk)} for kk in [0, depth), depth ≥ 1, as runs along the last
   * reduction axis: the multi-axis index is decoded once, the outer axes then counted like an
   * odometer once per run, and each run is a plain loop (which LLVM's vectoriser can take).
   */
  private void reduction(LLVMValueRef k0, LLVMValueRef depth, BiConsumer<LLVMValueRef, Index> body) {
    runs(ir, k0, depth, s.red(), body);
  }

  /**
   * {@code body(kk, index of k0 + kk)} for kk in [0, depth), depth ≥ 1, over the row-major axes
   * {@code sizes}, as runs along the last axis: the multi-axis index is decoded once, the outer
   * axes then counted like an odometer once per run, and each run is a plain loop (which LLVM's
   * vectoriser can take where the body's addresses step with the last index).
   */
  static void runs(Ir ir, LLVMValueRef k0, LLVMValueRef depth, long[] sizes, BiConsumer<LLVMValueRef, Index> body) {
    int r = sizes.length;
    if (r <= 1) {
      range(ir, ir.i64(0), depth, kk -> body.accept(kk, Index.of(decode(ir, ir.add(k0, kk), sizes))));
      return;
    }
    LLVMValueRef[] start = decode(ir, k0, sizes);
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("pack.run");
    LLVMBasicBlockRef exit = ir.block("pack.run.end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef kk = ir.phi(ir.i64);
    ir.incoming(kk, ir.i64(0), pre);
    LLVMValueRef[] d = new LLVMValueRef[r];
    for (int i = 0; i < r; i++) {
      d[i] = ir.phi(ir.i64);
      ir.incoming(d[i], start[i], pre);
    }
    LLVMValueRef last = ir.i64(sizes[r - 1]);
    LLVMValueRef left = ir.sub(depth, kk);
    LLVMValueRef avail = ir.sub(last, d[r - 1]);
    LLVMValueRef run = ir.select(ir.icmp(LLVMIntULT, avail, left), avail, left);
    // Not unrolled: a run is at most the last axis long (a convolution's 64 input features), and
    // LLVM unrolled it into a scalar copy; kept a loop, its vectoriser takes it.
    rangeNoUnroll(ir, ir.i64(0), run, j -> {
      LLVMValueRef[] idx = d.clone();
      idx[r - 1] = ir.add(d[r - 1], j);
      body.accept(ir.add(kk, j), Index.of(idx));
    });
    // Next run: the last axis from 0, the others one step on (carrying); only needed if kk < depth.
    LLVMValueRef carry = ir.bool(true);
    LLVMValueRef[] next = new LLVMValueRef[r];
    next[r - 1] = ir.i64(0);
    for (int i = r - 2; i >= 0; i--) {
      LLVMValueRef up = ir.add(d[i], ir.zext(carry, ir.i64));
      LLVMValueRef wrap = ir.icmp(LLVMIntEQ, up, ir.i64(sizes[i]));
      next[i] = ir.select(wrap, ir.i64(0), up);
      carry = wrap;
    }
    LLVMValueRef kn = ir.add(kk, run);
    LLVMBasicBlockRef end = ir.currentBlock();
    ir.incoming(kk, kn, end);
    for (int i = 0; i < r; i++) ir.incoming(d[i], next[i], end);
    ir.condBr(ir.icmp(LLVMIntULT, kn, depth), loop, exit);
    ir.at(exit);
  }

  private LLVMValueRef and(LLVMValueRef x, LLVMValueRef y) {
    if (x == null) return y;
    return y == null ? x : ir.and(x, y);
  }

  /** The row-major multi-index of linear index {@code lin} in {@code sizes} (no axes: none). */
  static LLVMValueRef[] decode(Ir ir, LLVMValueRef lin, long[] sizes) {
    LLVMValueRef[] r = new LLVMValueRef[sizes.length];
    LLVMValueRef rest = lin;
    for (int i = sizes.length - 1; i >= 0; i--) {
      if (i == 0) r[i] = rest;
      else if (sizes[i] == 1) r[i] = ir.i64(0);
      else {
        r[i] = ir.urem(rest, ir.i64(sizes[i]));
        rest = ir.udiv(rest, ir.i64(sizes[i]));
      }
    }
    return r;
  }

  static long product(long[] xs) {
    long p = 1;
    for (long x : xs) p *= x;
    return p;
  }

  /** What LLVM may do with a loop. */
  private enum Hint { ANY, NO_UNROLL, SCALAR, UNROLL_FULL }

  /** {@code for (i = begin; i < end; i++) body(i)}, nothing when begin ≥ end. */
  static void range(Ir ir, LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    range(ir, begin, end, Hint.ANY, body);
  }

  /** {@link #range(Ir, LLVMValueRef, LLVMValueRef, Consumer)}, a loop LLVM does not unroll. */
  static void rangeNoUnroll(Ir ir, LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    range(ir, begin, end, Hint.NO_UNROLL, body);
  }

  /** {@link #range(Ir, LLVMValueRef, LLVMValueRef, Consumer)}, a loop of constant trip count LLVM unrolls fully. */
  static void rangeUnrolled(Ir ir, LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    range(ir, begin, end, Hint.UNROLL_FULL, body);
  }

  /** {@link #range(Ir, LLVMValueRef, LLVMValueRef, Consumer)}, a loop LLVM neither vectorises nor unrolls. */
  static void rangeScalar(Ir ir, LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    range(ir, begin, end, Hint.SCALAR, body);
  }

  private static void range(Ir ir, LLVMValueRef begin, LLVMValueRef end, Hint hint, Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("gemm.loop");
    LLVMBasicBlockRef exit = ir.block("gemm.end");
    ir.condBr(ir.icmp(LLVMIntULT, begin, end), loop, exit);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, begin, pre);
    body.accept(i);
    LLVMValueRef next = LLVMBuildNUWAdd(ir.b, i, ir.i64(1), "");
    ir.incoming(i, next, ir.currentBlock());
    LLVMValueRef more = ir.icmp(LLVMIntULT, next, end);
    if (hint == Hint.NO_UNROLL) ir.condBrNoUnroll(more, loop, exit);
    else if (hint == Hint.SCALAR) ir.condBrScalar(more, loop, exit);
    else if (hint == Hint.UNROLL_FULL) ir.condBrUnrollFull(more, loop, exit);
    else ir.condBr(more, loop, exit);
    ir.at(exit);
  }
}
