package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.emit.Facts;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Program;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reductions folded in lanes (ReduceLanes), producers fused into reductions and row loops
 * (plan/RowFusion), against real JAX 0.10.2 ({@code kernel/reduce_lanes/gen_facts.py}): integer,
 * bool, max and min results bit for bit; float sums, whose large-reduction order is YNNPACK's on
 * XLA and jaxc's own here, within the dtype's rounding. Each case is compiled serial and with 2, 3
 * and 64 forced threads, whose outputs must be identical bit for bit (partials do not depend on the
 * thread count), and for AArch64.
 */
class ReduceLanesFactsTest {
  private static final List<Threading> THREADS = List.of(Threading.SERIAL, forced(2), forced(3), forced(64));

  static List<Facts.Case> cases() throws Exception {
    return Facts.load("/kernel/reduce_lanes/facts.txt");
  }

  private static Threading forced(int threads) {
    return Threading.DEFAULT.withThreads(threads).withMinWork(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reproducesJax(Facts.Case c) {
    Program p = Compile.program(c.jaxpr());
    List<byte[]> serial = null;
    for (Threading t : THREADS) {
      try (CompiledModule m = Compiler.compile(p, TargetSpec.host(), "f", Consts.NONE, t)) {
        List<byte[]> got = Facts.outputs(m, c);
        if (serial == null) {
          serial = got;
          for (int k = 0; k < got.size(); k++) check(c.name() + " output " + k, c.outputs().get(k), got.get(k), exact(c.name()));
        } else {
          for (int k = 0; k < got.size(); k++) assertArrayEquals(serial.get(k), got.get(k), c.name() + " output " + k + " with " + t);
        }
      }
    }
    Facts.emitsObjects(c.name(), p, TargetSpec.aarch64());
  }

  /** Cases of order-free reductions only. */
  private static boolean exact(String name) {
    return name.startsWith("max") || name.startsWith("any") || name.startsWith("sum_max") || name.startsWith("sum_i32");
  }

  private static void check(String what, Facts.Array want, byte[] got, boolean exact) {
    DType d = want.dtype();
    if (exact || !d.isInexact()) {
      Facts.compareBits(what, d, want.data(), got);
      return;
    }
    double rtol = switch (d) {
      case F64 -> 1e-12;
      case F32 -> 2e-6;
      case F16 -> 2e-3;
      case BF16 -> 1.6e-2;
      default -> throw new AssertionError(d);
    };
    int size = d.byteSize();
    ByteBuffer w = ByteBuffer.wrap(want.data()).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer g = ByteBuffer.wrap(got).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = 0; at < got.length; at += size) {
      double x = Facts.value(d, Facts.bits(w, at, size));
      double y = Facts.value(d, Facts.bits(g, at, size));
      assertTrue(Math.abs(x - y) <= 1e-6 * (d == DType.F64 ? 1e-6 : 1) + rtol * Math.abs(x),
          what + ": element " + at / size + ": got " + y + ", expected " + x);
    }
  }

  /**
   * A bool row reduction (jnp.any over rows) compares whole vectors on AVX2 and on AVX-512, where
   * LLVM holds the compares in mask registers: with the lane accumulators stored as i1 it folded
   * one element at a time there (ucomiss, seta), 3.4× slower on a Cascade Lake core. Assembly
   * only: the AVX-512 target need not be this machine's.
   */
  @Test
  void boolLanesAreVectorCompares() {
    Program p = Compile.program("""
        { lambda ; a:f32[64,1024]. let
            b:bool[64,1024] = gt a 0.999:f32[]
            c:bool[64] = reduce_or[axes=(1,)] b
          in (c,) }
        """);
    List<TargetSpec> targets = List.of(
        TargetSpec.x86_64().withCpu("haswell", "+avx2,+fma,+avx,+sse4.2"),
        TargetSpec.x86_64().withCpu("cascadelake",
            "+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx512vnni,+avx2,+fma,+avx,+sse4.2"));
    for (TargetSpec t : targets) {
      try (CompiledModule m = Compiler.compile(p, t, "f", Consts.NONE, Threading.SERIAL)) {
        String asm = m.assembly();
        assertFalse(asm.contains("ucomiss"), t.cpu() + ": a scalar compare in the bool reduction");
        assertTrue(asm.contains("vcmp"), t.cpu() + ": no vector compare in the bool reduction");
      }
    }
  }
}
