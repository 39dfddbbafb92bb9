package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.ir.Program;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;
import org.junit.jupiter.api.Test;

/**
 * Split regions run in-process (MCJIT resolves the pthread functions) and give exactly the
 * arithmetic's results (integer-valued operands, so every float sum is exact and any order or
 * chunking that reordered or dropped a term would show) on 1 to 64 threads, with chunks that
 * are uneven, smaller than the thread count, a GEMM's remainder tile, a matrix-vector product
 * (split over tiles of the only output axis), a 1-D fusion (split at multiples of the vector
 * grain), and fusions inside a while body (capturing the loop's carry and counter); 8 Java
 * threads running one threaded module at once (sharing its pool, or running regions inline);
 * and denormals flushed (FTZ/DAZ) on every thread.
 */
class ParallelForTest {
  private static final String GEMM = """
      { lambda ; a:f32[67,45] b:f32[45,130] v:f32[45]. let
          c:f32[67,130] = dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32] a b
          d:f32[130] = dot_general[dimension_numbers=(([0], [0]), ([], [])) preferred_element_type=float32] v b
        in (c, d) }
      """;

  private static final String LOOP = """
      { lambda ; x:i32[5000] n:i32[]. let
          y:i32[5000] = mul x x
          z:i32[5000] = add y 3:i32[]
          b:i32[] w:i32[5000] = while[
            body_jaxpr={ lambda ; i:i32[] e:i32[5000]. let
                f:i32[] = add i 1:i32[]
                g:i32[5000] = mul e 3:i32[]
                j:i32[5000] = broadcast_in_dim[broadcast_dimensions=()] i
                h:i32[5000] = add g j
              in (f, h) }
            body_nconsts=0
            cond_jaxpr={ lambda ; m:i32[] i:i32[] e:i32[5000]. let
                k:bool[] = lt i m
              in (k,) }
            cond_nconsts=1
          ] n 0:i32[] z
        in (z, w, b) }
      """;

  private static final List<Threading> SPLIT = List.of(Threading.SERIAL, forced(1), forced(2), forced(3), forced(4),
      forced(64), Threading.DEFAULT.withMinWork(1));

  private static Threading forced(int threads) {
    return Threading.DEFAULT.withThreads(threads).withMinWork(1);
  }

  @Test
  void gemmChunksGiveTheExactProducts() {
    float[] a = ints(67 * 45, 1);
    float[] b = ints(45 * 130, 2);
    float[] v = ints(45, 3);
    float[] c = new float[67 * 130];
    float[] d = new float[130];
    for (int i = 0; i < 67; i++) {
      for (int j = 0; j < 130; j++) {
        long s = 0;
        for (int k = 0; k < 45; k++) s += (long) a[i * 45 + k] * (long) b[k * 130 + j];
        c[i * 130 + j] = s;
      }
    }
    for (int j = 0; j < 130; j++) {
      long s = 0;
      for (int k = 0; k < 45; k++) s += (long) v[k] * (long) b[k * 130 + j];
      d[j] = s;
    }
    Program p = Compile.program(GEMM);
    for (Threading t : SPLIT) {
      try (CompiledModule m = Compiler.compile(p, TargetSpec.host(), "f", Consts.NONE, t)) {
        assertEquals(t.threads() != 1, m.llvmIr().contains("@pthread_create"), t.toString());
        List<ByteBuffer> out = run(m, floats(a), floats(b), floats(v));
        assertArrayEquals(c, floats(out.get(0)), t.toString());
        assertArrayEquals(d, floats(out.get(1)), t.toString());
      }
    }
  }

  @Test
  void fusionsSplitAlsoInsideLoopBodies() {
    int[] x = new int[5000];
    for (int i = 0; i < x.length; i++) x[i] = (i * 7919) % 2001 - 1000;
    int n = 7;
    int[] z = new int[x.length];
    int[] w = new int[x.length];
    for (int i = 0; i < x.length; i++) {
      z[i] = x[i] * x[i] + 3;
      w[i] = z[i];
      for (int it = 0; it < n; it++) w[i] = w[i] * 3 + it;  // wraps like i32
    }
    Program p = Compile.program(LOOP);
    for (Threading t : SPLIT) {
      try (CompiledModule m = Compiler.compile(p, TargetSpec.host(), "f", Consts.NONE, t)) {
        assertEquals(t.threads() != 1, m.llvmIr().contains("@pthread_create"), t.toString());
        List<ByteBuffer> out = run(m, ints(x), ints(new int[] {n}));
        assertArrayEquals(z, ints(out.get(0)), t.toString());
        assertArrayEquals(w, ints(out.get(1)), t.toString());
        assertEquals(n, out.get(2).getInt(0), t.toString());
      }
    }
  }

  @Test
  void eightCallersAtOnceOnAThreadedModule() throws Exception {
    float[] a = ints(67 * 45, 4);
    float[] b = ints(45 * 130, 5);
    float[] v = ints(45, 6);
    try (CompiledModule m = Compiler.compile(Compile.program(GEMM), TargetSpec.host(), "f", Consts.NONE, forced(4))) {
      List<ByteBuffer> want = run(m, floats(a), floats(b), floats(v));
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<Integer>> bad = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
          bad.add(pool.submit((Callable<Integer>) () -> {
            int wrong = 0;
            for (int r = 0; r < 25; r++) {
              List<ByteBuffer> got = run(m, floats(a), floats(b), floats(v));
              for (int o = 0; o < 2; o++) wrong += got.get(o).equals(want.get(o)) ? 0 : 1;
            }
            return wrong;
          }));
        }
        for (Future<Integer> f : bad) assertEquals(0, f.get());
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * XLA:CPU's FTZ/DAZ on every thread: a denormal operand reads as zero, a denormal product is
   * flushed, whichever thread of the pool (or the caller) runs the chunk.
   */
  @Test
  void denormalsFlushOnEveryThread() {
    int n = 20000;
    float[] x = new float[n];
    float[] want = new float[n];
    for (int i = 0; i < n; i++) {
      float sign = i % 2 == 0 ? 1f : -1f;
      x[i] = switch (i % 4) {
        case 0, 1 -> sign * Float.MIN_NORMAL * 0.75f;  // denormal: reads as zero
        case 2 -> sign * Float.MIN_NORMAL * 1.5f;      // normal, its half is denormal: flushed
        default -> sign * (1 + i);
      };
      float r = x[i] * 0.5f;
      boolean flushed = Math.abs(x[i]) < Float.MIN_NORMAL || Math.abs(r) < Float.MIN_NORMAL;
      want[i] = flushed ? Math.copySign(0f, r) : r;
    }
    Program p = Compile.program("{ lambda ; x:f32[20000]. let y:f32[20000] = mul x 0.5:f32[] in (y,) }");
    for (Threading t : List.of(Threading.SERIAL, forced(2), forced(4))) {
      try (CompiledModule m = Compiler.compile(p, TargetSpec.host(), "f", Consts.NONE, t)) {
        for (int r = 0; r < 3; r++) {
          float[] got = floats(run(m, floats(x)).get(0));
          for (int i = 0; i < n; i++) {
            int k = i;
            assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]), () -> t + " element " + k);
          }
        }
      }
    }
  }

  /** A body may not use a stack slot of its caller: every thread would write the same one. */
  @Test
  void capturingTheCallersStackSlotIsRefused() {
    Llvm.init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = LLVMModuleCreateWithNameInContext("m", ctx);
    try (Ir ir = new Ir(ctx, module)) {
      ir.beginFunction(LLVMAddFunction(module, "f", ir.fnType(ir.voidType)));
      LLVMValueRef slot = LLVMBuildAlloca(ir.b, ir.i64, "");
      ParallelFor parallel = new ParallelFor(ir, forced(4), TargetSpec.Arch.X86_64);
      assertThrows(IllegalStateException.class, () -> parallel.range(100, 1, 1000, (begin, end) -> ir.store(begin, slot, 8)));
    } finally {
      LLVMDisposeModule(module);
      LLVMContextDispose(ctx);
    }
  }

  /** Integer-valued floats in [-8, 8]: products and sums of 45 terms are exact in f32. */
  private static float[] ints(int n, int seed) {
    float[] r = new float[n];
    for (int i = 0; i < n; i++) r[i] = ((i + 1) * (seed * 31 + 17)) % 17 - 8;
    return r;
  }

  private static List<ByteBuffer> run(CompiledModule m, ByteBuffer... in) {
    List<ByteBuffer> out = new ArrayList<>();
    for (var t : m.outputTypes()) out.add(direct((int) (t.shape().elementCount() * t.dtype().byteSize())));
    assertEquals(ErrorCode.OK, m.run(in, out.toArray(ByteBuffer[]::new)));
    return out;
  }

  private static ByteBuffer direct(int bytes) {
    return ByteBuffer.allocateDirect(Math.max(1, bytes)).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static ByteBuffer floats(float[] xs) {
    ByteBuffer b = direct(4 * xs.length);
    for (int i = 0; i < xs.length; i++) b.putFloat(4 * i, xs[i]);
    return b;
  }

  private static float[] floats(ByteBuffer b) {
    float[] r = new float[b.capacity() / 4];
    for (int i = 0; i < r.length; i++) r[i] = b.getFloat(4 * i);
    return r;
  }

  private static ByteBuffer ints(int[] xs) {
    ByteBuffer b = direct(4 * xs.length);
    for (int i = 0; i < xs.length; i++) b.putInt(4 * i, xs[i]);
    return b;
  }

  private static int[] ints(ByteBuffer b) {
    int[] r = new int[b.capacity() / 4];
    for (int i = 0; i < r.length; i++) r[i] = b.getInt(4 * i);
    return r;
  }
}
