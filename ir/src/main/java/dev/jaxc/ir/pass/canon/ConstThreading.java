package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Rebuilds an equation that stays (not a call, not an alias) around its inlined nested jaxprs. If
 * they use hoisted constants (see {@link Inliner}), those are passed in as new operands so that
 * they reach the top-level jaxpr: extra args of {@code cond} (appended to every branch's invars; a
 * branch that does not use one gets an unused invar), extra consts of {@code while} (cond's and
 * body's separately) and of {@code scan}. Any other holder, and these three when their nested
 * jaxprs have constvars of their own, closes over them as constvars of its nested jaxpr: the form
 * they had before inlining.
 *
 * <p>A body shared by several equations is threaded once per distinct layout, so that equal
 * results are one object rather than copies binding the same variables.
 */
final class ConstThreading {
  private final FreshNames names;
  /** Body → (position, extra invars…) → the body with them inserted. */
  private final Map<Body, Map<List<Object>, Jaxpr>> threaded = new IdentityHashMap<>();
  /** Body → hoisted variable it does not use → its unused invar for it. */
  private final Map<Body, Map<Var, Var>> padding = new IdentityHashMap<>();

  ConstThreading(FreshNames names) {
    this.names = names;
  }

  /** The rebuilt parts of the equation; {@code inSpans} is empty or matches {@code ins}. */
  record Rebuilt(Params params, List<Atom> ins, List<Span> inSpans) {
    /** With {@code extra} operands (made here, so with no use sites) inserted at {@code at}. */
    Rebuilt insert(int at, List<Atom> extra) {
      List<Span> spans =
          inSpans.isEmpty()
              ? inSpans
              : Lists.insert(inSpans, at, Lists.repeat(Span.NONE, extra.size()));
      return new Rebuilt(params, Lists.insert(ins, at, extra), spans);
    }
  }

  /**
   * @param ins the equation's operands, already renamed
   * @param bodies every jaxpr in the equation's params, after inlining
   * @param outer the scope the equation is in, which supplies the new operands
   */
  Rebuilt rebuild(Eqn e, List<Atom> ins, Map<Jaxpr, Body> bodies, Scope outer) {
    if (bodies.values().stream().noneMatch(Body::open))
      return new Rebuilt(ParamJaxprs.map(e.params(), j -> bodies.get(j).jaxpr()), ins, e.inSpans());
    Primitive p = Primitive.byName(e.primitive()).orElse(null);
    try {
      Optional<Rebuilt> threaded =
          p == null
              ? Optional.empty()
              : switch (p) {
                case COND -> cond(e, ins, bodies, outer);
                case WHILE -> whileLoop(e, ins, bodies, outer);
                case SCAN -> scan(e, ins, bodies, outer);
                default -> Optional.empty();
              };
      return threaded.orElseGet(
          () ->
              new Rebuilt(
                  ParamJaxprs.map(e.params(), j -> bodies.get(j).closed()), ins, e.inSpans()));
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    }
  }

  /** {@code cond[branches] index *args}: the constants become trailing args. */
  private Optional<Rebuilt> cond(Eqn e, List<Atom> ins, Map<Jaxpr, Body> bodies, Scope outer) {
    List<Body> branches = e.params().getJaxprs("branches").stream().map(bodies::get).toList();
    if (branches.stream().anyMatch(ConstThreading::hasConstvars)) return Optional.empty();
    Set<Var> hoisted = new LinkedHashSet<>();
    for (Body b : branches) hoisted.addAll(b.hoisted());
    List<ParamValue> jaxprs = new ArrayList<>();
    for (Body b : branches) {
      List<Var> extra = new ArrayList<>();
      for (Var h : hoisted) extra.add(b.localOf(h).orElseGet(() -> pad(b, h)));
      jaxprs.add(new ParamValue.JaxprValue(withInvars(b, b.jaxpr().invars().size(), extra)));
    }
    Params p = e.params().with("branches", new ParamValue.Tuple(jaxprs));
    // linear=(…) has one flag per arg (≤ 0.4.30).
    if (p.get("linear").orElse(null) instanceof ParamValue.Tuple t)
      p = p.with("linear", insertFalses(t, t.items().size(), hoisted.size()));
    List<Var> order = List.copyOf(hoisted);
    return Optional.of(new Rebuilt(p, ins, e.inSpans()).insert(ins.size(), locals(outer, order)));
  }

  /** {@code while[…] *cond_consts *body_consts *carry}: the constants join the consts. */
  private Optional<Rebuilt> whileLoop(Eqn e, List<Atom> ins, Map<Jaxpr, Body> bodies, Scope outer) {
    WhileParams w = WhileParams.of(e.params());
    Body c = bodies.get(w.condJaxpr());
    Body b = bodies.get(w.bodyJaxpr());
    if (hasConstvars(c) || hasConstvars(b)) return Optional.empty();
    int cn = w.condNconsts();
    int bn = w.bodyNconsts();
    Params p =
        e.params()
            .with("cond_jaxpr", new ParamValue.JaxprValue(withInvars(c, cn, c.locals())))
            .with("cond_nconsts", ParamValue.Int.of(cn + c.hoisted().size()))
            .with("body_jaxpr", new ParamValue.JaxprValue(withInvars(b, bn, b.locals())))
            .with("body_nconsts", ParamValue.Int.of(bn + b.hoisted().size()));
    return Optional.of(
        new Rebuilt(p, ins, e.inSpans())
            .insert(cn, locals(outer, c.hoisted()))
            .insert(cn + c.hoisted().size() + bn, locals(outer, b.hoisted())));
  }

  /** {@code scan[…] *consts *carry *xs}: the constants join the consts. */
  private Optional<Rebuilt> scan(Eqn e, List<Atom> ins, Map<Jaxpr, Body> bodies, Scope outer) {
    ScanParams sp = ScanParams.of(e.params());
    Body b = bodies.get(sp.jaxpr());
    if (hasConstvars(b)) return Optional.empty();
    int nc = sp.numConsts();
    int k = b.hoisted().size();
    Params p =
        e.params()
            .with("jaxpr", new ParamValue.JaxprValue(withInvars(b, nc, b.locals())))
            .with("num_consts", ParamValue.Int.of(nc + k));
    // linear=(…) has one flag per operand (≤ 0.9.2).
    if (p.get("linear").orElse(null) instanceof ParamValue.Tuple t)
      p = p.with("linear", insertFalses(t, nc, k));
    return Optional.of(new Rebuilt(p, ins, e.inSpans()).insert(nc, locals(outer, b.hoisted())));
  }

  private Jaxpr withInvars(Body b, int at, List<Var> extra) {
    List<Object> key = new ArrayList<>(extra);
    key.add(0, at);
    return threaded
        .computeIfAbsent(b, k -> new HashMap<>())
        .computeIfAbsent(key, k -> b.withInvars(at, extra));
  }

  private Var pad(Body b, Var hoisted) {
    return padding.computeIfAbsent(b, k -> new HashMap<>()).computeIfAbsent(hoisted, names::fresh);
  }

  private static List<Atom> locals(Scope outer, List<Var> hoisted) {
    List<Atom> r = new ArrayList<>();
    for (Var h : hoisted) r.add(outer.local(h));
    return r;
  }

  /** {@code t} with {@code n} {@code False} flags inserted at {@code at}. */
  private static ParamValue.Tuple insertFalses(ParamValue.Tuple t, int at, int n) {
    List<ParamValue> falses = Lists.repeat(new ParamValue.Bool(false), n);
    return new ParamValue.Tuple(Lists.insert(t.items(), at, falses), t.list());
  }

  private static boolean hasConstvars(Body b) {
    return !b.jaxpr().constvars().isEmpty();
  }
}
