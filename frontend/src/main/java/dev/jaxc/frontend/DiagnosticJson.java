package dev.jaxc.frontend;

import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.Span;

/**
 * A diagnostic as one line of JSON, for CI annotations ({@code --diagnostics json}):
 *
 * <pre>
 * {"file":"m.jaxpr","line":2,"col":16,"end":{"line":2,"col":20},"severity":"error",
 *  "code":"E0001","message":"unknown primitive 'sinn'","hint":"did you mean 'sin'?"}
 * </pre>
 *
 * Lines and columns are 1-based, columns in characters; {@code end} is the position just past
 * the span. Without a location {@code line}, {@code col} and {@code end} are null, as is a
 * missing {@code hint}. docs/diagnostics.md documents the format and the codes.
 */
public final class DiagnosticJson {
  private DiagnosticJson() {}

  /** {@code d} in {@code source}, with {@code code} (the diagnostic's own, or one the caller derived). */
  public static String render(Source source, Diagnostic d, DiagnosticCode code) {
    Span s = d.span();
    StringBuilder sb = new StringBuilder("{\"file\":");
    string(sb, source.name());
    if (s != null && s.isKnown()) {
      int line = s.line();
      int col = s.col();
      String text = source.text();
      for (int i = Math.max(0, s.start()); i < Math.min(s.end(), text.length()); i++) {
        if (text.charAt(i) == '\n') {
          line++;
          col = 1;
        } else {
          col++;
        }
      }
      sb.append(",\"line\":").append(s.line()).append(",\"col\":").append(s.col())
          .append(",\"end\":{\"line\":").append(line).append(",\"col\":").append(col).append('}');
    } else {
      sb.append(",\"line\":null,\"col\":null,\"end\":null");
    }
    return rest(sb, d.severity().label(), code, d.message(), d.hint());
  }

  /** A problem with the file itself (unreadable, missing): no location. */
  public static String fileError(String file, DiagnosticCode code, String message) {
    StringBuilder sb = new StringBuilder("{\"file\":");
    string(sb, file);
    sb.append(",\"line\":null,\"col\":null,\"end\":null");
    return rest(sb, "error", code, message, null);
  }

  private static String rest(StringBuilder sb, String severity, DiagnosticCode code, String message, String hint) {
    sb.append(",\"severity\":");
    string(sb, severity);
    sb.append(",\"code\":");
    string(sb, code.code());
    sb.append(",\"message\":");
    string(sb, message);
    sb.append(",\"hint\":");
    if (hint == null) sb.append("null");
    else string(sb, hint);
    return sb.append('}').toString();
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    sb.append('"');
  }
}
