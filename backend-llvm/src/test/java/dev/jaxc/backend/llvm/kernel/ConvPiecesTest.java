package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ConvPieces} against the definition of a convolution's terms, position by position: the
 * pieces cover every output once, an interior piece's terms are exactly the output's real ones
 * (each inside the input, none skipped, in window order), and a border piece takes the whole
 * window. Values are the golden cases' (conv_transpose_pieces, conv_lhs_dilation_inf_weights).
 */
class ConvPiecesTest {
  /** Output y's real window positions along {@code a}, in order (brute force from the definition). */
  private static List<Long> realTaps(ConvPieces.Axis a, long y) {
    List<Long> taps = new ArrayList<>();
    for (long k = 0; k < a.window(); k++) {
      long q = y * a.stride() + k * a.rhsDilation() - a.padLow();
      if (q >= 0 && q <= (a.in() - 1) * a.lhsDilation() && q % a.lhsDilation() == 0) taps.add(k);
    }
    return taps;
  }

  private static void checkAxis(ConvPieces.Axis a) {
    List<ConvView> pieces = ConvPieces.plan(new ConvPieces.Axis[] {a});
    if (pieces == null) {
      // No interior: no output has all its on-grid taps inside the input.
      for (long y = 0; y < a.out(); y++) assertTrue(!a.interior(y), a + " y=" + y);
      return;
    }
    int[] covered = new int[(int) a.out()];
    for (ConvView v : pieces) {
      for (long t = 0; t < v.outCount()[0]; t++) {
        long y = v.outStart()[0] + v.outStep()[0] * t;
        covered[(int) y]++;
        if (!v.interior()) {
          assertEquals(1, v.outStep()[0]);
          assertEquals(0, v.tapStart()[0]);
          assertEquals(1, v.tapStep()[0]);
          assertEquals(a.window(), v.tapCount()[0]);
          continue;
        }
        List<Long> taps = new ArrayList<>();
        for (long j = 0; j < v.tapCount()[0]; j++) taps.add(v.tapStart()[0] + v.tapStep()[0] * j);
        List<Long> real = realTaps(a, y);
        assertEquals(real, taps, a + " y=" + y);
        // None skipped: the on-grid taps of an interior output all lie inside the input.
        for (long k = 0; k < a.window(); k++) {
          long q = y * a.stride() + k * a.rhsDilation() - a.padLow();
          if (Math.floorMod(q, a.lhsDilation()) == 0) assertTrue(real.contains(k), a + " y=" + y + " k=" + k);
        }
      }
    }
    for (int y = 0; y < covered.length; y++) assertEquals(1, covered[y], a + " y=" + y);
  }

  @Test
  void everyOutputOnceAndInteriorTermsAreExactlyTheRealOnes() {
    int axes = 0;
    for (long in = 1; in <= 9; in++)
      for (long window = 1; window <= 5; window++)
        for (long stride = 1; stride <= 3; stride++)
          for (long ld = 1; ld <= 3; ld++)
            for (long rd = 1; rd <= 2; rd++)
              for (long lo = -2; lo <= 4; lo++)
                for (long hi = -1; hi <= 3; hi++) {
                  long dilated = (in - 1) * ld + 1 + lo + hi;
                  long span = (window - 1) * rd + 1;
                  if (dilated < span) continue;
                  long out = (dilated - span) / stride + 1;
                  checkAxis(new ConvPieces.Axis(out, in, window, stride, ld, rd, lo));
                  axes++;
                }
    assertTrue(axes > 10_000, "axes checked: " + axes);
  }

  @Test
  void transposedConvolutionOfStrideTwoIsFourPhasesAndABorder() {
    // lax.conv_transpose(x, k, (2, 2), "SAME") of 28² by 3 × 3: lhs dilation 2, padding (2, 1).
    ConvPieces.Axis a = new ConvPieces.Axis(56, 28, 3, 1, 2, 1, 2);
    List<ConvView> pieces = ConvPieces.plan(new ConvPieces.Axis[] {a, a});
    assertNotNull(pieces);
    List<String> interior = new ArrayList<>();
    for (ConvView v : pieces)
      if (v.interior()) interior.add(v.tapCount()[0] + "x" + v.tapCount()[1]);
    assertEquals(List.of("2x2", "2x1", "1x2", "1x1"), interior);
    // The frame: output 0 along each axis (its tap 0 lands on padding); the last output's only
    // on-grid tap lies inside.
    assertEquals(4 + 2, pieces.size());
    ConvView top = pieces.get(4);
    assertEquals(List.of(0L, 0L, 1L, 56L), List.of(top.outStart()[0], top.outStart()[1], top.outCount()[0], top.outCount()[1]));
    ConvView left = pieces.get(5);
    assertEquals(List.of(1L, 0L, 55L, 1L), List.of(left.outStart()[0], left.outStart()[1], left.outCount()[0], left.outCount()[1]));
  }

  @Test
  void atMostMaxPiecesInteriorPieces() {
    // Stride 8 in 2-D: 64 phases, cut; stride 9: 81, left whole to the nest.
    ConvPieces.Axis eight = new ConvPieces.Axis(8 * 20, 20, 16, 1, 8, 1, 11);
    List<ConvView> pieces = ConvPieces.plan(new ConvPieces.Axis[] {eight, eight});
    assertNotNull(pieces);
    assertEquals(ConvPieces.MAX_PIECES, pieces.stream().filter(ConvView::interior).count());
    ConvPieces.Axis nine = new ConvPieces.Axis(9 * 20, 20, 18, 1, 9, 1, 12);
    assertNull(ConvPieces.plan(new ConvPieces.Axis[] {nine, nine}));
    assertNotNull(ConvPieces.plan(new ConvPieces.Axis[] {nine}));
  }

  @Test
  void noInteriorNoPieces() {
    // A window wider than the input: every output meets padding.
    assertNull(ConvPieces.plan(new ConvPieces.Axis[] {new ConvPieces.Axis(4, 2, 3, 1, 1, 1, 1)}));
  }

  @Test
  void transposedConvolutionRunsItsInteriorOnThePackedGemm() {
    String conv = GemmJaxprs.conv2d("8,28,28,64", "3,3,64,32", "8,56,56,32",
        "lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2)", "(2, 2)", "((2, 1), (2, 1))", "(1, 1)");
    try (CompiledModule m = Compiler.compile(Compile.program(conv), GemmJaxprs.CASCADE_LAKE, "f", Consts.NONE,
        Threading.SERIAL)) {
      assertTrue(m.assembly().contains("jaxc_gemm_f32_"), "no packed GEMM micro-kernel in the module");
    }
  }
}
