package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.KnownPrimitives;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The commands that compile reject an unknown primitive once, at its name, with a suggestion. */
class UnknownPrimitiveTest {
  private static JaxcException unknown(String text) {
    return assertThrows(JaxcException.class, () -> KnownPrimitives.check(JaxprParser.parse(Parse.NAME, text)));
  }

  @Test
  void aMisspellingIsOneErrorAtItsNameWithTheClosestPrimitive() {
    String text = "{ lambda ; a:f32[3]. let\n    b:f32[3] = sinn a\n  in (b,) }";
    JaxcException e = unknown(text);
    assertEquals(DiagnosticCode.UNKNOWN_PRIMITIVE, e.diagnostic().code());
    assertEquals("t.jaxpr:2:16: error: unknown primitive 'sinn'; did you mean 'sin'?\n"
        + "    b:f32[3] = sinn a\n"
        + "               ^~~~\n", DiagnosticRenderer.render(Source.of(Parse.NAME, text), e.diagnostic()));
  }

  @Test
  void theFirstUnknownNameInTextOrderIsReportedNestedOnesToo() {
    String text = "{ lambda ; a:f32[]. let\n"
        + "    b:f32[] = jit[\n"
        + "      jaxpr={ lambda ; c:f32[]. let d:f32[] = cosh_ c in (d,) }\n"
        + "      name=f\n"
        + "    ] a\n"
        + "    e:f32[] = tanhh b\n"
        + "  in (e,) }";
    JaxcException e = unknown(text);
    assertEquals(3, e.span().line());
    assertEquals("did you mean 'cosh'?", e.diagnostic().hint());
  }

  @Test
  void suggestionsAreForNearMissesOnly() {
    assertEquals(Optional.of("did you mean 'reduce_sum'?"), KnownPrimitives.suggestion("reduce_summ"));
    assertEquals(Optional.of("did you mean 'dot_general'?"), KnownPrimitives.suggestion("dot_generl"));
    assertEquals(Optional.of("did you mean 'scatter-add'?"), KnownPrimitives.suggestion("scatter_add"));
    assertEquals(Optional.of("did you mean 'exp'?"), KnownPrimitives.suggestion("Exp"));
    assertEquals(Optional.of("did you mean 'mul'?"), KnownPrimitives.suggestion("mull"));
    assertEquals(Optional.empty(), KnownPrimitives.suggestion("psum"));
    assertEquals(Optional.empty(), KnownPrimitives.suggestion("my_custom_kernel"));
  }
}
