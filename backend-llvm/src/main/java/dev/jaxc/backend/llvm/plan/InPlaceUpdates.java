package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Updates computed in the buffer of the array they update. An output that is a chain of scatters
 * or dynamic_update_slices ({@code x.at[i].set(u).at[j].set(w)}), and of while and scan loops
 * carrying the array, keeps every array of the chain in the output's buffer: each update kernel finds its operand already in its result buffer and
 * writes only the updated elements, instead of copying the whole array first. A link is taken
 * when the updated array is not an output, nothing later in the schedule reads it, and the
 * kernel's other operands do not read it (directly or through fused producers).
 *
 * <p>A cond result whose every branch returns an operand unchanged or updates it in place is a link
 * too.
 *
 * <p>When such a chain starts at a jaxpr input, the output {@linkplain #overwrites overwrites}
 * that input: a loop whose body carries the value this way passes one buffer as both, so a
 * {@code fori_loop} that updates a few elements of a large carry costs those elements per
 * iteration.
 */
final class InPlaceUpdates {
  static final Set<Primitive> UPDATES = Set.of(
      Primitive.SCATTER, Primitive.SCATTER_ADD, Primitive.SCATTER_SUB, Primitive.SCATTER_MUL,
      Primitive.SCATTER_MIN, Primitive.SCATTER_MAX, Primitive.DYNAMIC_UPDATE_SLICE);

  /** Values that live in an output's buffer (value → output index), though not outputs themselves. */
  final IdentityHashMap<Var, Integer> shared = new IdentityHashMap<>();
  /** Per output, the input it overwrites, or −1 ({@link Plan#overwrites}). */
  final int[] overwrites;

  private final Jaxpr jaxpr;
  private final List<Step> steps;
  private final Map<Eqn, Primitive> primitives;
  private final Map<Var, Producer> producers;
  private final Map<Var, Boolean> materialised;
  private final Function<Step, List<Var>> read;
  private final Map<Eqn, ControlFlowPlan> controlFlow;

  InPlaceUpdates(Jaxpr jaxpr, List<Step> steps, Map<Eqn, Primitive> primitives, Map<Var, Producer> producers,
      Map<Var, Boolean> materialised, Map<Var, Integer> outputIndex, Function<Step, List<Var>> read,
      Map<Eqn, ControlFlowPlan> controlFlow) {
    this.jaxpr = jaxpr;
    this.controlFlow = controlFlow;
    this.steps = steps;
    this.primitives = primitives;
    this.producers = producers;
    this.materialised = materialised;
    this.read = read;
    List<Atom> outs = jaxpr.outs();
    overwrites = new int[outs.size()];
    Arrays.fill(overwrites, -1);
    for (int k = 0; k < outs.size(); k++) {
      if (outs.get(k) instanceof Var o && outputIndex.getOrDefault(o, -1) == k) chain(k, o);
    }
  }

  /** Follows output k's chain of updates back from its value {@code y}. */
  private void chain(int k, Var y) {
    while (true) {
      int s = kernelStep(y);
      if (s < 0) return;
      Eqn e = ((Step.Kernel) steps.get(s)).eqn();
      int operand = inPlaceOperand(e, y);
      if (operand < 0 || !(e.ins().get(operand) instanceof Var x) || !materialised.containsKey(x)
          || !sharable(x, s, e, operand)) return;
      int input = jaxpr.inputs().indexOf(x);
      if (input >= 0) {
        overwrites[k] = input;
        return;
      }
      if (shared.containsKey(x)) return;
      shared.put(x, k);
      y = x;
    }
  }

  /** The step of the plain kernel (no epilogue) that computes {@code y}, or −1. */
  private int kernelStep(Var y) {
    for (int s = 0; s < steps.size(); s++) {
      if (steps.get(s) instanceof Step.Kernel k && k.epilogue() == null && k.eqn().outs().contains(y)) return s;
    }
    return -1;
  }

  /**
   * The operand whose buffer kernel {@code e}'s result {@code y} may take, or −1: an update's
   * array; a while's carry, or a scan's, whose initial value the loop copies into its result
   * first (sharing the buffer makes that copy vanish, and a loop inside a loop body then keeps
   * the carry in place: svd's cancellation and sweep loops copied 4 MiB per QR iteration).
   */
  private int inPlaceOperand(Eqn e, Var y) {
    Primitive p = primitives.get(e);
    int j = e.outs().indexOf(y);
    if (UPDATES.contains(p)) return e.outs().size() == 1 ? 0 : -1;
    if (p == Primitive.WHILE) {
      WhileParams w = WhileParams.of(e.params());
      return w.condNconsts() + w.bodyNconsts() + j;
    }
    if (p == Primitive.SCAN) {
      ScanParams sp = ScanParams.of(e.params());
      return j < sp.numCarry() ? sp.numConsts() + j : -1;
    }
    if (p == Primitive.COND && controlFlow.get(e) instanceof ControlFlowPlan.Cond c) return condOperand(c, j);
    return -1;
  }

  /**
   * A cond's operand (index 0 is the branch index) whose buffer result {@code j} may take: one
   * that every branch either returns unchanged or updates in place ({@link Plan#overwrites}), so
   * that no branch reads it after writing result j. eig's and schur's QR sweeps update their
   * matrices in cond branches inside loops: without this each step copied both n×n matrices.
   */
  private static int condOperand(ControlFlowPlan.Cond c, int j) {
    int found = -1;
    for (Plan b : c.branches()) {
      Atom out = b.jaxpr().outs().get(j);
      int input = b.overwrites(j);
      if (input < 0 && out instanceof Var v) input = b.jaxpr().inputs().indexOf(v);
      if (input < 0 || (found >= 0 && input != found)) return -1;
      found = input;
    }
    return found < 0 ? -1 : found + 1;
  }

  /** Whether kernel {@code e} at step {@code s} may write into its operand {@code operand}, {@code x}'s buffer. */
  private boolean sharable(Var x, int s, Eqn e, int operand) {
    for (Atom a : jaxpr.outs()) if (a == x) return false;
    for (int i = 0; i < e.ins().size(); i++) if (i != operand && reads(e.ins().get(i), x)) return false;
    for (int t = s + 1; t < steps.size(); t++) for (Var v : read.apply(steps.get(t))) if (v == x) return false;
    return true;
  }

  /** Whether operand {@code a} is {@code x} or reads it through fused producers. */
  private boolean reads(Atom a, Var x) {
    return reads(a, x, producers, materialised);
  }

  /**
   * Whether {@code a} is {@code x} or, unmaterialised, reads it through fused producers (the
   * planner asks this of an update's value before the value's own materialisation is decided).
   */
  static boolean reads(Atom a, Var x, Map<Var, Producer> producers, Map<Var, Boolean> materialised) {
    if (a == x) return true;
    if (!(a instanceof Var v) || materialised.containsKey(v) || !producers.containsKey(v)) return false;
    List<Var> pending = new ArrayList<>(List.of(v));
    IdentityHashMap<Var, Boolean> seen = new IdentityHashMap<>();
    while (!pending.isEmpty()) {
      Var u = pending.remove(pending.size() - 1);
      if (seen.put(u, true) != null) continue;
      for (Atom in : producers.get(u).eqn().ins()) {
        if (in == x) return true;
        if (in instanceof Var w && !materialised.containsKey(w) && producers.containsKey(w)) pending.add(w);
      }
    }
    return false;
  }
}
