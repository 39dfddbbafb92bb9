package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.diag.JaxcException;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Inputs built to hurt a parser: each fails with a located error (or parses) without hanging. The
 * limit catches a hang or a blow-up (exponential backtracking would take hours), not speed: each
 * input takes well under a second alone, but 2 s timed out once in CI while the 2 cores also ran
 * other builds (a cold JIT, 10,000 nested jaxprs).
 */
class HostileInputTest {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  /** Parses {@code text}, which must fail; returns the first rendered line without the name. */
  private static String fails(String text) {
    return assertTimeoutPreemptively(LIMIT, () -> {
      JaxcException e = assertThrows(JaxcException.class, () -> JaxprParser.parse("h.jaxpr", text));
      assertTrue(e.span().isKnown(), "located: " + e.getMessage());
      String r = DiagnosticRenderer.render(Source.of("h.jaxpr", text), e.diagnostic());
      return r.substring("h.jaxpr:".length(), r.indexOf('\n'));
    });
  }

  @Test
  void tenThousandNestedJaxprs() {
    String text = "{ lambda ; . let p[j=".repeat(10_000);
    assertEquals("1:4201: error: nesting deeper than 200 levels", fails(text));
  }

  @Test
  void tenThousandNestedJaxprTuples() {
    String text = "{ lambda ; . let p[branches=(".repeat(10_000);
    assertTrue(fails(text).endsWith("error: nesting deeper than 200 levels"));
  }

  /** Ten thousand shared jaxprs, each calling the next: resolution must not recurse that deep. */
  @Test
  void tenThousandChainedSharedJaxprs() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      sb.append("let f").append(i).append(" = { lambda ; a:f32[]. let b:f32[] = jit[name=f jaxpr=f").append(i + 1)
          .append("] a in (b,) } in\n");
    }
    sb.append("let f10000 = { lambda ; a:f32[]. let  in (a,) } in\n");
    sb.append("{ lambda ; a:f32[]. let b:f32[] = jit[name=f jaxpr=f0] a in (b,) }");
    assertTrue(fails(sb.toString()).endsWith("error: shared jaxprs refer to each other deeper than 200 levels"));
  }

  @Test
  void tenThousandNestedParens() {
    String text = "{ lambda ; a:f32[]. let b:f32[] = p[x=" + "(".repeat(10_000) + ")".repeat(10_000) + "] a in (b,) }";
    assertEquals("1:238: error: nesting deeper than 200 levels", fails(text));
  }

  @Test
  void tenThousandNestedBracketsInTypes() {
    assertEquals("1:17: error: unterminated type: this '[' has no matching ']'",
        fails("{ lambda ; a:f32[" + "[".repeat(10_000) + "]".repeat(10_001) + ". let  in (a,) }"));
    assertEquals("1:217: error: nesting deeper than 200 levels",
        fails("{ lambda ; a:f32[" + "(".repeat(10_000) + "b" + ")".repeat(10_000) + "]. let  in (a,) }"));
    assertTrue(fails("{ lambda ; a:Ref" + "{".repeat(10_000) + "}".repeat(10_000) + ". let  in (a,) }")
        .endsWith("error: nesting deeper than 200 levels"));
  }

  @Test
  void oneMegabyteLineOfGarbage() {
    assertEquals("1:1: error: expected a jaxpr starting with '{ lambda', found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'",
        fails("x".repeat(1 << 20)));
    assertTrue(fails("{ lambda ; a:f32[]. let b:f32[] = sin " + "a ".repeat(1 << 19) + "c in (b,) }")
        .contains("undefined variable 'c'"));
    assertTimeoutPreemptively(LIMIT,
        () -> JaxprParser.parse("h.jaxpr", "{ lambda ; a:f32[]. let b:f32[] = p[x=" + "<a".repeat(1 << 19) + "] a in (b,) }"));
  }

  @Test
  void oneMegabyteLineThatParses() {
    StringBuilder sb = new StringBuilder("{ lambda ; a:f32[]. let ");
    int n = 0;
    String prev = "a";
    while (sb.length() < (1 << 20)) {
      String v = "v" + n++;
      sb.append(v).append(":f32[] = add ").append(prev).append(" 1.0:f32[]; ");
      prev = v;
    }
    sb.append("z:f32[] = neg ").append(prev).append(" in (z,) }");
    String text = sb.toString();
    Jaxpr j = assertTimeoutPreemptively(LIMIT, () -> JaxprParser.parse("big.jaxpr", text).main());
    assertEquals(n + 1, j.eqns().size());
    // A 1 MB param value of free text.
    String value = "word ".repeat(1 << 18);
    Jaxpr k = assertTimeoutPreemptively(LIMIT,
        () -> JaxprParser.parse("v.jaxpr", "{ lambda ; a:f32[]. let b:f32[] = p[fmt=" + value + "] a in (b,) }").main());
    assertEquals(value.strip(), ((dev.jaxc.ir.ParamValue.Text) k.eqns().get(0).params().values().get("fmt")).text());
  }

  @Test
  void binaryGarbage() throws Exception {
    byte[] bytes = new byte[100_000];
    new Random(42).nextBytes(bytes);
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
      Path p = fs.getPath("/garbage.bin");
      Files.write(p, bytes);
      JaxcException e = assertTimeoutPreemptively(LIMIT, () -> assertThrows(JaxcException.class, () -> JaxprParser.parse(p)));
      assertTrue(e.getMessage().startsWith("input is not jaxpr text: "), e.getMessage());
      assertTrue(e.span().isKnown());
    }
    assertEquals("1:10: error: input is not jaxpr text: unexpected byte 0x00", fails("{ lambda \0; . let  in () }"));
  }

  @Test
  void emptyFile() throws Exception {
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
      Path p = fs.getPath("/empty.jaxpr");
      Files.write(p, new byte[0]);
      JaxcException e = assertThrows(JaxcException.class, () -> JaxprParser.parse(p));
      assertEquals("1:1: error: empty input: expected a jaxpr starting with '{ lambda'", BadInputTest.firstLine(p, e));
    }
  }

  /** The size limit is checked before reading: a 65 MiB file fails at once. */
  @Test
  void fileOverSixtyFourMebibytes() throws Exception {
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
      Path p = fs.getPath("/huge.jaxpr");
      byte[] mib = new byte[1 << 20];
      java.util.Arrays.fill(mib, (byte) ' ');
      try (OutputStream out = Files.newOutputStream(p)) {
        for (int i = 0; i < 65; i++) out.write(mib);
      }
      JaxcException e = assertTimeoutPreemptively(LIMIT, () -> assertThrows(JaxcException.class, () -> JaxprParser.parse(p)));
      assertEquals("1:1: error: input is 65 MiB; jaxc reads at most 64 MiB", BadInputTest.firstLine(p, e));
    }
  }

  /** Scanners never rescan: many result-less equations and many unclosed '<' stay linear. */
  @Test
  void noQuadraticCases() {
    StringBuilder sb = new StringBuilder("{ lambda ; a:f32[]. let\n");
    for (int i = 0; i < 20_000; i++) sb.append("    debug_callback[callback=<function f at 0x0> effect=Debug] a\n");
    String text = sb.append("  in (a,) }").toString();
    Jaxpr j = assertTimeoutPreemptively(LIMIT, () -> JaxprParser.parse("many.jaxpr", text).main());
    assertEquals(20_000, j.eqns().size());
    String angles = "{ lambda ; a:f32[]. let\n    b:f32[] = p[\n      x=" + "a<b ".repeat(50_000) + "\n      y=1\n    ] a\n  in (b,) }";
    assertTimeoutPreemptively(LIMIT, () -> JaxprParser.parse("angles.jaxpr", angles));
  }
}
