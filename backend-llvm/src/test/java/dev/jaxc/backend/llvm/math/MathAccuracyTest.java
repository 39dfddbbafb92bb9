package dev.jaxc.backend.llvm.math;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Measures every function's error in ulps, against StrictMath in double for floats where Java
 * has the function and against mpmath tables otherwise (all doubles; erf, erfc, erf_inv, lgamma
 * and digamma for floats), on the baseline CPU (no FMA on x86-64) and on this host's CPU; checks
 * each against its documented bound, and that the vector variant gives the scalar's bits. With
 * {@code -Djaxc.update=true} it rewrites {@code docs/math-accuracy.md} from the measurements.
 */
class MathAccuracyTest {
  /** The documented bounds, in ulps: a regression past one fails. */
  private static final Map<String, Double> BOUNDS = bounds();
  private static final int F32_LANES = 8;
  private static final int F64_LANES = 4;

  private record Row(MathFn fn, boolean f64, String domain, long points, double max, double mean, String worst) {}

  private static MathHarness baseline;
  private static MathHarness host;
  private static final Map<String, Row> ROWS = new LinkedHashMap<>();

  @BeforeAll
  static void build() {
    List<MathHarness.Kernel> scalar = new ArrayList<>();
    List<MathHarness.Kernel> all = new ArrayList<>();
    for (MathFn fn : MathFn.values()) {
      for (boolean f64 : new boolean[] {false, true}) {
        scalar.add(new MathHarness.Kernel(fn, f64, 0));
        all.add(new MathHarness.Kernel(fn, f64, 0));
        all.add(new MathHarness.Kernel(fn, f64, f64 ? F64_LANES : F32_LANES));
      }
    }
    baseline = new MathHarness(all, MathHarness.Mode.BASELINE, false);
    host = new MathHarness(scalar, MathHarness.Mode.HOST, false);
  }

  @AfterAll
  static void finish() throws IOException {
    if (baseline != null) baseline.close();
    if (host != null) host.close();
    if (Boolean.getBoolean("jaxc.update") && ROWS.keySet().equals(BOUNDS.keySet())) {
      Path doc = Path.of(System.getProperty("jaxc.root", "."), "docs", "math-accuracy.md");
      Files.createDirectories(doc.getParent());
      Files.writeString(doc, AccuracyDoc.render(rows()), StandardCharsets.UTF_8);
    }
  }

  private static List<AccuracyDoc.Row> rows() {
    List<AccuracyDoc.Row> out = new ArrayList<>();
    for (String key : BOUNDS.keySet()) {
      Row r = ROWS.get(key);
      String name = r.fn.id() + (key.contains(" ") ? " (" + key.substring(key.indexOf(' ') + 1) + ")" : "");
      out.add(new AccuracyDoc.Row(name, r.f64 ? "f64" : "f32", r.domain, r.points, r.max, r.mean, BOUNDS.get(key),
          reference(r.fn, r.f64)));
    }
    return out;
  }

  private static String reference(MathFn fn, boolean f64) {
    return f64 || RefTable.exists(fn, false) ? "mpmath" : "StrictMath";
  }

  @TestFactory
  Stream<DynamicTest> accuracy() {
    List<DynamicTest> tests = new ArrayList<>();
    for (MathFn fn : MathFn.values()) {
      tests.add(DynamicTest.dynamicTest(fn.id() + " f32", () -> measureF32(fn)));
      tests.add(DynamicTest.dynamicTest(fn.id() + " f64", () -> measureF64(fn)));
    }
    return tests.stream();
  }

  private static void measureF32(MathFn fn) {
    float[][] in;
    double[] hi;
    String domain;
    if (RefTable.exists(fn, false)) {
      RefTable t = RefTable.load(fn, false);
      int n = t.size() / F32_LANES * F32_LANES;
      in = new float[fn.arity()][n];
      for (int a = 0; a < fn.arity(); a++) {
        for (int i = 0; i < n; i++) in[a][i] = (float) t.inputs()[a][i];
      }
      hi = Arrays.copyOf(t.hi(), n);
      domain = t.domain();
    } else {
      in = F32Domain.inputs(fn);
      hi = new double[in[0].length];
      DoubleUnaryOperator u = Reference.unary(fn);
      DoubleBinaryOperator b = Reference.binary(fn);
      for (int i = 0; i < hi.length; i++) {
        hi[i] = fn.arity() == 1 ? u.applyAsDouble(in[0][i]) : b.applyAsDouble(in[0][i], in[1][i]);
      }
      domain = F32Domain.describe(fn);
    }
    float[] y = in.length > 1 ? in[1] : null;
    float[] base = baseline.run(new MathHarness.Kernel(fn, false, 0), in[0], y);
    float[] vec = baseline.run(new MathHarness.Kernel(fn, false, F32_LANES), in[0], y);
    float[] hostRes = host.run(new MathHarness.Kernel(fn, false, 0), in[0], y);
    double[][] wide = new double[in.length][];
    for (int a = 0; a < in.length; a++) wide[a] = widen(in[a]);
    for (int i = 0; i < hi.length; i++) {
      boolean same = Float.floatToRawIntBits(vec[i]) == Float.floatToRawIntBits(base[i]);
      if (!same && !(Float.isNaN(vec[i]) && Float.isNaN(base[i]))) {
        fail(fn.id() + " f32: vector variant gives " + vec[i] + ", scalar " + base[i] + " at " + at(wide, i));
      }
    }
    Map<String, Ulp.Stats> stats = new LinkedHashMap<>();
    accumulate(fn, false, wide, hi, new double[hi.length], widen(base), stats);
    accumulate(fn, false, wide, hi, new double[hi.length], widen(hostRes), stats);
    record(fn, false, domain, stats);
  }

  private static void measureF64(MathFn fn) {
    RefTable t = RefTable.load(fn, true);
    int n = t.size() / F64_LANES * F64_LANES;
    double[][] in = new double[fn.arity()][];
    for (int a = 0; a < fn.arity(); a++) in[a] = Arrays.copyOf(t.inputs()[a], n);
    double[] y = in.length > 1 ? in[1] : null;
    double[] base = baseline.run(new MathHarness.Kernel(fn, true, 0), in[0], y);
    double[] vec = baseline.run(new MathHarness.Kernel(fn, true, F64_LANES), in[0], y);
    double[] hostRes = host.run(new MathHarness.Kernel(fn, true, 0), in[0], y);
    for (int i = 0; i < n; i++) {
      boolean same = Double.doubleToRawLongBits(vec[i]) == Double.doubleToRawLongBits(base[i]);
      if (!same && !(Double.isNaN(vec[i]) && Double.isNaN(base[i]))) {
        fail(fn.id() + " f64: vector variant gives " + vec[i] + ", scalar " + base[i] + " at " + at(in, i));
      }
    }
    Map<String, Ulp.Stats> stats = new LinkedHashMap<>();
    accumulate(fn, true, in, t.hi(), t.rel(), base, stats);
    accumulate(fn, true, in, t.hi(), t.rel(), hostRes, stats);
    record(fn, true, t.domain(), stats);
  }

  /**
   * Adds each point's error to the statistics of its part of the domain. Denormal inputs are
   * left to MathEdgeCaseTest: XLA reads them as zeros, which no exact reference does; so are
   * asin's inputs below twice the smallest normal, which XLA's asin flushes to zero.
   */
  private static void accumulate(
      MathFn fn, boolean f64, double[][] in, double[] hi, double[] rel, double[] got, Map<String, Ulp.Stats> stats) {
    double minNormal = f64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
    for (int i = 0; i < got.length; i++) {
      boolean denormal = false;
      for (double[] a : in) denormal |= a[i] != 0 && Math.abs(a[i]) < minNormal;
      if (denormal || fn == MathFn.ASIN && Math.abs(in[0][i]) < 2 * minNormal) continue;
      int k = i;
      stats.computeIfAbsent(part(fn, in[0][i]), p -> new Ulp.Stats())
          .add(Ulp.error(got[i], hi[i], rel[i], f64), () -> at(in, k) + " -> " + got[k] + " (exact " + hi[k] + ")");
    }
  }

  /** lgamma and digamma are reported separately on the negative axis, where zeros crowd. */
  private static String part(MathFn fn, double x) {
    if (fn != MathFn.LGAMMA && fn != MathFn.DIGAMMA) return "";
    return x < 0 ? "x < 0" : "x > 0";
  }

  private static double[] widen(float[] v) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) out[i] = v[i];
    return out;
  }

  private static void record(MathFn fn, boolean f64, String domain, Map<String, Ulp.Stats> stats) {
    List<String> failures = new ArrayList<>();
    for (var e : stats.entrySet()) {
      String key = key(fn, f64, e.getKey());
      Ulp.Stats st = e.getValue();
      // Split tables describe their parts as "<positive part> and <negative part>".
      String[] parts = domain.split(" and ", 2);
      String where = e.getKey().isEmpty() || parts.length < 2 ? domain : parts[e.getKey().equals("x < 0") ? 1 : 0];
      ROWS.put(key, new Row(fn, f64, where, st.count / 2, st.max, st.mean(), st.worst));
      double bound = BOUNDS.get(key);
      String msg = String.format(Locale.ROOT, "%s: max %.3f ulp (mean %.4f) at %s; bound %s",
          key, st.max, st.mean(), st.worst, bound);
      System.out.println(msg);
      if (!(st.max <= bound)) failures.add(msg);
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  private static String at(double[][] in, int i) {
    return in.length == 1 ? Double.toString(in[0][i]) : "(" + in[0][i] + ", " + in[1][i] + ")";
  }

  private static String key(MathFn fn, boolean f64, String part) {
    return fn.id() + "." + (f64 ? "f64" : "f32") + (part.isEmpty() ? "" : " " + part);
  }

  private static Map<String, Double> bounds() {
    Map<String, Double> b = new LinkedHashMap<>();
    // {f32, f64}: the measured maxima (baseline and host CPU) rounded up, with a little room.
    // f32: XLA:CPU's own exp (Cephes' polynomial, n clamped to ±127), bit for bit with jax.jit:
    // up to 4.6 ulp just below overflow, 0.17 on average; expm1 uses it from 88 up, as XLA's does.
    bound(b, MathFn.EXP, 5, 1);
    bound(b, MathFn.EXP2, 1, 1);
    bound(b, MathFn.EXPM1, 5, 2);
    bound(b, MathFn.LOG, 1, 1);
    bound(b, MathFn.LOG1P, 1, 1);
    bound(b, MathFn.SIN, 0.6, 1);
    bound(b, MathFn.COS, 0.6, 1);
    bound(b, MathFn.TAN, 0.6, 2);
    bound(b, MathFn.ASIN, 1, 1);
    bound(b, MathFn.ACOS, 1, 1);
    bound(b, MathFn.ATAN, 1, 1);
    bound(b, MathFn.ATAN2, 1.5, 1);
    bound(b, MathFn.SINH, 2, 2);
    bound(b, MathFn.COSH, 1.5, 1.5);
    // f32: XLA:CPU's own rational approximation, bit for bit with jax.jit (about 5.3 ulp of the true tanh).
    bound(b, MathFn.TANH, 5.5, 1.5);
    bound(b, MathFn.ASINH, 2, 1.5);
    bound(b, MathFn.ACOSH, 0.6, 2);
    bound(b, MathFn.ATANH, 2, 1.5);
    bound(b, MathFn.LOGISTIC, 2, 1.5);
    // f32: XLA:CPU's own rational approximation, bit for bit with jax.jit.
    bound(b, MathFn.ERF, 5.5, 1);
    // f32: XLA's own Cephes-based formula in float, bit for bit with jax.jit: e^(-x²) from a
    // rounded x² costs up to about 62 ulps next to the underflow, 3 on average.
    bound(b, MathFn.ERFC, 64, 3);
    bound(b, MathFn.ERF_INV, 3.5, 2);
    bound(b, MathFn.LGAMMA, "x > 0", 0.6, 3);
    bound(b, MathFn.LGAMMA, "x < 0", 0.6, 16);
    bound(b, MathFn.DIGAMMA, "x > 0", 0.6, 3.5);
    bound(b, MathFn.DIGAMMA, "x < 0", 0.6, 64);
    bound(b, MathFn.POW, 0.6, 1.5);
    bound(b, MathFn.CBRT, 0.6, 1);
    bound(b, MathFn.RSQRT, 0.6, 1.5);
    return b;
  }

  private static void bound(Map<String, Double> b, MathFn fn, double f32, double f64) {
    bound(b, fn, "", f32, f64);
  }

  private static void bound(Map<String, Double> b, MathFn fn, String part, double f32, double f64) {
    b.put(key(fn, false, part), f32);
    b.put(key(fn, true, part), f64);
  }
}
