package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The register-blocked micro-kernel of the packed GEMM, one function per element type and tile:
 *
 * <pre>
 * void jaxc_gemm_TxMRxNR(i64 kc, T *a, T *b, i64 ldb, T *c, i64 ldc, i1 first)
 * </pre>
 *
 * C[i][j] (row stride ldc) += Σ_k a[i·kc + k] · b[k·ldb + j] for the MR×NR tile, with C read as
 * zero when {@code first}: A's micro-panel is row-major (so packing writes each row in order),
 * B's is k-major (a packed panel, ldb = NR, or B's own rows, ldb = N). The accumulators are
 * MR × (NR / lanes) vector registers; each step loads
 * a row of the B panel, broadcasts each element of the A column and multiply-adds
 * ({@code llvm.fmuladd}: one FMA where the target has it). Each element sums its terms in k
 * order, so the result does not depend on how the caller cuts M and N.
 */
final class GemmMicroKernel {
  /**
   * K steps per loop iteration. Unrolled by hand (4), LLVM's scheduler hoisted the loads of later
   * steps and spilled accumulators on AVX-512 (measured 10% slower); one step per iteration keeps
   * all 28 accumulators in registers.
   */
  static final int UNROLL = 1;

  private final Ir ir;
  private final GemmBlocking bl;
  private final LLVMTypeRef t;
  private final LLVMTypeRef vec;
  private final int bytes;

  private GemmMicroKernel(Ir ir, GemmBlocking bl, LLVMTypeRef t, int bytes) {
    this.ir = ir;
    this.bl = bl;
    this.t = t;
    this.bytes = bytes;
    this.vec = LLVMVectorType(t, bl.lanes());
  }

  static LLVMTypeRef type(Ir ir) {
    return ir.fnType(ir.voidType, ir.i64, ir.ptr, ir.ptr, ir.i64, ir.ptr, ir.i64, ir.i1);
  }

  /** The module's micro-kernel for element type {@code t} ({@code bytes} wide) and tile {@code bl}. */
  static LLVMValueRef get(Ir ir, GemmBlocking bl, LLVMTypeRef t, int bytes) {
    String name = "jaxc_gemm_f" + bytes * 8 + "_" + bl.mr() + "x" + bl.nr();
    return ir.outlined(name, type(ir), f -> new GemmMicroKernel(ir, bl, t, bytes).body(f));
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
    // C is read only where it holds earlier slices' sums: on the first slice its buffer holds
    // nothing of use, and loading it anyway cost cache misses (a 2048-wide C block is past L2).
    LLVMBasicBlockRef load = ir.block("uk.loadc");
    LLVMBasicBlockRef start = ir.block("uk.start");
    LLVMBasicBlockRef fresh = ir.currentBlock();
    ir.condBr(first, start, load);
    ir.at(load);
    LLVMValueRef[] loaded = new LLVMValueRef[n];
    for (int i = 0; i < mr; i++)
      for (int v = 0; v < nv; v++) loaded[i * nv + v] = ir.load(vec, cAt(c, ldc, i, v), bytes);
    ir.br(start);
    ir.at(start);
    LLVMValueRef[] acc = new LLVMValueRef[n];
    for (int j = 0; j < n; j++) {
      acc[j] = ir.phi(vec);
      ir.incoming(acc[j], zero, fresh);
      ir.incoming(acc[j], loaded[j], load);
    }

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
    for (int u = 0; u < UNROLL; u++) next = step(next, a, kc, b, ldb, ir.add(k, ir.i64(u)));
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
    LLVMValueRef[] rn = step(rc, a, kc, b, ldb, r);
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
    for (int j = 0; j < n; j++) ir.store(fin[j], cAt(c, ldc, j / nv, j % nv), bytes);
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

  /** One rank-1 update at depth k. */
  private LLVMValueRef[] step(LLVMValueRef[] acc, LLVMValueRef a, LLVMValueRef kc, LLVMValueRef b, LLVMValueRef ldb,
      LLVMValueRef k) {
    int mr = bl.mr();
    int nv = bl.vectors();
    LLVMValueRef[] bv = new LLVMValueRef[nv];
    LLVMValueRef brow = ir.gep(t, b, ir.mul(k, ldb));
    for (int v = 0; v < nv; v++) bv[v] = ir.load(vec, ir.gep(t, brow, ir.i64((long) v * bl.lanes())), bytes);
    LLVMValueRef acol = ir.gep(t, a, k);
    LLVMValueRef[] out = new LLVMValueRef[acc.length];
    for (int i = 0; i < mr; i++) {
      LLVMValueRef s = splat(ir.load(t, ir.gep(t, acol, ir.mul(kc, ir.i64(i))), bytes));
      for (int v = 0; v < nv; v++) out[i * nv + v] = ir.intrinsic("llvm.fmuladd", s, bv[v], acc[i * nv + v]);
    }
    return out;
  }

  private LLVMValueRef splat(LLVMValueRef x) {
    LLVMValueRef one = LLVMBuildInsertElement(ir.b, LLVMGetUndef(vec), x, ir.i32(0), "");
    LLVMValueRef mask = LLVMConstNull(LLVMVectorType(ir.i32, bl.lanes()));
    return LLVMBuildShuffleVector(ir.b, one, LLVMGetUndef(vec), mask, "");
  }

  private LLVMValueRef cAt(LLVMValueRef c, LLVMValueRef ldc, int i, int v) {
    LLVMValueRef row = ir.gep(t, c, ir.mul(ldc, ir.i64(i)));
    return ir.gep(t, row, ir.i64((long) v * bl.lanes()));
  }
}
