package dev.jaxc.ir.pass;

import static dev.jaxc.ir.pass.Ir.*;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.program;
import static dev.jaxc.ir.testkit.TypeText.array;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypePassTest {
  private static final TypeConfig STANDARD = TypeConfig.DEFAULT;
  private static final TypeConfig STRICT = new TypeConfig(false, PromotionMode.STRICT);
  private static final TypeConfig X64 = new TypeConfig(true, PromotionMode.STANDARD);

  private final Diagnostics warnings = new Diagnostics();

  private Program run(Program p, TypeConfig cfg) {
    return new TypePass(cfg, warnings, new FakeRules()).run(p);
  }

  private Jaxpr run(Jaxpr j, TypeConfig cfg) {
    return run(program(j), cfg).main();
  }

  private JaxcException error(Jaxpr j, TypeConfig cfg) {
    return assertThrows(JaxcException.class, () -> run(j, cfg));
  }

  private static Type.ArrayType typeOf(Atom a) {
    return (Type.ArrayType) a.type();
  }

  /** A one-equation jaxpr {@code { lambda ; ins. let out = prim ops in (out,) }}. */
  private static Jaxpr one(List<Var> ins, Var out, String prim, Atom... ops) {
    return jaxpr(ins, List.of(eqn(List.of(out), prim, params(), ops)), out);
  }

  // ---- literal typing ----

  @Test
  void weakLiteralTakesItsPartnersDtype() {
    // Format doc §4.2: `mul c 3.0` with c:f32[8] is `mul c 3.0:f32[]` in 0.6.1+.
    Var c = v("c", "f32[8]");
    Jaxpr j = run(one(List.of(c), v("d", "f32[8]"), "mul", c, lit(3.0)), STANDARD);
    Literal l = (Literal) j.eqns().get(0).ins().get(1);
    assertTrue(l.typed());
    assertEquals(array("f32[]"), l.type());
    assertEquals(new Scalar.Float(3.0), l.value());
    assertFalse(typeOf(j.eqns().get(0).outs().get(0)).weak());
  }

  @Test
  void twoWeakLiteralsGiveAWeakDefaultFloat() {
    Jaxpr j = run(one(List.of(), v("a", "f32[]"), "add", lit(1L), lit(2.5)), STANDARD);
    Eqn e = j.eqns().get(0);
    assertEquals(array("f32[]").withWeak(true), e.ins().get(0).type());
    assertEquals(new Scalar.Float(1.0), ((Literal) e.ins().get(0)).value());
    assertEquals(array("f32[]").withWeak(true), e.ins().get(1).type());
    assertTrue(typeOf(e.outs().get(0)).weak());
  }

  @Test
  void intLiteralWithFloat16PartnerIsFloat16() {
    Var a = v("a", "f16[2]");
    Jaxpr j = run(one(List.of(a), v("b", "f16[2]"), "mul", a, lit(2L)), STANDARD);
    Literal l = (Literal) j.eqns().get(0).ins().get(1);
    assertEquals(array("f16[]"), l.type());
    assertEquals(new Scalar.Float(2.0), l.value());
  }

  @Test
  void loneWeakLiteralTakesTheDefaultDtypeAndStaysWeak() {
    Jaxpr x32 = run(one(List.of(), v("a", "f32[]"), "neg", lit(2.5)), STANDARD);
    assertEquals(array("f32[]").withWeak(true), x32.eqns().get(0).ins().get(0).type());
    Jaxpr x64 = run(one(List.of(), v("a", "i64[]"), "neg", lit(2L)), X64);
    assertEquals(array("i64[]").withWeak(true), x64.eqns().get(0).ins().get(0).type());
  }

  @Test
  void typedLiteralsAreNeverWeak() {
    Literal two = typed(new Scalar.Float(2.0), "f32[]", Span.NONE);
    Jaxpr j = run(one(List.of(), v("a", "f32[]"), "neg", two), STANDARD);
    assertEquals(array("f32[]"), j.eqns().get(0).ins().get(0).type());
    assertFalse(typeOf(j.eqns().get(0).outs().get(0)).weak());
  }

  @Test
  void untypedOutputLiteralTakesDefaultDtype() {
    // Format doc §13.1 (0.5.3): `{ lambda ; a:f32[1]. let  in (2,) }`.
    Var a = v("a", "f32[1]");
    Jaxpr j = run(jaxpr(List.of(a), List.of(), lit(2L)), STANDARD);
    assertEquals(array("i32[]").withWeak(true), j.outs().get(0).type());
  }

  @Test
  void selectNPredicateIsNotPromotedWithTheCases() {
    Var p = v("p", "bool[]");
    Var b = v("b", "f16[3]");
    Jaxpr j = run(one(List.of(p, b), v("c", "f16[3]"), "select_n", p, lit(1.0), b), STANDARD);
    Eqn e = j.eqns().get(0);
    assertEquals(array("bool[]"), e.ins().get(0).type());
    assertEquals(array("f16[]"), e.ins().get(1).type());
  }

  @Test
  void literalOperandOfCondTakesTheBranchInvarType() {
    Var x = v("x", "f16[]");
    Jaxpr branch = jaxpr(List.of(x), List.of(), x);
    Var idx = v("i", "i32[]");
    Var r = v("r", "f16[]");
    Eqn cond =
        eqn(List.of(r), "cond",
            params("branches", new ParamValue.Tuple(List.of(
                new ParamValue.JaxprValue(branch), new ParamValue.JaxprValue(branch)))),
            idx, lit(0.5));
    Jaxpr j = run(jaxpr(List.of(idx), List.of(cond), r), STANDARD);
    assertEquals(array("f16[]"), j.eqns().get(0).ins().get(1).type());
  }

  @Test
  void branchOutputLiteralTakesTheDeclaredResultDtype() {
    // cond returning an untyped 0.0 in one branch into an f16 result.
    Var x = v("x", "f16[]");
    Var y = v("y", "f16[]");
    Jaxpr b0 = jaxpr(List.of(x), List.of(), lit(0.0));
    Jaxpr b1 = jaxpr(List.of(y), List.of(), y);
    Var idx = v("i", "i32[]");
    Var arg = v("a", "f16[]");
    Var r = v("r", "f16[]");
    Eqn cond =
        eqn(List.of(r), "cond",
            params("branches", new ParamValue.Tuple(List.of(
                new ParamValue.JaxprValue(b0), new ParamValue.JaxprValue(b1)))),
            idx, arg);
    Jaxpr j = run(jaxpr(List.of(idx, arg), List.of(cond), r), STANDARD);
    Jaxpr typed0 = j.eqns().get(0).params().getJaxprs("branches").get(0);
    assertEquals(array("f16[]"), typed0.outs().get(0).type());
  }

  // ---- representability ----

  @Test
  void untypedLiteralMustFitThePartnersDtype() {
    Span s = at(2, 20, 3);
    Var a = v("a", "u8[]");
    JaxcException e = error(one(List.of(a), v("b", "u8[]"), "add", a, Ir.at(lit(300L), s)), STANDARD);
    assertEquals("literal 300 is not representable as u8", e.getMessage());
    assertEquals(s, e.span());
    Var u = v("u", "u32[]");
    JaxcException neg = error(one(List.of(u), v("b", "u32[]"), "add", u, Ir.at(lit(-1L), s)), STANDARD);
    assertEquals("literal -1 is not representable as u32", neg.getMessage());
  }

  @Test
  void typedLiteralMustFitItsOwnDtype() {
    Span s = at(1, 30, 8);
    Var a = v("a", "u8[]");
    Literal bad = typed(Scalar.Int.of(300), "u8[]", s);
    JaxcException e = error(one(List.of(a), v("b", "u8[]"), "add", a, bad), STANDARD);
    assertEquals("literal 300 is not representable as u8", e.getMessage());
    assertEquals(s, e.span());
  }

  @Test
  void floatLiteralIsNoInteger() {
    // The cond branch takes an i32, the literal is 1.5.
    Var x = v("x", "i32[]");
    Jaxpr branch = jaxpr(List.of(x), List.of(), x);
    Var idx = v("i", "i32[]");
    Var r = v("r", "i32[]");
    Span s = at(3, 9, 3);
    Eqn cond =
        eqn(List.of(r), "cond",
            params("branches", new ParamValue.Tuple(List.of(new ParamValue.JaxprValue(branch)))),
            idx, Ir.at(lit(1.5), s));
    JaxcException e = error(jaxpr(List.of(idx), List.of(cond), r), STANDARD);
    assertEquals("literal 1.5 is not representable as i32", e.getMessage());
    assertEquals(s, e.span());
  }

  @Test
  void floatLiteralsRoundInsteadOfFailing() {
    Var a = v("a", "f16[]");
    Jaxpr j = run(one(List.of(a), v("b", "f16[]"), "mul", a, lit(0.1)), STANDARD);
    assertEquals(array("f16[]"), j.eqns().get(0).ins().get(1).type());
    // Beyond float32's range the value rounds to inf, as np.float32(1e300) does.
    Var h = v("h", "f32[]");
    Jaxpr big = run(one(List.of(h), v("c", "f32[]"), "add", h, lit(1e300)), STANDARD);
    assertEquals(array("f32[]"), big.eqns().get(0).ins().get(1).type());
  }

  // ---- promotion ----

  @Test
  void standardPromotionInsertsConversions() {
    Var a = v("a", "i32[3]");
    Var b = v("b", "f32[3]");
    Jaxpr j = run(one(List.of(a, b), v("c", "f32[3]"), "add", a, b), STANDARD);
    assertEquals(2, j.eqns().size());
    Eqn conv = j.eqns().get(0);
    assertEquals("convert_element_type", conv.primitive());
    assertEquals(new ParamValue.DTypeValue(DType.F32), conv.params().get("new_dtype").orElseThrow());
    assertEquals(new ParamValue.Bool(false), conv.params().get("weak_type").orElseThrow());
    assertSame(j.invars().get(0), conv.ins().get(0));
    Var converted = conv.outs().get(0);
    assertEquals(array("f32[3]"), converted.type());
    assertEquals("d", converted.name());
    assertSame(converted, j.eqns().get(1).ins().get(0));
    assertSame(j.invars().get(1), j.eqns().get(1).ins().get(1));
  }

  @Test
  void intPlusWeakFloatConvertsToWeakFloatAsJaxDoes() {
    // JAX 0.10.2, make_jaxpr(lambda x: x + 2.5)(jnp.int32(1)):
    //   b:f32[] = convert_element_type[new_dtype=float32 weak_type=True] a
    //   c:f32[] = add b 2.5:f32[]
    Var a = v("a", "i32[]");
    Jaxpr j = run(one(List.of(a), v("c", "f32[]"), "add", a, lit(2.5)), STANDARD);
    Eqn conv = j.eqns().get(0);
    assertEquals(new ParamValue.DTypeValue(DType.F32), conv.params().get("new_dtype").orElseThrow());
    assertEquals(new ParamValue.Bool(true), conv.params().get("weak_type").orElseThrow());
    assertEquals(array("f32[]").withWeak(true), j.eqns().get(1).ins().get(1).type());
  }

  @Test
  void strictRejectsMixedStrongDtypes() {
    Span prim = at(2, 13, 3);
    Var a = v("a", "i32[]");
    Var b = v("b", "f32[]");
    Var c = v("c", "f32[]");
    Jaxpr j = jaxpr(List.of(a, b), List.of(eqn(List.of(c), "add", prim, params(), a, b)), c);
    JaxcException e = error(j, STRICT);
    assertEquals(
        "implicit promotion of i32 and f32 in 'add' is not allowed with --promotion strict",
        e.getMessage());
    assertEquals(prim, e.span());
  }

  @Test
  void strictAllowsWeakScalars() {
    // Seed 002: under strict, `x + 1` with x float32 still works.
    Var x = v("x", "f32[]");
    Jaxpr j = run(one(List.of(x), v("z", "f32[]"), "add", x, lit(1L)), STRICT);
    assertEquals(array("f32[]"), j.eqns().get(0).ins().get(1).type());
    assertEquals(1, j.eqns().size());
  }

  @Test
  void strictRejectsAWeakFloatWithAnInteger() {
    // JAX's strict lattice has no path from f* to i32.
    Var x = v("x", "i32[]");
    JaxcException e = error(one(List.of(x), v("z", "f32[]"), "add", x, lit(2.5)), STRICT);
    assertEquals(
        "implicit promotion of i32 and weak f32 in 'add' is not allowed with --promotion strict",
        e.getMessage());
  }

  @Test
  void weakConvertResultPromotesEvenUnderStrict() {
    // convert_element_type[weak_type=True] yields a weak value; it takes its partner's dtype.
    Var a = v("a", "i32[]");
    Var b = v("b", "f32[]");
    Var h = v("h", "f16[]");
    Var c = v("c", "f16[]");
    Eqn conv =
        eqn(List.of(b), "convert_element_type",
            params("new_dtype", new ParamValue.DTypeValue(DType.F32),
                "weak_type", new ParamValue.Bool(true)),
            a);
    Eqn mul = eqn(List.of(c), "mul", params(), h, b);
    Jaxpr j = run(jaxpr(List.of(a, h), List.of(conv, mul), c), STRICT);
    assertTrue(typeOf(j.eqns().get(0).outs().get(0)).weak());
    Eqn inserted = j.eqns().get(1);
    assertEquals("convert_element_type", inserted.primitive());
    assertEquals(array("f16[]"), inserted.outs().get(0).type());
    assertSame(j.eqns().get(0).outs().get(0), inserted.ins().get(0));
  }

  @Test
  void powKeepsAnIntegerExponent() {
    // JAX 0.10.2: lax.pow(x, 2) is `pow a 2:i32[]`, lax.pow(x, 2.0) is `pow a 2.0:f32[]`.
    Var a = v("a", "f32[]");
    Jaxpr ints = run(one(List.of(a), v("b", "f32[]"), "pow", a, lit(2L)), STANDARD);
    assertEquals(array("i32[]").withWeak(true), ints.eqns().get(0).ins().get(1).type());
    Jaxpr floats = run(one(List.of(a), v("b", "f32[]"), "pow", a, lit(2.0)), STANDARD);
    assertEquals(array("f32[]"), floats.eqns().get(0).ins().get(1).type());
    Var n = v("n", "i8[]");
    Jaxpr strongInt = run(one(List.of(a, n), v("b", "f32[]"), "pow", a, n), STRICT);
    assertEquals(1, strongInt.eqns().size());
    Var h = v("h", "f16[]");
    Jaxpr mixed = run(one(List.of(h, a), v("b", "f32[]"), "pow", h, a), STANDARD);
    assertEquals("convert_element_type", mixed.eqns().get(0).primitive());
  }

  @Test
  void noImplicitPromotionForExoticDtypes() {
    Var a = v("a", "f8_e4m3fn[]");
    Var b = v("b", "f32[]");
    JaxcException e = error(one(List.of(a, b), v("c", "f32[]"), "add", a, b), STANDARD);
    assertEquals(
        "no implicit promotion of f8_e4m3fn and f32 in 'add'; convert explicitly with"
            + " convert_element_type",
        e.getMessage());
  }

  // ---- fresh names ----

  @Test
  void freshNamesContinueAfterEveryNameInTheProgram() {
    Var x = v("bz", "f32[]");
    Jaxpr inner = jaxpr(List.of(x), List.of(), x);
    Var a = v("a", "i32[]");
    Var b = v("b", "f32[]");
    Var m = v("m_", "f32[]");
    Var r = v("r", "f32[]");
    Var c = v("c", "f32[]");
    Eqn call = eqn(List.of(r), "jit", params("jaxpr", new ParamValue.JaxprValue(inner)), b);
    Eqn add = eqn(List.of(c), "add", params(), a, r);
    Jaxpr j = run(jaxpr(List.of(a, b, m), List.of(call, add), c), STANDARD);
    assertEquals("ca", j.eqns().get(1).outs().get(0).name());
  }

  // ---- unknown primitives ----

  @Test
  void unknownPrimitivesAreTrustedWithOneWarningPerName() {
    Span first = at(2, 12, 4);
    Var a = v("a", "f32[4]");
    Var b = v("b", "f32[4]");
    Var c = v("c", "f32[4]");
    Eqn p1 = eqn(List.of(b), "psum", first, params(), a);
    Eqn p2 = eqn(List.of(c), "psum", at(3, 12, 4), params(), b);
    Jaxpr j = run(jaxpr(List.of(a), List.of(p1, p2), c), STANDARD);
    assertEquals(
        List.of(Diagnostic.warning("unknown primitive 'psum': its declared result types are trusted", first)
            .withCode(DiagnosticCode.TRUSTED_PRIMITIVE)),
        warnings.all());
    assertEquals(array("f32[4]"), j.outs().get(0).type());
  }

  @Test
  void aTrustedMisspellingNamesTheClosestPrimitive() {
    Var a = v("a", "f32[4]");
    Var b = v("b", "f32[4]");
    run(jaxpr(List.of(a), List.of(eqn(List.of(b), "reduce_precison", at(2, 12, 15), params(), a)), b), STANDARD);
    assertEquals("did you mean 'reduce_precision'?", warnings.all().get(0).hint());
  }

  @Test
  void refEquationsAreTrusted() {
    Var ref = new Var("r", new Type.OpaqueType("Ref{f32[4]}"));
    Var d = v("d", "f32[4]");
    Eqn get = eqn(List.of(d), "get", params("_ref_syntax", new ParamValue.Bool(true)), ref);
    Jaxpr j = run(jaxpr(List.of(ref), List.of(get), d), STANDARD);
    assertEquals(1, warnings.all().size());
    assertEquals(array("f32[4]"), j.outs().get(0).type());
  }

  // ---- checking ----

  @Test
  void declaredShapeMismatchPointsAtTheBinder() {
    Span binder = at(2, 5, 1);
    Var a = v("a", "f32[4]");
    Var b = v("b", "f32[3]", binder);
    JaxcException e = error(one(List.of(a), b, "add", a, a), STANDARD);
    assertEquals("declared type f32[3] of 'b' does not match add's result type f32[4]", e.getMessage());
    assertEquals(binder, e.span());
  }

  @Test
  void declaredDtypeMismatch() {
    Var a = v("a", "f32[4]");
    JaxcException e = error(one(List.of(a), v("b", "i32[4]"), "neg", a), STANDARD);
    assertEquals("declared type i32[4] of 'b' does not match neg's result type f32[4]", e.getMessage());
  }

  @Test
  void resultCountMismatch() {
    Span prim = at(2, 15, 3);
    Var a = v("a", "f32[]");
    Var b = v("b", "f32[]");
    Var c = v("c", "f32[]");
    Jaxpr j = jaxpr(List.of(a), List.of(eqn(List.of(b, c), "neg", prim, params(), a)), b);
    JaxcException e = error(j, STANDARD);
    assertEquals("neg produces 1 result but 2 are declared", e.getMessage());
    assertEquals(prim, e.span());
  }

  @Test
  void ruleErrorsPointAtTheOperandOrThePrimitive() {
    Span prim = at(2, 13, 7);
    Span operand = at(2, 37, 1);
    Var a = v("a", "f32[6]", at(1, 10, 1));
    Var b = v("b", "f32[4]");
    Eqn reshape =
        new Eqn(List.of(b), "reshape",
            params("new_sizes", new ParamValue.Tuple(List.of(ParamValue.Int.of(4)))),
            List.of(a), prim, prim, List.of(operand));
    JaxcException e = error(jaxpr(List.of(a), List.of(reshape), b), STANDARD);
    // The operand's use site, not where `a` is bound.
    assertEquals(operand, e.span());
    assertEquals("reshape total size must be unchanged, got new_sizes [4] for shape [6]", e.getMessage());

    Var x = v("x", "f32[2]");
    Var y = v("y", "f32[3]");
    Var z = v("z", "f32[3]");
    JaxcException shapes =
        error(jaxpr(List.of(x, y), List.of(eqn(List.of(z), "add", prim, params(), x, y)), z), STANDARD);
    assertEquals(prim, shapes.span());

    // Without use sites (a parser that gives none), an operand error falls back to the primitive.
    Eqn noSpans =
        eqn(List.of(b), "reshape", prim,
            params("new_sizes", new ParamValue.Tuple(List.of(ParamValue.Int.of(4)))), a);
    assertEquals(prim, error(jaxpr(List.of(a), List.of(noSpans), b), STANDARD).span());
  }

  @Test
  void missingParamsAreLocatedErrors() {
    Span prim = at(2, 13, 7);
    Var a = v("a", "f32[6]");
    Var b = v("b", "f32[6]");
    JaxcException e = error(jaxpr(List.of(a), List.of(eqn(List.of(b), "reshape", prim, params(), a)), b), STANDARD);
    assertEquals("reshape: missing parameter 'new_sizes'", e.getMessage());
    assertEquals(prim, e.span());
  }

  // ---- output program ----

  @Test
  void outputIsANewProgramWithConsistentReferences() {
    Var a = v("a", "f32[2]");
    Var b = v("b", "f32[2]");
    Var c = v("c", "f32[2]");
    Eqn e1 = eqn(List.of(b), "mul", params(), a, lit(2.0));
    Eqn e2 = eqn(List.of(c), "add", params(), b, a);
    Jaxpr in = jaxpr(List.of(a), List.of(e1, e2), c);
    Jaxpr out = run(in, STANDARD);
    assertNotSame(in, out);
    assertNotSame(a, out.invars().get(0));
    assertSame(out.invars().get(0), out.eqns().get(0).ins().get(0));
    assertSame(out.eqns().get(0).outs().get(0), out.eqns().get(1).ins().get(0));
    assertSame(out.invars().get(0), out.eqns().get(1).ins().get(1));
    assertSame(out.eqns().get(1).outs().get(0), out.outs().get(0));
    // The input is untouched.
    assertFalse(((Literal) in.eqns().get(0).ins().get(1)).typed());
  }

  @Test
  void sharedNestedJaxprIsTypedOnce() {
    Var x = v("x", "f32[]");
    Var y = v("y", "f32[]");
    Jaxpr inner = jaxpr(List.of(x), List.of(eqn(List.of(y), "mul", params(), x, lit(2L))), y);
    Var a = v("a", "f32[]");
    Var b = v("b", "f32[]");
    Var c = v("c", "f32[]");
    Eqn call1 = eqn(List.of(b), "jit", params("jaxpr", new ParamValue.JaxprValue(inner)), a);
    Eqn call2 = eqn(List.of(c), "jit", params("jaxpr", new ParamValue.JaxprValue(inner)), b);
    Jaxpr out = run(jaxpr(List.of(a), List.of(call1, call2), c), STANDARD);
    Jaxpr t1 = out.eqns().get(0).params().getJaxpr("jaxpr");
    assertSame(t1, out.eqns().get(1).params().getJaxpr("jaxpr"));
    assertEquals(array("f32[]"), t1.eqns().get(0).ins().get(1).type());
  }

  @Test
  void bigUnsignedLiteralFits() {
    // Format doc §4.2: `f:u64[] = add e 18446744073709551615:u64[]`.
    Var e = v("e", "u64[]");
    Literal max = typed(new Scalar.Int(new BigInteger("18446744073709551615")), "u64[]", Span.NONE);
    run(one(List.of(e), v("f", "u64[]"), "add", e, max), X64);
  }
}
