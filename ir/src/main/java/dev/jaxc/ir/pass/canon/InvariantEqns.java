package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Splits one loop body into the equations that depend only on its leading {@code nconsts} invars
 * (the loop's consts) and the rest. An equation moves when it is known and pure ({@code
 * rng_uniform} is stateful and stays), holds no jaxpr, and its results are no larger than the
 * values it reads or are small ({@link #SMALL_BYTES}): moving a broadcast out would make a large
 * buffer live across the whole loop for the sake of a cheap fill.
 */
final class InvariantEqns {
  /** Results up to this size move whatever they read (scalars, short vectors, small tables). */
  static final long SMALL_BYTES = 4096;

  /**
   * The body with the moved results as new const invars (after the old consts), and the outer
   * values ({@code extra}) that the loop equation must pass for them, in the same order.
   */
  record Split(Jaxpr loop, List<Var> extra) {}

  private final FreshNames names;
  /** Body variable → the outer value it stands for: the consts, then every moved result. */
  private final Map<Var, Atom> outer = new IdentityHashMap<>();

  InvariantEqns(FreshNames names) {
    this.names = names;
  }

  /**
   * @param body a while cond/body or scan body
   * @param consts the outer operands bound to the body's leading invars
   * @param before receives the moved equations, renamed into the outer scope
   */
  Split split(Jaxpr body, List<Atom> consts, List<Eqn> before) {
    for (int i = 0; i < consts.size(); i++) outer.put(body.invars().get(i), consts.get(i));
    List<Eqn> stays = new ArrayList<>();
    List<Var> moved = new ArrayList<>();
    for (Eqn e : body.eqns()) {
      Optional<List<Atom>> ins = invariantOperands(e);
      if (ins.isEmpty() || !movable(e)) {
        stays.add(e);
        continue;
      }
      List<Var> outs = names.fresh(e.outs());
      before.add(new Eqn(outs, e.primitive(), e.params(), ins.get(), e.span(), e.primSpan(), e.inSpans()));
      for (int k = 0; k < outs.size(); k++) {
        if (e.outs().get(k).isDropped()) continue;
        outer.put(e.outs().get(k), outs.get(k));
        moved.add(e.outs().get(k));
      }
    }
    if (stays.size() == body.eqns().size()) return new Split(body, List.of());
    Set<Var> used = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Eqn e : stays) addVars(e.ins(), used);
    addVars(body.outs(), used);
    List<Var> newInvars = new ArrayList<>();
    List<Var> extra = new ArrayList<>();
    for (Var v : moved) {
      if (!used.contains(v)) continue;
      newInvars.add(v);
      extra.add((Var) outer.get(v));
    }
    List<Var> invars = Lists.insert(body.invars(), consts.size(), newInvars);
    return new Split(new Jaxpr(body.constvars(), invars, stays, body.outs(), body.span()), extra);
  }

  /** The operands in the outer scope, if every one is a literal or an invariant variable. */
  private Optional<List<Atom>> invariantOperands(Eqn e) {
    List<Atom> r = new ArrayList<>(e.ins().size());
    for (Atom a : e.ins()) {
      if (a instanceof Literal) {
        r.add(a);
        continue;
      }
      Atom o = outer.get((Var) a);
      if (o == null) return Optional.empty();
      r.add(o);
    }
    return Optional.of(r);
  }

  private static boolean movable(Eqn e) {
    Optional<Primitive> p = Primitive.byName(e.primitive());
    if (p.isEmpty() || p.get() == Primitive.RNG_UNIFORM) return false;
    if (!ParamJaxprs.in(e.params()).isEmpty()) return false;
    long out = 0;
    for (Var v : e.outs()) {
      long b = bytes(v.type());
      if (b < 0) return false;
      out += b;
    }
    if (out <= SMALL_BYTES) return true;
    long in = 0;
    for (Atom a : e.ins()) if (a instanceof Var v) in += Math.max(0, bytes(v.type()));
    return out <= in;
  }

  /** A static array's size in bytes; -1 for keys, tokens and symbolic shapes. */
  private static long bytes(Type t) {
    if (!(t instanceof Type.ArrayType a) || !a.shape().isStatic()) return -1;
    return a.shape().elementCount() * Math.max(1, a.dtype().byteSize());
  }

  private static void addVars(List<Atom> atoms, Set<Var> into) {
    for (Atom a : atoms) if (a instanceof Var v) into.add(v);
  }
}
