package dev.jaxc.ir.pass.random;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives every {@code rng_uniform} equation the Philox key XLA:CPU bakes into its code, as the
 * parameter {@value #PARAM} (an unsigned 64-bit integer). Run it on the typed program, before
 * the canonical pipeline inlines calls.
 *
 * <p>In JAX 0.10.2, XLA's RngExpander gives the rng instruction it expands the key
 * {@code module->RandomNew64() ^ GlobalRandomValue()}: the first is a draw from the HLO module's
 * own {@code std::mt19937_64} seeded 42, the second a draw from one process-wide
 * {@code std::mt19937_64}, seeded 8 in jaxlib 0.10.2's build (its static initialiser stores 8;
 * the module config's seed, which would replace it, is 0 under JAX). A JAX process numbers rng
 * instructions across everything it compiles; a jaxc artifact reproduces the program compiled
 * first in a fresh process, whose i-th rng instruction gets draw i of both generators.
 *
 * <p>The expander meets the instructions of called computations (a nested {@code jit}) before
 * their callers' and those of one computation in the order {@link RngUniformOrder} walks. jaxc
 * reproduces the cases where that order is known: one rng_uniform anywhere (in a call or a
 * control-flow body too), or several at the top level whose order the walk determines.
 */
public final class RngUniformKeys {
  /** The parameter holding the key. */
  public static final String PARAM = "xla_key";

  private static final String RNG = Primitive.RNG_UNIFORM.printedName();

  private final Map<Jaxpr, Integer> nestedCounts = new IdentityHashMap<>();

  private RngUniformKeys() {}

  /**
   * @throws JaxcException where several rng_uniform equations are numbered in an order jaxc does
   *     not know: one inside a nested jaxpr among others, or operands of an equation whose HLO
   *     operand order decides
   */
  public static Program run(Program p) {
    return p.withMain(new RngUniformKeys().keys(p.main()));
  }

  /** The key {@link #run} gave {@code e}, an rng_uniform equation. */
  public static long key(Eqn e) {
    ParamValue v = e.params().get(PARAM).orElseThrow(() -> new JaxcException(
        "rng_uniform without XLA's key: run RngUniformKeys before the canonical pipeline", e.primSpan()));
    return ((ParamValue.Int) v).value().longValue();
  }

  /** XLA's key for the {@code count} rng instructions a fresh process expands first, in order. */
  static long[] xlaKeys(int count) {
    Mt19937x64 module = new Mt19937x64(42);
    Mt19937x64 global = new Mt19937x64(8);
    long[] r = new long[count];
    for (int i = 0; i < count; i++) r[i] = module.next() ^ global.next();
    return r;
  }

  private Jaxpr keys(Jaxpr main) {
    Eqn holder = null;
    int nested = 0;
    int top = 0;
    for (Eqn e : main.eqns()) {
      if (isRng(e)) top++;
      int n = nestedCount(e);
      if (n > 0 && holder == null) holder = e;
      nested += n;
    }
    if (nested + top == 0) return main;
    RngUniformOrder.Result walk = RngUniformOrder.of(main);
    if (nested > 0) {
      if (nested > 1 || !walk.order().isEmpty())
        throw new JaxcException("several rng_uniform equations, one inside a nested jaxpr: XLA numbers "
            + "them in its order of HLO computations, which jaxc does not reproduce", holder.primSpan());
      return withEqns(main, mapNested(main.eqns(), xlaKeys(1)[0]));
    }
    if (walk.ambiguousAt() != null)
      throw new JaxcException("several rng_uniform equations feed this " + walk.ambiguousAt().primitive()
          + ": the order XLA numbers them in depends on its HLO operand order, which jaxc does not know "
          + "for it", walk.ambiguousAt().primSpan());
    long[] keys = xlaKeys(walk.order().size());
    Map<Eqn, Long> byEqn = new IdentityHashMap<>();
    for (int i = 0; i < keys.length; i++) byEqn.put(walk.order().get(i), keys[i]);
    List<Eqn> eqns = new ArrayList<>();
    for (Eqn e : main.eqns()) eqns.add(byEqn.containsKey(e) ? withKey(e, byEqn.get(e)) : e);
    return withEqns(main, eqns);
  }

  private static boolean isRng(Eqn e) {
    return e.primitive().equals(RNG);
  }

  private static Eqn withKey(Eqn e, long key) {
    ParamValue k = new ParamValue.Int(new BigInteger(Long.toUnsignedString(key)));
    return e.withParts(e.outs(), e.params().with(PARAM, k), e.ins());
  }

  private static Jaxpr withEqns(Jaxpr j, List<Eqn> eqns) {
    return new Jaxpr(j.constvars(), j.invars(), eqns, j.outs(), j.span());
  }

  /** rng_uniform equations inside {@code e}'s jaxprs, a jaxpr held twice counting twice. */
  private int nestedCount(Eqn e) {
    int n = 0;
    for (ParamValue v : e.params().values().values()) n += count(v);
    return n;
  }

  private int count(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue j) return count(j.jaxpr());
    int n = 0;
    if (v instanceof ParamValue.Tuple t) for (ParamValue i : t.items()) n += count(i);
    if (v instanceof ParamValue.Record r) for (ParamValue f : r.fields().values()) n += count(f);
    return n;
  }

  private int count(Jaxpr j) {
    Integer done = nestedCounts.get(j);
    if (done != null) return done;
    int n = 0;
    for (Eqn e : j.eqns()) n += (isRng(e) ? 1 : 0) + nestedCount(e);
    nestedCounts.put(j, n);
    return n;
  }

  /** The equations with the one rng_uniform inside their jaxprs given {@code key}. */
  private List<Eqn> mapNested(List<Eqn> eqns, long key) {
    List<Eqn> r = new ArrayList<>();
    for (Eqn e : eqns) {
      if (isRng(e)) r.add(withKey(e, key));
      else if (nestedCount(e) == 0) r.add(e);
      else r.add(e.withParts(e.outs(), mapParams(e.params(), key), e.ins()));
    }
    return r;
  }

  private Params mapParams(Params ps, long key) {
    Map<String, ParamValue> m = new LinkedHashMap<>();
    ps.values().forEach((k, v) -> m.put(k, mapParam(v, key)));
    return new Params(m);
  }

  private ParamValue mapParam(ParamValue v, long key) {
    if (v instanceof ParamValue.JaxprValue j)
      return new ParamValue.JaxprValue(withEqns(j.jaxpr(), mapNested(j.jaxpr().eqns(), key)));
    if (v instanceof ParamValue.Tuple t)
      return new ParamValue.Tuple(t.items().stream().map(i -> mapParam(i, key)).toList(), t.list());
    if (v instanceof ParamValue.Record r) {
      Map<String, ParamValue> fields = new LinkedHashMap<>();
      r.fields().forEach((k, f) -> fields.put(k, mapParam(f, key)));
      return new ParamValue.Record(r.type(), fields);
    }
    return v;
  }
}
