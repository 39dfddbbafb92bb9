package dev.jaxc.ir.pass.random;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which XLA's RngExpander meets the top-level {@code rng_uniform} equations of a
 * jaxpr: the post-order of a depth-first walk from the outputs, in order, through each
 * instruction's operands, in order ({@code HloComputation::MakeInstructionPostOrder} on the HLO
 * JAX lowers the jaxpr to). Dead equations are never reached, as JAX drops them.
 *
 * <p>Where two or more operands of one equation lead to rng_uniform equations not met before, the
 * order depends on the operand order of that equation's HLO. It is known for the primitives JAX
 * lowers to one HLO instruction taking the operands as they are ({@link #IN_ORDER}) and for
 * two-way {@code select_n}, which becomes {@code select(pred, case1, case0)}; measured with JAX
 * 0.10.2. Elsewhere the walk records the equation as {@link Result#ambiguousAt}.
 */
final class RngUniformOrder {
  private static final Set<Primitive> IN_ORDER = EnumSet.of(Primitive.ADD, Primitive.SUB,
      Primitive.MUL, Primitive.DIV, Primitive.REM, Primitive.MAX, Primitive.MIN, Primitive.POW,
      Primitive.ATAN2, Primitive.NEXTAFTER, Primitive.CONCATENATE, Primitive.DOT_GENERAL,
      Primitive.RNG_UNIFORM);

  /** {@code ambiguousAt}: the first equation whose operand order decides the order, or null. */
  record Result(List<Eqn> order, Eqn ambiguousAt) {}

  private final Map<Var, Eqn> producers = new IdentityHashMap<>();
  private final Set<Eqn> visited = Collections.newSetFromMap(new IdentityHashMap<>());
  private final List<Eqn> order = new ArrayList<>();
  private Eqn ambiguousAt;

  private RngUniformOrder(Jaxpr j) {
    for (Eqn e : j.eqns()) for (Var v : e.outs()) producers.put(v, e);
  }

  static Result of(Jaxpr j) {
    RngUniformOrder w = new RngUniformOrder(j);
    for (Atom a : j.outs()) w.walk(w.producer(a));
    return new Result(List.copyOf(w.order), w.ambiguousAt);
  }

  private Eqn producer(Atom a) {
    return a instanceof Var v ? producers.get(v) : null;
  }

  /** One equation being walked: its operands in HLO order, and how many led to new rng_uniforms. */
  private static final class Frame {
    final Eqn eqn;
    final int[] operands;
    int next;
    int feeding;
    /** The order's size before the operand being walked, or -1 when none is. */
    int mark = -1;

    Frame(Eqn eqn) {
      this.eqn = eqn;
      this.operands = hloOperands(eqn);
    }
  }

  /** Iterative, so a long chain of equations cannot overflow the stack. */
  private void walk(Eqn root) {
    if (root == null || !visited.add(root)) return;
    Deque<Frame> stack = new ArrayDeque<>();
    stack.push(new Frame(root));
    while (!stack.isEmpty()) {
      Frame f = stack.peek();
      if (f.mark >= 0) {
        if (order.size() > f.mark) f.feeding++;
        f.mark = -1;
      }
      if (f.next < f.operands.length) {
        Eqn child = producer(f.eqn.ins().get(f.operands[f.next++]));
        if (child != null && visited.add(child)) {
          f.mark = order.size();
          stack.push(new Frame(child));
        }
        continue;
      }
      stack.pop();
      if (f.feeding > 1 && ambiguousAt == null && !knownOrder(f.eqn)) ambiguousAt = f.eqn;
      if (f.eqn.primitive().equals(Primitive.RNG_UNIFORM.printedName())) order.add(f.eqn);
    }
  }

  private static boolean twoWaySelect(Eqn e) {
    return e.primitive().equals(Primitive.SELECT_N.printedName()) && e.ins().size() == 3;
  }

  private static int[] hloOperands(Eqn e) {
    if (twoWaySelect(e)) return new int[] {0, 2, 1};
    int[] r = new int[e.ins().size()];
    for (int k = 0; k < r.length; k++) r[k] = k;
    return r;
  }

  private static boolean knownOrder(Eqn e) {
    return twoWaySelect(e) || Primitive.byName(e.primitive()).map(IN_ORDER::contains).orElse(false);
  }
}
