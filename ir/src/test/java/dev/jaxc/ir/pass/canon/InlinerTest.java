package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertCanonical;
import static dev.jaxc.ir.pass.canon.Checks.assertIrEqual;
import static dev.jaxc.ir.pass.canon.Checks.assertPrims;
import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.f32;
import static dev.jaxc.ir.testkit.Printout.program;
import static dev.jaxc.ir.testkit.TypeText.array;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.print.JaxprPrinter;
import dev.jaxc.ir.testkit.ParamBuilder;
import dev.jaxc.ir.testkit.Printout;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The inliner against JAX 0.10.2: each input copies a {@code jax.make_jaxpr} printout, and the
 * expected result is the printout of the same function traced under {@code jax.disable_jit()}
 * (which traces jitted functions inline) or, for the custom-derivative and remat wrappers, of the
 * undecorated function.
 */
class InlinerTest {
  private static final Params CONVERT_I32 = params("new_dtype", "int32", "weak_type", false);

  private static Jaxpr inline(Jaxpr main) {
    Program r = new Inliner().apply(program(main));
    assertWellScoped(r.main());
    assertCanonical(r.main());
    typeChecks(r);
    return r.main();
  }

  /**
   * <pre>
   * def g(x, y): return jnp.sin(x) + y, x * 2.0
   * gj = jax.jit(g)
   * def f(x):
   *     a, b = gj(x, x)
   *     c = jax.jit(lambda u: gj(u, u)[0])(a)
   *     return c, b, x, 3.0
   * </pre>
   *
   * JAX prints {@code g} once as {@code let g = …} and references it from two equations, and gives
   * the inner lambda's variables the outer names {@code h} and {@code j} (format doc §5.3).
   */
  static Jaxpr nestedJit() {
    Jaxpr g = gj();
    Jaxpr lambda =
        new Printout()
            .in("h:f32[3]")
            .eq("j:f32[3] k:f32[3]", "jit", params("name", "g", "jaxpr", g), "h", "h")
            .out("j");
    return new Printout()
        .in("f:f32[3]")
        .eq("h:f32[3] i:f32[3]", "jit", params("name", "g", "jaxpr", g), "f", "f")
        .eq("j:f32[3]", "jit", params("name", "<lambda>", "jaxpr", lambda), "h")
        .out("j", "i", "f", f32(3.0));
  }

  /** The jaxpr of {@code gj = jax.jit(g)} in {@link #nestedJit()}. */
  private static Jaxpr gj() {
    return new Printout()
        .in("a:f32[3] b:f32[3]")
        .eq("c:f32[3]", "sin", "a")
        .eq("d:f32[3]", "add", "c", "b")
        .eq("e:f32[3]", "mul", "a", f32(2.0))
        .out("d", "e");
  }

  /** {@link #nestedJit()} under {@code jax.disable_jit()}. */
  static Jaxpr nestedJitFlat() {
    return new Printout()
        .in("a:f32[3]")
        .eq("b:f32[3]", "sin", "a")
        .eq("c:f32[3]", "add", "b", "a")
        .eq("d:f32[3]", "mul", "a", f32(2.0))
        .eq("e:f32[3]", "sin", "c")
        .eq("f:f32[3]", "add", "e", "c")
        .eq("_:f32[3]", "mul", "c", f32(2.0))
        .out("f", "d", "a", f32(3.0));
  }

  @Test
  void nestedJitWithReusedNamesInlinesLikeDisableJit() {
    Jaxpr main = nestedJit();
    Jaxpr r = inline(main);
    assertIrEqual(nestedJitFlat(), r);
    // The inputs are the same objects; an output that was an input still is one.
    assertSame(main.invars().get(0), r.invars().get(0));
    assertSame(main.invars().get(0), r.outs().get(2));
    assertEquals(f32(3.0), r.outs().get(3));
  }

  @Test
  void aJaxprObjectCalledTwiceGivesDistinctVariables() {
    // def f2(x): return gj(x, x)[0] + gj(x * 3.0, x)[1]   (gj as in nestedJit)
    Jaxpr g = gj();
    Jaxpr main =
        new Printout()
            .in("f:f32[3]")
            .eq("h:f32[3] _:f32[3]", "jit", params("name", "g", "jaxpr", g), "f", "f")
            .eq("i:f32[3]", "mul", "f", f32(3.0))
            .eq("_:f32[3] j:f32[3]", "jit", params("name", "g", "jaxpr", g), "i", "f")
            .eq("k:f32[3]", "add", "h", "j")
            .out("k");
    Jaxpr flat =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "sin", "a")
            .eq("c:f32[3]", "add", "b", "a")
            .eq("_:f32[3]", "mul", "a", f32(2.0))
            .eq("d:f32[3]", "mul", "a", f32(3.0))
            .eq("e:f32[3]", "sin", "d")
            .eq("_:f32[3]", "add", "e", "a")
            .eq("f:f32[3]", "mul", "d", f32(2.0))
            .eq("g:f32[3]", "add", "c", "f")
            .out("g");
    Jaxpr r = inline(main);
    assertIrEqual(flat, r);
    // The two copies of `sin a` bind different objects with different names.
    Var first = r.eqns().get(0).outs().get(0);
    Var second = r.eqns().get(4).outs().get(0);
    assertNotSame(first, second);
    assertNotEquals(first.name(), second.name());
    // No inlined variable is one of the callee's own.
    for (Eqn e : r.eqns())
      for (Var v : e.outs())
        assertTrue(g.eqns().stream().noneMatch(ge -> ge.outs().contains(v)));
  }

  @Test
  void theSameVariableObjectInBothScopes() {
    // A hand-built callee binding the very objects the caller binds: the scopes stay apart.
    Var a = new Var("a", array("f32[3]"));
    Var b = new Var("b", array("f32[3]"));
    Jaxpr callee =
        new Jaxpr(
            List.of(),
            List.of(a),
            List.of(new Eqn(List.of(b), "sin", Params.EMPTY, List.of(a))),
            List.of(b));
    Var c = new Var("c", array("f32[3]"));
    Jaxpr main =
        new Jaxpr(
            List.of(),
            List.of(a),
            List.of(
                new Eqn(List.of(b), "cos", Params.EMPTY, List.of(a)),
                new Eqn(List.of(c), "jit", params("jaxpr", callee), List.of(b))),
            List.of(c, b));
    Jaxpr r = inline(main);
    Jaxpr expected =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "cos", "a")
            .eq("c:f32[3]", "sin", "b")
            .out("c", "b");
    assertIrEqual(expected, r);
    assertSame(b, r.eqns().get(0).outs().get(0));
    assertNotSame(b, r.eqns().get(1).outs().get(0));
  }

  @Test
  void customJvpCallWithNumConstsIsItsCallJaxpr() {
    // relu(x) + h(x) with h a custom_jvp closing over the traced y (num_consts=1), JAX 0.10.2.
    Jaxpr relu =
        new Printout().in("d:f32[3]").eq("e:f32[3]", "max", "d", f32(0.0)).out("e");
    Jaxpr h = new Printout().in("g:f32[3] h:f32[3]").eq("i:f32[3]", "mul", "h", "g").out("i");
    Jaxpr main =
        new Printout()
            .in("a:f32[3] b:f32[3]")
            .eq("c:f32[3]", "custom_jvp_call",
                params("name", "relu", "call_jaxpr", relu, "jvp", "<lambda>",
                    "symbolic_zeros", false),
                "a")
            .eq("f:f32[3]", "custom_jvp_call",
                params("name", "h", "call_jaxpr", h, "jvp", "<lambda>", "num_consts", 1,
                    "symbolic_zeros", false),
                "b", "a")
            .eq("j:f32[3]", "add", "c", "f")
            .out("j");
    Jaxpr flat =
        new Printout()
            .in("a:f32[3] b:f32[3]")
            .eq("c:f32[3]", "max", "a", f32(0.0))
            .eq("d:f32[3]", "mul", "a", "b")
            .eq("e:f32[3]", "add", "c", "d")
            .out("e");
    assertIrEqual(flat, inline(main));
  }

  @Test
  void customLinearSolveIsItsSolveJaxprOnTheSolveConstsAndB() {
    // JAX's _custom_linear_solve_impl: jaxpr_as_fun(jaxprs.solve)(*(params.solve + b)). Operands
    // are *matvec_consts *vecmat_consts *solve_consts *transpose_solve_consts *b; here the roles
    // have 1, 0, 2 and 1 consts, so the solve consts are operands 1 and 2.
    Jaxpr matvec = new Printout().in("a:f32[3] b:f32[3]").eq("c:f32[3]", "mul", "a", "b").out("c");
    Jaxpr solve =
        new Printout()
            .in("a:f32[3] b:f32[3] c:f32[3]")
            .eq("d:f32[3]", "div", "c", "a")
            .eq("e:f32[3]", "sub", "d", "b")
            .out("e");
    Jaxpr tsolve = new Printout().in("a:f32[3] b:f32[3]").eq("c:f32[3]", "div", "b", "a").out("c");
    ParamValue lengths = new ParamValue.Record("_LinearSolveTuple", Map.of(
        "matvec", ParamBuilder.value(1), "vecmat", ParamBuilder.value(0),
        "solve", ParamBuilder.value(2), "transpose_solve", ParamBuilder.value(1)));
    Map<String, ParamValue> roles = new LinkedHashMap<>();
    roles.put("matvec", ParamBuilder.value(matvec));
    roles.put("vecmat", ParamBuilder.value(null));
    roles.put("solve", ParamBuilder.value(solve));
    roles.put("transpose_solve", ParamBuilder.value(tsolve));
    Jaxpr main =
        new Printout()
            .in("m:f32[3] s:f32[3] t:f32[3] u:f32[3] b:f32[3]")
            .eq("x:f32[3]", "custom_linear_solve",
                params("const_lengths", lengths, "jaxprs",
                    new ParamValue.Record("_LinearSolveTuple", roles)),
                "m", "s", "t", "u", "b")
            .eq("y:f32[3]", "neg", "x")
            .out("y");
    Jaxpr flat =
        new Printout()
            .in("m:f32[3] s:f32[3] t:f32[3] u:f32[3] b:f32[3]")
            .eq("d:f32[3]", "div", "b", "s")
            .eq("e:f32[3]", "sub", "d", "t")
            .eq("y:f32[3]", "neg", "e")
            .out("y");
    assertIrEqual(flat, inline(main));
  }

  @Test
  void customVjpCallAndLegacyCustomVjpCallJaxpr() {
    // 0.10.2: cv(x) * 2.0 with cv a custom_vjp of sin.
    Jaxpr body = new Printout().in("c:f32[3]").eq("d:f32[3]", "sin", "c").out("d");
    Jaxpr modern =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "custom_vjp_call",
                params("name", "cv", "bwd", "<lambda>", "call_jaxpr", body, "fwd", "<lambda>",
                    "symbolic_zeros", false),
                "a")
            .eq("e:f32[3]", "mul", "b", f32(2.0))
            .out("e");
    // ≤ 0.6.0 spelling (format doc §9.6): fun_jaxpr, thunks as function reprs.
    Jaxpr legacy =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "custom_vjp_call_jaxpr",
                params("bwd", "<function CustomVJPCallPrimitive.bind.<locals>.<lambda> at 0x1>",
                    "fun_jaxpr", body, "fwd_jaxpr_thunk", "<function memoized at 0x2>",
                    "num_consts", 0, "out_trees", "<function <lambda> at 0x3>",
                    "symbolic_zeros", false),
                "a")
            .eq("e:f32[3]", "mul", "b", f32(2.0))
            .out("e");
    Jaxpr flat =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "sin", "a")
            .eq("c:f32[3]", "mul", "b", f32(2.0))
            .out("c");
    assertIrEqual(flat, inline(modern));
    assertIrEqual(flat, inline(legacy));
  }

  @Test
  void remat2AndCheckpointNameDisappear() {
    // jax.checkpoint(lambda u: jnp.sin(checkpoint_name(jnp.sin(u), "foo"))), JAX 0.10.2.
    Jaxpr body =
        new Printout()
            .in("c:f32[3]")
            .eq("d:f32[3]", "sin", "c")
            .eq("e:f32[3]", "name", params("name", "foo"), "d")
            .eq("f:f32[3]", "sin", "e")
            .out("f");
    Jaxpr main =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "remat2",
                params("differentiated", false, "jaxpr", body, "policy", "None",
                    "prevent_cse", true),
                "a")
            .out("b");
    Jaxpr flat =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "sin", "a")
            .eq("c:f32[3]", "sin", "b")
            .out("c");
    assertIrEqual(flat, inline(main));
  }

  /** Format doc §5.2, JAX 0.10.2: the inner jaxpr names and returns {@code _} values. */
  static Jaxpr underscores() {
    Jaxpr inner =
        new Printout()
            .in("a:f32[]")
            .eq("_:f32[]", "sin", "a")
            .eq("_:f32[]", "cos", "a")
            .eq("b:f32[]", "mul", "a", f32(2.0))
            .out("_", "_", "b", "a");
    return new Printout()
        .in("a:f32[]")
        .eq("_:f32[] _:f32[] b:f32[] _:f32[]", "jit", params("name", "f", "jaxpr", inner), "a")
        .out("b");
  }

  @Test
  void underscoreBindersAndOutputs() {
    Jaxpr flat =
        new Printout()
            .in("a:f32[]")
            .eq("_:f32[]", "sin", "a")
            .eq("_:f32[]", "cos", "a")
            .eq("b:f32[]", "mul", "a", f32(2.0))
            .out("b");
    Jaxpr r = inline(underscores());
    assertIrEqual(flat, r);
    assertEquals("_", r.eqns().get(0).outs().get(0).name());
  }

  @Test
  void anUnboundUnderscoreOutputOnlyFeedsDeadBinders() {
    // A parser may leave an output-list `_` unbound (format doc §5.2); its value is dead.
    Var a = new Var("a", array("f32[]"));
    Var dead = new Var("_", array("f32[]"));
    Jaxpr inner = new Jaxpr(List.of(), List.of(a), List.of(), List.of(dead, a));
    Jaxpr main =
        new Printout()
            .in("x:f32[]")
            .eq("_:f32[] y:f32[]", "jit", params("jaxpr", inner), "x")
            .out("y");
    Jaxpr r = new Inliner().apply(program(main)).main();
    assertEquals(List.of(), r.eqns());
    assertSame(main.invars().get(0), r.outs().get(0));
  }

  @Test
  void passThroughChainsBecomeAliasesUpToTheOutputs() {
    // jax.jit(fid) with
    //   def fid(x):
    //     y = lax.stop_gradient(x)
    //     z, w = lax.optimization_barrier((y, x * 2.0))
    //     return z, w, y, jax.device_put(w)
    Jaxpr fid =
        new Printout()
            .in("a:f32[3]")
            .eq("d:f32[3]", "stop_gradient", "a")
            .eq("f:f32[3]", "mul", "a", f32(2.0))
            .eq("b:f32[3] c:f32[3]", "optimization_barrier", "d", "f")
            .eq("e:f32[3]", "device_put",
                params("copy_semantics", "(ArrayCopySemantics.REUSE_INPUT,)", "devices", "(None,)",
                    "srcs", "(None,)"),
                "c")
            .out("b", "c", "d", "e");
    Jaxpr main =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3] c:f32[3] d:f32[3] e:f32[3]", "jit",
                params("name", "fid", "jaxpr", fid), "a")
            .out("b", "c", "d", "e");
    Jaxpr r = inline(main);
    assertPrims(r, "mul");
    Var a = main.invars().get(0);
    Var twice = r.eqns().get(0).outs().get(0);
    assertEquals(List.of(a, twice, a, twice), r.outs());
  }

  @Test
  void everyPassThroughPrimitiveIsAnAlias() {
    Type key = new Type.KeyType("fry", Shape.SCALAR);
    Var k = new Var("k", key);
    Var k2 = new Var("l", key);
    Jaxpr chain =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "copy", "a")
            .eq("c:f32[3]", "name", params("name", "foo"), "b")
            .eq("d:f32[3]", "sharding_constraint", params("sharding", "UnspecifiedValue"), "c")
            .eq("e:f32[3]", "reshard", params("dst_sharding", "None"), "d")
            .eq("f:f32[3] g:f32[]", "pvary", params("axes", "()"), "e", f32(1.0))
            .eq("h:f32[]", "stop_gradient", "g")
            .out("f", "h", "f");
    Jaxpr keys =
        new Jaxpr(
            List.of(),
            List.of(k),
            List.of(new Eqn(List.of(k2), "random_clone", Params.EMPTY, List.of(k))),
            List.of(k2));
    Jaxpr r = inline(chain);
    assertEquals(List.of(), r.eqns());
    assertEquals(List.of(r.invars().get(0), f32(1.0), r.invars().get(0)), r.outs());
    Jaxpr rk = inline(keys);
    assertEquals(List.of(k), rk.outs());
  }

  @Test
  void condBranchesGetTheirJitCallsInlined() {
    // lax.cond(p, lambda x: jax.jit(lambda u: jnp.sin(u) * 2.0)(x), jnp.cos, x), JAX 0.10.2.
    Jaxpr jitted =
        new Printout()
            .in("g:f32[]")
            .eq("i:f32[]", "sin", "g")
            .eq("h:f32[]", "mul", "i", f32(2.0))
            .out("h");
    Jaxpr br0 = new Printout().in("e:f32[]").eq("f:f32[]", "cos", "e").out("f");
    Jaxpr br1 =
        new Printout()
            .in("g:f32[]")
            .eq("h:f32[]", "jit", params("name", "<lambda>", "jaxpr", jitted), "g")
            .out("h");
    Jaxpr main =
        new Printout()
            .in("a:bool[] b:f32[]")
            .eq("c:i32[]", "convert_element_type", CONVERT_I32, "a")
            .eq("d:f32[]", "cond", params("branches", List.of(br0, br1)), "c", "b")
            .out("d");
    // The same function under jax.disable_jit().
    Jaxpr flat1 =
        new Printout()
            .in("g:f32[]")
            .eq("h:f32[]", "sin", "g")
            .eq("i:f32[]", "mul", "h", f32(2.0))
            .out("i");
    Jaxpr flat =
        new Printout()
            .in("a:bool[] b:f32[]")
            .eq("c:i32[]", "convert_element_type", CONVERT_I32, "a")
            .eq("d:f32[]", "cond", params("branches", List.of(br0, flat1)), "c", "b")
            .out("d");
    Jaxpr r = inline(main);
    assertIrEqual(flat, r);
    // The branch that had nothing to inline is kept as it was.
    Jaxpr kept = r.eqns().get(1).params().getJaxprs("branches").get(0);
    assertSame(br0, kept);
  }

  @Test
  void callsInLoopBodiesAndCombinersAreInlined() {
    Jaxpr twice = new Printout().in("u:f32[]").eq("v:f32[]", "mul", "u", f32(2.0)).out("v");
    Jaxpr scanBody =
        new Printout()
            .in("c:f32[] x:f32[]")
            .eq("d:f32[]", "pjit", params("name", "twice", "jaxpr", twice), "x")
            .eq("e:f32[]", "add", "c", "d")
            .out("e", "d");
    Jaxpr condJ = new Printout().in("i:f32[]").eq("j:bool[]", "lt", "i", f32(10.0)).out("j");
    Jaxpr whileBody =
        new Printout().in("i:f32[]").eq("k:f32[]", "jit", params("jaxpr", twice), "i").out("k");
    Jaxpr add = new Printout().in("s:f32[] t:f32[]").eq("w:f32[]", "add", "s", "t").out("w");
    Jaxpr combiner =
        new Printout()
            .in("p:f32[] q:f32[]")
            .eq("r:f32[]", "closed_call", params("call_jaxpr", add), "p", "q")
            .out("r");
    Jaxpr main =
        new Printout()
            .in("a:f32[4]")
            .eq("b:f32[] c:f32[4]", "scan",
                params("jaxpr", scanBody, "length", 4, "num_carry", 1, "num_consts", 0,
                    "reverse", false, "unroll", 1),
                f32(0.0), "a")
            .eq("d:f32[]", "while",
                params("body_jaxpr", whileBody, "body_nconsts", 0, "cond_jaxpr", condJ,
                    "cond_nconsts", 0),
                "b")
            .eq("e:f32[]", "reduce",
                params("computation", "<function add>", "dimensions", List.of(0),
                    "jaxpr", combiner),
                "c", f32(0.0))
            .out("d", "e");
    Jaxpr r = inline(main);
    assertPrims(r, "scan", "while", "reduce");
    assertPrims(r.eqns().get(0).params().getJaxpr("jaxpr"), "mul", "add");
    assertPrims(r.eqns().get(1).params().getJaxpr("body_jaxpr"), "mul");
    assertSame(condJ, r.eqns().get(1).params().getJaxpr("cond_jaxpr"));
    assertPrims(r.eqns().get(2).params().getJaxpr("jaxpr"), "add");
  }

  @Test
  void aSharedBodyStaysShared() {
    Jaxpr twice = new Printout().in("u:f32[]").eq("v:f32[]", "mul", "u", f32(2.0)).out("v");
    Jaxpr br =
        new Printout().in("x:f32[]").eq("y:f32[]", "jit", params("jaxpr", twice), "x").out("y");
    Jaxpr main =
        new Printout()
            .in("i:i32[] a:f32[]")
            .eq("b:f32[]", "cond", params("branches", List.of(br, br)), "i", "a")
            .eq("c:f32[]", "cond", params("branches", List.of(br, br)), "i", "b")
            .out("c");
    Jaxpr r = inline(main);
    List<Jaxpr> first = r.eqns().get(0).params().getJaxprs("branches");
    List<Jaxpr> second = r.eqns().get(1).params().getJaxprs("branches");
    assertSame(first.get(0), first.get(1));
    assertSame(first.get(0), second.get(0));
    assertPrims(first.get(0), "mul");
  }

  @Test
  void inlinedEquationsKeepTheirSpans() {
    Printout callee = new Printout().in("c:f32[3]");
    Jaxpr body = callee.eq("d:f32[3]", "psum", params("axes", "('i',)"), "c").out("d");
    Jaxpr main =
        new Printout().in("a:f32[3]").eq("b:f32[3]", "jit", params("jaxpr", body), "a").out("b");
    Jaxpr r = new Inliner().apply(program(main)).main();
    Eqn psum = r.eqns().get(0);
    assertEquals("psum", psum.primitive());
    assertEquals(body.eqns().get(0).span(), psum.span());
    assertEquals(body.eqns().get(0).primSpan(), psum.primSpan());
    assertTrue(psum.primSpan().isKnown());
    assertEquals(callee.var("d").span(), psum.outs().get(0).span());
  }

  @Test
  void topLevelInputsAndBindersAreKept() {
    Printout b = new Printout().con("k:f32[3]").in("a:f32[3] x:i32[]");
    Jaxpr main =
        b.eq("c:f32[3]", "add", "k", "a")
            .eq("d:f32[3]", "stop_gradient", "c")
            .out("d", "d", "x", f32(1.5));
    Jaxpr r = inline(main);
    assertEquals(main.constvars(), r.constvars());
    assertEquals(main.invars(), r.invars());
    assertSame(b.var("c"), r.eqns().get(0).outs().get(0));
    assertEquals(List.<Atom>of(b.var("c"), b.var("c"), b.var("x"), f32(1.5)), r.outs());
  }

  @Test
  void freshNamesClashWithNoNameInTheProgram() {
    Program p = program(nestedJit());
    Jaxpr r = new Inliner().apply(p).main();
    Set<String> before = new HashSet<>();
    collectNames(p.main(), before);
    for (Eqn e : r.eqns())
      for (Var v : e.outs())
        if (!v.isDropped() && v != p.main().invars().get(0))
          assertTrue(!before.contains(v.name()), () -> v.name() + " was already used");
  }

  private static void collectNames(Jaxpr j, Set<String> into) {
    for (Var v : j.inputs()) into.add(v.name());
    for (Eqn e : j.eqns()) {
      for (Var v : e.outs()) into.add(v.name());
      ParamJaxprs.in(e.params()).forEach(n -> collectNames(n, into));
    }
  }

  @Test
  void malformedCallsAreReportedAtThePrimitive() {
    Jaxpr callee = new Printout().in("u:f32[] v:f32[]").eq("w:f32[]", "add", "u", "v").out("w");
    Jaxpr tooFew =
        new Printout().in("a:f32[]").eq("b:f32[]", "jit", params("jaxpr", callee), "a").out("b");
    JaxcException x =
        assertThrows(JaxcException.class, () -> new Inliner().apply(program(tooFew)));
    assertEquals("jit has 1 operand, but its callee takes 2", x.getMessage());
    assertEquals(tooFew.eqns().get(0).primSpan(), x.span());

    Jaxpr tooMany =
        new Printout().in("a:f32[]").eq("b:f32[] c:f32[]", "jit", params("jaxpr", callee), "a", "a")
            .out("b");
    x = assertThrows(JaxcException.class, () -> new Inliner().apply(program(tooMany)));
    assertEquals("jit has 2 results, but its callee returns 1", x.getMessage());

    Jaxpr barrier =
        new Printout().in("a:f32[]").eq("b:f32[]", "optimization_barrier", "a", "a").out("b");
    x = assertThrows(JaxcException.class, () -> new Inliner().apply(program(barrier)));
    assertEquals(
        "optimization_barrier passes 2 operands through but has 1 result", x.getMessage());
  }

  @Test
  void theInputIsNotChanged() {
    Jaxpr main = nestedJit();
    String before = JaxprPrinter.print(main);
    new Inliner().apply(program(main));
    assertEquals(before, JaxprPrinter.print(main));
  }
}
