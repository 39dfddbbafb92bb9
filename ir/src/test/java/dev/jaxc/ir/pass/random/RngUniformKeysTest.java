package dev.jaxc.ir.pass.random;

import static dev.jaxc.ir.testkit.ParamBuilder.ints;
import static dev.jaxc.ir.testkit.ParamBuilder.params;
import static dev.jaxc.ir.testkit.Printout.f32;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.testkit.Printout;
import dev.jaxc.ir.testkit.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The keys RngUniformKeys gives are the ones XLA:CPU logged for the same programs
 * (random/rng_keys.txt, made by gen_rng_keys.py with JAX 0.10.2): each program below is the
 * jaxpr printed there, built by hand, and each rng_uniform is named by its shape.
 */
class RngUniformKeysTest {
  /** XLA's key for each rng shape ("2,2"; "-" for a scalar) of the facts case {@code name}. */
  private static Map<String, Long> xla(String name) {
    Map<String, Long> r = new LinkedHashMap<>();
    boolean in = false;
    for (String line : Resources.text("/random/rng_keys.txt").split("\n")) {
      if (line.equals("case " + name)) in = true;
      else if (in && line.equals("end")) return r;
      else if (in && line.startsWith("rng ")) {
        String[] f = line.split(" ");
        r.put(f[1], Long.parseUnsignedLong(f[2]));
      }
    }
    throw new IllegalStateException("no facts case " + name);
  }

  /** The key each rng_uniform (anywhere) got, by shape; a jaxpr's equations in order. */
  private static Map<String, Long> keys(Jaxpr j) {
    Map<String, Long> r = new LinkedHashMap<>();
    collect(j, r);
    return r;
  }

  private static void collect(Jaxpr j, Map<String, Long> r) {
    for (Eqn e : j.eqns()) {
      if (e.primitive().equals("rng_uniform") && e.params().has(RngUniformKeys.PARAM))
        r.put(shape(e), RngUniformKeys.key(e));
      for (ParamValue v : e.params().values().values())
        if (v instanceof ParamValue.JaxprValue n) collect(n.jaxpr(), r);
    }
  }

  private static String shape(Eqn e) {
    long[] s = ((ArrayType) e.outs().get(0).type()).shape().sizes();
    if (s.length == 0) return "-";
    return String.join(",", Arrays.stream(s).mapToObj(Long::toString).toList());
  }

  private static Printout ab() {
    return new Printout().in("a:f32[] b:f32[]");
  }

  private static Printout rng(Printout p, String out, long... shape) {
    return p.eq(out, "rng_uniform", params("shape", ints(shape)), "a", "b");
  }

  private static Map<String, Long> run(Jaxpr j) {
    return keys(RngUniformKeys.run(program(j)).main());
  }

  @Test
  void mt19937x64IsCppsEngine() {
    // The C++ standard ([rand.predef]): the 10000th draw of a default-seeded (5489) mt19937_64.
    Mt19937x64 standard = new Mt19937x64(5489);
    for (int i = 1; i < 10000; i++) standard.next();
    assertEquals(Long.parseUnsignedLong("9981545732273789042"), standard.next());
    // libstdc++'s std::mt19937_64 with XLA's seeds, first draws.
    assertEquals(0xc151df7d6ee5e2d6L, new Mt19937x64(42).next());
    assertEquals(0x7bf0ad43d3052599L, new Mt19937x64(8).next());
  }

  @Test
  void keysAreXlasInOutputOrder() {
    Printout p = ab();
    for (int n = 1; n <= 5; n++) rng(p, "r" + n + ":f32[" + n + "]", n);
    assertEquals(xla("outputs_in_order"), run(p.out("r1", "r2", "r3", "r4", "r5")));
    long[] keys = RngUniformKeys.xlaKeys(5);
    assertEquals(new ArrayList<>(xla("outputs_in_order").values()), Arrays.stream(keys).boxed().toList());
  }

  @Test
  void theWalkStartsAtTheFirstOutput() {
    Printout p = ab();
    rng(p, "c:f32[1]", 1);
    rng(p, "d:f32[2]", 2);
    rng(p, "e:f32[3]", 3);
    assertEquals(xla("outputs_reversed"), run(p.out("e", "c", "d")));
  }

  @Test
  void anAddWalksItsOperandsInOrder() {
    Printout p = ab();
    rng(p, "c:f32[1]", 1);
    rng(p, "d:f32[2]", 2);
    rng(p, "e:f32[2,2]", 2, 2);
    p.eq("f:f32[1,2]", "broadcast_in_dim", params("shape", ints(1, 2), "broadcast_dimensions", ints(1),
        "sharding", null), "d");
    p.eq("g:f32[2,2]", "add", "e", "f");
    assertEquals(xla("through_an_add"), run(p.out("g", "c")));
  }

  @Test
  void aTwoWaySelectWalksItsCasesReversed() {
    Printout p = ab();
    rng(p, "c:f32[1]", 1);
    rng(p, "d:f32[2]", 2);
    p.eq("e:bool[]", "lt", "a", "b");
    p.eq("f:f32[1]", "slice", params("start_indices", ints(0), "limit_indices", ints(1), "strides", null), "d");
    p.eq("g:f32[1]", "select_n", "e", "c", "f");
    assertEquals(xla("select_reverses"), run(p.out("g")));
  }

  @Test
  void boundsComeBeforeTheirRng() {
    Printout p = ab();
    rng(p, "c:f32[1]", 1);
    rng(p, "d:f32[2]", 2);
    p.eq("e:f32[1]", "slice", params("start_indices", ints(0), "limit_indices", ints(1), "strides", null), "d");
    p.eq("f:f32[]", "squeeze", params("dimensions", ints(0)), "e");
    p.eq("g:f32[]", "squeeze", params("dimensions", ints(0)), "c");
    p.eq("h:f32[3]", "rng_uniform", params("shape", ints(3)), "f", "g");
    assertEquals(xla("bounds_first"), run(p.out("h", "c")));
  }

  @Test
  void aDeadRngGetsNoKey() {
    Printout p = ab();
    rng(p, "c:f32[1]", 1);
    rng(p, "_:f32[2]", 2);
    rng(p, "d:f32[3]", 3);
    assertEquals(xla("dead_rng"), run(p.out("d", "c")));
  }

  @Test
  void aLoneRngInABodyGetsTheFirstKey() {
    Jaxpr body = new Printout().in("e:f32[] f:f32[] g:f32[3]")
        .eq("h:f32[3]", "rng_uniform", params("shape", ints(3)), "e", "f")
        .eq("i:f32[3]", "add", "g", "h")
        .out("i");
    Jaxpr main = new Printout().con("a:f32[3]").in("b:f32[] c:f32[]")
        .eq("d:f32[3]", "scan", params("jaxpr", body, "length", 2, "num_carry", 1, "num_consts", 2,
            "reverse", false, "unroll", 1), "b", "c", "a")
        .out("d");
    assertEquals(xla("only_in_scan"), run(main));
  }

  @Test
  void anRngInACallAmongOthersIsRejected() {
    // XLA expands the callee's rng first (rng_keys.txt, nested_jit); jaxc does not follow
    // computation order, so it refuses rather than guess.
    assertFalse(xla("nested_jit").isEmpty());
    Jaxpr callee = rng(ab(), "d:f32[2]", 2).out("d");
    Jaxpr main = rng(ab(), "c:f32[1]", 1)
        .eq("d:f32[2]", "jit", params("name", "f", "jaxpr", callee), "a", "b")
        .out("c", "d");
    JaxcException e = assertThrows(JaxcException.class, () -> RngUniformKeys.run(program(main)));
    assertTrue(e.getMessage().contains("one inside a nested jaxpr"), e.getMessage());
    assertEquals(main.eqns().get(1).primSpan(), e.span());
  }

  @Test
  void anEquationOfUnknownOperandOrderFedByTwoRngsIsRejected() {
    Printout p = ab();
    rng(p, "c:f32[2]", 2);
    rng(p, "d:f32[2]", 2);
    p.eq("e:f32[2]", "clamp", "c", f32(0.5), "d");
    Jaxpr main = p.out("e");
    JaxcException e = assertThrows(JaxcException.class, () -> RngUniformKeys.run(program(main)));
    assertTrue(e.getMessage().contains("feed this clamp"), e.getMessage());
    assertEquals(main.eqns().get(2).primSpan(), e.span());
  }

  @Test
  void aProgramWithoutRngIsUnchanged() {
    Program p = program(ab().eq("c:f32[]", "add", "a", "b").out("c"));
    assertSame(p.main(), RngUniformKeys.run(p).main());
  }
}
