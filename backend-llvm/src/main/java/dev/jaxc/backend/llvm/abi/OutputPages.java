package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Huge pages for large output buffers. A caller that allocates each output afresh (numpy's
 * {@code np.empty}, {@code malloc} of a large block: a new anonymous mapping) hands over pages that
 * are not yet there, and where transparent huge pages are only used on request (the common
 * {@code madvise} setting) every 4 KiB page costs a page fault on first write: 16,384 faults for
 * a 64 MiB output, which took as long as the computation (tanh of 16M f32: 47 ms fresh with 4 KiB
 * pages, 20 ms with 2 MiB pages, 2 cores shared, Zen 4). So the entry point advises the kernel
 * ({@code madvise(MADV_HUGEPAGE)}) to back the whole 2 MiB pages inside each output of at least
 * {@link #MIN_BYTES}: advice only (contents and ownership unchanged; pages already present stay
 * as they are; an error, e.g. for a file mapping, is ignored), one system call per large output
 * and call, which is nothing beside writing 8 MiB.
 */
final class OutputPages {
  /** Outputs from this size get the advice. */
  static final long MIN_BYTES = 8L << 20;
  private static final long HUGE_PAGE = 2L << 20;
  /** MADV_HUGEPAGE on Linux x86-64 and AArch64. */
  private static final int MADV_HUGEPAGE = 14;

  private OutputPages() {}

  /** Advises huge pages for the whole 2 MiB pages of [p, p + bytes) when bytes ≥ MIN_BYTES. */
  static void advise(Ir ir, LLVMValueRef p, long bytes) {
    if (bytes < MIN_BYTES) return;
    LLVMValueRef at = LLVMBuildPtrToInt(ir.b, p, ir.i64, "");
    LLVMValueRef begin = ir.and(ir.add(at, ir.i64(HUGE_PAGE - 1)), ir.i64(-HUGE_PAGE));
    LLVMValueRef end = ir.and(ir.add(at, ir.i64(bytes)), ir.i64(-HUGE_PAGE));
    LLVMBasicBlockRef call = ir.block("advise_huge_pages");
    LLVMBasicBlockRef done = ir.block("advised");
    ir.condBr(ir.icmp(LLVMIntUGT, end, begin), call, done);
    ir.at(call);
    Libc.madvise(ir, LLVMBuildIntToPtr(ir.b, begin, ir.ptr, ""), ir.sub(end, begin), MADV_HUGEPAGE);
    ir.br(done);
    ir.at(done);
  }
}
