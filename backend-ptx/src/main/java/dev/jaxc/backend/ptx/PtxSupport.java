package dev.jaxc.backend.ptx;

import dev.jaxc.backend.llvm.Support;
import dev.jaxc.ir.prim.Primitive;

/**
 * For every primitive: how the PTX backend runs it on the GPU. The planner and lowering are the
 * CPU backend's ({@link Support}), so a primitive the CPU backend does not compile is not
 * compiled here either, for the same reason; what differs is the kernel's shape on the grid. One
 * exhaustive switch, so a new {@link Primitive} constant does not compile until it is placed here.
 */
public final class PtxSupport {
  private PtxSupport() {}

  private static final String THREAD_PER_ELEMENT = "grid: a thread per element of its fusion group (GridRegions)";
  private static final String MATH = "grid: fused, the CPU backend's math library with XLA:GPU's denormals (log, rsqrt keep them)";
  private static final String REDUCTION = "block-cooperative: a warp per row, blocks with a last-block combine for full "
      + "reductions, a thread per column (GpuReductions); a variadic `reduce` to one result: one thread";
  private static final String ARG = "grid: a thread per result; to one result, one 256-thread block (ArgReduction)";
  private static final String CUMULATIVE = "grid: a thread per line, or XLA's scan tree on a block per line for up to 64 "
      + "long lines (GpuScan); a single line of 16 or fewer: one thread";
  private static final String SORT = "block: a bitonic sort per row on the CPU's keys, so its stable order (GpuSort); "
      + "rows over 32 KiB: a thread per row";
  private static final String CONTRACTION = "block-cooperative: a tiled GEMM through shared memory (GpuGemm); f16/bf16 "
      + "on tensor cores from sm_80 (MmaGemm), f32 too as 3xTF32 with JAXC_PTX_F32_GEMM=3xtf32";
  private static final String SCATTER = "block (GpuScatter): unique_indices as stores, integer add/sub/min/max as "
      + "atomics, windows of 32+ elements a thread per window position in index order; smaller float or "
      + "overwrite windows: one thread";
  private static final String WINDOW = "grid: a thread per output element in XLA's window order";
  private static final String CONTROL = "host-driven when a body has a grid kernel (HostControl: While/Repeat/Switch "
      + "nodes, carries double-buffered), else one kernel";

  /** How {@code p} runs on the GPU, or (not compiled) the CPU backend's reason. */
  public static String of(Primitive p) {
    Support.Status cpu = Support.of(p);
    if (!cpu.lowered()) return "as on the CPU";
    return switch (p) {
      case ABS, ADD, ADD_ANY, AND, CEIL, CLAMP, CLZ, COMPLEX, CONJ, DIV, EQ, FLOOR, GE, GT, IMAG,
          INTEGER_POW, IS_FINITE, LE, LT, MAX, MIN, MUL, MULHI, NE, NEG, NEXTAFTER, NOT, OR,
          POPULATION_COUNT, REAL, RECIPROCAL, REM, ROUND, SELECT_N, SHIFT_LEFT,
          SHIFT_RIGHT_ARITHMETIC, SHIFT_RIGHT_LOGICAL, SIGN, SQUARE, SUB, XOR, ZEROS_LIKE,
          CONVERT_ELEMENT_TYPE, BITCAST_CONVERT_TYPE, REDUCE_PRECISION, BROADCAST_IN_DIM, BROADCAST_TO,
          CONCATENATE, DYNAMIC_SLICE, IOTA, PAD, RESHAPE, REV, SLICE, SPLIT, SQUEEZE, STACK, TILE,
          TRANSPOSE, UNSTACK, COPY, DEVICE_PUT, NAME, OPTIMIZATION_BARRIER, PVARY, RESHARD,
          SHARDING_CONSTRAINT, STOP_GRADIENT, EQ_TO, LE_TO, LT_TO, GATHER, THREEFRY2X32 -> THREAD_PER_ELEMENT;
      case ACOS, ACOSH, ASIN, ASINH, ATAN, ATAN2, ATANH, CBRT, COS, COSH, DIGAMMA, ERF, ERFC,
          ERF_INV, EXP, EXP2, EXPM1, LGAMMA, LOG, LOG1P, LOGISTIC, POW, RSQRT, SIN, SINH, SQRT, TAN,
          TANH -> MATH;
      case REDUCE, REDUCE_AND, REDUCE_MAX, REDUCE_MIN, REDUCE_OR, REDUCE_PROD, REDUCE_SUM, REDUCE_XOR -> REDUCTION;
      case ARGMAX, ARGMIN -> ARG;
      case CUMMAX, CUMMIN, CUMPROD, CUMSUM, CUMLOGSUMEXP -> CUMULATIVE;
      case SORT, TOP_K -> SORT;
      case DOT_GENERAL, CONV_GENERAL_DILATED -> CONTRACTION;
      case SCATTER, SCATTER_ADD, SCATTER_MAX, SCATTER_MIN, SCATTER_MUL, SCATTER_SUB -> SCATTER;
      case DYNAMIC_UPDATE_SLICE -> "grid: a thread per output element, in one pass";
      case REDUCE_WINDOW, REDUCE_WINDOW_MAX, REDUCE_WINDOW_MIN, REDUCE_WINDOW_SUM, SELECT_AND_GATHER_ADD -> WINDOW;
      case SELECT_AND_SCATTER_ADD -> "grid: a thread per input element, revisiting its windows in XLA's order";
      case SELECT_AND_SCATTER -> "one thread (custom select and scatter functions)";
      case COND, WHILE, SCAN -> CONTROL;
      case PLATFORM_INDEX -> "constant: the index of the cuda branch";
      case RNG_UNIFORM -> "block: thread 0 takes the execution count, the threads share the Philox blocks (GpuRng); "
          + "4 elements or fewer: one thread";
      case CUSTOM_LINEAR_SOLVE, CALL, CLOSED_CALL, CORE_CALL, CUSTOM_JVP_CALL, CUSTOM_VJP_CALL,
          CUSTOM_VJP_CALL_JAXPR, JIT, PJIT, REMAT2, XLA_CALL, RANDOM_BITS, RANDOM_CLONE, RANDOM_FOLD_IN,
          RANDOM_SEED, RANDOM_SPLIT, RANDOM_UNWRAP, RANDOM_WRAP, FROM_EDTYPE, TO_EDTYPE, BESSEL_I0E, BESSEL_I1E,
          IGAMMA, IGAMMA_GRAD_A, IGAMMAC, POLYGAMMA, ZETA, REGULARIZED_INCOMPLETE_BETA, RANDOM_GAMMA,
          RANDOM_GAMMA_GRAD, APPROX_TOP_K, RNG_BIT_GENERATOR, CHOLESKY, EIG, EIGH, GEQRF, HESSENBERG, HOUSEHOLDER_PRODUCT, LU, QR, SCHUR, SVD, TRIANGULAR_SOLVE, FFT, TRIDIAGONAL_SOLVE,
          LU_PIVOTS_TO_PERMUTATION -> "as on the CPU";
      case ROLL, BITCAST ->
          throw new AssertionError(p + " is not lowered on the CPU");
    };
  }
}
