package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.Severity;
import dev.jaxc.ir.diag.Span;
import org.junit.jupiter.api.Test;

/** {@code --diagnostics json}: one object per line, the documented fields, valid JSON strings. */
class DiagnosticJsonTest {
  @Test
  void aLocatedErrorWithAHint() {
    Source src = Source.of("m.jaxpr", "{ lambda ; a:f32[3]. let\n    b:f32[3] = sinn a\n  in (b,) }");
    Diagnostic d = new Diagnostic(Severity.ERROR, "unknown primitive 'sinn'", new Span(40, 44, 2, 16),
        DiagnosticCode.UNKNOWN_PRIMITIVE, "did you mean 'sin'?");
    assertEquals("{\"file\":\"m.jaxpr\",\"line\":2,\"col\":16,\"end\":{\"line\":2,\"col\":20},"
        + "\"severity\":\"error\",\"code\":\"E0001\",\"message\":\"unknown primitive 'sinn'\","
        + "\"hint\":\"did you mean 'sin'?\"}", DiagnosticJson.render(src, d, d.code()));
  }

  @Test
  void aSpanOverSeveralLinesEndsOnItsLastLine() {
    Source src = Source.of("m.jaxpr", "ab\ncdef\ngh");
    Diagnostic d = Diagnostic.warning("w", new Span(1, 6, 1, 2));
    assertEquals("{\"file\":\"m.jaxpr\",\"line\":1,\"col\":2,\"end\":{\"line\":2,\"col\":4},"
        + "\"severity\":\"warning\",\"code\":\"W0001\",\"message\":\"w\",\"hint\":null}",
        DiagnosticJson.render(src, d, DiagnosticCode.TRUSTED_PRIMITIVE));
  }

  @Test
  void quotesBackslashesAndControlCharactersAreEscaped() {
    Source src = Source.of("dir\\\"x\".jaxpr", "");
    Diagnostic d = Diagnostic.error("bad \"\t\u0001\" \\ é", Span.NONE);
    assertEquals("{\"file\":\"dir\\\\\\\"x\\\".jaxpr\",\"line\":null,\"col\":null,\"end\":null,"
        + "\"severity\":\"error\",\"code\":\"E0003\",\"message\":\"bad \\\"\\t\\u0001\\\" \\\\ é\",\"hint\":null}",
        DiagnosticJson.render(src, d, DiagnosticCode.SYNTAX));
  }
}
