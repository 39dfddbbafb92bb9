package dev.jaxc.ir.prim;

import dev.jaxc.ir.Params;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.rules.CallRules;
import dev.jaxc.ir.prim.rules.ContractionRules;
import dev.jaxc.ir.prim.rules.ControlFlowRules;
import dev.jaxc.ir.prim.rules.ElementwiseRules;
import dev.jaxc.ir.prim.rules.IdentityRules;
import dev.jaxc.ir.prim.rules.IndexingRules;
import dev.jaxc.ir.prim.rules.LinalgRules;
import dev.jaxc.ir.prim.rules.RandomRules;
import dev.jaxc.ir.prim.rules.ReductionRules;
import dev.jaxc.ir.prim.rules.ShapeRules;
import dev.jaxc.ir.prim.rules.WindowRules;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every primitive jaxc knows, listed once by printed name, with its group, which operands share a
 * dtype, and its shape/dtype rule. Backends switch over this enum; adding a primitive adds one
 * constant here and one lowering per backend.
 */
public enum Primitive {
  ABS("abs", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::abs),
  ACOS("acos", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  ACOSH("acosh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  ADD("add", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  ADD_ANY("add_any", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  AND("and", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::logical),
  APPROX_TOP_K("approx_top_k", PrimGroup.SORTING, SameDType.NONE, ReductionRules::topK),
  ARGMAX("argmax", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::argReduce),
  ARGMIN("argmin", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::argReduce),
  ASIN("asin", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  ASINH("asinh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  ATAN("atan", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  ATAN2("atan2", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::binaryFloat),
  ATANH("atanh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  BESSEL_I0E("bessel_i0e", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::unaryFloat),
  BESSEL_I1E("bessel_i1e", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::unaryFloat),
  BITCAST("bitcast", PrimGroup.CONVERSION, SameDType.NONE, ElementwiseRules::bitcast),
  BITCAST_CONVERT_TYPE("bitcast_convert_type", PrimGroup.CONVERSION, SameDType.NONE, ElementwiseRules::bitcastConvertType),
  BROADCAST_IN_DIM("broadcast_in_dim", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::broadcastInDim),
  BROADCAST_TO("broadcast_to", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::broadcastTo),
  CBRT("cbrt", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  CEIL("ceil", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  CHOLESKY("cholesky", PrimGroup.LINALG, SameDType.NONE, LinalgRules::cholesky),
  CLAMP("clamp", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::clamp),
  CLOSED_CALL("closed_call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  CLZ("clz", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInteger),
  COMPLEX("complex", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::complex),
  CONCATENATE("concatenate", PrimGroup.SHAPE, SameDType.ALL, ShapeRules::concatenate),
  COND("cond", PrimGroup.CONTROL_FLOW, SameDType.NONE, ControlFlowRules::cond),
  CONJ("conj", PrimGroup.ELEMENTWISE_UNARY, SameDType.NONE, ElementwiseRules::conj),
  CONV_GENERAL_DILATED("conv_general_dilated", PrimGroup.CONTRACTION, SameDType.NONE, ContractionRules::convGeneralDilated),
  CONVERT_ELEMENT_TYPE("convert_element_type", PrimGroup.CONVERSION, SameDType.NONE, ElementwiseRules::convertElementType),
  COPY("copy", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  CORE_CALL("core_call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  COS("cos", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  COSH("cosh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  CUMLOGSUMEXP("cumlogsumexp", PrimGroup.CUMULATIVE, SameDType.NONE, ReductionRules::cumulative),
  CUMMAX("cummax", PrimGroup.CUMULATIVE, SameDType.NONE, ReductionRules::cumulative),
  CUMMIN("cummin", PrimGroup.CUMULATIVE, SameDType.NONE, ReductionRules::cumulative),
  CUMPROD("cumprod", PrimGroup.CUMULATIVE, SameDType.NONE, ReductionRules::cumulative),
  CUMSUM("cumsum", PrimGroup.CUMULATIVE, SameDType.NONE, ReductionRules::cumulative),
  CUSTOM_JVP_CALL("custom_jvp_call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  CUSTOM_LINEAR_SOLVE("custom_linear_solve", PrimGroup.CALL, SameDType.NONE, CallRules::customLinearSolve),
  CUSTOM_VJP_CALL("custom_vjp_call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  CUSTOM_VJP_CALL_JAXPR("custom_vjp_call_jaxpr", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  DEVICE_PUT("device_put", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::nary),
  DIGAMMA("digamma", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::unaryFloat),
  DIV("div", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  DOT_GENERAL("dot_general", PrimGroup.CONTRACTION, SameDType.NONE, ContractionRules::dotGeneral),
  DYNAMIC_SLICE("dynamic_slice", PrimGroup.INDEXING, SameDType.NONE, ShapeRules::dynamicSlice),
  DYNAMIC_UPDATE_SLICE("dynamic_update_slice", PrimGroup.INDEXING, SameDType.NONE, ShapeRules::dynamicUpdateSlice),
  EIG("eig", PrimGroup.LINALG, SameDType.NONE, LinalgRules::eig),
  EIGH("eigh", PrimGroup.LINALG, SameDType.NONE, LinalgRules::eigh),
  EQ("eq", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  EQ_TO("eq_to", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::totalOrderCompare),
  ERF("erf", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  ERF_INV("erf_inv", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  ERFC("erfc", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  EXP("exp", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  EXP2("exp2", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  EXPM1("expm1", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  FFT("fft", PrimGroup.FFT, SameDType.NONE, LinalgRules::fft),
  FLOOR("floor", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  FROM_EDTYPE("from_edtype", PrimGroup.CONVERSION, SameDType.NONE, IdentityRules::declared),
  GATHER("gather", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::gather),
  GE("ge", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  GEQRF("geqrf", PrimGroup.LINALG, SameDType.NONE, LinalgRules::geqrf),
  GT("gt", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  HESSENBERG("hessenberg", PrimGroup.LINALG, SameDType.NONE, LinalgRules::hessenberg),
  HOUSEHOLDER_PRODUCT("householder_product", PrimGroup.LINALG, SameDType.NONE, LinalgRules::householderProduct),
  IGAMMA("igamma", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat),
  IGAMMA_GRAD_A("igamma_grad_a", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat),
  IGAMMAC("igammac", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat),
  IMAG("imag", PrimGroup.ELEMENTWISE_UNARY, SameDType.NONE, ElementwiseRules::realImag),
  INTEGER_POW("integer_pow", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::integerPow),
  IOTA("iota", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::iota),
  IS_FINITE("is_finite", PrimGroup.ELEMENTWISE_UNARY, SameDType.NONE, ElementwiseRules::isFinite),
  JIT("jit", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  LE("le", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  LE_TO("le_to", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::totalOrderCompare),
  LGAMMA("lgamma", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::unaryFloat),
  LOG("log", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  LOG1P("log1p", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  LOGISTIC("logistic", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  LT("lt", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  LT_TO("lt_to", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::totalOrderCompare),
  LU("lu", PrimGroup.LINALG, SameDType.NONE, LinalgRules::lu),
  LU_PIVOTS_TO_PERMUTATION("lu_pivots_to_permutation", PrimGroup.LINALG, SameDType.NONE, LinalgRules::luPivotsToPermutation),
  MAX("max", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  MIN("min", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  MUL("mul", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  MULHI("mulhi", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::binaryInteger),
  NE("ne", PrimGroup.COMPARISON, SameDType.ALL, ElementwiseRules::compare),
  NEG("neg", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryNumeric),
  NEXTAFTER("nextafter", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::binaryFloat),
  NOT("not", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::logicalNot),
  OPTIMIZATION_BARRIER("optimization_barrier", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::nary),
  OR("or", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::logical),
  PAD("pad", PrimGroup.SHAPE, SameDType.ALL, ShapeRules::pad),
  PJIT("pjit", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  PLATFORM_INDEX("platform_index", PrimGroup.CONTROL_FLOW, SameDType.NONE, ControlFlowRules::platformIndex),
  POLYGAMMA("polygamma", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat),
  POPULATION_COUNT("population_count", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInteger),
  POW("pow", PrimGroup.ELEMENTWISE_BINARY, SameDType.NONE, ElementwiseRules::pow),
  QR("qr", PrimGroup.LINALG, SameDType.NONE, LinalgRules::qr),
  RANDOM_BITS("random_bits", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomBits),
  RANDOM_CLONE("random_clone", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomClone),
  RANDOM_FOLD_IN("random_fold_in", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomFoldIn),
  RANDOM_GAMMA("random_gamma", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomGamma),
  RANDOM_SEED("random_seed", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomSeed),
  RANDOM_SPLIT("random_split", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomSplit),
  RANDOM_UNWRAP("random_unwrap", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomUnwrap),
  RANDOM_WRAP("random_wrap", PrimGroup.RANDOM, SameDType.NONE, RandomRules::randomWrap),
  REAL("real", PrimGroup.ELEMENTWISE_UNARY, SameDType.NONE, ElementwiseRules::realImag),
  RECIPROCAL("reciprocal", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  REDUCE("reduce", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduce),
  REDUCE_AND("reduce_and", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceLogical),
  REDUCE_MAX("reduce_max", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceMonoid),
  REDUCE_MIN("reduce_min", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceMonoid),
  REDUCE_OR("reduce_or", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceLogical),
  REDUCE_PRECISION("reduce_precision", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::reducePrecision),
  REDUCE_PROD("reduce_prod", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceMonoid),
  REDUCE_SUM("reduce_sum", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceMonoid),
  REDUCE_WINDOW("reduce_window", PrimGroup.WINDOW, SameDType.NONE, WindowRules::reduceWindow),
  REDUCE_WINDOW_MAX("reduce_window_max", PrimGroup.WINDOW, SameDType.NONE, WindowRules::reduceWindowMonoid),
  REDUCE_WINDOW_MIN("reduce_window_min", PrimGroup.WINDOW, SameDType.NONE, WindowRules::reduceWindowMonoid),
  REDUCE_WINDOW_SUM("reduce_window_sum", PrimGroup.WINDOW, SameDType.NONE, WindowRules::reduceWindowMonoid),
  REDUCE_XOR("reduce_xor", PrimGroup.REDUCTION, SameDType.NONE, ReductionRules::reduceLogical),
  REGULARIZED_INCOMPLETE_BETA("regularized_incomplete_beta", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::ternaryFloat),
  REM("rem", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  REMAT2("remat2", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  RESHAPE("reshape", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::reshape),
  REV("rev", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::rev),
  RNG_BIT_GENERATOR("rng_bit_generator", PrimGroup.RANDOM, SameDType.NONE, RandomRules::rngBitGenerator),
  RNG_UNIFORM("rng_uniform", PrimGroup.RANDOM, SameDType.ALL, RandomRules::rngUniform),
  ROLL("roll", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::roll),
  ROUND("round", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryFloat),
  RSQRT("rsqrt", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  SCAN("scan", PrimGroup.CONTROL_FLOW, SameDType.NONE, ControlFlowRules::scan),
  SCHUR("schur", PrimGroup.LINALG, SameDType.NONE, LinalgRules::schur),
  SCATTER("scatter", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SCATTER_ADD("scatter-add", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SCATTER_MAX("scatter-max", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SCATTER_MIN("scatter-min", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SCATTER_MUL("scatter-mul", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SCATTER_SUB("scatter-sub", PrimGroup.INDEXING, SameDType.NONE, IndexingRules::scatter),
  SELECT_AND_GATHER_ADD("select_and_gather_add", PrimGroup.WINDOW, SameDType.NONE, WindowRules::selectAndGatherAdd),
  SELECT_AND_SCATTER("select_and_scatter", PrimGroup.WINDOW, SameDType.NONE, WindowRules::selectAndScatter),
  SELECT_AND_SCATTER_ADD("select_and_scatter_add", PrimGroup.WINDOW, SameDType.NONE, WindowRules::selectAndScatterAdd),
  SELECT_N("select_n", PrimGroup.SELECT, SameDType.ALL_BUT_FIRST, ElementwiseRules::selectN),
  SHARDING_CONSTRAINT("sharding_constraint", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  SHIFT_LEFT("shift_left", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::shift),
  SHIFT_RIGHT_ARITHMETIC("shift_right_arithmetic", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::shift),
  SHIFT_RIGHT_LOGICAL("shift_right_logical", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::shift),
  SIGN("sign", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryNumeric),
  SIN("sin", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  SINH("sinh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  SLICE("slice", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::slice),
  SORT("sort", PrimGroup.SORTING, SameDType.NONE, ReductionRules::sort),
  SPLIT("split", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::split),
  SQRT("sqrt", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  SQUARE("square", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryNumeric),
  SQUEEZE("squeeze", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::squeeze),
  STACK("stack", PrimGroup.SHAPE, SameDType.ALL, ShapeRules::stack),
  STOP_GRADIENT("stop_gradient", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  SUB("sub", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::arithmetic),
  SVD("svd", PrimGroup.LINALG, SameDType.NONE, LinalgRules::svd),
  TAN("tan", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  TANH("tanh", PrimGroup.ELEMENTWISE_UNARY, SameDType.ALL, ElementwiseRules::unaryInexact),
  THREEFRY2X32("threefry2x32", PrimGroup.RANDOM, SameDType.ALL, RandomRules::threefry2x32),
  TILE("tile", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::tile),
  TO_EDTYPE("to_edtype", PrimGroup.CONVERSION, SameDType.NONE, IdentityRules::declared),
  TOP_K("top_k", PrimGroup.SORTING, SameDType.NONE, ReductionRules::topK),
  TRANSPOSE("transpose", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::transpose),
  TRIANGULAR_SOLVE("triangular_solve", PrimGroup.LINALG, SameDType.NONE, LinalgRules::triangularSolve),
  TRIDIAGONAL_SOLVE("tridiagonal_solve", PrimGroup.LINALG, SameDType.NONE, LinalgRules::tridiagonalSolve),
  UNSTACK("unstack", PrimGroup.SHAPE, SameDType.NONE, ShapeRules::unstack),
  WHILE("while", PrimGroup.CONTROL_FLOW, SameDType.NONE, ControlFlowRules::whileLoop),
  XLA_CALL("xla_call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  XOR("xor", PrimGroup.ELEMENTWISE_BINARY, SameDType.ALL, ElementwiseRules::logical),
  ZEROS_LIKE("zeros_like", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  ZETA("zeta", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat),
  NAME("name", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  RESHARD("reshard", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::unary),
  PVARY("pvary", PrimGroup.IDENTITY, SameDType.NONE, IdentityRules::nary),
  CALL("call", PrimGroup.CALL, SameDType.NONE, CallRules::call),
  RANDOM_GAMMA_GRAD("random_gamma_grad", PrimGroup.SPECIAL_FUNCTION, SameDType.ALL, ElementwiseRules::binaryFloat);

  private static final Map<String, Primitive> BY_NAME = new HashMap<>();

  static {
    for (Primitive p : values()) BY_NAME.put(p.printedName, p);
    // Names the same primitives had in the oldest typed printouts (JAX 0.2.26-0.3.x): the
    // custom_jvp call with its callee in fun_jaxpr, and jax.checkpoint before it became remat2
    // (checkpoint, and remat_call with call_jaxpr in 0.2.x). NestedJaxprs.callee reads all of
    // jaxpr, call_jaxpr and fun_jaxpr.
    BY_NAME.put("custom_jvp_call_jaxpr", CUSTOM_JVP_CALL);
    BY_NAME.put("checkpoint", REMAT2);
    BY_NAME.put("remat_call", REMAT2);
  }

  private final String printedName;
  private final PrimGroup group;
  private final SameDType sameDType;
  private final TypeRule rule;

  Primitive(String printedName, PrimGroup group, SameDType sameDType, TypeRule rule) {
    this.printedName = printedName;
    this.group = group;
    this.sameDType = sameDType;
    this.rule = rule;
  }

  /** The name as JAX prints it: {@code scatter-add}, {@code reduce_sum}. */
  public String printedName() {
    return printedName;
  }

  public PrimGroup group() {
    return group;
  }

  /** Which operands must share one dtype (where weak literals and promotion apply). */
  public SameDType sameDType() {
    return sameDType;
  }

  /** The shape/dtype rule. */
  public TypeRule rule() {
    return rule;
  }

  /** The primitive JAX prints as {@code name}, or under one of its older names ({@code checkpoint}). */
  public static Optional<Primitive> byName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /**
   * For primitives whose operands feed nested jaxprs (cond, while, scan, jit, custom_jvp_call,
   * ...): the operand types those jaxprs imply, so untyped literal operands can be typed. Empty
   * for the others.
   */
  public Optional<List<Type>> impliedOperandTypes(Params params, int numOperands) {
    return NestedOperands.implied(this, params, numOperands);
  }
}
