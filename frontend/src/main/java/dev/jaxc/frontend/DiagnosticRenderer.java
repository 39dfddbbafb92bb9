package dev.jaxc.frontend;

import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.Span;

/**
 * Formats a diagnostic the way compilers do:
 *
 * <pre>
 * name:line:col: error: message
 * source line
 *        ^~~~
 * </pre>
 *
 * The caret sits under the span's start, {@code ~} covers the rest of the span on that line.
 * Tabs before the caret are copied so it lines up in a terminal. A diagnostic without a span
 * renders as {@code name: error: message}. A hint follows the message after "; " ({@code error:
 * unknown primitive 'sinn'; did you mean 'sin'?}). Every rendering ends with a newline.
 */
public final class DiagnosticRenderer {
  private DiagnosticRenderer() {}

  public static String render(Source source, Diagnostic d) {
    String label = d.severity().label();
    Span span = d.span();
    String message = d.hint() == null ? d.message() : d.message() + "; " + d.hint();
    if (span == null || !span.isKnown()) {
      return source.name() + ": " + label + ": " + message + "\n";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(source.name()).append(':').append(span.line()).append(':').append(span.col());
    sb.append(": ").append(label).append(": ").append(message).append('\n');
    String line = source.lineText(span.line());
    sb.append(line).append('\n');
    int caretAt = Math.min(span.col() - 1, line.length());
    for (int i = 0; i < caretAt; i++) sb.append(line.charAt(i) == '\t' ? '\t' : ' ');
    sb.append('^');
    int width = Math.min(span.end() - span.start(), line.length() - caretAt);
    for (int i = 1; i < width; i++) sb.append('~');
    return sb.append('\n').toString();
  }
}
