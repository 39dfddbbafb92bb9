package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walk the hoisting passes share ({@link LoopInvariantHoisting}, {@link ScanMapHoisting}):
 * every equation's nested jaxprs are rewritten first (inner loops before outer ones), then the
 * equation is given to {@code rewrite}, which may put new equations in front of it (into {@code
 * before}) and return it changed. Shared nested jaxprs are rewritten once; a jaxpr with nothing
 * changed is returned as the same object.
 */
abstract class HoistingWalk {
  private final Map<Jaxpr, Jaxpr> done = new IdentityHashMap<>();

  /** {@code e} (its nested jaxprs already rewritten), with work it moved out added to {@code before}. */
  abstract Eqn rewrite(Eqn e, List<Eqn> before);

  final Jaxpr jaxpr(Jaxpr j) {
    Jaxpr r = done.get(j);
    if (r != null) return r;
    List<Eqn> eqns = new ArrayList<>();
    boolean changed = false;
    for (Eqn e : j.eqns()) {
      Params params = ParamJaxprs.map(e.params(), this::jaxpr);
      Eqn inner = params == e.params() ? e : e.withParts(e.outs(), params, e.ins());
      int before = eqns.size();
      Eqn moved = rewrite(inner, eqns);
      eqns.add(moved);
      changed |= moved != e || eqns.size() != before + 1;
    }
    r = changed ? new Jaxpr(j.constvars(), j.invars(), eqns, j.outs(), j.span()) : j;
    done.put(j, r);
    return r;
  }
}
