package dev.jaxc.ir.pass.random;

import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replaces typed PRNG keys by their data: every {@code key<fry>[S]} value becomes
 * {@code u32[S,2]} (inputs and outputs of the program included, as {@code jax.random.key_data}
 * lays them out), {@code random_wrap}, {@code random_unwrap} and {@code random_clone} become the
 * value they take, {@code random_seed}, {@code random_split}, {@code random_fold_in} and
 * {@code random_bits} become the uint32 computations JAX's threefry2x32 implementation does
 * ({@link Threefry}), and equations that move keys act on the data ({@link KeyDataOps}). Nested
 * jaxprs are rewritten too, so control flow and calls that carry keys stay consistent. Afterwards
 * no value has a key type and {@code threefry2x32} is the only PRNG primitive left.
 *
 * <p>Run it on a typed program (after the type pass); its result type-checks again.
 */
public final class RandomExpansion extends EqnRewriter {
  private final FreshNames names;

  private RandomExpansion(FreshNames names) {
    this.names = names;
  }

  /**
   * @throws JaxcException at a key of another PRNG implementation ({@code rbg},
   *     {@code unsafe_rbg}, …) or an equation that uses keys in a way that has no meaning on
   *     key data
   */
  public static Program run(Program p) {
    return p.withMain(new RandomExpansion(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected List<Var> binders(List<Var> vars, Map<Var, Atom> scope) {
    return bind(vars, scope, null);
  }

  /**
   * The variables with key types replaced by key data; errors point at {@code where}, or (null)
   * at each variable's binding.
   */
  private static List<Var> bind(List<Var> vars, Map<Var, Atom> scope, Span where) {
    List<Var> r = new ArrayList<>();
    for (Var v : vars) {
      Var n = v;
      if (KeyTypes.isKey(v.type()))
        n = new Var(v.name(), KeyTypes.physical(v.type(), where == null ? v.span() : where),
            v.span());
      scope.put(v, n);
      r.add(n);
    }
    return r;
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!usesKeys(e)) {
      keep(e, ins, out);
      return;
    }
    Params params = params(e.params());
    List<Atom> results;
    try {
      results = expand(e, new Emitter(names, out, e), params, ins);
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    }
    for (int k = 0; k < results.size(); k++) scope.put(e.outs().get(k), results.get(k));
  }

  /** True if a key is an operand or a result (checking that it is a threefry2x32 key). */
  private static boolean usesKeys(Eqn e) {
    boolean keys = false;
    List<Type> types = new ArrayList<>();
    for (Atom a : e.ins()) types.add(a.type());
    for (Var v : e.outs()) types.add(v.type());
    for (Type t : types) {
      if (t instanceof Type.KeyType k) {
        KeyTypes.checkImpl(k.impl(), e.span());
        keys = true;
      }
    }
    if (keys) e.params().getWord("impl").ifPresent(impl -> KeyTypes.checkImpl(impl, e.span()));
    return keys;
  }

  /** The values {@code e}'s results stand for, after emitting what computes them. */
  private List<Atom> expand(Eqn e, Emitter em, Params ps, List<Atom> ins) {
    Primitive p = Primitive.byName(e.primitive()).orElseThrow(() -> unsupported(e));
    switch (p) {
      case RANDOM_SEED:
        return List.of(Threefry.seed(em, ins.get(0)));
      case RANDOM_SPLIT:
        return List.of(Threefry.split(em, ins.get(0), ps.getLongs("shape")));
      case RANDOM_FOLD_IN:
        return List.of(Threefry.foldIn(em, ins.get(0), ins.get(1),
            KeyTypes.shape(e.outs().get(0).type())));
      case RANDOM_BITS:
        return List.of(Threefry.bits(em, ins.get(0), ps.getLong("bit_width"),
            ps.getLongs("shape")));
      case RANDOM_WRAP:
      case RANDOM_UNWRAP:
      case RANDOM_CLONE:
        // A key is its data.
        return List.of(ins.get(0));
      default:
        List<Var> outs = bind(e.outs(), new IdentityHashMap<>(), e.span());
        if (!KeyDataOps.rewrite(p, em, ps, ins, outs)) throw unsupported(e);
        return new ArrayList<>(outs);
    }
  }

  private static JaxcException unsupported(Eqn e) {
    return new JaxcException("'" + e.primitive() + "' on PRNG keys is not supported",
        e.primSpan());
  }
}
