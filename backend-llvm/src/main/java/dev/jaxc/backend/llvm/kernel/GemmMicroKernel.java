package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The register-blocked micro-kernel of the packed GEMM, one function per element type and tile:
 *
 * <pre>
 * void jaxc_gemm_TxMRxNR[_aLDA](i64 kc, T *a, T *b, i64 ldb, T *c, i64 ldc, i1 first)
 * </pre>
 *
 * C[i][j] (row stride ldc) += Σ_{k < kc} a[i·lda + k] · b[k·ldb + j] for the MR×NR tile (the slice's sum
 * added to C once), with C read as zero when {@code first}: A's micro-panel is row-major (so packing writes each row in order),
 * B's is k-major (a packed panel, ldb = NR, or B's own rows, ldb = N). The accumulators are
 * MR × (NR / lanes) vector registers; each step loads
 * a row of the B panel, broadcasts each element of the A column and multiply-adds
 * ({@code llvm.fmuladd}: one FMA where the target has it). Each element sums a slice's terms in k
 * order, so the result does not depend on how the caller cuts M and N.
 *
 * <p>For integers in groups of g = 2 (i16 pairs) or 4 (byte quads) K steps ({@link GemmFormat}),
 * {@code kc} is a multiple of g and counts K steps: A's rows hold the packed terms, B's panel holds
 * per group {@code ldb} i32 words, each the group (b[g·p][j], …, b[g·p + g − 1][j]); a step
 * broadcasts A's group (one i32) and adds the g products into the i32 accumulators: pairs with
 * {@code pmaddwd} and an add (fused into {@code vpdpwssd} by LLVM with AVX-512 VNNI; a plain
 * widening multiply and pairwise add elsewhere, which AArch64 turns into its own widening
 * multiply-adds), quads with {@code vpdpbusd}.
 */
final class GemmMicroKernel {
  /**
   * K steps per loop iteration. Unrolled by hand (4), LLVM's scheduler hoisted the loads of later
   * steps and spilled accumulators on AVX-512 (measured 10% slower); one step per iteration keeps
   * all 28 accumulators in registers.
   */
  static final int UNROLL = 1;

  /**
   * How many K steps ahead each step prefetches B's row (the whole row: 2 lines for 32 f32). A B
   * micro-panel is first read from memory (B is packed whole before the items start, 16 MiB at
   * 2048²) and the hardware prefetchers did not keep the loop fed: on a Cascade Lake core matmul
   * 2048³ ran 178–182 ms without and 168–172 with 32 steps (4 KiB) ahead, 64 alike, 16 with
   * one line a step slower. Past the panel's end the prefetch runs into the next panel's start,
   * which the next column of tiles reads.
   */
  static final long PREFETCH_STEPS = 32;

  private final Ir ir;
  private final GemmBlocking bl;
  private final GemmFormat fmt;
  private final LLVMTypeRef t;
  private final LLVMTypeRef vec;
  private final int bytes;
  /** A's row stride in packed elements, 0 where it is kc. */
  private final long lda;

  private GemmMicroKernel(Ir ir, GemmBlocking bl, GemmFormat fmt, long lda) {
    this.ir = ir;
    this.lda = lda;
    this.bl = bl;
    this.fmt = fmt;
    this.t = fmt.acc();
    this.bytes = fmt.accBytes();
    this.vec = LLVMVectorType(t, bl.lanes());
  }

  static LLVMTypeRef type(Ir ir) {
    return ir.fnType(ir.voidType, ir.i64, ir.ptr, ir.ptr, ir.i64, ir.ptr, ir.i64, ir.i1);
  }

  /**
   * Whether A's row stride is a constant of the micro-kernel (else it is {@code kc}, the slice's
   * depth): on x86-64, whose loads take a register, a scaled index and a constant offset, the
   * mr rows are then constant offsets from one register and the k index. With the stride a
   * runtime argument, a 14 × 32 step on AVX-512 spent 13 integer adds on row addresses beside
   * its 28 FMAs, 14 broadcasts and 2 loads, past the 4 µops a cycle the core issues (Cascade
   * Lake, one core: matmul 2048³ 0.93×, 1024³ 0.89×, transformer_block 0.87–1.01× of the time
   * with the runtime stride, alternating in one run). AArch64's loads take no scaled index beside
   * an offset: there LLVM hoisted the constant-offset loads and shuffled twice the registers, so
   * it keeps the runtime stride.
   */
  static boolean constantStride(Ir ir) {
    return ir.target() != null && ir.target().arch() == TargetSpec.Arch.X86_64;
  }

  /**
   * The module's micro-kernel for format {@code fmt}, tile {@code bl} and A's row stride
   * {@code lda} in packed elements (0: {@code kc}, see {@link #constantStride}).
   */
  static LLVMValueRef get(Ir ir, GemmBlocking bl, GemmFormat fmt, long lda) {
    String name = "jaxc_gemm_" + fmt.tag() + "_" + bl.mr() + "x" + bl.nr() + (lda > 0 ? "_a" + lda : "");
    return ir.outlined(name, type(ir), f -> new GemmMicroKernel(ir, bl, fmt, lda).body(f));
  }

  private void body(LLVMValueRef f) {
    LLVMValueRef kc = LLVMGetParam(f, 0);
    LLVMValueRef a = LLVMGetParam(f, 1);
    LLVMValueRef b = LLVMGetParam(f, 2);
    LLVMValueRef ldb = LLVMGetParam(f, 3);
    LLVMValueRef c = LLVMGetParam(f, 4);
    LLVMValueRef ldc = LLVMGetParam(f, 5);
    LLVMValueRef first = LLVMGetParam(f, 6);
    int mr = bl.mr();
    int nv = bl.vectors();
    int n = mr * nv;
    LLVMValueRef zero = LLVMConstNull(vec);
    // The sums start from zero and C (earlier slices' sums) is added once at the end, as BLIS and
    // Eigen do: the k loop never waits for C, whose block is past L2 on large products, and its
    // lines are prefetched for writing now so they are in L1 by then. On the first slice C's
    // buffer holds nothing of use and is neither read nor prefetched.
    LLVMBasicBlockRef prefetch = ir.block("uk.prefetchc");
    LLVMBasicBlockRef start = ir.block("uk.start");
    ir.condBr(first, start, prefetch);
    ir.at(prefetch);
    int rowBytes = nv * bl.lanes() * bytes;
    for (int i = 0; i < mr; i++) ir.prefetch(ir.gep(t, c, ir.mul(ldc, ir.i64(i))), rowBytes, true);
    ir.br(start);
    ir.at(start);
    LLVMValueRef[] acc = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) acc[j] = zero;

    LLVMValueRef kcA = lda > 0 ? ir.i64(lda) : kc;  // A's row stride in its elements
    kc = ir.udiv(kc, ir.i64(fmt.kStep()));  // micro-kernel steps
    LLVMValueRef main = ir.and(kc, ir.i64(-UNROLL));
    LLVMBasicBlockRef entry = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("uk.main");
    LLVMBasicBlockRef check = ir.block("uk.check");
    LLVMBasicBlockRef rest = ir.block("uk.rest");
    LLVMBasicBlockRef done = ir.block("uk.done");
    ir.condBr(ir.icmp(LLVMIntUGT, main, ir.i64(0)), loop, check);

    ir.at(loop);
    LLVMValueRef k = ir.phi(ir.i64);
    LLVMValueRef[] cur = phis(acc, entry);
    ir.incoming(k, ir.i64(0), entry);
    LLVMValueRef[] next = cur;
    for (int u = 0; u < UNROLL; u++) next = step(next, a, kcA, b, ldb, ir.add(k, ir.i64(u)));
    LLVMValueRef k4 = ir.add(k, ir.i64(UNROLL));
    ir.incoming(k, k4, loop);
    for (int j = 0; j < n; j++) ir.incoming(cur[j], next[j], loop);
    ir.condBr(ir.icmp(LLVMIntULT, k4, main), loop, check);

    ir.at(check);
    LLVMValueRef[] mid = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) {
      mid[j] = ir.phi(vec);
      ir.incoming(mid[j], acc[j], entry);
      ir.incoming(mid[j], next[j], loop);
    }
    ir.condBr(ir.icmp(LLVMIntULT, main, kc), rest, done);

    ir.at(rest);
    LLVMValueRef r = ir.phi(ir.i64);
    ir.incoming(r, main, check);
    LLVMValueRef[] rc = phis(mid, check);
    LLVMValueRef[] rn = step(rc, a, kcA, b, ldb, r);
    LLVMValueRef r1 = ir.add(r, ir.i64(1));
    ir.incoming(r, r1, rest);
    for (int j = 0; j < n; j++) ir.incoming(rc[j], rn[j], rest);
    ir.condBr(ir.icmp(LLVMIntULT, r1, kc), rest, done);

    ir.at(done);
    LLVMValueRef[] fin = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) {
      fin[j] = ir.phi(vec);
      ir.incoming(fin[j], mid[j], check);
      ir.incoming(fin[j], rn[j], rest);
    }
    LLVMBasicBlockRef addC = ir.block("uk.addc");
    LLVMBasicBlockRef store = ir.block("uk.store");
    LLVMBasicBlockRef sums = ir.currentBlock();
    ir.condBr(first, store, addC);
    ir.at(addC);
    boolean real = LLVMGetTypeKind(t) == LLVMFloatTypeKind || LLVMGetTypeKind(t) == LLVMDoubleTypeKind;
    LLVMValueRef[] added = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) {
      LLVMValueRef old = ir.load(vec, cAt(c, ldc, j / nv, j % nv), bytes);
      added[j] = real ? LLVMBuildFAdd(ir.b, old, fin[j], "") : LLVMBuildAdd(ir.b, old, fin[j], "");
    }
    ir.br(store);
    ir.at(store);
    LLVMValueRef[] out = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) {
      out[j] = ir.phi(vec);
      ir.incoming(out[j], fin[j], sums);
      ir.incoming(out[j], added[j], addC);
    }
    for (int j = 0; j < n; j++) ir.store(out[j], cAt(c, ldc, j / nv, j % nv), bytes);
    LLVMBuildRetVoid(ir.b);
  }

  private LLVMValueRef[] phis(LLVMValueRef[] from, LLVMBasicBlockRef pred) {
    LLVMValueRef[] p = new LLVMValueRef[from.length];
    for (int j = 0; j < from.length; j++) {
      p[j] = ir.phi(vec);
      ir.incoming(p[j], from[j], pred);
    }
    return p;
  }

  /** One rank-1 update at depth k (for groups of g, rank g at depths g·k … g·k + g − 1). */
  private LLVMValueRef[] step(LLVMValueRef[] acc, LLVMValueRef a, LLVMValueRef kc, LLVMValueRef b, LLVMValueRef ldb,
      LLVMValueRef k) {
    int mr = bl.mr();
    int nv = bl.vectors();
    LLVMValueRef[] bv = new LLVMValueRef[nv];
    LLVMValueRef brow = ir.gep(t, b, ir.mul(k, ldb));
    for (int v = 0; v < nv; v++) bv[v] = ir.load(vec, ir.gep(t, brow, ir.i64((long) v * bl.lanes())), bytes);
    // A plain (not inbounds) address: the last steps' prefetches point past B.
    PointerPointer<LLVMValueRef> steps = new PointerPointer<>(1);
    steps.put(0, ir.mul(ldb, ir.i64(PREFETCH_STEPS)));
    LLVMValueRef ahead = LLVMBuildGEP2(ir.b, t, brow, steps, 1, "");
    ir.prefetch(ahead, (long) nv * bl.lanes() * bytes, false);
    if (fmt.grouped()) return groupStep(acc, a, kc, bv, k);
    LLVMValueRef acol = ir.gep(t, a, k);
    LLVMValueRef[] out = new LLVMValueRef[acc.length];
    for (int i = 0; i < mr; i++) {
      LLVMValueRef s = splat(ir.load(t, ir.gep(t, acol, ir.mul(kc, ir.i64(i))), bytes));
      for (int v = 0; v < nv; v++) out[i * nv + v] = ir.intrinsic("llvm.fmuladd", s, bv[v], acc[i * nv + v]);
    }
    return out;
  }

  private LLVMValueRef[] groupStep(LLVMValueRef[] acc, LLVMValueRef a, LLVMValueRef kc, LLVMValueRef[] bv,
      LLVMValueRef k) {
    int mr = bl.mr();
    int nv = bl.vectors();
    LLVMTypeRef pt = fmt.packed();
    LLVMValueRef[] out = new LLVMValueRef[acc.length];
    LLVMValueRef acol = ir.gep(pt, a, ir.mul(k, ir.i64(fmt.kStep())));
    for (int i = 0; i < mr; i++) {
      LLVMValueRef s = splat(ir.load(ir.i32, ir.gep(pt, acol, ir.mul(kc, ir.i64(i))), 4));
      for (int v = 0; v < nv; v++)
        out[i * nv + v] = switch (fmt.kind()) {
          case QUADS -> quadMulAdd(acc[i * nv + v], s, bv[v]);
          case BF16_PAIRS -> x86Dot("llvm.x86.avx512bf16.dpbf16ps.512", acc[i * nv + v], s, bv[v]);
          case PAIRS -> pairMulAdd(acc[i * nv + v], s, bv[v]);
          case FLOAT -> throw new AssertionError("not grouped");
        };
    }
    return out;
  }

  /**
   * acc + Σ of the four byte products per i32 lane ({@code vpdpbusd}: its first operand's bytes
   * unsigned, its second's signed): A signed (i8) takes flipped B as the unsigned side, A unsigned
   * (u8) is the unsigned side itself.
   */
  private LLVMValueRef quadMulAdd(LLVMValueRef acc, LLVMValueRef aSplat, LLVMValueRef b) {
    LLVMValueRef u = fmt.signedA() ? b : aSplat;
    LLVMValueRef s = fmt.signedA() ? aSplat : b;
    return x86Dot("llvm.x86.avx512.vpdpbusd.512", acc, u, s);
  }

  /** The x86 dot-product intrinsic {@code name}(acc, x, y), x and y cast to its operand types. */
  private LLVMValueRef x86Dot(String name, LLVMValueRef acc, LLVMValueRef u, LLVMValueRef s) {
    int id = LLVMLookupIntrinsicID(name, name.length());
    LLVMTypeRef fn = LLVMIntrinsicGetType(ir.ctx, id, new PointerPointer<LLVMTypeRef>(0), 0);
    PointerPointer<LLVMTypeRef> params = new PointerPointer<>(3);
    LLVMGetParamTypes(fn, params);
    // The operands' vector type differs between LLVM versions (i32 or i8 lanes): cast to it.
    return ir.intrinsic(name, new LLVMTypeRef[0], acc, ir.bitcast(u, params.get(LLVMTypeRef.class, 1)),
        ir.bitcast(s, params.get(LLVMTypeRef.class, 2)));
  }

  /**
   * acc + (x.lo·y.lo + x.hi·y.hi) per i32 lane, the halves being signed i16: {@code pmaddwd} and
   * an add on x86 (which LLVM fuses into {@code vpdpwssd} where the target has AVX-512 VNNI), the
   * widening multiply and pairwise add written out elsewhere.
   */
  private LLVMValueRef pairMulAdd(LLVMValueRef acc, LLVMValueRef x, LLVMValueRef y) {
    int lanes = bl.lanes();
    TargetSpec target = ir.target();
    boolean x86 = target != null && target.arch() == TargetSpec.Arch.X86_64;
    LLVMTypeRef halves = LLVMVectorType(ir.i16, 2 * lanes);
    String madd = !x86 ? null : lanes == 16 ? "llvm.x86.avx512.pmaddw.d.512" : lanes == 8 ? "llvm.x86.avx2.pmadd.wd"
        : lanes == 4 ? "llvm.x86.sse2.pmadd.wd" : null;
    if (madd != null)
      return ir.add(acc, ir.intrinsic(madd, new LLVMTypeRef[0], ir.bitcast(x, halves), ir.bitcast(y, halves)));
    LLVMTypeRef wide = LLVMVectorType(ir.i32, 2 * lanes);
    LLVMValueRef p = ir.mul(LLVMBuildSExt(ir.b, ir.bitcast(x, halves), wide, ""),
        LLVMBuildSExt(ir.b, ir.bitcast(y, halves), wide, ""));
    return ir.add(acc, ir.add(half(p, 0), half(p, 1)));
  }

  /** Lanes {@code first}, first + 2, … of {@code p}. */
  private LLVMValueRef half(LLVMValueRef p, int first) {
    int lanes = bl.lanes();
    LLVMValueRef[] idx = new LLVMValueRef[lanes];
    for (int j = 0; j < lanes; j++) idx[j] = ir.i32(2 * j + first);
    return LLVMBuildShuffleVector(ir.b, p, LLVMGetUndef(LLVMTypeOf(p)), LLVMConstVector(new PointerPointer<>(idx), lanes), "");
  }

  /** {@code x} in every lane of a vector of x's type. */
  private LLVMValueRef splat(LLVMValueRef x) {
    LLVMTypeRef v = LLVMVectorType(LLVMTypeOf(x), bl.lanes());
    LLVMValueRef one = LLVMBuildInsertElement(ir.b, LLVMGetUndef(v), x, ir.i32(0), "");
    LLVMValueRef mask = LLVMConstNull(LLVMVectorType(ir.i32, bl.lanes()));
    return LLVMBuildShuffleVector(ir.b, one, LLVMGetUndef(v), mask, "");
  }

  private LLVMValueRef cAt(LLVMValueRef c, LLVMValueRef ldc, int i, int v) {
    LLVMValueRef row = ir.gep(t, c, ir.mul(ldc, ir.i64(i)));
    return ir.gep(t, row, ir.i64((long) v * bl.lanes()));
  }
}
