package dev.jaxc.backend.llvm.emit;

import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.PrimGroup;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites XLA:CPU applies to elementwise float arithmetic, which decide last bits, found in a
 * plan's equations (measured on JAX 0.10.2, 100,000 random operands each: every result equal).
 *
 * <ul>
 *   <li><b>Division by a constant</b> is a multiplication by its reciprocal, rounded to the dtype
 *       (XLA's algebraic simplifier), for f16, f32 and f64 with a literal divisor; bf16 keeps the
 *       division.
 *   <li><b>Division by a broadcast value</b> (a row's sum in softmax) is a multiplication by the
 *       broadcast reciprocal, for every float dtype (bf16's reciprocal in f32).
 *   <li><b>FMA contraction</b>: XLA lets LLVM fuse a multiply into the add or subtract that is its
 *       only use in the loop (FPOpFusion::Fast), so {@code x*a + b} is rounded once. When both
 *       operands are such products the left one is fused. f32 and f64 only: f16/bf16 round after
 *       each primitive, which separates the two. XLA duplicates a cheap multiply into each
 *       elementwise consumer's fusion, where it has one use each, so {@code m + b} is contracted
 *       even when {@code m * 2} also reads {@code m}; it is not when {@code m} is an output, feeds
 *       a reduction or other kernel (XLA then fuses them as one multi-output loop), or is read
 *       again downstream of the add in the same loop. jaxc contracts under the same conditions,
 *       but only a product fused into the add (not materialised; the planner recomputes an
 *       f32/f64 multiply per use, as XLA does) of the add's shape.
 * </ul>
 */
public final class XlaRewrites {
  /** An add or sub whose operand {@code operand} is computed by {@code product} and fused into it. */
  public record Contraction(int operand, Eqn product) {}

  private final Set<Eqn> reciprocal = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Eqn> broadcastReciprocal = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<Eqn, Contraction> contractions = new IdentityHashMap<>();

  public XlaRewrites(Plan plan) {
    this(plan, Numerics.XLA_CPU);
  }

  /** The rewrites {@code numerics} asks for (none of a kind it turns off). */
  public XlaRewrites(Plan plan, Numerics numerics) {
    Map<Var, Eqn> def = new IdentityHashMap<>();
    for (Eqn e : plan.jaxpr().eqns()) {
      for (Var o : e.outs()) def.put(o, e);
    }
    Map<Eqn, Integer> position = new IdentityHashMap<>();
    for (Eqn e : plan.jaxpr().eqns()) position.put(e, position.size());
    Map<Var, List<Eqn>> users = new IdentityHashMap<>();
    for (Eqn e : plan.jaxpr().eqns())
      for (Atom a : e.ins()) if (a instanceof Var v) users.computeIfAbsent(v, x -> new ArrayList<>()).add(e);
    Set<Var> outputs = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Atom a : plan.jaxpr().outs()) if (a instanceof Var v) outputs.add(v);
    for (Eqn e : plan.jaxpr().eqns()) {
      if (numerics.reciprocalOfLiteralDivisor() && e.primitive().equals("div") && e.ins().get(1) instanceof Literal
          && !(e.ins().get(0) instanceof Literal)) {
        DType d = dtype(e.outs().get(0));
        if (d == DType.F16 || d == DType.F32 || d == DType.F64) reciprocal.add(e);
      } else if (e.primitive().equals("div") && e.ins().get(1) instanceof Var v && broadcast(v, e, def)) {
        DType d = dtype(e.outs().get(0));
        if (d == DType.F16 || d == DType.BF16 || d == DType.F32 || d == DType.F64) broadcastReciprocal.add(e);
      }
    }
    for (Eqn e : plan.jaxpr().eqns()) {
      if (!numerics.contractMultiplyAdd()) break;
      if (!e.primitive().equals("add") && !e.primitive().equals("sub")) continue;
      DType d = dtype(e.outs().get(0));
      if (d != DType.F32 && d != DType.F64) continue;
      for (int k = 0; k < 2; k++) {
        if (!(e.ins().get(k) instanceof Var v) || outputs.contains(v) || plan.isMaterialised(v)
            || e.ins().get(1 - k) == v || !onlyLoopConsumers(users.get(v), e, users, position))
          continue;
        Eqn p = def.get(v);
        if (p == null || !isProduct(p) || !((ArrayType) v.type()).shape().equals(((ArrayType) e.outs().get(0).type()).shape()))
          continue;
        contractions.put(e, new Contraction(k, p));
        break;
      }
    }
  }

  /**
   * The product's consumers are all fused elementwise equations and none of the others reads the
   * add's result (directly or through other equations).
   */
  private static boolean onlyLoopConsumers(List<Eqn> consumers, Eqn add, Map<Var, List<Eqn>> users,
      Map<Eqn, Integer> position) {
    for (Eqn c : consumers) {
      PrimGroup g = Primitive.byName(c.primitive()).map(Primitive::group).orElse(PrimGroup.OTHER);
      if (!LOOP_GROUPS.contains(g)) return false;
    }
    if (consumers.size() == 1) return true;
    Set<Eqn> others = Collections.newSetFromMap(new IdentityHashMap<>());
    others.addAll(consumers);
    others.remove(add);
    // Equations are in dependency order, so nothing past the last of the others leads back to
    // one: the search stops there (it walked the rest of the model for every add otherwise).
    int horizon = -1;
    for (Eqn o : others) horizon = Math.max(horizon, position.get(o));
    Set<Eqn> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Eqn> todo = new ArrayDeque<>(List.of(add));
    while (!todo.isEmpty()) {
      Eqn e = todo.pop();
      for (Var o : e.outs())
        for (Eqn u : users.getOrDefault(o, List.of())) {
          if (others.contains(u)) return false;
          if (position.get(u) < horizon && seen.add(u)) todo.push(u);
        }
    }
    return true;
  }

  private static final Set<PrimGroup> LOOP_GROUPS = EnumSet.of(PrimGroup.ELEMENTWISE_UNARY,
      PrimGroup.ELEMENTWISE_BINARY, PrimGroup.COMPARISON, PrimGroup.SELECT, PrimGroup.CONVERSION, PrimGroup.SHAPE);

  /**
   * The divisor of {@code div} is broadcast in HLO: it has fewer elements than the quotient (a
   * size-1 or rank-0 operand) or is a broadcast_in_dim of fewer elements.
   */
  private static boolean broadcast(Var divisor, Eqn div, Map<Var, Eqn> def) {
    long n = elements(div.outs().get(0));
    if (elements(divisor) < n) return true;
    Eqn p = def.get(divisor);
    return p != null && p.primitive().equals("broadcast_in_dim") && elements(p.ins().get(0)) < n;
  }

  private static long elements(Atom a) {
    return ((ArrayType) a.type()).shape().elementCount();
  }

  /**
   * Whether {@code div} divides by a broadcast value, which XLA's algebraic simplifier turns into
   * a multiplication by the broadcast reciprocal (A / broadcast(B) = A * broadcast(1 / B); bf16:
   * the reciprocal in f32). Row loops then divide once per row, not per element.
   */
  public boolean broadcastReciprocal(Eqn div) {
    return broadcastReciprocal.contains(div);
  }

  /** Whether {@code div} is lowered as a multiplication by the divisor's reciprocal. */
  public boolean reciprocal(Eqn div) {
    return reciprocal.contains(div);
  }

  /** The product fused into an add or sub, or null. */
  public Contraction contraction(Eqn addOrSub) {
    return contractions.get(addOrSub);
  }

  private boolean isProduct(Eqn p) {
    return (p.primitive().equals("mul") && p.params().isNone("out_dtype")) || reciprocal.contains(p);
  }

  private static DType dtype(Atom a) {
    return ((ArrayType) a.type()).dtype();
  }
}
