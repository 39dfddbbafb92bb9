package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertPrims;
import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.ParamBuilder.ints;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.f32;
import static dev.jaxc.ir.testkit.Printout.i32;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.testkit.Printout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link LoopInvariantHoisting} may move and what it must leave. Results of moved work are
 * checked against JAX by the golden cases {@code control_hoist_*}; here, the structure and the
 * cases that must stay (effects, state, growth).
 */
class LoopInvariantHoistingTest {
  private static Jaxpr hoist(Jaxpr main) {
    Program r = LoopInvariantHoisting.run(program(main));
    assertWellScoped(r.main());
    typeChecks(r);
    return r.main();
  }

  private static Eqn last(Jaxpr j) {
    return j.eqns().get(j.eqns().size() - 1);
  }

  /** scan over xs with consts (w:f32[3], s:f32[]): the body is {@code body}. */
  private static Jaxpr scanOf(Jaxpr body, Object linear) {
    return new Printout()
        .in("w:f32[3] s:f32[] c:f32[3] xs:f32[5,3]")
        .eq("r:f32[3] ys:f32[5,3]", "scan",
            params("jaxpr", body, "length", 5, "linear", linear, "num_carry", 1, "num_consts", 2,
                "reverse", false, "unroll", 1),
            "w", "s", "c", "xs")
        .out("r", "ys");
  }

  @Test
  void aChainOfInvariantWorkMovesAndBecomesConsts() {
    Jaxpr body =
        new Printout()
            .in("a:f32[3] b:f32[] d:f32[3] x:f32[3]")
            .eq("e:f32[3]", "sin", "a")
            .eq("f:f32[3]", "mul", "e", f32(2.0))
            .eq("g:f32[]", "exp", "b")
            .eq("h:f32[3]", "mul", "d", "g")
            .eq("k:f32[3]", "add", "h", "f")
            .eq("m:f32[3]", "add", "k", "x")
            .out("k", "m");
    ParamValue.Tuple linear =
        new ParamValue.Tuple(List.of(new ParamValue.Bool(false), new ParamValue.Bool(false),
            new ParamValue.Bool(false), new ParamValue.Bool(false)));
    Jaxpr r = hoist(scanOf(body, linear));
    assertPrims(r, "sin", "mul", "exp", "scan");
    Eqn scan = last(r);
    Jaxpr newBody = scan.params().getJaxpr("jaxpr");
    assertPrims(newBody, "mul", "add", "add");
    // f (sin·2) and g (exp) become consts; e is used only by f, so it is not one; a and b are
    // read only by moved work, so DCE drops them.
    assertEquals(2, scan.params().getInt("num_consts"));
    assertEquals(List.of("f", "g", "d", "x"),
        newBody.invars().stream().map(v -> v.name()).toList());
    assertEquals(List.of(r.eqns().get(0).outs().get(0)), r.eqns().get(1).ins().subList(0, 1));
    assertEquals(r.eqns().get(1).outs().get(0), scan.ins().get(0));
    assertEquals(r.eqns().get(2).outs().get(0), scan.ins().get(1));
    assertEquals(4, ((ParamValue.Tuple) scan.params().get("linear").get()).items().size());
  }

  @Test
  void effectsStateAndGrowthStay() {
    Jaxpr body =
        new Printout()
            .in("a:f32[3] b:f32[] d:f32[3] x:f32[3]")
            .eq("e:f32[4]", "rng_uniform", params("shape", ints(4)), "b", "b")
            .eq("f:f32[3]", "my_custom_op", "a")
            .eq("g:f32[64,64]", "broadcast_in_dim",
                params("shape", ints(64, 64), "broadcast_dimensions", ints(), "sharding",
                    new ParamValue.None()),
                "b")
            .eq("h:f32[]", "reduce_sum", params("axes", ints(0, 1)), "g")
            .eq("k:f32[3]", "mul", "d", "h")
            .eq("m:f32[3]", "add", "k", "f")
            .eq("n:f32[]", "reduce_sum", params("axes", ints(0)), "e")
            .eq("o:f32[3]", "add", "x", "n")
            .out("m", "o");
    Jaxpr main = scanOf(body, new ParamValue.None());
    assertSame(main, hoist(main));
  }

  @Test
  void whileCondAndBodyEachGetTheirOwnConsts() {
    Jaxpr cond =
        new Printout()
            .in("p:f32[] i:i32[] v:f32[]")
            .eq("q:f32[]", "exp", "p")
            .eq("r:bool[]", "lt", "v", "q")
            .out("r");
    Jaxpr body =
        new Printout()
            .in("s:f32[] j:i32[] w:f32[]")
            .eq("t:f32[]", "log1p", "s")
            .eq("u:f32[]", "add", "w", "t")
            .eq("k:i32[]", "add", "j", i32(1))
            .out("k", "u");
    Jaxpr main =
        new Printout()
            .in("a:f32[] b:f32[]")
            .eq("n:i32[] z:f32[]", "while",
                params("body_jaxpr", body, "body_nconsts", 1, "cond_jaxpr", cond,
                    "cond_nconsts", 1),
                "a", "b", i32(0), f32(0.0))
            .out("z");
    Jaxpr r = hoist(main);
    assertPrims(r, "exp", "log1p", "while");
    Eqn loop = last(r);
    assertEquals(1, loop.params().getInt("cond_nconsts"));
    assertEquals(1, loop.params().getInt("body_nconsts"));
    assertPrims(loop.params().getJaxpr("cond_jaxpr"), "lt");
    // The counter carry, which nothing reads, goes with the DCE that follows.
    assertPrims(loop.params().getJaxpr("body_jaxpr"), "add");
    // Operands: cond const exp a, body const log1p b, carries (a and b are no longer read).
    assertEquals(r.eqns().get(0).outs().get(0), loop.ins().get(0));
    assertEquals(r.eqns().get(1).outs().get(0), loop.ins().get(1));
  }
}
