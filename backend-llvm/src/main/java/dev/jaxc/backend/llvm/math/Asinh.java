package dev.jaxc.backend.llvm.math;

import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * asinh(x), as fdlibm {@code asinh}: log(|x|) + ln2 where √(x²+1) = |x| to the precision,
 * log(2|x| + 1/(√(x²+1) + |x|)) above 2, log1p(|x| + x²/(1 + √(1+x²))) below. Odd; denormal
 * inputs read as zeros (DAZ).
 */
final class Asinh {
  private Asinh() {}

  static LLVMValueRef emit(MathEmitter e, LLVMValueRef x) {
    x = e.daz(x);
    LLVMValueRef ax = e.abs(x);
    LLVMValueRef x2 = e.mul(ax, ax);
    LLVMValueRef root = e.sqrt(e.add(x2, e.c(1)));
    double hugeFrom = e.isF64() ? 0x1p28 : 0x1p12;
    LLVMValueRef isHuge = e.gt(ax, e.c(hugeFrom));
    // The two log branches as one logarithm of the branch's argument (the same values, bits).
    LLVMValueRef lg = e.call(MathFn.LOG, e.sel(isHuge, ax, e.fma(e.c(2), ax, e.div(e.c(1), e.add(root, ax)))));
    LLVMValueRef big = e.sel(isHuge, e.add(lg, e.c(ExpKernel.LN2)), lg);
    LLVMValueRef small = e.call(MathFn.LOG1P, e.add(ax, e.div(x2, e.add(e.c(1), root))));
    LLVMValueRef r = e.sel(e.gt(ax, e.c(2)), big, small);
    return e.sel(e.isNan(x), x, e.copysign(r, x));
  }
}
