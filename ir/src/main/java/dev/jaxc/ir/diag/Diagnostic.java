package dev.jaxc.ir.diag;

/**
 * One message about the input, located by a span. Rendered by the frontend's renderer. {@code
 * code} (a {@link DiagnosticCode}) and {@code hint} (a suggestion such as "did you mean 'sin'?")
 * may be null: the CLI then derives the code from the phase that failed.
 */
public record Diagnostic(Severity severity, String message, Span span, DiagnosticCode code, String hint) {
  public Diagnostic(Severity severity, String message, Span span) {
    this(severity, message, span, null, null);
  }

  public static Diagnostic error(String message, Span span) {
    return new Diagnostic(Severity.ERROR, message, span);
  }

  public static Diagnostic warning(String message, Span span) {
    return new Diagnostic(Severity.WARNING, message, span);
  }

  /** This diagnostic with {@code c} as its code. */
  public Diagnostic withCode(DiagnosticCode c) {
    return new Diagnostic(severity, message, span, c, hint);
  }
}
