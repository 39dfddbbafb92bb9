package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.runtime.WorkBuffers;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The packed (BLIS-style) form of {@link GemmCore} for f32 and f64 accumulation, and for
 * 8- and 16-bit integer operands summed in i32 ({@link GemmFormat}). The output axes
 * fall in three roles: M (read by A only), N (read by B only) and batch (the rest); the reduction
 * axes are K. K is cut in slices of {@code kc} and M in blocks of {@code mc} rows.
 * {@link GemmPacking} copies all of B first (one parallel region over batch × K slices; all of N,
 * in micro-panels of {@code nr} columns) into one heap buffer the threads then share read-only, so
 * B is packed once (where M is one block, each item instead packs each micro-panel just before it
 * uses it, into L1); then per (batch, N block, M block) item it packs the A block (micro-panels of
 * {@code mr} rows; short rows are read in place) and {@link GemmMicroKernel} adds each {@code mr ×
 * nr} tile's rank-{@code kc} update to the item's block of C. Buffers are in the accumulation type, zero beyond M and N; the
 * finished block is stored through the spec's store.
 *
 * <p>Threads take whole items, never part of K, so every element is summed in K order on any
 * number of threads. The A and C buffers belong to one thread: small ones are stack slots of the
 * function running the items (the outlined body when threads run them), larger ones are taken
 * per chunk of items from {@link WorkBuffers}, as packed B is: heap memory kept across calls, so
 * repeated calls fault no pages.
 *
 * <p>Heap allocations are checked: when one fails (B's, or a chunk's, which raises a flag the
 * other threads cannot miss after the region joins), the whole contraction is computed again by
 * the fallback (the loop nest, which needs no heap), so out of memory costs speed, never results.
 */
final class GemmPacked {
  /** Packing buffers up to this size live on the stack. */
  static final long STACK_BYTES = 64 * 1024;
  /**
   * A B of at most this many bytes (per batch item) that lies in memory as the micro-kernel reads
   * it is not packed: it stays in L2 while it is read, and small contractions (an RNN's step)
   * would otherwise spend as long packing B as multiplying. Not on AVX-512 where B's rows are a
   * multiple of {@link #ALIASING_BYTES} apart: the 14 × 32 tile's micro-panel (two cache lines a
   * row) then falls into 8 of the L1's 64 sets and is read from L2 at every step; packed, it stays
   * in L1. On a Cascade Lake (2 cores), alternating: matmul 256³ 0.273 → 0.224 ms, 32 batched
   * 128 × 64 × 128 0.773 → 0.610 ms. AVX2's in-place 6 × 16 tile was measured faster than packing
   * on a Zen 3 (see GemmBlocking), so it keeps reading B in place.
   */
  static final long DIRECT_B_BYTES = 256 * 1024;
  /**
   * C rows whose stride is a multiple of this many bytes would fall into few L1 sets (the L1 of
   * x86-64 and AArch64 cores repeats every 4 KiB), so the micro-kernel's tile of C would evict
   * its own rows and the B micro-panel: such rows get one cache line of padding.
   */
  static final long ALIASING_BYTES = 512;
  static final long LINE_BYTES = 64;
  /**
   * A is read in place (not packed) where its rows are this short: a tile is then a few cache
   * lines, and packing would copy as much as the micro-kernel multiplies (16384 batched 8 × 8
   * products: 0.45 → 0.35 of XLA's time with the narrow tile; 8192 of 12 × 12 × 12: 0.90 → 0.64).
   * Longer rows come from memory faster in one sequential stream (packing) than in a tile's mr
   * strided ones (1024 batched 64 × 8 × 64: 2.3 packed, 2.75 ms in place; 8192 × 256 × 256 8.4
   * against 9.0 ms; Zen 3, AVX2).
   */
  static final long IN_PLACE_A_BYTES = 128;

  private final Ir ir;
  private final LoopEmitter loops;
  private final GemmCore.Spec s;
  private final GemmAccumulator.Plain acc;
  private final GemmBlocking bl;
  private final GemmFormat fmt;
  /** The C block's element type and size. */
  private final LLVMTypeRef t;
  private final int bytes;
  /** The packed panels' element type and size. */
  private final LLVMTypeRef pt;
  private final int pbytes;
  private final GemmPacking packing;
  /** Output axes by role, in output order. */
  private final int[] batchAxes;
  private final int[] mAxes;
  private final int[] nAxes;
  private final long batch;
  private final long m;
  private final long n;
  private final long k;
  private final long nPad;
  /** The widest N block (whole register tiles). */
  private final long nc;
  /** The row stride of the C block: nc, one cache line more where rows would share L1 sets. */
  private final long ldc;
  /** B's own buffer where the micro-kernel reads it in place (no packing of B), else null. */
  private final LLVMValueRef bDirect;
  /** B's own rows where B is a plain row-major array (packed by whole-panel vector copies), else null. */
  private final LLVMValueRef bRows;
  /** B's own columns where B is a plain [batch…, N, K] array (packed by register transposes), else null. */
  private final LLVMValueRef bCols;
  /** A's own columns where A is a plain [batch…, K, M] array (packed by register transposes), else null. */
  private final LLVMValueRef aCols;
  /**
   * A's own rows where A is a plain [batch…, M, K] array of short rows ({@link #IN_PLACE_A_BYTES},
   * so K is one slice), else null: its whole register tiles are then already micro-panels (row
   * stride K), read in place.
   */
  private final LLVMValueRef aRows;
  /**
   * Whether each item packs the B micro-panel it is about to use (into L1) instead of all of B
   * being packed first: where M is one block, every panel is used by one item only, and B's
   * packed copy would otherwise go to memory and back (a 16 MiB B for 256 rows of A).
   */
  private final boolean bLocal;
  /**
   * A convolution's input where its tiles can be read in place ({@link ConvRows}; K slices lie
   * inside its runs), else null: each tile whose rows lie inside the input is read where it is
   * (row stride {@link ConvRows#stride}), only the others are packed. conv2d (8 × 56² × 64, 3 × 3
   * × 64 × 64, SAME) on one Cascade Lake core spent 23% of its time packing A, whose every element
   * 64 output features (two micro-panels of B) then read twice.
   */
  private final ConvRows convRows;
  /** A's row stride in a micro-panel ({@link GemmMicroKernel#constantStride}), or 0: the slice's depth. */
  private final long lda;
  /**
   * A channels-first convolution's input where its micro-panels are packed by register transposes
   * ({@link ConvColumns}: a tile's rows are neighbouring inputs, its K steps planes apart), else
   * null.
   */
  private final ConvColumns convColumns;

  private GemmPacked(Ir ir, LoopEmitter loops, GemmCore.Spec s) {
    this.ir = ir;
    this.loops = loops;
    this.s = s;
    this.acc = (GemmAccumulator.Plain) s.acc();
    this.fmt = GemmFormat.of(ir, acc);
    this.bytes = fmt.accBytes();
    this.t = fmt.acc();
    this.pbytes = fmt.packedBytes();
    this.pt = fmt.packed();
    List<Integer> bAx = new ArrayList<>();
    List<Integer> mAx = new ArrayList<>();
    List<Integer> nAx = new ArrayList<>();
    for (int i = 0; i < s.out().length; i++) {
      boolean a = s.a().reads(i);
      boolean b = s.b().reads(i);
      (a && !b ? mAx : b && !a ? nAx : bAx).add(i);
    }
    batchAxes = ints(bAx);
    mAxes = ints(mAx);
    nAxes = ints(nAx);
    batch = extent(batchAxes, s.out());
    m = extent(mAxes, s.out());
    n = extent(nAxes, s.out());
    k = GemmPacking.product(s.red());
    VectorIsa isa = VectorIsa.of(ir.target());
    LLVMValueRef direct = loops == null || fmt.grouped() ? null : s.b().rowMajorKN();  // applies() emits nothing
    boolean inPlace = direct != null && k * n * bytes <= DIRECT_B_BYTES && !(isa == VectorIsa.AVX512 && n * bytes % ALIASING_BYTES == 0);
    ConvRows conv = loops == null || fmt.grouped() || fmt.kStep() > 1 || fmt.corrected() || !GemmMicroKernel.constantStride(ir)
        || batch != 1 ? null : s.a().convRows();
    this.bl = GemmBlocking.of(isa, bytes, pbytes, fmt.kStep(), fmt.fused(ir.target(), isa), inPlace,
        conv == null ? 0 : conv.run(), batch, m, n, k);
    this.nPad = (n + bl.nr() - 1) / bl.nr() * bl.nr();
    long panels = nPad / bl.nr();
    this.nc = (panels + bl.nBlocks() - 1) / bl.nBlocks() * bl.nr();
    this.ldc = nc * bytes % ALIASING_BYTES == 0 ? nc + LINE_BYTES / bytes : nc;
    this.packing = new GemmPacking(ir, s, acc, bl, fmt);
    this.bDirect = inPlace && nPad == n ? direct : null;
    this.bRows = direct;
    this.bCols = loops == null || fmt.grouped() || fmt.kStep() > 1 ? null : s.b().columnMajorNK();
    this.aCols = loops == null || fmt.grouped() || fmt.kStep() > 1 || fmt.corrected() ? null : s.a().columnMajorMK();
    this.bLocal = loops != null && bDirect == null && bl.blocks() == 1 && !fmt.grouped() && fmt.kStep() == 1;
    this.aRows = loops == null || fmt.grouped() || fmt.kStep() > 1 || fmt.corrected() || k * bytes > IN_PLACE_A_BYTES
        ? null : s.a().rowMajorMK();
    this.lda = !GemmMicroKernel.constantStride(ir) ? 0 : aRows != null ? k : bl.kc();
    this.convRows = conv != null && conv.run() % bl.kc() == 0 && aRows == null && aCols == null ? conv : null;
    this.convColumns = loops == null || fmt.grouped() || batch != 1 || bl.mr() > bl.lanes() || aRows != null
        || aCols != null || convRows != null ? null : s.a().convColumns();
  }

  /**
   * Whether operand {@code operand} of {@code cx}'s equation (dtype {@code d}, entering as {@code
   * as}, summed in {@code acc}) is a buffer the packed form may read as it lies: a variable's (not
   * a literal's) of the accumulation dtype, f32 or f64, whose denormals the hardware flushes (not
   * software). Only its layout is left for the caller to check.
   */
  static boolean readsAsIs(KernelContext cx, int operand, DType d, DType as, DType acc) {
    if (cx.plan() == null || !(cx.eqn().ins().get(operand) instanceof Var)) return false;
    if (d != as || as != acc || (acc != DType.F32 && acc != DType.F64)) return false;
    return !cx.ir().numerics().flushesInSoftware(acc);
  }

  /**
   * Whether the packed form takes the contraction: f32 or f64 accumulation of plain products, or
   * integer products of 8- and 16-bit operands summed modulo 2^32 or less ({@link GemmFormat}),
   * operands whose every term can be packed (no skipped terms), a real sum (K ≥ 2), and a real
   * matrix on both sides (M, N ≥ 2).
   */
  static boolean applies(Ir ir, GemmCore.Spec s) {
    // Device code calls no C library (the packed form mallocs its buffers): the plain nest there.
    if (ir.target() != null && ir.target().arch() == dev.jaxc.backend.llvm.llvm.TargetSpec.Arch.NVPTX) return false;
    if (!(s.acc() instanceof GemmAccumulator.Plain p)) return false;
    if (GemmFormat.of(ir, p) == null) return false;
    if (!s.a().packable() || !s.b().packable()) return false;
    for (long x : s.out()) if (x == 0) return false;
    if (GemmPacking.product(s.red()) < 2) return false;
    GemmPacked g = new GemmPacked(ir, null, s);
    return g.m >= 2 && g.n >= 2;
  }

  /** Emits the packed form, and {@code fallback} where its heap memory cannot be had. */
  static void emit(Ir ir, LoopEmitter loops, GemmCore.Spec s, Runnable fallback) {
    new GemmPacked(ir, loops, s).emit(fallback);
  }

  private void emit(Runnable fallback) {
    // Objects import nothing but malloc, free and the thread runtime: no zero-fill or copy loop
    // of the packing may become a call to memset or memcpy (parallel bodies are already so).
    ir.addFunctionAttribute(ir.function(), "no-builtins", "");
    long mc = bl.mc();
    long kc = bl.kc();
    long mBlocks = bl.blocks();
    long nBlocks = bl.nBlocks();
    long panelsN = nPad / bl.nr();
    long tiles = (m + bl.mr() - 1) / bl.mr();
    long kBlocks = (k + kc - 1) / kc;
    long perBatch = fmt.pad(k) * nPad;
    // B packed once, shared by every thread (read only): each K slice in its own region (unless
    // read in place, or packed a micro-panel at a time by the one item that uses it: bLocal).
    // The flag a chunk raises when its buffers cannot be had lives just past packed B (threads
    // may not share a stack slot of the caller).
    long bBytes = bDirect != null || bLocal ? 0 : batch * perBatch * pbytes;
    LLVMValueRef bAll = WorkBuffers.get(ir, ir.i64(bBytes + 1));
    LLVMBasicBlockRef packed = ir.block("gemm.packed");
    LLVMBasicBlockRef check = ir.block("gemm.check");
    LLVMBasicBlockRef nest = ir.block("gemm.fallback");
    LLVMBasicBlockRef done = ir.block("gemm.done");
    ir.condBr(ir.isNull(bAll), nest, packed);
    ir.at(packed);
    LLVMValueRef failed = ir.gep(ir.i8, bAll, ir.i64(bBytes));
    ir.store(ir.constInt(ir.i8, 0), failed, 1);
    if (bDirect == null && !bLocal) loops.parallel().range(batch * kBlocks, 1, batch * k * n, (begin, end) -> range(begin, end, unit -> {
      LLVMValueRef bi = ir.udiv(unit, ir.i64(kBlocks));
      LLVMValueRef k0 = ir.mul(ir.urem(unit, ir.i64(kBlocks)), ir.i64(kc));
      LLVMValueRef depth = umin(ir.sub(ir.i64(k), k0), ir.i64(kc));
      LLVMValueRef[] bIdx = GemmPacking.decode(ir, bi, sizes(batchAxes));
      LLVMValueRef slice = ir.gep(pt, bAll, ir.add(ir.mul(bi, ir.i64(perBatch)), ir.mul(k0, ir.i64(nPad))));
      LLVMValueRef rows = bRows == null ? null : ir.gep(t, bRows, ir.mul(ir.add(ir.mul(bi, ir.i64(k)), k0), ir.i64(n)));
      LLVMValueRef cols = bCols == null ? null : ir.gep(t, bCols, ir.add(ir.mul(ir.mul(bi, ir.i64(n)), ir.i64(k)), k0));
      packing.packB(slice, k0, depth, n, nPad, sizes(nAxes), idx -> out(bIdx, null, idx), rows, cols, k);
    }));
    // The A block, then (from a cache line on) the C block, then (quads) A's row sums.
    long aBytes = (mc * kc * pbytes + LINE_BYTES - 1) / LINE_BYTES * LINE_BYTES;
    long cBytes = mc * ldc * bytes;
    long cEnd = (aBytes + cBytes + LINE_BYTES - 1) / LINE_BYTES * LINE_BYTES;
    long bufBytes = bLocal ? cEnd + kc * bl.nr() * pbytes : aBytes + cBytes + (fmt.corrected() ? mc * 4 : 0);
    loops.parallel().range(batch * nBlocks * mBlocks, 1, batch * m * n * k, (begin, end) -> {
      boolean heap = bufBytes > STACK_BYTES;
      LLVMValueRef buf = heap ? WorkBuffers.get(ir, ir.i64(bufBytes)) : ir.entryAlloca(LLVMArrayType2(ir.i8, bufBytes), 64);
      LLVMBasicBlockRef work = ir.block("gemm.items");
      LLVMBasicBlockRef itemsEnd = ir.block("gemm.items.end");
      if (heap) {
        LLVMBasicBlockRef oom = ir.block("gemm.items.oom");
        ir.condBr(ir.isNull(buf), oom, work);
        ir.at(oom);
        // Every failing thread writes the same byte; the region's join orders it before the read.
        LLVMValueRef st = LLVMBuildStore(ir.b, ir.constInt(ir.i8, 1), failed);
        LLVMSetAlignment(st, 1);
        LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
        ir.br(itemsEnd);
      } else {
        ir.br(work);
      }
      ir.at(work);
      LLVMValueRef ap = buf;
      LLVMValueRef cp = ir.gep(ir.i8, buf, ir.i64(aBytes));
      LLVMValueRef rowSums = ir.gep(ir.i8, buf, ir.i64(aBytes + cBytes));
      LLVMValueRef bPanel = ir.gep(ir.i8, buf, ir.i64(cEnd));
      range(begin, end, item -> {
        // Item = (M block, N block, batch), batch innermost.
        LLVMValueRef bi = ir.urem(item, ir.i64(batch));
        LLVMValueRef rest = ir.udiv(item, ir.i64(batch));
        LLVMValueRef nb = ir.urem(rest, ir.i64(nBlocks));
        LLVMValueRef jj = ir.udiv(rest, ir.i64(nBlocks));
        // N block nb holds panels [nb·panels / nBlocks, (nb + 1)·panels / nBlocks).
        LLVMValueRef q0 = ir.udiv(ir.mul(nb, ir.i64(panelsN)), ir.i64(nBlocks));
        LLVMValueRef q1 = ir.udiv(ir.mul(ir.add(nb, ir.i64(1)), ir.i64(panelsN)), ir.i64(nBlocks));
        // Block j holds register tiles [j·tiles / blocks, (j + 1)·tiles / blocks): sizes differ by at most one tile.
        LLVMValueRef j = jj;
        LLVMValueRef m0 = ir.mul(ir.udiv(ir.mul(j, ir.i64(tiles)), ir.i64(mBlocks)), ir.i64(bl.mr()));
        LLVMValueRef m1 = ir.mul(ir.udiv(ir.mul(ir.add(j, ir.i64(1)), ir.i64(tiles)), ir.i64(mBlocks)), ir.i64(bl.mr()));
        LLVMValueRef rows = ir.sub(umin(m1, ir.i64(m)), m0);
        LLVMValueRef panels = ir.udiv(ir.add(rows, ir.i64(bl.mr() - 1)), ir.i64(bl.mr()));
        LLVMValueRef[] bIdx = GemmPacking.decode(ir, bi, sizes(batchAxes));
        LLVMValueRef bBatch = bDirect != null
            ? ir.gep(t, bDirect, ir.mul(bi, ir.i64(k * n)))
            : ir.gep(pt, bAll, ir.mul(bi, ir.i64(perBatch)));
        range(ir.i64(0), ir.i64(kBlocks), kb -> {
          LLVMValueRef k0 = ir.mul(kb, ir.i64(kc));
          LLVMValueRef depth = umin(ir.sub(ir.i64(k), k0), ir.i64(kc));
          LLVMValueRef bp = ir.gep(pt, bBatch, ir.mul(k0, ir.i64(nPad)));
          LLVMValueRef first = ir.icmp(LLVMIntEQ, kb, ir.i64(0));
          LLVMValueRef aK = aCols == null ? null : ir.gep(t, aCols, ir.add(ir.mul(ir.add(ir.mul(bi, ir.i64(k)), k0), ir.i64(m)), m0));
          // In place, a last partial tile is the block's last mr rows (it overlaps the tile before
          // it, whose rows it computes again to the same bits: one K slice, summed in K order);
          // only a block of fewer rows than a tile is packed (rows past M would be read past A).
          LLVMValueRef whole = aRows == null ? null : ir.udiv(rows, ir.i64(bl.mr()));
          LLVMValueRef aTiles = aRows == null ? null : ir.gep(t, aRows, ir.mul(ir.add(ir.mul(bi, ir.i64(m)), m0), ir.i64(k)));
          LLVMValueRef inPlace = aRows == null ? null : ir.icmp(LLVMIntNE, whole, ir.i64(0));
          if (convRows != null) {
            // Only the tiles that cannot be read where they lie.
            range(ir.i64(0), panels, p -> {
              LLVMValueRef r0 = ir.mul(p, ir.i64(bl.mr()));
              ir.ifElse(ir.not(convTile(m0, r0, rows, k0)[0]), "gemm.packtile", () -> packing.packA(
                  ir.gep(pt, ap, ir.mul(r0, aStride(depth))), k0, depth, ir.add(m0, r0), umin(ir.sub(rows, r0), ir.i64(bl.mr())),
                  ir.i64(1), sizes(mAxes), idx -> out(bIdx, idx, null), rowSums, first, null, m, aStride(depth)), () -> {});
            });
          } else if (convColumns != null) {
            packColumns(ap, k0, depth, m0, rows, panels, bIdx, rowSums, first);
          } else if (aRows == null) {
            packing.packA(ap, k0, depth, m0, rows, panels, sizes(mAxes), idx -> out(bIdx, idx, null), rowSums, first, aK, m,
                aStride(depth));
          } else {
            LLVMBasicBlockRef pack = ir.block("gemm.packshort");
            LLVMBasicBlockRef packDone = ir.block("gemm.packedshort");
            ir.condBr(inPlace, packDone, pack);
            ir.at(pack);
            packing.packA(ap, k0, depth, m0, rows, ir.i64(1), sizes(mAxes), idx -> out(bIdx, idx, null), rowSums, first,
                null, m, aStride(depth));
            ir.br(packDone);
            ir.at(packDone);
          }
          LLVMValueRef uk = GemmMicroKernel.get(ir, bl, fmt, lda);
          LLVMValueRef ukIn = convRows == null ? null : GemmMicroKernel.get(ir, bl, fmt, convRows.stride());
          // The micro-kernel's depth: whole steps (pairs: an odd depth's last pair ends in zeros).
          LLVMValueRef steps = fmt.pad(ir, depth);
          LLVMValueRef ldb = ir.i64(bDirect != null ? n : bl.nr());
          LLVMValueRef bRowsK = !bLocal || bRows == null ? null : ir.gep(t, bRows, ir.mul(ir.add(ir.mul(bi, ir.i64(k)), k0), ir.i64(n)));
          LLVMValueRef bColsK = !bLocal || bCols == null ? null : ir.gep(t, bCols, ir.add(ir.mul(ir.mul(bi, ir.i64(n)), ir.i64(k)), k0));
          range(q0, q1, q -> {
            // Packed: panel q after q whole panels; in place: column q·nr of B's rows; local: the one packed now.
            if (bLocal) packing.packBPanel(bPanel, k0, depth, q, n, nPad, sizes(nAxes), idx -> out(bIdx, null, idx), bRowsK,
                bColsK, k);
            LLVMValueRef bq = bLocal ? bPanel
                : bDirect != null
                ? ir.gep(t, bp, ir.mul(q, ir.i64(bl.nr())))
                : ir.gep(pt, bp, ir.mul(q, ir.mul(steps, ir.i64(bl.nr()))));
            LLVMValueRef cq = ir.gep(t, cp, ir.mul(ir.sub(q, q0), ir.i64(bl.nr())));
            range(ir.i64(0), panels, p -> {
              LLVMValueRef r0 = ir.mul(p, ir.i64(bl.mr()));  // the tile's first row in the block
              LLVMValueRef apk;
              if (aRows == null) {
                apk = ir.gep(pt, ap, ir.mul(r0, aStride(depth)));
              } else {
                LLVMValueRef last = ir.select(inPlace, ir.sub(rows, ir.i64(bl.mr())), ir.i64(0));
                r0 = ir.select(ir.icmp(LLVMIntULT, p, whole), r0, last);
                apk = ir.select(inPlace, ir.gep(t, aTiles, ir.mul(r0, ir.i64(k))), ap);
              }
              LLVMValueRef cpq = ir.gep(t, cq, ir.mul(r0, ir.i64(ldc)));
              if (convRows != null) {
                LLVMValueRef[] tile = convTile(m0, r0, rows, k0);
                ir.ifElse(tile[0], "gemm.convtile",
                    () -> ir.call(GemmMicroKernel.type(ir), ukIn, steps, tile[1], bq, ldb, cpq, ir.i64(ldc), first),
                    () -> ir.call(GemmMicroKernel.type(ir), uk, steps, apk, bq, ldb, cpq, ir.i64(ldc), first));
              } else {
                ir.call(GemmMicroKernel.type(ir), uk, steps, apk, bq, ldb, cpq, ir.i64(ldc), first);
              }
            });
          });
        });
        LLVMValueRef j0 = ir.mul(q0, ir.i64(bl.nr()));
        store(cp, rowSums, bIdx, m0, rows, j0, umin(ir.mul(q1, ir.i64(bl.nr())), ir.i64(n)));
      });
      if (heap) WorkBuffers.put(ir, buf);
      ir.br(itemsEnd);
      ir.at(itemsEnd);
    });
    LLVMValueRef flag = LLVMBuildLoad2(ir.b, ir.i8, failed, "");
    LLVMSetAlignment(flag, 1);
    LLVMSetOrdering(flag, LLVMAtomicOrderingMonotonic);
    WorkBuffers.put(ir, bAll);
    ir.br(check);
    ir.at(check);
    ir.condBr(ir.icmp(LLVMIntNE, flag, ir.constInt(ir.i8, 0)), nest, done);
    ir.at(nest);
    fallback.run();
    ir.br(done);
    ir.at(done);
  }

  /**
   * {whether the tile of rows [r0, r0 + mr) of the block from M index m0 is read in place for
   * the slice from k0, its address}: a whole tile (not the block's padded last one) whose rows
   * lie inside the convolution's input.
   */
  private LLVMValueRef[] convTile(LLVMValueRef m0, LLVMValueRef r0, LLVMValueRef rows, LLVMValueRef k0) {
    LLVMValueRef whole = ir.icmp(LLVMIntULE, ir.add(r0, ir.i64(bl.mr())), rows);
    LLVMValueRef[] t = convRows.tile(ir.add(m0, r0), k0, bl.mr());
    return new LLVMValueRef[] {ir.and(whole, t[0]), t[1]};
  }

  /**
   * Packs the A block of a channels-first convolution ({@link #convColumns}): per micro-panel whose
   * rows lie along one output row, each block of L (lanes) K steps of one window position is L
   * masked vector loads of the mr neighbouring rows (padding read as zero), a plane apart,
   * transposed in registers, its mr rows stored; tiles across output rows, features straddling
   * window positions, the K tail and a last partial panel are packed element by element.
   */
  private void packColumns(LLVMValueRef ap, LLVMValueRef k0, LLVMValueRef depth, LLVMValueRef m0, LLVMValueRef rows,
      LLVMValueRef panels, LLVMValueRef[] bIdx, LLVMValueRef rowSums, LLVMValueRef first) {
    int mr = bl.mr();
    int lanes = bl.lanes();
    LLVMValueRef stride = aStride(depth);
    LLVMValueRef blocks = ir.udiv(depth, ir.i64(lanes));
    LLVMValueRef tail = ir.mul(blocks, ir.i64(lanes));
    range(ir.i64(0), panels, p -> {
      LLVMValueRef r0 = ir.mul(p, ir.i64(mr));
      LLVMValueRef tileRows = umin(ir.sub(rows, r0), ir.i64(mr));
      LLVMValueRef whole = ir.icmp(LLVMIntULE, ir.add(r0, ir.i64(mr)), rows);
      LLVMValueRef tile = ir.gep(pt, ap, ir.mul(r0, stride));
      range(ir.i64(0), blocks, kb -> {
        LLVMValueRef kk = ir.mul(kb, ir.i64(lanes));
        LLVMValueRef[] at = convColumns.tile(ir.add(m0, r0), ir.add(k0, kk), mr, lanes);
        ir.ifElse(ir.and(whole, at[0]), "gemm.packcols",
            () -> packing.transposedRows(at[1], at[2], convColumns.plane(), ir.gep(pt, tile, kk), stride),
            () -> packing.packA(ir.gep(pt, tile, kk), ir.add(k0, kk), ir.i64(lanes), ir.add(m0, r0), tileRows, ir.i64(1),
                sizes(mAxes), idx -> out(bIdx, idx, null), rowSums, first, null, m, stride));
      });
      ir.ifElse(ir.icmp(LLVMIntULT, tail, depth), "gemm.packcols.tail", () -> packing.packA(ir.gep(pt, tile, tail),
          ir.add(k0, tail), ir.sub(depth, tail), ir.add(m0, r0), tileRows, ir.i64(1), sizes(mAxes), idx -> out(bIdx, idx, null),
          rowSums, first, null, m, stride), () -> {});
    });
  }

  /** A's row stride in packed elements for a slice of {@code depth}. */
  private LLVMValueRef aStride(LLVMValueRef depth) {
    return lda > 0 ? ir.i64(lda) : fmt.pad(ir, depth);
  }

  /** Stores the finished C block: rows [m0, m0 + rows), columns [j0, j1). */
  private void store(LLVMValueRef cp, LLVMValueRef rowSums, LLVMValueRef[] bIdx, LLVMValueRef m0, LLVMValueRef rows,
      LLVMValueRef j0, LLVMValueRef j1) {
    range(ir.i64(0), rows, r -> {
      LLVMValueRef[] mIdx = GemmPacking.decode(ir, ir.add(m0, r), sizes(mAxes));
      LLVMValueRef row = ir.gep(t, cp, ir.sub(ir.mul(r, ir.i64(ldc)), j0));
      // Quads: B was packed as b ± 128, so each element of the row is off by ±128 × the A row sum.
      LLVMValueRef fix = fmt.corrected()
          ? ir.mul(ir.load(ir.i32, ir.gep(ir.i32, rowSums, r), 4), ir.i32(fmt.rowSumFactor())) : null;
      // Only the copy along a row is left to the vectoriser (over rows both sides are strided);
      // over several N axes, as runs along the last (decoded per element, the stores went one by one).
      BiConsumer<LLVMValueRef, LLVMValueRef[]> element = (j, nIdx) -> {
        LLVMValueRef v = ir.load(t, ir.gep(t, row, j), bytes);
        if (fix != null) v = ir.add(v, fix);
        Value done = acc.finish(List.of(fmt.sum(ir, acc, v).v()));
        s.store().at(out(bIdx, mIdx, nIdx), done);
      };
      if (nAxes.length <= 1) {
        GemmPacking.range(ir, j0, j1, j -> element.accept(j, GemmPacking.decode(ir, j, sizes(nAxes))));
      } else {
        ir.ifElse(ir.icmp(LLVMIntULT, j0, j1), "gemm.store.runs", () -> GemmPacking.runs(ir, j0, ir.sub(j1, j0), sizes(nAxes),
            (jj, nIdx) -> element.accept(ir.add(j0, jj), nIdx.dims().toArray(new LLVMValueRef[0]))), () -> {});
      }
    });
  }

  /** The output index of batch, M and N indices (null: zeros, for the operand that ignores them). */
  private Index out(LLVMValueRef[] bIdx, LLVMValueRef[] mIdx, LLVMValueRef[] nIdx) {
    LLVMValueRef[] o = new LLVMValueRef[s.out().length];
    put(o, batchAxes, bIdx);
    put(o, mAxes, mIdx);
    put(o, nAxes, nIdx);
    return Index.of(o);
  }

  private void put(LLVMValueRef[] o, int[] axes, LLVMValueRef[] idx) {
    for (int i = 0; i < axes.length; i++) o[axes[i]] = idx == null ? ir.i64(0) : idx[i];
  }

  private long[] sizes(int[] axes) {
    long[] r = new long[axes.length];
    for (int i = 0; i < axes.length; i++) r[i] = s.out()[axes[i]];
    return r;
  }

  private LLVMValueRef umin(LLVMValueRef x, LLVMValueRef y) {
    return ir.select(ir.icmp(LLVMIntULT, x, y), x, y);
  }

  /**
   * {@code for (i = begin; i < end; i++) body(i)}, nothing when begin ≥ end, kept a scalar loop:
   * each iteration is big work (or a strided row), and where the bounds were constants (a
   * contraction too small for threads) LLVM unrolled these loops and vectorised the C block's
   * store over rows into gathers and scatters, 12,000 lines of IR for mlp's 256 × 512 × 10.
   */
  void range(LLVMValueRef begin, LLVMValueRef end, Consumer<LLVMValueRef> body) {
    GemmPacking.rangeScalar(ir, begin, end, body);
  }

  private static long extent(int[] axes, long[] sizes) {
    long p = 1;
    for (int a : axes) p *= sizes[a];
    return p;
  }

  private static int[] ints(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).toArray();
  }
}
