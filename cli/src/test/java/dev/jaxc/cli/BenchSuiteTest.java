package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmark suite (bench/suite/cases) as a conformance test, without JAX: each workload is
 * compiled for the host and run once on inputs regenerated from its seed ({@link CounterRandom});
 * its outputs must match what JAX 0.10.2 computed — whole outputs, or the stored samples at the
 * fixed positions — within the workload's tolerances, and each output's sum must match JAX's.
 */
class BenchSuiteTest {
  private static final int WORKLOADS = 15;

  @Test
  void everyWorkloadReproducesJax() throws Exception {
    List<Path> cases;
    try (Stream<Path> s = Files.list(Corpus.root().resolve("bench/suite/cases"))) {
      cases = s.filter(d -> Files.exists(d.resolve("expected.npz"))).sorted().toList();
    }
    assertEquals(WORKLOADS, cases.size(), "workloads with expected outputs in bench/suite/cases");
    List<String> problems = new ArrayList<>();
    for (Path c : cases) {
      long t0 = System.nanoTime();
      problems.addAll(check(c));
      System.out.printf("BenchSuiteTest: %s %.1f s%n", c.getFileName(), (System.nanoTime() - t0) / 1e9);
    }
    assertEquals(List.of(), problems);
  }

  @SuppressWarnings("unchecked")
  private static List<String> check(Path dir) throws Exception {
    String name = dir.getFileName().toString();
    Map<String, Object> meta = (Map<String, Object>) Json.parse(Files.readString(dir.resolve("meta.json")));
    List<Map<String, Object>> inMeta = (List<Map<String, Object>>) meta.get("inputs");
    List<Map<String, Object>> outMeta = (List<Map<String, Object>>) meta.get("outputs");
    long seed = (long) (double) (Double) meta.get("seed");
    double rtol = (Double) meta.get("rtol");
    double atol = (Double) meta.get("atol");
    double sumRtol = (Double) meta.get("sum_rtol");
    int samples = (int) (double) (Double) meta.get("samples");
    Program lowered = HostRun.lower(new FrontEnd().run(dir.resolve("model.jaxpr"),
        new TypeConfig(false, PromotionMode.STANDARD), Phase.TYPE));
    List<String> problems = new ArrayList<>();
    try (CompiledModule m = Compiler.compile(lowered, TargetSpec.host(), name)) {
      List<ArrayType> inTypes = m.inputTypes();
      assertEquals(inMeta.size(), inTypes.size(), name + ": inputs");
      ByteBuffer[] in = new ByteBuffer[inTypes.size()];
      for (int k = 0; k < in.length; k++) {
        Map<String, Object> im = inMeta.get(k);
        assertEquals(im.get("dtype"), inTypes.get(k).dtype().numpyName(), name + " input " + k);
        in[k] = CounterRandom.fill(inTypes.get(k), seed + k, (Double) im.get("lo"), (Double) im.get("hi"));
      }
      List<ArrayType> outTypes = m.outputTypes();
      assertEquals(outMeta.size(), outTypes.size(), name + ": outputs");
      ByteBuffer[] out = new ByteBuffer[outTypes.size()];
      for (int k = 0; k < out.length; k++)
        out[k] = ByteBuffer.allocateDirect((int) Math.max(1, HostRun.bytes(outTypes.get(k)))).order(ByteOrder.LITTLE_ENDIAN);
      ErrorCode rc = m.run(in, out);
      if (rc != ErrorCode.OK) return List.of(name + ": the entry point returned " + rc);
      List<NpyArray> expected = Npz.read(dir.resolve("expected.npz"));
      for (int k = 0; k < out.length; k++) {
        ArrayType t = outTypes.get(k);
        Map<String, Object> om = outMeta.get(k);
        boolean whole = "whole".equals(om.get("stored"));
        NpyArray actual = whole ? whole(t, out[k]) : sample(t, out[k], samples);
        var diff = ArrayComparison.compare(expected.get(k), actual, rtol, atol);
        if (diff.isPresent()) problems.add(name + " output " + k + (whole ? "" : " (samples)") + ": " + diff.get());
        if (t.dtype().isFloating()) {
          double sum = sum(t, out[k]);
          double want = (Double) om.get("sum");
          double tol = sumRtol * (Double) om.get("abs_sum") + atol;
          if (!(Math.abs(sum - want) <= tol))
            problems.add(name + " output " + k + ": sum " + sum + ", JAX's " + want + " (tolerance " + tol + ")");
        }
      }
    }
    return problems;
  }

  private static NpyArray whole(ArrayType t, ByteBuffer b) {
    byte[] data = new byte[(int) HostRun.bytes(t)];
    b.get(0, data);
    return NpyArray.of(t.dtype(), t.shape().sizes(), data);
  }

  /** The elements at the suite's fixed sample positions, as a 1-D array. */
  private static NpyArray sample(ArrayType t, ByteBuffer b, int samples) {
    long n = t.shape().elementCount();
    int size = t.dtype().byteSize();
    byte[] data = new byte[samples * size];
    for (int j = 0; j < samples; j++) {
      long at = CounterRandom.samplePosition(j, n) * size;
      for (int i = 0; i < size; i++) data[j * size + i] = b.get((int) at + i);
    }
    return NpyArray.of(t.dtype(), new long[] {samples}, data);
  }

  private static double sum(ArrayType t, ByteBuffer b) {
    DType d = t.dtype();
    long n = t.shape().elementCount();
    double s = 0;
    for (long i = 0; i < n; i++) s += ArrayComparison.decode(d, b, (int) (i * d.byteSize()));
    return s;
  }
}
