package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.llvm.TargetSpec;

/**
 * The vector unit of the target machine, as the GEMM micro-kernel needs it: register width,
 * register count, and whether it has fused multiply-add. Chosen from the target's feature string
 * (never from the machine running the compiler): AVX-512 (32 zmm), AVX2 with FMA (16 ymm),
 * baseline x86-64 (SSE2: 16 xmm, no FMA), AArch64 NEON (32 q registers, FMA).
 */
record VectorIsa(String name, int vectorBytes, int registers, boolean fma) {
  static final VectorIsa AVX512 = new VectorIsa("avx512", 64, 32, true);
  static final VectorIsa AVX2 = new VectorIsa("avx2", 32, 16, true);
  static final VectorIsa SSE2 = new VectorIsa("sse2", 16, 16, false);
  static final VectorIsa NEON = new VectorIsa("neon", 16, 32, true);

  /** The target's ISA; an unknown target (null) gets baseline SSE2-sized code. */
  static VectorIsa of(TargetSpec t) {
    if (t == null) return SSE2;
    if (t.arch() == TargetSpec.Arch.AARCH64) return NEON;
    String[] f = t.features().split(",");
    if (has(f, "+avx512f")) return AVX512;
    if (has(f, "+avx2") && has(f, "+fma")) return AVX2;
    return SSE2;
  }

  /**
   * Whether x86 target {@code t} has AVX-512 VNNI ({@code vpdpwssd}: the multiply-add of 16-bit
   * pairs and the add into the accumulator in one instruction).
   */
  static boolean avx512Vnni(TargetSpec t) {
    return t != null && t.arch() == TargetSpec.Arch.X86_64 && of(t) == AVX512
        && has(t.features().split(","), "+avx512vnni");
  }

  /** Whether x86 target {@code t} has AVX-512 BF16 ({@code vdpbf16ps}). */
  static boolean avx512Bf16(TargetSpec t) {
    return t != null && t.arch() == TargetSpec.Arch.X86_64 && of(t) == AVX512
        && has(t.features().split(","), "+avx512bf16");
  }

  /** Whether a feature list has {@code feature} and does not later turn it off. */
  private static boolean has(String[] features, String feature) {
    String off = "-" + feature.substring(1);
    boolean on = false;
    for (String x : features) {
      if (x.equals(feature)) on = true;
      else if (x.equals(off)) on = false;
    }
    return on;
  }

  /** Lanes of an element of {@code bytes} bytes in one register. */
  int lanes(int bytes) {
    return vectorBytes / bytes;
  }
}
