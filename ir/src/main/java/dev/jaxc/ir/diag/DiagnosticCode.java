package dev.jaxc.ir.diag;

/**
 * The stable code of a diagnostic, for tools that act on diagnostics (CI annotations,
 * suppressions). Codes are never reused or renumbered; docs/diagnostics.md lists them.
 */
public enum DiagnosticCode {
  /** An equation's primitive is none jaxc knows (often a misspelling: a hint names the closest). */
  UNKNOWN_PRIMITIVE("E0001", "unknown-primitive"),
  /** A primitive jaxc knows but does not compile (for this target, dtype or parameter). */
  UNSUPPORTED_PRIMITIVE("E0002", "unsupported-primitive"),
  /** The text is not a jaxpr: a token, bracket, binder or name is wrong. */
  SYNTAX("E0003", "syntax"),
  /** A well-formed jaxpr that is ill-typed: operands, params or declared result types disagree. */
  TYPE("E0004", "type"),
  /** A literal with a value annotated with a non-scalar type ({@code 1.0:f32[3]}). */
  NON_SCALAR_LITERAL("E0005", "non-scalar-literal"),
  /** Anything else jaxc cannot compile: a type (symbolic shape, opaque value) or a feature. */
  UNSUPPORTED("E0006", "unsupported"),
  /** The input file cannot be read, or is not text, or is too large. */
  INPUT("E0007", "input"),
  /** {@code inspect} trusts the declared result types of an unknown primitive. */
  TRUSTED_PRIMITIVE("W0001", "trusted-primitive"),
  /** The declared result types of an equation on a Ref are trusted. */
  TRUSTED_REF("W0002", "trusted-ref");

  private final String code;
  private final String slug;

  DiagnosticCode(String code, String slug) {
    this.code = code;
    this.slug = slug;
  }

  /** {@code E0001}. */
  public String code() {
    return code;
  }

  /** {@code unknown-primitive}. */
  public String slug() {
    return slug;
  }
}
