package dev.jaxc.backend.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.math.MathFn;
import java.util.HashSet;
import java.util.Set;
import org.bytedeco.llvm.LLVM.LLVMUseRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Which functions LLVM vectorises in 512-bit registers on x86 targets with AVX-512: those that
 * evaluate a function of the math library (exp, log, tanh, sin…), and the library's own.
 *
 * <p>LLVM tunes Skylake-SP, Cascade Lake and Ice Lake server to prefer 256-bit vectors, against
 * the clock those cores drop under 512-bit code. For a compute-bound loop that costs less than
 * the lanes bring: f32 log on a Cascade Lake core took 1.4 ns an element in ymm and 0.95 in zmm
 * (XLA's YNNPACK kernels use zmm), softmax 0.74 and log_softmax 0.67 of the time. For a loop that
 * moves memory it is the other way: with {@code "prefer-vector-width"="512"} on every function,
 * copies, pads, tiles and selects ran 7–29% slower (reused outputs, same-run A/B), so they keep
 * the CPU's own preference. The GEMM micro-kernels use 512-bit vectors explicitly either way.
 */
final class WideVectors {
  private WideVectors() {}

  static void mark(Ir ir, TargetSpec target) {
    if (!target.hasAvx512()) return;
    Set<Long> done = new HashSet<>();
    for (LLVMValueRef f = LLVMGetFirstFunction(ir.module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
      if (!MathFn.isLibraryFunction(LLVMGetValueName(f).getString())) continue;
      wide(ir, f, done);
      for (LLVMUseRef u = LLVMGetFirstUse(f); u != null && !u.isNull(); u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMIsAInstruction(LLVMGetUser(u));
        if (call != null && !call.isNull()) wide(ir, LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), done);
      }
    }
  }

  private static void wide(Ir ir, LLVMValueRef f, Set<Long> done) {
    if (LLVMIsDeclaration(f) == 0 && done.add(f.address())) ir.addFunctionAttribute(f, "prefer-vector-width", "512");
  }
}
