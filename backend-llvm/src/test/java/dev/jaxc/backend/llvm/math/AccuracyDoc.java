package dev.jaxc.backend.llvm.math;

import java.util.List;
import java.util.Locale;

/** Renders {@code docs/math-accuracy.md} from the measured rows (see MathAccuracyTest). */
final class AccuracyDoc {
  record Row(
      String fn, String dtype, String domain, long points, double max, double mean, double bound, String reference) {}

  private AccuracyDoc() {}

  static String render(List<Row> rows) {
    StringBuilder s = new StringBuilder();
    s.append(HEADER);
    s.append("| function | dtype | domain | points | max ulp | mean ulp | bound | reference |\n");
    s.append("|---|---|---|---:|---:|---:|---:|---|\n");
    for (Row r : rows) {
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.2f | %.3f | %s | %s |%n", r.fn, r.dtype,
          r.domain.replace("|", "\\|"), r.points, r.max, r.mean, bound(r.bound), r.reference));
    }
    s.append(FOOTER);
    return s.toString();
  }

  private static String bound(double b) {
    return b == Math.rint(b) ? Long.toString((long) b) : Double.toString(b);
  }

  private static final String HEADER = """
      # Math function accuracy

      jaxc computes transcendental functions with its own code (`backend-llvm/.../llvm/math/`),
      never with libm: every function is emitted into the module as an internal, always-inlined
      LLVM function of straight-line IR (selects, no calls, no data-dependent loops), the same on
      every target and vectorisable. Each class comment names the algorithm and its source.

      This table is written by `MathAccuracyTest` (run with `-Djaxc.update=true`). Errors are in
      ulps of the exact value's binade. Floats are measured against StrictMath in double (below
      2^-52 relative error, negligible at float precision) where Java has the function, and
      against mpmath at 192 bits otherwise; doubles always against mpmath tables
      (`backend-llvm/src/test/resources/math/gen_reference_tables.py`). Each point is computed
      twice, on the baseline CPU (x86-64 without FMA, the least accurate case) and on the host CPU
      (with FMA); the worst of both is reported, and the vector variants are checked to give the
      scalar's bits. The test fails when a maximum exceeds its bound.

      Results in the subnormal range are flushed to zero and subnormal inputs are read as zero
      (or passed through, where XLA passes them through), as XLA:CPU does: those points are
      checked but not counted. Special values (±0, ±inf, NaN, subnormals, overflow and underflow
      boundaries) are compared with real JAX 0.10.2 output in `MathEdgeCaseTest`.

      """;

  private static final String FOOTER = """

      Notes:
      - Float sin, cos, tan, acosh, cbrt, pow, lgamma and digamma are computed in double and
        rounded once; the other float functions compute in float. Float exp, tanh, erf and erfc
        are XLA's own formulas, bit for bit (erfc's e^(-x²) of a rounded x² costs XLA and jaxc
        up to 62 ulps next to the underflow).
        Float erf_inv is Giles' single-precision polynomial, the formula XLA uses (its 3.3 ulps
        are XLA's too); double erf_inv refines a start with two Halley steps.
      - Trigonometric arguments are reduced exactly for every finite input (Cody–Waite below
        2^19·π/2, Payne–Hanek above, both branch-free), as XLA's are.
      - lgamma and digamma lose relative accuracy next to their zeros on the negative axis (the
        absolute error stays near 1e-16 for doubles); their tables sample (-50, 0) uniformly, so
        those rows measure how close the samples came to a zero.
      - Subnormals follow XLA:CPU (FTZ/DAZ). Subnormal inputs read as zero, except where XLA
        returns them unchanged: expm1, sin, tan, atan, and float tanh. asin gives ±0 below twice
        the smallest normal, as XLA's does. pow and atan2 tell zeros by their bits, as glibc (which
        XLA calls for them) does. Results do not depend on whether the FTZ/DAZ hardware bits are
        set (MathEdgeCaseTest runs both ways); `MathLibrary(module, true)` marks the functions
        `"denormal-fp-math"="preserve-sign,preserve-sign"` for code that runs with them set.
      - Known differences from JAX 0.10.2 on special inputs, all where XLA's own result is off:
        float cbrt of subnormals (XLA returns -5.6e-16), exp2(-126) in float (XLA's rounds below
        the smallest normal and flushes), exp2(1024) in double (XLA's stays finite), atan2 with
        two nonzero operands one of which is subnormal (XLA: NaN, y, ±π/2 or -π depending on
        type and operand), pow of a subnormal base to a non-integer power (XLA's is off by
        2^(y/2)). XLA's exp2, sinh, cosh, erfc, lgamma and digamma are themselves off by up to
        tens of ulps at some points; the edge-case test compares finite results to 1e-5 (float)
        and 1e-12 (double) relative.
      - Every elementwise loop over these functions vectorises on x86-64 (checked at -O3 for the
        baseline CPU); on AArch64 LLVM may keep the sin, cos and tan loops scalar.
      """;
}
