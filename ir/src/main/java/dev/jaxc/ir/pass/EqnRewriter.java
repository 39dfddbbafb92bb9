package dev.jaxc.ir.pass;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walk of a pass that replaces equations by others: every jaxpr of the program, nested ones
 * (in any param) included, is rebuilt equation by equation, each equation seeing its operands as
 * rewritten so far; a value an equation's replacement stands for is recorded in the scope, and
 * later uses and the jaxpr's outputs read it from there. A jaxpr object used by several
 * equations is rewritten once.
 */
public abstract class EqnRewriter {
  private final Map<Jaxpr, Jaxpr> done = new IdentityHashMap<>();

  /**
   * Appends what replaces {@code e} (whose operands, looked up in the scope, are {@code ins}) to
   * {@code out}, and puts in {@code scope} what each of its results stands for where that is not
   * the result itself. {@link #keep} appends the equation as it is, its nested jaxprs rewritten.
   */
  protected abstract void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out);

  /** The binders (constvars, invars) of a rewritten jaxpr; by default the same variables. */
  protected List<Var> binders(List<Var> vars, Map<Var, Atom> scope) {
    return vars;
  }

  /** {@code j} rewritten. */
  protected final Jaxpr jaxpr(Jaxpr j) {
    Jaxpr d = done.get(j);
    if (d != null) return d;
    Map<Var, Atom> scope = new IdentityHashMap<>();
    List<Var> constvars = binders(j.constvars(), scope);
    List<Var> invars = binders(j.invars(), scope);
    List<Eqn> eqns = new ArrayList<>();
    for (Eqn e : j.eqns()) {
      List<Atom> ins = new ArrayList<>();
      for (Atom a : e.ins()) ins.add(lookup(a, scope));
      try {
        equation(e, ins, scope, eqns);
      } catch (Params.ParamException x) {
        // A malformed param the rewrite reads: an error at the equation, as the type rules give.
        throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
      }
    }
    List<Atom> outs = new ArrayList<>();
    for (Atom a : j.outs()) outs.add(lookup(a, scope));
    Jaxpr r = new Jaxpr(constvars, invars, eqns, outs, j.span());
    done.put(j, r);
    return r;
  }

  /** {@code e} with operands {@code ins} and its nested jaxprs rewritten. */
  protected final void keep(Eqn e, List<Atom> ins, List<Eqn> out) {
    out.add(e.withParts(e.outs(), params(e.params()), ins));
  }

  protected static Atom lookup(Atom a, Map<Var, Atom> scope) {
    return a instanceof Var v ? scope.getOrDefault(v, v) : a;
  }

  /** Params with their nested jaxprs rewritten. */
  protected final Params params(Params ps) {
    Map<String, ParamValue> m = new LinkedHashMap<>();
    ps.values().forEach((k, v) -> m.put(k, param(v)));
    return new Params(m);
  }

  private ParamValue param(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue j) return new ParamValue.JaxprValue(jaxpr(j.jaxpr()));
    if (v instanceof ParamValue.Tuple t) return new ParamValue.Tuple(t.items().stream().map(this::param).toList(), t.list());
    if (v instanceof ParamValue.Record r) {
      Map<String, ParamValue> fields = new LinkedHashMap<>();
      r.fields().forEach((k, f) -> fields.put(k, param(f)));
      return new ParamValue.Record(r.type(), fields);
    }
    return v;
  }
}
