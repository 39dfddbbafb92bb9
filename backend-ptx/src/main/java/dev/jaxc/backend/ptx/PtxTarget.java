package dev.jaxc.backend.ptx;

import dev.jaxc.backend.llvm.emit.Numerics;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.Map;

/**
 * The PTX targets jaxc generates for: {@code sm_70} to {@code sm_90}, each with the oldest PTX
 * ISA version LLVM accepts for it (so the module loads on the oldest driver that knows the GPU),
 * and the numerics of XLA:GPU.
 */
public final class PtxTarget {
  /** The default GPU architecture (Ampere). */
  public static final String DEFAULT_SM = "sm_80";

  private static final Map<String, String> ISA = Map.of(
      "sm_70", "+ptx60", "sm_72", "+ptx61", "sm_75", "+ptx63", "sm_80", "+ptx70",
      "sm_86", "+ptx71", "sm_87", "+ptx74", "sm_89", "+ptx78", "sm_90", "+ptx78");

  /**
   * XLA:GPU's numerics: denormals kept (its {@code xla_gpu_ftz} is false by default, so f32
   * arithmetic is IEEE, not flushed as on XLA:CPU), multiply-adds contracted where jaxc contracts
   * them for XLA:CPU (XLA allows LLVM's FMA fusion on both), division by a literal as a multiply
   * by its reciprocal (the algebraic simplifier is shared). Division and square root are the
   * IEEE-rounded PTX instructions (LLVM's NVPTX default, as XLA uses them).
   */
  public static final Numerics NUMERICS = new Numerics(Numerics.Denormals.IEEE, true, true);

  private PtxTarget() {}

  /** Whether {@code sm} names a supported architecture. */
  public static boolean supports(String sm) {
    return ISA.containsKey(sm);
  }

  /** The supported architectures, for messages. */
  public static String supported() {
    return "sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90";
  }

  /** LLVM's target for {@code sm}; throws IllegalArgumentException if it is not supported. */
  public static TargetSpec spec(String sm) {
    String isa = ISA.get(sm);
    if (isa == null) throw new IllegalArgumentException("not a supported GPU architecture: " + sm);
    return new TargetSpec(TargetSpec.Arch.NVPTX, "nvptx64-nvidia-cuda", sm, isa, 3);
  }
}
