package dev.jaxc.backend.llvm.math;

import dev.jaxc.backend.llvm.math.MathEmitter.Dd;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * 2^x: x = k + f with k = rint(x) exactly, 2^f = e^(f·ln2) with f·ln2 carried as a double-word
 * into {@link ExpKernel#expReduced}, then scaled by 2^k. FTZ/DAZ as {@link Exp}.
 */
final class Exp2 {
  private Exp2() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    LLVMValueRef xc = e.min(e.max(x, e.c(e.isF64() ? -1080 : -160)), e.c(e.isF64() ? 1030 : 130));
    LLVMValueRef[] k = e.rintWithBits(xc);
    Dd r = ExpKernel.timesLn2(e, e.sub(xc, k[0]));
    LLVMValueRef p = ExpKernel.expReduced(e, r.hi());
    p = e.fma(p, r.lo(), p);
    LLVMValueRef res = e.ftzArithmetic(e.ldexp(p, ExpKernel.intOf(e, k)));
    return e.sel(e.isNan(x), x, res);
  }
}
