package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.HalfFloats;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.kernel.GemmAccumulator;
import dev.jaxc.backend.llvm.kernel.GemmCore;
import dev.jaxc.ir.DType;
import java.util.List;
import java.util.Locale;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * {@link GpuGemm}'s contraction on tensor cores ({@link Mma}, sm_80 and newer) where the operands
 * have an instruction: f16 × f16 and bf16 × bf16 with f32 accumulation (as XLA:GPU) on {@code
 * m16n8k16}, and f32 × f32 as 3xTF32 on {@code m16n8k8.tf32} (each operand split into a tf32 big
 * part and the tf32 rounding of the rest, the sum of small·big + big·small + big·big: f32-level
 * accuracy, as CUTLASS's 3xTF32, where XLA:GPU's default TF32 keeps 11 bits; {@link #kind}).
 *
 * <p>A block of 256 threads is 8 warps in 2 rows × 4 columns over a {@code 32 fm} × {@code 32 fn}
 * output tile ({@link Tile}); each warp owns fm × fn instruction tiles of 16 × 8, their C fragments
 * in its lanes' registers for the whole K loop. K goes in slices of {@link #tk}: each thread
 * loads its elements of the next slice into registers before the current slice's instructions
 * (elements past M, N or K and terms that do not take part as zeros) and after them stores them
 * to the A tile (row-major, K contiguous) and B tile (N-major, K contiguous) in shared memory as
 * input registers' bits (f16/bf16 halves, or tf32 big and small words); a barrier; per
 * instruction step every lane
 * loads its fragments from shared memory by the ISA's layout, then the warp's instructions run;
 * a barrier. Rows are padded by 8 halves (4 words), so a warp's fragment loads hit 32 banks.
 * The results are the instructions' sums, not the CPU's order: within the tolerances of the
 * golden cases, as XLA:GPU's own tensor-core products are.
 */
final class MmaGemm {
  private static final int BLOCK = 256;
  private static final int WARPS_M = 2;
  private static final int WARPS_N = 4;
  /** f32 products at least this large (M·N·K) may take 3xTF32 by default ({@link #kind}). */
  static final long F32_MIN_WORK = 1L << 21;

  /** fm × fn instruction tiles per warp: a block tile of 32 fm × 32 fn. */
  record Tile(int fm, int fn) {
    int tm() {
      return WARPS_M * fm * Mma.M;
    }

    int tn() {
      return WARPS_N * fn * Mma.N;
    }
  }

  /** 128 × 128, 64 × 64, 32 × 32. */
  private static final Tile[] TILES = {new Tile(4, 4), new Tile(2, 2), new Tile(1, 1)};

  /**
   * 3xTF32's: 128 × 64 at most, as its fragments are twice as many (big and small parts, two C
   * sets); at 128 × 128 ptxas needs 255 registers and spills.
   */
  private static final Tile[] TF32_TILES = {new Tile(4, 2), new Tile(2, 2), new Tile(1, 1)};

  private MmaGemm() {}

  /**
   * The instruction for this contraction, or null for the SIMT kernel: sm_80 or newer, f32
   * accumulation of two f16, two bf16 or (3xTF32, {@link #f32Mode}) two f32 operands, more than one
   * term per output (a single product keeps XLA's sign of zero), and terms that do not take part
   * may be read as zero products.
   */
  static Mma kind(Ir ir, GemmCore.Spec s, long m, long n, long k, boolean simtLargestTile) {
    if (smVersion(ir.target().cpu()) < 80 || k <= 1) return null;
    if (!(s.acc() instanceof GemmAccumulator.Plain p) || p.acc() != DType.F32) return null;
    if (!s.a().packable() || !s.b().packable() || p.lhs() != p.rhs()) return null;
    if (p.lhs() == DType.F16) return Mma.F16;
    if (p.lhs() == DType.BF16) return Mma.BF16;
    if (p.lhs() != DType.F32) return null;
    String mode = f32Mode();
    if (mode.equals("simt")) return null;
    if (mode.equals("3xtf32")) return Mma.TF32;
    // On an H200 (2026-11-26, A/B in one run) 3xTF32 beat the SIMT kernel by 8-28% on every suite
    // product the SIMT kernel runs in 64 × 64 or 32 × 32 tiles (matmul_256, matmul_1024, mlp,
    // conv2d, rnn_scan, transformer_block; batched_matmul equal) but lost 14% at 2048³, where the
    // SIMT kernel takes 128 × 128 tiles and 3xTF32 (128 × 64 at most, 130 registers) one block per SM.
    boolean large = m >= 32 && n >= 32 && k >= 32 && m * n * k >= F32_MIN_WORK;
    return large && !simtLargestTile ? Mma.TF32 : null;
  }

  /**
   * {@code JAXC_PTX_F32_GEMM} (or the system property {@code jaxc.ptx.f32Gemm}): {@code simt} or
   * {@code 3xtf32} forces that kernel for f32 products on sm_80 and newer; anything else (or
   * unset) leaves the rule of {@link #kind}.
   */
  static String f32Mode() {
    String v = System.getProperty("jaxc.ptx.f32Gemm", System.getenv("JAXC_PTX_F32_GEMM"));
    return v == null ? "" : v.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code JAXC_PTX_MMA=v1} ({@link #mode}): the kernel as first
   * measured on an H200 (f16 operands through HalfFloats' integer conversions, every operand load
   * clamped apart), to time it against the current one in the same GPU run.
   */
  static boolean v1() {
    return mode().equals("v1");
  }

  /**
   * {@code JAXC_PTX_MMA} (or {@code jaxc.ptx.mma}): {@code v1} (the first kernel) or {@code 1block}
   * (the current kernel without {@link #annotate}'s two blocks per multiprocessor); else the current.
   */
  static String mode() {
    String v = System.getProperty("jaxc.ptx.mma", System.getenv("JAXC_PTX_MMA"));
    return v == null ? "" : v.strip().toLowerCase(Locale.ROOT);
  }

  private static int smVersion(String sm) {
    try {
      return Integer.parseInt(sm.replaceAll("[^0-9]", ""));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The largest tile that still gives a wave of blocks (the smallest where none does), as {@link
   * GpuGemm#tile}; a forced SIMT tile ({@code jaxc.ptx.gemmTile}) picks the tile of about its size.
   */
  static Tile tile(Mma kind, long batch, long m, long n) {
    Tile[] tiles = kind == Mma.TF32 ? TF32_TILES : TILES;
    GpuGemm.Tile forced = GpuGemm.forced();
    if (forced != null) return forced.rm() >= 8 ? tiles[0] : forced.rm() >= 4 ? tiles[1] : tiles[2];
    for (Tile t : tiles) {
      if (blocks(t, batch, m, n) >= GpuGemm.WAVE) return t;
    }
    return tiles[tiles.length - 1];
  }

  static long blocks(Tile t, long batch, long m, long n) {
    return batch * ((m + t.tm() - 1) / t.tm()) * ((n + t.tn() - 1) / t.tn());
  }

  static GpuReductions.Launch emit(Ir ir, ThreadIndex index, LaunchScratch scratch, GemmCore.Spec s, Mma kind,
      GpuGemm.Axes axes, long batch, long m, long n, long k) {
    Tile tile = tile(kind, batch, m, n);
    long blocks = blocks(tile, batch, m, n);
    // The largest tiles already give a wave of blocks that reuse their operands well: on an H200
    // splitting matmul_1024's 128 tiles of 128 × 64 made it 10% slower.
    Tile largest = (kind == Mma.TF32 ? TF32_TILES : TILES)[0];
    Split split = tile.equals(largest) ? Split.NONE : split(blocks, (long) tile.tm() * tile.tn(), k, tk(kind));
    new Body(ir, new BlockCode(ir, index, BLOCK), s, kind, tile, axes, m, n, k, blocks, split).emit(scratch);
    return new GpuReductions.Launch(blocks * split.parts(), BLOCK);
  }

  /** Each K part of a split product keeps at least this much of K. */
  static final long SPLIT_MIN_K = 64;
  /** Partial sums of a split product: at most this many floats (in the workspace: {@link LaunchScratch}). */
  static final long SPLIT_MAX_PARTIALS = 1L << 21;

  /** K in {@code parts} parts of {@code slices} slices each (the last may hold fewer); 0 slices: all of K in one. */
  record Split(int parts, long slices) {
    static final Split NONE = new Split(1, 0);
  }

  /**
   * Into how many parts of K a product of {@code blocks} tiles of {@code tileOutputs} outputs is
   * split ({@link Body}: each part's block sums its K range, the last of a tile's blocks adds the
   * parts in order): enough for {@code JAXC_PTX_SPLIT_K} (default 4) waves of blocks where the
   * tiles alone give fewer, each part keeping {@link #SPLIT_MIN_K} of K; {@code JAXC_PTX_SPLIT_K=1}
   * never splits. On an H200 a transformer's 256 × 512 × 2048 product took 128 blocks of 32 × 32
   * for 2048 terms each: 37% of the block's GPU time in one kernel. Measured there with 1, 2, 4
   * and 8 waves (bench/gpu/split-k-h200.txt): 4 made transformer_block 12%, mlp 10% and rnn_scan
   * 5% faster than no split; 8 no better.
   */
  static Split split(long blocks, long tileOutputs, long k, int tk) {
    long waves = splitWaves();
    if (waves <= 1 || blocks >= waves * GpuGemm.WAVE) return Split.NONE;
    long want = (waves * GpuGemm.WAVE + blocks - 1) / blocks;
    long most = Math.min(k / SPLIT_MIN_K, SPLIT_MAX_PARTIALS / (blocks * tileOutputs));
    long parts = Math.max(1, Math.min(want, most));
    if (parts == 1) return Split.NONE;
    // Whole slices per part, and no empty part.
    long slices = ((k + parts - 1) / parts + tk - 1) / tk;
    return new Split((int) ((k + slices * tk - 1) / (slices * tk)), slices);
  }

  /** {@code JAXC_PTX_SPLIT_K} (or {@code jaxc.ptx.splitK}): waves of blocks to aim for; 1 never splits. */
  static long splitWaves() {
    String v = System.getProperty("jaxc.ptx.splitK", System.getenv("JAXC_PTX_SPLIT_K"));
    if (v == null || !v.strip().matches("[0-9]{1,2}")) return 4;
    return Long.parseLong(v.strip());
  }

  /**
   * Asks ptxas for two resident blocks per multiprocessor ({@code .maxntid 256}, {@code
   * .minnctapersm 2}: at most 128 registers per thread) for a kernel whose steps include the
   * f16/bf16 tensor-core GEMM, found by its ldmatrix calls: with ldmatrix it fits 128 registers
   * without spills on sm_80 and sm_90 (ptxas -v), so two blocks share a multiprocessor. {@code
   * kernel}: a kernel entry; its direct callees (the step functions) are searched.
   */
  static void annotate(LLVMValueRef kernel, String sm) {
    // For sm_80 ptxas needs 80 bytes of spills to fit 128 registers at 128 × 128 (sm_90: none).
    if (smVersion(sm) < 90 || mode().equals("1block") || !callsLdMatrix(kernel, true)) return;
    LLVMModuleRef module = LLVMGetGlobalParent(kernel);
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    // LLVM 20's NVPTX back end reads them from nvvm.annotations (later ones from function attributes).
    for (String[] kv : new String[][] {{"maxntidx", Integer.toString(BLOCK)}, {"minctasm", "2"}}) {
      LLVMValueRef[] ops = {kernel, LLVMMDStringInContext(ctx, kv[0], kv[0].length()),
          LLVMConstInt(i32, Integer.parseInt(kv[1]), 0)};
      LLVMAddNamedMetadataOperand(module, "nvvm.annotations",
          LLVMMDNodeInContext(ctx, new org.bytedeco.javacpp.PointerPointer<>(ops), ops.length));
    }
  }

  private static boolean callsLdMatrix(LLVMValueRef fn, boolean descend) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != null && !bb.isNull(); bb = LLVMGetNextBasicBlock(bb)) {
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != null && !in.isNull(); in = LLVMGetNextInstruction(in)) {
        if (LLVMGetInstructionOpcode(in) != LLVMCall) continue;
        LLVMValueRef callee = LLVMGetCalledValue(in);
        if (callee == null || callee.isNull() || LLVMIsAFunction(callee) == null || LLVMIsAFunction(callee).isNull()) continue;
        if (LLVMGetValueName(callee).getString().startsWith("llvm.nvvm.ldmatrix")) return true;
        if (descend && LLVMCountBasicBlocks(callee) > 0 && callsLdMatrix(callee, false)) return true;
      }
    }
    return false;
  }

  /** K of a slice: two instruction steps of f16/bf16 (32), two of tf32 (16, its big and small words). */
  static int tk(Mma kind) {
    return 2 * kind.k;
  }

  private static final class Body {
    private final Ir ir;
    private final BlockCode bc;
    private final GemmCore.Spec s;
    private final GemmAccumulator.Plain acc;
    private final Mma kind;
    private final GpuGemm.Axes axes;
    private final long m;
    private final long n;
    private final long k;
    private final int fm;
    private final int fn;
    private final int tm;
    private final int tn;
    private final int tk;
    /** Row stride of both shared tiles, in elements (halves or words). */
    private final int stride;
    /** Parts of an input: 1 (f16, bf16), 2 (tf32 big and small). */
    private final int parts;
    private final boolean halves;
    /** {@link #v1}: the first kernel's operand loads and conversions. */
    private final boolean v1 = v1();
    /** Parts of K ({@link #split}); each a whole number of slices. */
    private final Split split;
    private final int splits;
    /** Output tiles (batch × M tiles × N tiles): blocks per part. */
    private final long tiles;

    Body(Ir ir, BlockCode bc, GemmCore.Spec s, Mma kind, Tile tile, GpuGemm.Axes axes, long m, long n, long k,
        long tiles, Split split) {
      this.ir = ir;
      this.bc = bc;
      this.s = s;
      this.acc = (GemmAccumulator.Plain) s.acc();
      this.kind = kind;
      this.axes = axes;
      this.m = m;
      this.n = n;
      this.k = k;
      this.fm = tile.fm();
      this.fn = tile.fn();
      this.tm = tile.tm();
      this.tn = tile.tn();
      this.tk = tk(kind);
      this.halves = kind != Mma.TF32;
      this.stride = tk + (halves ? 8 : 4);
      this.parts = halves ? 1 : 2;
      this.split = split;
      this.splits = split.parts();
      this.tiles = tiles;
    }

    void emit(LaunchScratch scratch) {
      long mTiles = (m + tm - 1) / tm;
      long nTiles = (n + tn - 1) / tn;
      // Block = part · tiles + tile: the parts of a tile are a tile count apart.
      LLVMValueRef part = ir.udiv(bc.block(), ir.i64(tiles));
      LLVMValueRef block = ir.urem(bc.block(), ir.i64(tiles));
      LLVMValueRef nt = ir.urem(block, ir.i64(nTiles));
      LLVMValueRef rest = ir.udiv(block, ir.i64(nTiles));
      LLVMValueRef mt = ir.urem(rest, ir.i64(mTiles));
      LLVMValueRef b = ir.udiv(rest, ir.i64(mTiles));
      LLVMValueRef m0 = ir.mul(mt, ir.i64(tm));
      LLVMValueRef n0 = ir.mul(nt, ir.i64(tn));
      LLVMTypeRef elem = halves ? ir.i16 : ir.i32;
      LLVMValueRef[] aTile = new LLVMValueRef[parts];
      LLVMValueRef[] bTile = new LLVMValueRef[parts];
      for (int q = 0; q < parts; q++) {
        aTile[q] = bc.shared("jaxc.mma.a", elem, tm * stride);
        bTile[q] = bc.shared("jaxc.mma.b", elem, tn * stride);
      }
      // Per lane: A fragments (fm tiles × 4 registers per part), B fragments (fn × 2 per part), C
      // (fm × fn × 4 per part: 3xTF32 sums the small terms apart, so that they do not add
      // roundings of the large sum).
      BlockCode.Slots aFrag = bc.slots(ir.i32, 4, parts * fm * Mma.A_REGS);
      BlockCode.Slots bFrag = bc.slots(ir.i32, 4, parts * fn * Mma.B_REGS);
      BlockCode.Slots cFrag = bc.slots(ir.f32, 4, parts * fm * fn * Mma.C_REGS);
      bc.phase(t -> {
        for (int r = 0; r < cFrag.count(); r++) cFrag.store(t, r, Value.of(ir.constReal(ir.f32, 0.0)));
      });
      long slices = (k + tk - 1) / tk;
      long perPart = splits == 1 ? slices : split.slices();
      LLVMValueRef first = ir.mul(part, ir.i64(perPart));
      LLVMValueRef end = ir.add(first, ir.i64(perPart));
      LLVMValueRef last = ir.select(ir.icmp(LLVMIntULT, end, ir.i64(slices)), end, ir.i64(slices));
      // The next slice's operand elements (f32 values, zero where they do not count) per thread:
      // loaded from global memory before the current slice's instructions, encoded and stored to
      // shared memory after them (software pipelining).
      int ua = tm * tk / BLOCK;
      int ub = tk * tn / BLOCK;
      BlockCode.Slots staged = bc.slots(ir.f32, 4, ua + ub);
      // The emulation's ldmatrix row addresses, per lane: one per instruction of a step.
      BlockCode.Slots rows = bc.device() ? null : bc.slots(ir.i64, 8, fm + (fn + 1) / 2);
      bc.phase(t -> fetch(t, ir.mul(first, ir.i64(tk)), b, m0, n0, staged));
      ir.loop(first, last, 1, slice -> {
        bc.phase(t -> {
          for (int u = 0; u < ua + ub; u++) {
            boolean lhs = u < ua;
            int v = lhs ? u : u - ua;
            LLVMValueRef at = lhs ? ir.add(ir.mul(outer(t, v, tk), ir.i64(stride)), inner(t, v, tk))
                : ir.add(ir.mul(inner(t, v, tn), ir.i64(stride)), outer(t, v, tn));
            LLVMValueRef[] words = encode(staged.load(t, u).v());
            for (int q = 0; q < parts; q++) {
              LLVMValueRef word = words[q];
              LLVMValueRef tile = (lhs ? aTile : bTile)[q];
              if (halves) ir.store(ir.trunc(word, ir.i16), ir.gep(ir.i16, tile, at), 2);
              else ir.store(word, ir.gep(ir.i32, tile, at), 4);
            }
          }
        });
        bc.barrier();
        // Past the last slice every element is outside K: zeros, from clamped (valid) addresses.
        LLVMValueRef next = ir.mul(ir.add(slice, ir.i64(1)), ir.i64(tk));
        bc.phase(t -> fetch(t, next, b, m0, n0, staged));
        for (int step = 0; step < tk / kind.k; step++) {
          int ks = step * kind.k;
          if (halves && !v1) {
            loadFragments(aTile[0], bTile[0], ks, rows, aFrag, bFrag);
            multiply(aFrag, bFrag, cFrag);
            continue;
          }
          bc.phase(t -> {
            LLVMValueRef w = ir.udiv(t, ir.i64(BlockCode.WARP));
            LLVMValueRef lane = bc.lane(t);
            LLVMValueRef g = ir.lshr(lane, ir.i64(2));
            LLVMValueRef tq = ir.mul(ir.and(lane, ir.i64(3)), ir.i64(kind.perReg));
            LLVMValueRef wm = ir.mul(ir.udiv(w, ir.i64(WARPS_N)), ir.i64((long) fm * Mma.M));
            LLVMValueRef wn = ir.mul(ir.urem(w, ir.i64(WARPS_N)), ir.i64((long) fn * Mma.N));
            for (int q = 0; q < parts; q++) {
              for (int i = 0; i < fm; i++) {
                for (int r = 0; r < Mma.A_REGS; r++) {
                  LLVMValueRef row = ir.add(wm, ir.add(g, ir.i64((long) i * Mma.M + Mma.aRow(r))));
                  LLVMValueRef col = ir.add(tq, ir.i64(ks + kind.aCol(r, 0)));
                  aFrag.store(t, (q * fm + i) * Mma.A_REGS + r, Value.of(register(aTile[q], row, col)));
                }
              }
              for (int j = 0; j < fn; j++) {
                for (int r = 0; r < Mma.B_REGS; r++) {
                  LLVMValueRef col = ir.add(wn, ir.add(g, ir.i64((long) j * Mma.N)));
                  LLVMValueRef row = ir.add(tq, ir.i64(ks + kind.bRow(r, 0)));
                  bFrag.store(t, (q * fn + j) * Mma.B_REGS + r, Value.of(register(bTile[q], col, row)));
                }
              }
            }
          });
          multiply(aFrag, bFrag, cFrag);
        }
        bc.barrier();
      });
      int outputs = fm * fn * Mma.C_REGS;
      if (splits == 1) {
        bc.phase(t -> store(t, b, m0, n0, slot -> sum(t, cFrag, slot)));
        return;
      }
      // Split K: every part's block writes its sums (a thread's outputs apart, coalesced) and
      // counts itself done; the tile's last block adds the parts in order, so the result does
      // not depend on which block finishes last.
      LLVMValueRef partials = scratch.partials(ir.f32, tiles * splits * outputs * BLOCK);
      LLVMValueRef counters = scratch.counters(tiles);
      LLVMValueRef lastFlag = bc.shared("jaxc.mma.last", ir.i32, 1);
      LLVMValueRef counter = ir.gep(ir.i32, counters, block);
      bc.phase(t -> {
        for (int slot = 0; slot < outputs; slot++) {
          LLVMValueRef at = partial(block, part, slot, t);
          LLVMSetVolatile(LLVMBuildStore(ir.b, sum(t, cFrag, slot), ir.gep(ir.f32, partials, at)), 1);
        }
        // This thread's sums are visible to every block before the count that says they are there.
        LLVMBuildFence(ir.b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
      });
      bc.barrier();
      bc.phase(t -> BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> {
        LLVMValueRef done = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpAdd, counter, ir.i32(1), LLVMAtomicOrderingMonotonic, 0);
        LLVMBuildFence(ir.b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
        ir.store(ir.zext(ir.icmp(LLVMIntEQ, done, ir.i32(splits - 1)), ir.i32), lastFlag, 4);
      }));
      bc.barrier();
      BlockCode.when(ir, ir.icmp(LLVMIntNE, ir.load(ir.i32, lastFlag, 4), ir.i32(0)), () -> bc.phase(t -> {
        store(t, b, m0, n0, slot -> {
          LLVMValueRef v = null;
          for (int q = 0; q < splits; q++) {
            LLVMValueRef x = LLVMBuildLoad2(ir.b, ir.f32, ir.gep(ir.f32, partials, partial(block, ir.i64(q), slot, t)), "");
            LLVMSetVolatile(x, 1);
            v = v == null ? x : ir.faddExact(v, x);
          }
          return v;
        });
        BlockCode.when(ir, ir.icmp(LLVMIntEQ, t, ir.i64(0)), () -> LLVMSetVolatile(LLVMBuildStore(ir.b, ir.i32(0), counter), 1));
      }));
    }

    /** Thread t's sum in C slot {@code slot}: with 3xTF32 its small terms' sum added last. */
    private LLVMValueRef sum(LLVMValueRef t, BlockCode.Slots cFrag, int slot) {
      LLVMValueRef v = cFrag.load(t, slot).v();
      return parts == 2 ? ir.faddExact(v, cFrag.load(t, fm * fn * Mma.C_REGS + slot).v()) : v;
    }

    /** The index in the partial sums of thread t's C slot {@code slot} of tile {@code tile}'s part {@code part}. */
    private LLVMValueRef partial(LLVMValueRef tile, LLVMValueRef part, int slot, LLVMValueRef t) {
      LLVMValueRef group = ir.add(ir.mul(tile, ir.i64(splits)), part);
      return ir.add(ir.mul(ir.add(ir.mul(group, ir.i64((long) fm * fn * Mma.C_REGS)), ir.i64(slot)), ir.i64(BLOCK)), t);
    }

    /** Stores thread t's outputs inside M × N, the value of C slot {@code slot} being {@code value.apply(slot)}. */
    private void store(LLVMValueRef t, LLVMValueRef b, LLVMValueRef m0, LLVMValueRef n0,
        java.util.function.IntFunction<LLVMValueRef> value) {
      LLVMValueRef w = ir.udiv(t, ir.i64(BlockCode.WARP));
      LLVMValueRef lane = bc.lane(t);
      LLVMValueRef g = ir.lshr(lane, ir.i64(2));
      LLVMValueRef t2 = ir.mul(ir.and(lane, ir.i64(3)), ir.i64(2));
      LLVMValueRef wm = ir.add(m0, ir.mul(ir.udiv(w, ir.i64(WARPS_N)), ir.i64((long) fm * Mma.M)));
      LLVMValueRef wn = ir.add(n0, ir.mul(ir.urem(w, ir.i64(WARPS_N)), ir.i64((long) fn * Mma.N)));
      for (int i = 0; i < fm; i++) {
        for (int j = 0; j < fn; j++) {
          for (int c = 0; c < Mma.C_REGS; c++) {
            int slot = (i * fn + j) * Mma.C_REGS + c;
            LLVMValueRef row = ir.add(wm, ir.add(g, ir.i64((long) i * Mma.M + Mma.cRow(c))));
            LLVMValueRef col = ir.add(wn, ir.add(t2, ir.i64((long) j * Mma.N + Mma.cCol(c))));
            LLVMValueRef inside = ir.and(ir.icmp(LLVMIntULT, row, ir.i64(m)), ir.icmp(LLVMIntULT, col, ir.i64(n)));
            BlockCode.when(ir, inside, () -> s.store().at(axes.outIndex(ir, b, row, col), acc.finish(List.of(value.apply(slot)))));
          }
        }
      }
    }

    /** Loads this thread's elements of the slice from K index {@code k0} of both operands into its staged slots. */
    private void fetch(LLVMValueRef t, LLVMValueRef k0, LLVMValueRef b, LLVMValueRef m0, LLVMValueRef n0,
        BlockCode.Slots staged) {
      // On the GPU f16 operands widen by fpext, which encode's fptrunc undoes (their NaNs only
      // reach the sums, where any NaN is NaN).
      if (kind == Mma.F16 && bc.device() && !v1) ir.nativeHalfWidening(() -> fetchElements(t, k0, b, m0, n0, staged));
      else fetchElements(t, k0, b, m0, n0, staged);
    }

    private void fetchElements(LLVMValueRef t, LLVMValueRef k0, LLVMValueRef b, LLVMValueRef m0, LLVMValueRef n0,
        BlockCode.Slots staged) {
      // Where M (N, K) is a multiple of the tile's (the slice's) extent, every row (column, K
      // index) of a tile lies inside, but for K's slice past the last one: then one uniform check
      // of k0 replaces a clamp per element, and the thread's loads stay a base address plus
      // constant offsets (fewer registers live).
      boolean mFull = !v1 && m % tm == 0;
      boolean nFull = !v1 && n % tn == 0;
      boolean kFull = !v1 && k % tk == 0;
      LLVMValueRef kIn = kFull ? ir.icmp(LLVMIntULT, k0, ir.i64(k)) : null;
      LLVMValueRef kBase = kFull ? ir.select(kIn, k0, ir.i64(0)) : k0;
      int ua = tm * tk / BLOCK;
      for (int u = 0; u < ua; u++) {
        LLVMValueRef row = ir.add(m0, outer(t, u, tk));
        LLVMValueRef red = ir.add(kBase, inner(t, u, tk));
        LLVMValueRef rowIn = mFull ? null : ir.icmp(LLVMIntULT, row, ir.i64(m));
        LLVMValueRef redIn = kFull ? kIn : ir.icmp(LLVMIntULT, red, ir.i64(k));
        LLVMValueRef inside = rowIn == null ? redIn : ir.and(rowIn, redIn);
        GemmCore.Term term = s.a().at(axes.outIndex(ir, b, mFull ? row : clamp(row, m), ir.i64(0)),
            GpuReductions.unflatten(ir, kFull ? red : clamp(red, k), s.red()));
        staged.store(t, u, Value.of(value(term, inside, true)));
      }
      for (int u = 0; u < tk * tn / BLOCK; u++) {
        LLVMValueRef col = ir.add(n0, inner(t, u, tn));
        LLVMValueRef red = ir.add(kBase, outer(t, u, tn));
        LLVMValueRef colIn = nFull ? null : ir.icmp(LLVMIntULT, col, ir.i64(n));
        LLVMValueRef redIn = kFull ? kIn : ir.icmp(LLVMIntULT, red, ir.i64(k));
        LLVMValueRef inside = colIn == null ? redIn : ir.and(colIn, redIn);
        GemmCore.Term term = s.b().at(axes.outIndex(ir, b, ir.i64(0), nFull ? col : clamp(col, n)),
            GpuReductions.unflatten(ir, kFull ? red : clamp(red, k), s.red()));
        staged.store(t, ua + u, Value.of(value(term, inside, false)));
      }
    }

    /**
     * Thread t's element u of a slice tile with rows of {@code width}, e = t + u·BLOCK: its row e /
     * width ({@link #outer}) and column e % width ({@link #inner}). The width divides BLOCK, so
     * these are t / width + u·BLOCK / width and t % width: the same for every u but a constant,
     * which keeps a thread's addresses one base plus constant offsets (the v1 kernel divides e).
     */
    private LLVMValueRef outer(LLVMValueRef t, int u, int width) {
      if (v1) return ir.udiv(ir.add(t, ir.i64((long) u * BLOCK)), ir.i64(width));
      return ir.add(ir.udiv(t, ir.i64(width)), ir.i64((long) u * (BLOCK / width)));
    }

    private LLVMValueRef inner(LLVMValueRef t, int u, int width) {
      if (v1) return ir.urem(ir.add(t, ir.i64((long) u * BLOCK)), ir.i64(width));
      return ir.urem(t, ir.i64(width));
    }

    /** An operand element's f32 value as the sum reads it: zero where it is past the matrix or does not take part. */
    private LLVMValueRef value(GemmCore.Term term, LLVMValueRef inside, boolean lhs) {
      LLVMValueRef ok = term.valid() == null ? inside : ir.and(inside, term.valid());
      LLVMValueRef v = term.value().v();
      if (kind == Mma.TF32) v = lhs ? acc.lhsTerm(term.value()) : acc.rhsTerm(term.value());
      return ir.select(ok, v, ir.constReal(ir.f32, 0.0));
    }

    /**
     * An element as the shared tile holds it, 32-bit words per part: f16/bf16 as its bits, f32 as
     * its tf32 big part and the tf32 rounding of the rest.
     */
    private LLVMValueRef[] encode(LLVMValueRef v) {
      if (halves) {
        // Exact: an f16/bf16 operand's f32 value is one of its dtype's. A bf16 is the f32's top
        // half. On the GPU an f16 is LLVM's fptrunc, which folds with the fpext of the load
        // (fetch) to the loaded bits: HalfFloats' integer forms cost about 35 instructions per
        // element, which made f16 products far slower than bf16 ones. The emulation keeps them.
        if (kind == Mma.BF16 && !v1) return new LLVMValueRef[] {ir.lshr(ir.bitcast(v, ir.i32), ir.i32(16))};
        if (bc.device() && !v1) {
          LLVMValueRef h = ir.fptrunc(v, LLVMHalfTypeInContext(ir.ctx));
          return new LLVMValueRef[] {ir.zext(ir.bitcast(h, ir.i16), ir.i32)};
        }
        return new LLVMValueRef[] {ir.zext(HalfFloats.fromF32(ir, kind == Mma.F16 ? DType.F16 : DType.BF16, v), ir.i32)};
      }
      LLVMValueRef big = Mma.tf32(ir, bc.device(), v);
      LLVMValueRef rest = ir.faddExact(v, ir.fneg(ir.bitcast(big, ir.f32)));
      LLVMValueRef finite = ir.fcmp(LLVMRealOLT, ir.fabs(ir.bitcast(big, ir.f32)), ir.constReal(ir.f32, Double.POSITIVE_INFINITY));
      return new LLVMValueRef[] {big, ir.select(finite, Mma.tf32(ir, bc.device(), rest), ir.i32(0))};
    }

    /**
     * One step's f16/bf16 fragments by ldmatrix: per A tile i an x4 (its registers 0–3: rows +0/+8,
     * K +0/+8, as {@link Mma#aRow} and {@link Mma#aCol}), per pair of B tiles an x4 (x2 for the
     * last of an odd count) on the N-major B tile, whose 8 × 8 blocks of (N, K) are B's registers
     * (column g, K 2t + 8r). Matrix q's row r is given by lane 8q + r.
     */
    private void loadFragments(LLVMValueRef aTile, LLVMValueRef bTile, int ks, BlockCode.Slots rows,
        BlockCode.Slots aFrag, BlockCode.Slots bFrag) {
      int calls = fm + (fn + 1) / 2;
      int[] count = new int[calls];
      int[] first = new int[calls];
      for (int c = 0; c < calls; c++) {
        count[c] = c < fm ? 4 : 2 * Math.min(2, fn - 2 * (c - fm));
        first[c] = c < fm ? c * Mma.A_REGS : 2 * (c - fm) * Mma.B_REGS;
      }
      bc.phase(t -> {
        LLVMValueRef w = ir.udiv(t, ir.i64(BlockCode.WARP));
        LLVMValueRef lane = bc.lane(t);
        LLVMValueRef r = ir.and(lane, ir.i64(7));
        LLVMValueRef wm = ir.mul(ir.udiv(w, ir.i64(WARPS_N)), ir.i64((long) fm * Mma.M));
        LLVMValueRef wn = ir.mul(ir.urem(w, ir.i64(WARPS_N)), ir.i64((long) fn * Mma.N));
        for (int c = 0; c < calls; c++) {
          // Lanes past 8 · count repeat the first ones (their addresses are not read).
          LLVMValueRef q = ir.and(ir.lshr(lane, ir.i64(3)), ir.i64(count[c] - 1));
          LLVMValueRef row;
          LLVMValueRef col;
          if (c < fm) {
            // Matrix q is A's register q: rows + (q & 1)·8, K + (q >> 1)·8.
            row = ir.add(wm, ir.add(r, ir.add(ir.i64((long) c * Mma.M), ir.mul(ir.and(q, ir.i64(1)), ir.i64(8)))));
            col = ir.add(ir.i64(ks), ir.mul(ir.lshr(q, ir.i64(1)), ir.i64(kind.k / 2)));
          } else {
            // Matrix q is B tile 2(c - fm) + q / 2's register q % 2: K + (q % 2)·8.
            LLVMValueRef j = ir.add(ir.i64(2L * (c - fm)), ir.lshr(q, ir.i64(1)));
            row = ir.add(wn, ir.add(r, ir.mul(j, ir.i64(Mma.N))));
            col = ir.add(ir.i64(ks), ir.mul(ir.and(q, ir.i64(1)), ir.i64(kind.k / 2)));
          }
          LLVMValueRef index = ir.add(ir.mul(row, ir.i64(stride)), col);
          BlockCode.Slots dst = c < fm ? aFrag : bFrag;
          if (bc.device()) {
            LLVMValueRef[] regs = LdMatrix.device(ir, count[c], ir.gep(ir.i16, c < fm ? aTile : bTile, index));
            for (int k = 0; k < count[c]; k++) dst.store(t, first[c] + k, Value.of(regs[k]));
          } else {
            rows.store(t, c, Value.of(index));
          }
        }
      });
      if (bc.device()) return;
      ir.loop(ir.i64(0), ir.i64(BLOCK / BlockCode.WARP), 1, w -> {
        LLVMValueRef lane0 = ir.mul(w, ir.i64(BlockCode.WARP));
        for (int c = 0; c < calls; c++) {
          LLVMValueRef fnRef = LdMatrix.emulation(ir, count[c]);
          BlockCode.Slots dst = c < fm ? aFrag : bFrag;
          ir.call(LLVMGlobalGetValueType(fnRef), fnRef, c < fm ? aTile : bTile, rows.address(lane0, c),
              ir.i64(rows.count()), dst.address(lane0, first[c]), ir.i64(dst.count()));
        }
      });
    }

    /** The 32-bit input register at (row, col) of a shared tile: two halves from col (even), or one word. */
    private LLVMValueRef register(LLVMValueRef tile, LLVMValueRef row, LLVMValueRef col) {
      LLVMValueRef i = ir.add(ir.mul(row, ir.i64(stride)), col);
      return halves ? ir.load(ir.i32, ir.gep(ir.i16, tile, i), 4) : ir.load(ir.i32, ir.gep(ir.i32, tile, i), 4);
    }

    /**
     * Every warp's instructions for one step: for each of its fm × fn tiles, C += A·B (3xTF32:
     * the second C += small·big + big·small, the first C += big·big).
     */
    private void multiply(BlockCode.Slots aFrag, BlockCode.Slots bFrag, BlockCode.Slots cFrag) {
      // {A part, B part, C part}
      int[][] passes = parts == 1 ? new int[][] {{0, 0, 0}} : new int[][] {{1, 0, 1}, {0, 1, 1}, {0, 0, 0}};
      int cPart = fm * fn * Mma.C_REGS;
      if (bc.device()) {
        bc.phase(t -> {
          for (int i = 0; i < fm; i++) {
            for (int j = 0; j < fn; j++) {
              for (int[] pass : passes) {
                int c0 = pass[2] * cPart + (i * fn + j) * Mma.C_REGS;
                LLVMValueRef[] c = new LLVMValueRef[Mma.C_REGS];
                for (int r = 0; r < Mma.C_REGS; r++) c[r] = cFrag.load(t, c0 + r).v();
                LLVMValueRef[] a = new LLVMValueRef[Mma.A_REGS];
                LLVMValueRef[] bb = new LLVMValueRef[Mma.B_REGS];
                for (int r = 0; r < Mma.A_REGS; r++) a[r] = aFrag.load(t, (pass[0] * fm + i) * Mma.A_REGS + r).v();
                for (int r = 0; r < Mma.B_REGS; r++) bb[r] = bFrag.load(t, (pass[1] * fn + j) * Mma.B_REGS + r).v();
                c = kind.device(ir, a, bb, c);
                for (int r = 0; r < Mma.C_REGS; r++) cFrag.store(t, c0 + r, Value.of(c[r]));
              }
            }
          }
        });
        return;
      }
      LLVMValueRef fnRef = kind.emulation(ir);
      LLVMTypeRef type = LLVMGlobalGetValueType(fnRef);
      ir.loop(ir.i64(0), ir.i64(BLOCK / BlockCode.WARP), 1, w -> {
        LLVMValueRef first = ir.mul(w, ir.i64(BlockCode.WARP));
        for (int i = 0; i < fm; i++) {
          for (int j = 0; j < fn; j++) {
            for (int[] pass : passes) {
              ir.call(type, fnRef,
                  aFrag.address(first, (pass[0] * fm + i) * Mma.A_REGS), ir.i64(aFrag.count()),
                  bFrag.address(first, (pass[1] * fn + j) * Mma.B_REGS), ir.i64(bFrag.count()),
                  cFrag.address(first, pass[2] * cPart + (i * fn + j) * Mma.C_REGS), ir.i64(cFrag.count()));
            }
          }
        }
      });
    }

    /** {@code i} where below {@code extent}, else 0 (a valid index whose value is not used). */
    private LLVMValueRef clamp(LLVMValueRef i, long extent) {
      return ir.select(ir.icmp(LLVMIntULT, i, ir.i64(extent)), i, ir.i64(0));
    }
  }
}
