package dev.jaxc.backend.llvm.math;

/**
 * The math functions jaxc implements itself (never libm), each emitted as a named LLVM function
 * {@code jaxc.<id>.<f32|f64|vNf32|vNf64>}. The names are those of the JAX primitives they lower.
 */
public enum MathFn {
  EXP("exp", 1),
  EXP2("exp2", 1),
  EXPM1("expm1", 1),
  LOG("log", 1),
  LOG1P("log1p", 1),
  SIN("sin", 1),
  COS("cos", 1),
  TAN("tan", 1),
  ASIN("asin", 1),
  ACOS("acos", 1),
  ATAN("atan", 1),
  ATAN2("atan2", 2),
  SINH("sinh", 1),
  COSH("cosh", 1),
  TANH("tanh", 1),
  ASINH("asinh", 1),
  ACOSH("acosh", 1),
  ATANH("atanh", 1),
  LOGISTIC("logistic", 1),
  ERF("erf", 1),
  ERFC("erfc", 1),
  ERF_INV("erf_inv", 1),
  LGAMMA("lgamma", 1),
  DIGAMMA("digamma", 1),
  POW("pow", 2),
  CBRT("cbrt", 1),
  RSQRT("rsqrt", 1);

  private final String id;
  private final int arity;

  MathFn(String id, int arity) {
    this.id = id;
    this.arity = arity;
  }

  /** The JAX primitive name, also the middle part of the LLVM function name. */
  public String id() {
    return id;
  }

  public int arity() {
    return arity;
  }

  /** Whether {@code llvmName} is one of the library's functions ({@code jaxc.<id>.…}). */
  public static boolean isLibraryFunction(String llvmName) {
    if (!llvmName.startsWith("jaxc.")) return false;
    for (MathFn f : values()) if (llvmName.startsWith(f.id, 5) && llvmName.startsWith(".", 5 + f.id.length())) return true;
    return false;
  }
}
