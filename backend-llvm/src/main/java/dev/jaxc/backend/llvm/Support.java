package dev.jaxc.backend.llvm;

import dev.jaxc.ir.prim.Primitive;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;

/**
 * For every primitive: the lowering that handles it, or why the CPU backend does not compile it
 * (yet). One exhaustive switch, so a new {@link Primitive} constant does not compile until it is
 * placed here; {@link #describe()} renders the table for the README.
 */
public final class Support {
  private Support() {}

  /** {@code lowered}: the planner accepts the primitive; {@code detail}: by what, or why not. */
  public record Status(boolean lowered, String detail) {}

  private static final Status ELEMENTWISE = lowered("fused: elementwise (emit/ElementwiseLowering)");
  private static final Status INDEX_REWRITE = lowered("fused: index rewrite (emit/ShapeLowering)");
  private static final Status CONVERSION = lowered("fused: conversion (emit/Conversions)");
  private static final Status IDENTITY = lowered("fused: identity");
  private static final Status MATH = lowered("fused: math library (emit/MathLowering)");
  private static final Status REDUCTION = lowered("kernel: reductions in XLA:CPU's order (kernel/ReduceKernel)");
  private static final Status CUMULATIVE = lowered("kernel: cumulative reductions in XLA:CPU's order (kernel/CumulativeKernel)");
  private static final Status SORT = lowered("kernel: sort and top_k (kernel/SortKernel)");
  private static final Status CONTRACTION = lowered("kernel: dot_general / convolution through GemmKernel (kernel/GemmCore)");
  private static final Status GATHER_SCATTER = lowered("kernel: gather / scatter / dynamic_update_slice (kernel/GatherScatterKernel)");
  private static final Status WINDOW = lowered("kernel: windowed reductions and select-and-scatter/gather in XLA:CPU's window order (kernel/WindowKernel)");
  private static final Status INLINED = pending("call: inlined by the canonical pipeline (ir/pass/canon) before lowering");
  private static final Status SOLVE_INLINED = pending("its solve jaxpr applied to the solve consts and b, inlined by ir/pass/canon (what JAX's own implementation runs)");
  private static final Status RANDOM_PASS = pending("random: rewritten to u32 arrays and threefry2x32 by ir/pass/random");
  private static final Status FFT_OWN = pending("every fft_type, 1-3 axes, any length up to 2^26: real matrix products on the GEMM kernel (frontend/FftGemm: the DFT matrix for lengths up to 64, Bailey four steps recursively with radices up to 64, a dense product for a factor without a divisor up to 64 up to 1024, Bluestein convolution above)");
  private static final Status LINALG_OWN = pending("linear algebra, f32, f64, c64, c128: jaxc's own algorithm (column/row sweeps, Householder, Jacobi, the QR algorithm), written in JAX and expanded like a lower_fun special function (frontend/LowerFunExpansion)");
  private static final Status LOWER_FUN = pending("expanded into the equations XLA compiles (frontend/LowerFunExpansion: JAX's lower_fun trace; for bessel_i1e, zeta and polygamma XLA's decompositions written in JAX, which gives XLA's results bit for bit)");
  private static final Status RNG_BITS = pending("XLA's expansion: Philox-4x32-10 (RNG_DEFAULT, RNG_PHILOX) or ThreeFry-2x32 on u32/u64 words, XLA's state update (ir/pass/random/RngBitGeneratorExpansion)");
  private static final Status APPROX = pending("top_k along the reduction dimension (of the negated operand for a min), what XLA's ApproxTopK fallback computes off TPU (ir/pass/ApproxTopK)");
  private static final Status NOT_CPU = pending("Pallas TPU primitive: not compiled for CPU");

  public static Status of(Primitive p) {
    return switch (p) {
      case ABS, ADD, ADD_ANY, AND, CEIL, CLAMP, CLZ, COMPLEX, CONJ, DIV, EQ, FLOOR, GE, GT, IMAG,
          INTEGER_POW, IS_FINITE, LE, LT, MAX, MIN, MUL, MULHI, NE, NEG, NEXTAFTER, NOT, OR,
          POPULATION_COUNT, REAL, RECIPROCAL, REM, ROUND, SELECT_N, SHIFT_LEFT,
          SHIFT_RIGHT_ARITHMETIC, SHIFT_RIGHT_LOGICAL, SIGN, SQUARE, SUB, XOR,
          ZEROS_LIKE -> ELEMENTWISE;
      case CONVERT_ELEMENT_TYPE, BITCAST_CONVERT_TYPE, REDUCE_PRECISION -> CONVERSION;
      case BROADCAST_IN_DIM, BROADCAST_TO, CONCATENATE, DYNAMIC_SLICE, IOTA, PAD, RESHAPE, REV,
          SLICE, SPLIT, SQUEEZE, STACK, TILE, TRANSPOSE, UNSTACK -> INDEX_REWRITE;
      case COPY, DEVICE_PUT, NAME, OPTIMIZATION_BARRIER, PVARY, RESHARD, SHARDING_CONSTRAINT,
          STOP_GRADIENT -> IDENTITY;
      case ACOS, ACOSH, ASIN, ASINH, ATAN, ATAN2, ATANH, CBRT, COS, COSH, DIGAMMA, ERF, ERFC,
          ERF_INV, EXP, EXP2, EXPM1, LGAMMA, LOG, LOG1P, LOGISTIC, POW, RSQRT, SIN, SINH, SQRT, TAN,
          TANH -> MATH;
      case ARGMAX, ARGMIN, REDUCE, REDUCE_AND, REDUCE_MAX, REDUCE_MIN, REDUCE_OR, REDUCE_PROD,
          REDUCE_SUM, REDUCE_XOR -> REDUCTION;
      case CUMMAX, CUMMIN, CUMPROD, CUMSUM -> CUMULATIVE;
      case CUMLOGSUMEXP -> lowered("kernel: cumulative reductions (kernel/CumulativeKernel); needs exp and log1p: pending math library until they are lowered");
      case SORT, TOP_K -> SORT;
      case DOT_GENERAL, CONV_GENERAL_DILATED -> CONTRACTION;
      case GATHER, SCATTER, SCATTER_ADD, SCATTER_MAX, SCATTER_MIN, SCATTER_MUL, SCATTER_SUB,
          DYNAMIC_UPDATE_SLICE -> GATHER_SCATTER;
      case REDUCE_WINDOW, REDUCE_WINDOW_MAX, REDUCE_WINDOW_MIN, REDUCE_WINDOW_SUM,
          SELECT_AND_GATHER_ADD, SELECT_AND_SCATTER, SELECT_AND_SCATTER_ADD -> WINDOW;
      case COND, WHILE, SCAN -> lowered("kernel: control flow, bodies as nested plans (kernel/ControlFlowKernel)");
      case PLATFORM_INDEX -> lowered("kernel: the constant index of the cpu branch (kernel/ControlFlowPlatformIndex)");
      case CUSTOM_LINEAR_SOLVE -> SOLVE_INLINED;
      case CALL, CLOSED_CALL, CORE_CALL, CUSTOM_JVP_CALL, CUSTOM_VJP_CALL, CUSTOM_VJP_CALL_JAXPR,
          JIT, PJIT, REMAT2, XLA_CALL -> INLINED;
      case RANDOM_BITS, RANDOM_CLONE, RANDOM_FOLD_IN, RANDOM_SEED, RANDOM_SPLIT, RANDOM_UNWRAP,
          RANDOM_WRAP, FROM_EDTYPE, TO_EDTYPE -> RANDOM_PASS;
      case THREEFRY2X32 -> lowered("kernel: threefry2x32 (kernel/ThreefryKernel)");
      case RNG_UNIFORM -> lowered("kernel: XLA:CPU's Philox rng, its state a per-equation counter in the module (kernel/RngUniformKernel); keys by ir/pass/random/RngUniformKeys");
      case CHOLESKY, EIG, EIGH, GEQRF, HESSENBERG, HOUSEHOLDER_PRODUCT, LU, QR, SCHUR, SVD, TRIANGULAR_SOLVE -> LINALG_OWN;
      case TRIDIAGONAL_SOLVE, LU_PIVOTS_TO_PERMUTATION -> LOWER_FUN;
      case FFT -> FFT_OWN;
      case BESSEL_I0E, BESSEL_I1E, IGAMMA, IGAMMA_GRAD_A, IGAMMAC, POLYGAMMA, REGULARIZED_INCOMPLETE_BETA,
          RANDOM_GAMMA, RANDOM_GAMMA_GRAD, ZETA -> LOWER_FUN;
      case APPROX_TOP_K -> APPROX;
      case RNG_BIT_GENERATOR -> RNG_BITS;
      case EQ_TO, LE_TO, LT_TO -> lowered("fused: total-order comparison of sort comparators (emit/SortTotalOrder)");
      case ROLL, BITCAST -> NOT_CPU;
    };
  }

  public static boolean isLowered(Primitive p) {
    return of(p).lowered();
  }

  /** A Markdown table of every primitive, by printed name. */
  public static String describe() {
    return describe(null, null);
  }

  /**
   * As above, with a column {@code title} (another backend's) whose cell for each primitive is
   * {@code column}'s; none where {@code title} is null.
   */
  public static String describe(String title, Function<Primitive, String> column) {
    StringBuilder sb = new StringBuilder(title == null ? "| primitive | CPU backend |\n| --- | --- |\n"
        : "| primitive | CPU backend | " + title + " |\n| --- | --- | --- |\n");
    Primitive[] ps = Primitive.values();
    Arrays.sort(ps, Comparator.comparing(Primitive::printedName));
    for (Primitive p : ps) {
      Status s = of(p);
      sb.append("| `").append(p.printedName()).append("` | ")
          .append(s.lowered() ? "lowered — " : rewrittenBefore(s) ? "compiled (rewritten by a pass) — " : "not yet — ")
          .append(s.detail()).append(" |");
      if (title != null) sb.append(' ').append(column.apply(p)).append(" |");
      sb.append('\n');
    }
    return sb.toString();
  }

  /** Calls, PRNG key primitives and lower_fun special functions never reach the planner: passes rewrite them first. */
  private static boolean rewrittenBefore(Status s) {
    return s == INLINED || s == SOLVE_INLINED || s == RANDOM_PASS || s == LOWER_FUN || s == APPROX || s == RNG_BITS || s == LINALG_OWN || s == FFT_OWN;
  }

  private static Status lowered(String by) {
    return new Status(true, by);
  }

  private static Status pending(String why) {
    return new Status(false, why);
  }
}
