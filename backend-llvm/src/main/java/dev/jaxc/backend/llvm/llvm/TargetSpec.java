package dev.jaxc.backend.llvm.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

/**
 * What to generate code for: an LLVM triple, CPU and feature string, and the optimisation level.
 * {@code host} targets this machine's CPU ({@code --cpu native}); {@code x86_64} and {@code
 * aarch64} default to each architecture's baseline so objects run on any such Linux machine.
 */
public record TargetSpec(Arch arch, String triple, String cpu, String features, int optLevel) {
  public enum Arch {
    X86_64,
    AARCH64,
    NVPTX
  }

  public TargetSpec {
    if (optLevel < 0 || optLevel > 3) throw new IllegalArgumentException("-O" + optLevel);
  }

  public static TargetSpec host() {
    Llvm.init();
    String triple = Llvm.take(LLVMGetDefaultTargetTriple());
    Arch arch = triple.startsWith("aarch64") || triple.startsWith("arm64") ? Arch.AARCH64 : Arch.X86_64;
    return new TargetSpec(arch, triple, Llvm.take(LLVMGetHostCPUName()), Llvm.take(LLVMGetHostCPUFeatures()), 3);
  }

  public static TargetSpec x86_64() {
    return new TargetSpec(Arch.X86_64, "x86_64-unknown-linux-gnu", "x86-64", "", 3);
  }

  public static TargetSpec aarch64() {
    return new TargetSpec(Arch.AARCH64, "aarch64-unknown-linux-gnu", "generic", "+neon", 3);
  }

  /**
   * Whether the target rounds a float to an integral value in one instruction: AArch64 ({@code
   * frint*}), NVPTX ({@code cvt.rmi}), x86-64 with SSE4.1 ({@code roundps}; AVX implies it) as
   * the feature string names it. Elsewhere {@code llvm.floor} would become a libm call.
   */
  public boolean roundsNatively() {
    if (arch != Arch.X86_64) return true;
    boolean on = false;
    for (String f : features.split(",")) {
      if (f.equals("+sse4.1") || f.equals("+avx")) on = true;
      else if (f.equals("-sse4.1")) on = false;
    }
    return on;
  }

  /**
   * Whether f16 ↔ f32 conversions are one instruction whose results are the integer form's bits:
   * AArch64 ({@code fcvt}; half precision has its own flush bit, FZ16, left clear) and x86-64 with
   * F16C ({@code vcvtph2ps}, {@code vcvtps2ph}: round to nearest even, NaNs quieted keeping their
   * top payload bits, f32 denormals read as zero under DAZ, which rounds them to zero anyway).
   * NVPTX's conversions make NaNs canonical, so it keeps the integer form. Elsewhere LLVM would
   * call compiler-rt helpers.
   */
  public boolean convertsHalfNatively() {
    return switch (arch) {
      case AARCH64 -> true;
      case NVPTX -> false;
      case X86_64 -> enabled("f16c");
    };
  }

  /** Whether the target is x86-64 with AVX-512 F as the feature string names it. */
  public boolean hasAvx512() {
    return arch == Arch.X86_64 && enabled("avx512f");
  }

  /** Whether the feature string turns {@code feature} on (its last {@code +feature} or {@code -feature} wins). */
  private boolean enabled(String feature) {
    boolean on = false;
    for (String f : features.split(",")) {
      if (f.equals("+" + feature)) on = true;
      else if (f.equals("-" + feature)) on = false;
    }
    return on;
  }

  public TargetSpec withCpu(String c, String f) {
    return new TargetSpec(arch, triple, c, f, optLevel);
  }

  public TargetSpec withOptLevel(int level) {
    return new TargetSpec(arch, triple, cpu, features, level);
  }
}
