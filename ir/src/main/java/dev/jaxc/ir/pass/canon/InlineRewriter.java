package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.rules.LinearSolveParams;
import dev.jaxc.ir.prim.rules.NestedJaxprs;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** One run of the {@link Inliner} over one program. */
final class InlineRewriter {
  private final Program program;
  private final FreshNames names;
  /** A callee constvar its operands do not supply → the variable hoisted for it. */
  private final Map<Var, Var> hoisted = new IdentityHashMap<>();
  /** Nested jaxprs that stay are closed scopes: each object is rebuilt once, however shared. */
  private final Map<Jaxpr, Body> bodies = new IdentityHashMap<>();
  private final ConstThreading threading;

  InlineRewriter(Program program) {
    this.program = program;
    this.names = FreshNames.after(program);
    this.threading = new ConstThreading(names);
  }

  Program run() {
    Jaxpr main = program.main();
    Scope top = Scope.top();
    Jaxpr r = scope(main, top);
    List<Var> constvars = new ArrayList<>(main.constvars());
    constvars.addAll(top.hoisted());
    return program.withMain(new Jaxpr(constvars, main.invars(), r.eqns(), r.outs(), main.span()));
  }

  /** A nested jaxpr that stays, rebuilt in its own scope. */
  private Body body(Jaxpr j) {
    Body done = bodies.get(j);
    if (done != null) return done;
    Scope s = Scope.nested(names);
    Body b = new Body(scope(j, s), s.hoisted(), s.locals());
    bodies.put(j, b);
    return b;
  }

  /** The jaxpr with its own binders kept and the calls in it inlined. */
  private Jaxpr scope(Jaxpr j, Scope s) {
    Map<Var, Atom> env = new IdentityHashMap<>();
    List<Eqn> eqns = new ArrayList<>();
    for (Eqn e : j.eqns()) emit(e, env, false, s, eqns);
    return Same.orRebuilt(j, eqns, resolve(j.outs(), env));
  }

  /**
   * Appends what {@code e} becomes to {@code out}, recording in {@code env} what its binders stand
   * for.
   *
   * @param rename whether {@code e}'s binders get new variables (inside an inlined callee)
   */
  private void emit(Eqn e, Map<Var, Atom> env, boolean rename, Scope s, List<Eqn> out) {
    List<Atom> ins = resolve(e.ins(), env);
    Primitive p = Primitive.byName(e.primitive()).orElse(null);
    if (RewrittenPrimitives.ALIASES.contains(p)) {
      if (ins.size() != e.outs().size())
        throw new JaxcException(
            e.primitive() + " passes " + count(ins.size(), "operand") + " through but has "
                + count(e.outs().size(), "result"),
            e.primSpan());
      bind(e.outs(), ins, env);
    } else if (RewrittenPrimitives.CALLS.contains(p)) {
      inline(e, callee(e), ins, env, s, out);
    } else if (p == Primitive.CUSTOM_LINEAR_SOLVE) {
      solve(e, ins, env, s, out);
    } else {
      Map<Jaxpr, Body> nested = new IdentityHashMap<>();
      for (Jaxpr j : ParamJaxprs.in(e.params())) nested.put(j, body(j));
      ConstThreading.Rebuilt r = threading.rebuild(e, ins, nested, s);
      List<Var> outs = rename ? names.fresh(e.outs()) : e.outs();
      bind(e.outs(), outs, env);
      boolean same = !rename && r.params() == e.params() && Same.elements(r.ins(), e.ins());
      Eqn rebuilt =
          same
              ? e
              : new Eqn(
                  outs, e.primitive(), r.params(), r.ins(), e.span(), e.primSpan(), r.inSpans());
      out.add(rebuilt);
    }
  }

  private static Jaxpr callee(Eqn e) {
    return NestedJaxprs.callee(e.params())
        .orElseThrow(
            () ->
                new JaxcException(
                    e.primitive() + " needs its callee in a jaxpr, call_jaxpr or fun_jaxpr"
                        + " parameter",
                    e.primSpan()));
  }

  /**
   * {@code custom_linear_solve} computes {@code solve(*solve_consts, *b)}, as JAX's own
   * implementation does: the other roles only serve differentiation and transposition, done by the
   * time JAX prints. So it is a call of its solve jaxpr on those operands.
   */
  private void solve(Eqn e, List<Atom> ins, Map<Var, Atom> env, Scope s, List<Eqn> out) {
    LinearSolveParams params;
    try {
      params = LinearSolveParams.of(e.params());
    } catch (RuntimeException ex) {
      throw new JaxcException(e.primitive() + ": " + ex.getMessage(), e.primSpan());
    }
    Jaxpr solve = params.solvers().get("solve");
    long total = params.totalConsts();
    if (solve == null || total > ins.size())
      throw new JaxcException(
          e.primitive() + " needs a solve jaxpr and at least " + total + " operands",
          e.primSpan());
    int from = params.offset("solve");
    List<Atom> operands = new ArrayList<>(ins.subList(from, from + params.length("solve")));
    operands.addAll(ins.subList((int) total, ins.size()));
    inline(e, solve, operands, env, s, out);
  }

  /** Emits a copy of the callee's equations with new binders, in the callee's own scope. */
  private void inline(
      Eqn e, Jaxpr callee, List<Atom> ins, Map<Var, Atom> env, Scope s, List<Eqn> out) {
    Map<Var, Atom> inner = new IdentityHashMap<>();
    List<Var> consts = callee.constvars();
    List<Var> invars = callee.invars();
    if (ins.size() == invars.size()) {
      for (Var c : consts) inner.put(c, s.local(hoisted.computeIfAbsent(c, names::fresh)));
      bind(invars, ins, inner);
    } else if (ins.size() == consts.size() + invars.size()) {
      bind(callee.inputs(), ins, inner);
    } else {
      throw new JaxcException(
          e.primitive() + " has " + count(ins.size(), "operand") + ", but its callee takes "
              + invars.size(),
          e.primSpan());
    }
    for (Eqn ce : callee.eqns()) emit(ce, inner, true, s, out);
    List<Atom> results = resolve(callee.outs(), inner);
    if (results.size() != e.outs().size())
      throw new JaxcException(
          e.primitive() + " has " + count(e.outs().size(), "result")
              + ", but its callee returns " + results.size(),
          e.primSpan());
    bind(e.outs(), results, env);
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static void bind(List<Var> binders, List<? extends Atom> values, Map<Var, Atom> env) {
    for (int k = 0; k < binders.size(); k++) env.put(binders.get(k), values.get(k));
  }

  /**
   * What the atoms stand for. A variable not in {@code env} is the scope's own input or binder,
   * kept as it is; so is an unbound {@code _} (format doc §5.2), whose value is dead.
   */
  private static List<Atom> resolve(List<Atom> atoms, Map<Var, Atom> env) {
    List<Atom> r = new ArrayList<>(atoms.size());
    for (Atom a : atoms) r.add(a instanceof Var v ? env.getOrDefault(v, v) : a);
    return r;
  }
}
