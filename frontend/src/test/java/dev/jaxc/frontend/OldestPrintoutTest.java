package dev.jaxc.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.print.JaxprPrinter;
import org.junit.jupiter.api.Test;

/**
 * The oldest typed printouts, JAX 0.2.26–0.3.x (Nov 2021 – mid 2022), which still had units.
 *
 * <p>The text below is hand-written in that form; no complete published printout with units was
 * found. Where each part comes from: the typed layout ({@code { lambda ; a:f32[]. let}), {@code
 * xla_call[call_jaxpr=… name=…]} and the double space of an empty {@code let  in} are those of
 * the pretty printer introduced by jax-ml/jax PR #8667 (0.2.26, see
 * testdata/legacy/pre04_pr8667_xla_call); in that printer a binder is {@code name:aval.str_short()},
 * and {@code core.AbstractUnit.str_short()} is {@code *}, a dropped binder ({@code DropVar}) prints
 * {@code _}, and the unit value ({@code core.unit}, the {@code unitvar}) prints {@code *} as an
 * operand or output (jax-ml/jax PR #9995, "fix jaxpr pretty-printing with unitvars", March 2022).
 * Literals are untyped ({@code 2.0}) until 0.6.1. Units were removed from JAX in 0.3.x (2022).
 */
class OldestPrintoutTest {
  static final String UNITS = """
      { lambda a:f32[3]; b:f32[3] c:*. let
          d:f32[3] = mul b 2.0
          _:* e:f32[3] = xla_call[
            call_jaxpr={ lambda ; f:f32[3] g:f32[3] h:*. let
                i:f32[3] = add f g
              in (*, i) }
            device=None
            donated_invars=(False, False, False)
            inline=False
            name=f
          ] a d *
          _:* = xla_call[
            call_jaxpr={ lambda ; j:*. let  in (j,) }
            name=g
          ] c
        in (e, *) }
      """;

  @Test
  void unitBindersOperandsAndOutputsParse() {
    Jaxpr main = JaxprParser.parse("old.jaxpr", UNITS).main();
    assertEquals("*", main.invars().get(1).type().text());
    Eqn call = main.eqns().get(1);
    Var dropped = call.outs().get(0);
    assertEquals("_", dropped.name());
    assertEquals("*", dropped.type().text());
    Literal unit = assertInstanceOf(Literal.class, call.ins().get(2));
    assertEquals("*", unit.type().text());
    Jaxpr body = ((ParamValue.JaxprValue) call.params().get("call_jaxpr").orElseThrow()).jaxpr();
    assertEquals("*", body.invars().get(2).type().text());
    assertEquals("*", body.outs().get(0).type().text());
    assertEquals("*", main.outs().get(1).type().text());
  }

  @Test
  void unitsPrintAsJaxPrintedThem() {
    String printed = JaxprPrinter.print(JaxprParser.parse("old.jaxpr", UNITS).main());
    assertEquals(true, printed.contains("_:* e:f32[3] = xla_call["), printed);
    assertEquals(true, printed.contains("] a d *\n"), printed);
    assertEquals(true, printed.contains("in (e, *) }"), printed);
  }
}
