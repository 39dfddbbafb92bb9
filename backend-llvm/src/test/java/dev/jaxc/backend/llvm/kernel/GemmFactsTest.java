package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.fail;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.emit.Facts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Program;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of kernel/gemm/facts.txt (dot_general and conv_general_dilated corners, from JAX
 * 0.10.2 on XLA:CPU) compiled for the host and run in-process reproduces XLA's outputs: bit for
 * bit where the case says so (integers, and float data whose partial sums are exact in any
 * order), else within the case's tolerance; NaN where XLA has NaN, infinities exactly. Each case
 * also emits objects for baseline x86-64 and AArch64.
 */
class GemmFactsTest {
  static List<Facts.Case> cases() throws Exception {
    return Facts.load("/kernel/gemm/facts.txt", "tol");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reproducesJax(Facts.Case c) {
    Program p = Compile.program(c.jaxpr());
    try (CompiledModule m = Compiler.compile(p, TargetSpec.host(), "f")) {
      List<byte[]> got = Facts.outputs(m, c);
      for (int k = 0; k < got.size(); k++) {
        Facts.Array want = c.outputs().get(k);
        compare(c, k, want.dtype(), want.data(), got.get(k));
      }
    }
    Facts.emitsObjects(c.name(), p, TargetSpec.x86_64(), TargetSpec.aarch64());
  }

  /**
   * The packed GEMM's cases also on the x86-64 micro-kernels this machine can run besides the
   * host's: baseline SSE2 (no FMA) and AVX2 with FMA (16 registers, another tile), and AVX-512
   * without VNNI and BF16 (integer pairs by pmaddwd, bf16 converted to f32); the host's own (with
   * VNNI: byte quads; with BF16: vdpbf16ps) is {@link #reproducesJax}'s.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("packedCases")
  void packedReproducesJaxOnEveryX86Isa(Facts.Case c) {
    TargetSpec host = TargetSpec.host();
    if (host.arch() != TargetSpec.Arch.X86_64) return;
    Program p = Compile.program(c.jaxpr());
    List<TargetSpec> targets = new java.util.ArrayList<>(List.of(TargetSpec.x86_64()));
    List<String> features = Arrays.asList(host.features().split(","));
    if (features.containsAll(List.of("+avx2", "+fma")))
      targets.add(TargetSpec.x86_64().withCpu("haswell", "+avx2,+fma,+avx,+sse4.2"));
    // AVX-512 without VNNI and BF16: integer pairs through pmaddwd and an add, bf16 as f32.
    if (features.containsAll(List.of("+avx512f", "+avx512bw", "+avx512vl", "+avx512dq")))
      targets.add(TargetSpec.x86_64().withCpu("skylake-avx512",
          "+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx2,+fma,+avx,+sse4.2,-avx512vnni,-avx512bf16"));
    for (TargetSpec t : targets) {
      try (CompiledModule m = Compiler.compile(p, t, "f")) {
        List<byte[]> got = Facts.outputs(m, c);
        for (int k = 0; k < got.size(); k++) {
          Facts.Array want = c.outputs().get(k);
          compare(c, k, want.dtype(), want.data(), got.get(k));
        }
      }
    }
  }

  static List<Facts.Case> packedCases() throws Exception {
    return cases().stream().filter(c -> c.name().startsWith("packed_")).toList();
  }

  /** {@code tol RTOL ATOL}, both 0: bit for bit. */
  private static void compare(Facts.Case c, int output, DType d, byte[] want, byte[] got) {
    double[] tol = Arrays.stream(c.notes().get(0).substring(4).split(" ")).mapToDouble(Double::parseDouble).toArray();
    double rtol = tol[0];
    double atol = tol[1];
    int part = d.isComplex() ? d.byteSize() / 2 : d.byteSize();
    ByteBuffer w = ByteBuffer.wrap(want).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer g = ByteBuffer.wrap(got).order(ByteOrder.LITTLE_ENDIAN);
    boolean exact = rtol == 0 && atol == 0 || !d.isInexact();
    DType real = d.realPart();
    for (int at = 0; at < want.length; at += part) {
      long wb = Facts.bits(w, at, part);
      long gb = Facts.bits(g, at, part);
      if (wb == gb) continue;
      double wv = Facts.value(real, wb);
      double gv = Facts.value(real, gb);
      if (d.isInexact() && Double.isNaN(wv) && Double.isNaN(gv)) continue;
      if (!exact && Double.isFinite(wv) && Math.abs(gv - wv) <= atol + rtol * Math.abs(wv)) continue;
      fail(c.name() + " output " + output + ", element " + at / part + (d.isComplex() ? " (part)" : "")
          + ": got " + (d.isInexact() ? gv : Long.toString(gb)) + ", expected " + (d.isInexact() ? wv : Long.toString(wb)));
    }
  }
}
