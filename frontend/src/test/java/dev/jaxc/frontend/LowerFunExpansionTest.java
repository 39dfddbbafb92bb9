package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The expansion's mechanics; what it computes is checked against JAX by the golden cases
 * {@code testdata/cases/special_*} (igamma family, betainc, i0e in f32, f64 and bf16, in a scan
 * body, under vmap and in gradients).
 */
class LowerFunExpansionTest {
  private static Program typed(String text, boolean x64) {
    return TypePass.run(JaxprParser.parse("t.jaxpr", text), new TypeConfig(x64, PromotionMode.STANDARD), new Diagnostics());
  }

  private static List<String> primitives(Jaxpr j) {
    List<String> r = new ArrayList<>();
    for (Eqn e : j.eqns()) {
      r.add(e.primitive());
      for (ParamValue v : e.params().values().values())
        if (v instanceof ParamValue.JaxprValue jv) r.addAll(primitives(jv.jaxpr()));
    }
    return r;
  }

  /** The equations of j and of every jaxpr in their params. */
  private static List<Eqn> allEqns(Jaxpr j) {
    List<Eqn> r = new ArrayList<>();
    for (Eqn e : j.eqns()) {
      r.add(e);
      for (ParamValue v : e.params().values().values())
        if (v instanceof ParamValue.JaxprValue jv) r.addAll(allEqns(jv.jaxpr()));
    }
    return r;
  }

  @Test
  void everyPrimitiveAndDtypeExpandsAtAnySizeIntoTypedEquations() {
    String[][] shapes = {{"[]"}, {"[0]"}, {"[2,3]"}, {"[9973]"}, {"[1,5,1]"}};
    for (String prim : LowerFunExpansion.PRIMITIVES) {
      if (prim.equals("random_gamma") || prim.equals("cholesky") || prim.equals("triangular_solve") || prim.equals("fft")
          || prim.equals("lu") || prim.equals("tridiagonal_solve") || prim.equals("lu_pivots_to_permutation")
          || prim.equals("qr") || prim.equals("eigh") || prim.equals("svd") || prim.equals("geqrf")
          || prim.equals("householder_product") || prim.equals("hessenberg") || prim.equals("eig") || prim.equals("schur"))
        continue;  // not elementwise: their own tests below
      int arity = prim.startsWith("bessel_") ? 1 : prim.equals("regularized_incomplete_beta") ? 3 : 2;
      for (String dt : new String[] {"f32", "f64", "f16", "bf16"}) {
        for (String[] shape : shapes) {
          String t = dt + shape[0];
          StringBuilder binders = new StringBuilder();
          StringBuilder args = new StringBuilder();
          for (int k = 0; k < arity; k++) {
            binders.append((char) ('a' + k)).append(':').append(t).append(' ');
            args.append(' ').append((char) ('a' + k));
          }
          String text = "{ lambda ; " + binders + ". let z:" + t + " = " + prim + args + " in (z,) }";
          Program p = LowerFunExpansion.run(typed(text, dt.equals("f64")));
          List<String> prims = primitives(p.main());
          assertFalse(prims.contains(prim), prim + " " + t + ": still there: " + prims);
          // An empty operand gets its empty result directly (EmptyOperands), the others the recorded call.
          assertTrue(prims.contains(shape[0].equals("[0]") ? "iota" : "jit"), prim + " " + t + ": " + prims);
          // The result type-checks again, and its output keeps the equation's type.
          Program again = TypePass.run(p, new TypeConfig(dt.equals("f64"), PromotionMode.STANDARD), new Diagnostics());
          assertEquals(t, again.main().outs().get(0).type().text(), prim + " " + t);
        }
      }
    }
  }

  @Test
  void randomGammaTakesKeysAndAlphas() {
    // A scalar key with alphas of any shape, and (vmap's form) a batch of keys leading the alphas.
    String[][] forms = {{"key<fry>[]", "f32[3,4]"}, {"key<fry>[4]", "f32[4,5]"}, {"key<fry>[2,3]", "bf16[2,3,7]"},
        {"key<fry>[]", "f64[]"}};
    for (String[] f : forms) {
      String text = "{ lambda ; k:" + f[0] + " a:" + f[1] + ". let z:" + f[1] + " = random_gamma[log_space=True] k a in (z,) }";
      Program p = LowerFunExpansion.run(typed(text, f[1].startsWith("f64")));
      List<String> prims = primitives(p.main());
      assertFalse(prims.contains("random_gamma"), f[1] + ": " + prims);
      assertTrue(prims.contains("while") && prims.contains("random_split"), f[1] + ": " + prims);
      Program again = TypePass.run(p, new TypeConfig(f[1].startsWith("f64"), PromotionMode.STANDARD), new Diagnostics());
      assertEquals(f[1], again.main().outs().get(0).type().text());
    }
  }

  @Test
  void linearAlgebraTakesBatchesOfMatrices() {
    String[] texts = {
      "{ lambda ; a:f32[5,5]. let b:f32[5,5] = cholesky a in (b,) }",
      "{ lambda ; a:f64[2,3,4,4]. let b:f64[2,3,4,4] = cholesky a in (b,) }",
      "{ lambda ; a:f32[2,4,4] b:f32[2,4,3]. let c:f32[2,4,3] = triangular_solve[conjugate_a=False left_side=True "
          + "lower=False transpose_a=True unit_diagonal=False] a b in (c,) }",
      "{ lambda ; a:f32[4,4] b:f32[3,4]. let c:f32[3,4] = triangular_solve[conjugate_a=False left_side=False "
          + "lower=True transpose_a=False unit_diagonal=True] a b in (c,) }",
      "{ lambda ; a:f32[2,5,3]. let b:f32[2,5,3] c:i32[2,3] d:i32[2,5] = lu a in (b, c, d) }",
      "{ lambda ; a:c64[3,5]. let b:c64[3,5] c:i32[3] d:i32[3] = lu a in (b, c, d) }",
      "{ lambda ; a:f32[2,6] b:f32[2,6] c:f32[2,6] d:f32[2,6,3]. let e:f32[2,6,3] = tridiagonal_solve[perturb_singular=False] "
          + "a b c d in (e,) }",
      "{ lambda ; a:i32[2,3]. let b:i32[2,5] = lu_pivots_to_permutation[permutation_size=5] a in (b,) }",
      "{ lambda ; a:f32[2,7,4]. let b:f32[2,7,7] c:f32[2,7,4] = qr[full_matrices=True pivoting=False use_magma=None] a "
          + "in (b, c) }",
      "{ lambda ; a:c64[3,5]. let b:c64[3,3] c:c64[3,5] = qr[full_matrices=False pivoting=False use_magma=None] a in (b, c) }",
      "{ lambda ; a:f32[2,6,6]. let b:f32[2,6,6] c:f32[2,6] = eigh[algorithm=None lower=False sort_eigenvalues=True "
          + "subset_by_index=None] a in (b, c) }",
      "{ lambda ; a:f64[3,8]. let b:f64[3] c:f64[3,3] d:f64[3,8] = svd[algorithm=None compute_uv=True "
          + "full_matrices=False subset_by_index=None] a in (b, c, d) }",
    };
    for (String text : texts) {
      boolean x64 = text.contains("f64");
      Program p = LowerFunExpansion.run(typed(text, x64));
      List<String> prims = primitives(p.main());
      assertFalse(prims.contains("cholesky") || prims.contains("triangular_solve"), text + ": " + prims);
      assertTrue(prims.contains("scan") || prims.contains("while"), text + ": " + prims);
      Program again = TypePass.run(p, new TypeConfig(x64, PromotionMode.STANDARD), new Diagnostics());
      assertEquals(typed(text, x64).main().outs().get(0).type().text(), again.main().outs().get(0).type().text());
    }
    // Half precision is not what JAX takes: a located error, not a wrong answer.
    assertThrows(JaxcException.class, () -> LowerFunExpansion.run(typed(
        "{ lambda ; a:f16[3,3]. let b:f16[3,3] = cholesky a in (b,) }", false)));
  }

  @Test
  void fftOfEveryTypeAndAxisCount() {
    String[] texts = {
      "{ lambda ; a:c64[3,12]. let b:c64[3,12] = fft[fft_lengths=(12,) fft_type=0] a in (b,) }",
      "{ lambda ; a:c128[4,96]. let b:c128[4,96] = fft[fft_lengths=(96,) fft_type=1] a in (b,) }",
      "{ lambda ; a:f32[2,4,16]. let b:c64[2,4,9] = fft[fft_lengths=(4, 16) fft_type=2] a in (b,) }",
      "{ lambda ; a:c64[2,4,9]. let b:f32[2,4,16] = fft[fft_lengths=(4, 16) fft_type=3] a in (b,) }",
      "{ lambda ; a:c64[5,7,9]. let b:c64[5,7,9] = fft[fft_lengths=(5, 7, 9) fft_type=FftType.FFT] a in (b,) }",
    };
    for (String text : texts) {
      boolean x64 = text.contains("c128");
      Program p = LowerFunExpansion.run(typed(text, x64));
      List<String> prims = primitives(p.main());
      assertFalse(prims.contains("fft"), text + ": " + prims);
      assertTrue(prims.contains("dot_general"), text + ": " + prims);
      Program again = TypePass.run(p, new TypeConfig(x64, PromotionMode.STANDARD), new Diagnostics());
      assertEquals(typed(text, x64).main().outs().get(0).type().text(), again.main().outs().get(0).type().text());
    }
  }

  @Test
  void fftOfALengthWithALargePrimeFactorGoesThroughBluesteinsConvolution() {
    // 2·8209: radix 2, then a prime whose dense DFT matrix would take 1 GiB: a convolution of
    // 32768 points instead, so the products are those of the power-of-two transform's levels.
    Program p = LowerFunExpansion.run(typed(
        "{ lambda ; a:c64[16418]. let b:c64[16418] = fft[fft_lengths=(16418,) fft_type=0] a in (b,) }", false));
    List<String> prims = primitives(p.main());
    assertFalse(prims.contains("fft"), prims.toString());
    for (Eqn e : allEqns(p.main())) {
      if (!e.primitive().equals("dot_general")) continue;
      for (Atom a : e.ins()) {
        for (long d : ((ArrayType) a.type()).shape().sizes()) assertTrue(d <= 8209, "a dense DFT operand: " + a.type().text());
      }
    }
  }

  @Test
  void fftLongerThanTheTwiddleArithmeticAllowsIsALocatedError() {
    JaxcException e = assertThrows(JaxcException.class, () -> LowerFunExpansion.run(typed(
        "{ lambda ; a:c64[134217728]. let b:c64[134217728] = fft[fft_lengths=(134217728,) fft_type=0] a in (b,) }", false)));
    assertTrue(e.getMessage().contains("134217728") && e.span() != null, e.getMessage());
  }

  @Test
  void nestedBodiesAreExpandedAndOtherEquationsKept() {
    String text = "{ lambda ; a:f32[4] b:f32[4]. let c:f32[4] = scan[_split_transpose=False jaxpr={ lambda ; "
        + "d:f32[4] e:f32[4]. let f:f32[4] = igammac d e in (f,) } length=3 linear=(False, False) num_carry=1 "
        + "num_consts=1 reverse=False unroll=1] a b; g:f32[4] = sin c in (g,) }";
    Program p = LowerFunExpansion.run(typed(text, false));
    List<String> prims = primitives(p.main());
    assertFalse(prims.contains("igammac"), prims.toString());
    assertTrue(prims.contains("sin") && prims.contains("scan") && prims.contains("while"), prims.toString());
  }

  @Test
  void integerOperandsAreRejectedAtTheEquation() {
    // JAX takes floats only; a hand-written jaxpr that says otherwise gets a located error.
    Program p = JaxprParser.parse("t.jaxpr", "{ lambda ; a:i32[2] b:i32[2]. let c:i32[2] = igamma a b in (c,) }");
    JaxcException e = assertThrows(JaxcException.class,
        () -> LowerFunExpansion.run(TypePass.run(p, new TypeConfig(false, PromotionMode.STANDARD), new Diagnostics())));
    assertTrue(e.getMessage().contains("igamma"), e.getMessage());
  }
}
