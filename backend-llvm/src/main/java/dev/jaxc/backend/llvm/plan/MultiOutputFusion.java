package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Multi-output fusion of a reduction with the values its operand's chain materialises (XLA's
 * multi-output fusion). A value that must be materialised (a jaxpr output, or read by other
 * consumers) and that a reduction also reads through its fused operand would cost two passes over
 * memory: its fusion group's loop stores it, then the reduction reads it back. When the reduction
 * evaluates each operand element once ({@link BackendRules#evaluatesEachOnce}), the value instead
 * becomes a stored root of the reduction ({@link Step.MultiOutput}): its loop computes each
 * element once, stores it and folds it (the Newton while body's {@code k = 0.5 * (g + e / g)},
 * carried out, and {@code max(abs(k - g))}; a sum and the squares it sums, both returned).
 *
 * <p>A value qualifies when its fusion group has it as the only root, it has the reduction
 * operand's shape and the reduction reads it only at the operand's own index (through
 * elementwise operations on operands of that shape, no broadcast, transpose or slice), and no
 * step between its group and the reduction reads it. The group is dropped and the reduction step
 * takes the value; the fold order is unchanged, so the results are the same bits.
 */
final class MultiOutputFusion {
  private final Map<Var, Producer> producers;
  private final Map<Var, Boolean> materialised;
  private final BackendRules rules;
  private final Function<Step, List<Var>> reads;

  MultiOutputFusion(Map<Var, Producer> producers, Map<Var, Boolean> materialised, BackendRules rules,
      Function<Step, List<Var>> reads) {
    this.producers = producers;
    this.materialised = materialised;
    this.rules = rules;
    this.reads = reads;
  }

  List<Step> merge(List<Step> steps) {
    List<Step> out = new ArrayList<>(steps);
    for (int j = 0; j < out.size(); j++) {
      if (!(out.get(j) instanceof Step.Kernel k)) continue;
      List<Var> roots = new ArrayList<>();
      for (Var v : alignedValues(k.eqn())) {
        int i = groupOf(out, v, j);
        if (i < 0 || readBetween(out, v, i, j)) continue;
        roots.add(v);
      }
      if (roots.isEmpty()) continue;
      Map<Var, Boolean> taken = new IdentityHashMap<>();
      for (Var v : roots) taken.put(v, true);
      int removed = 0;
      for (int s = j - 1; s >= 0; s--) {
        if (out.get(s) instanceof Step.Fusion f && taken.containsKey(f.roots().get(0))) {
          out.remove(s);
          removed++;
        }
      }
      j -= removed;
      out.set(j, new Step.MultiOutput(k, roots));
    }
    return out;
  }

  /**
   * The materialised values (produced by fusion groups) that kernel {@code e} reads only at its
   * operand's own index, through operands it evaluates each element of once.
   */
  List<Var> alignedValues(Eqn e) {
    Primitive p = producers.get(e.outs().get(0)).primitive();
    Map<Var, Boolean> aligned = new IdentityHashMap<>();
    Map<Var, Boolean> elsewhere = new IdentityHashMap<>();
    for (int k = 0; k < e.ins().size(); k++) {
      Atom a = e.ins().get(k);
      walk(a, rules.evaluatesEachOnce(p, e, k), shape(a), aligned, elsewhere);
    }
    List<Var> r = new ArrayList<>();
    for (Var v : aligned.keySet()) if (!elsewhere.containsKey(v)) r.add(v);
    return r;
  }

  private void walk(Atom a, boolean atIndex, long[] shape, Map<Var, Boolean> aligned, Map<Var, Boolean> elsewhere) {
    if (!(a instanceof Var v)) return;
    if (materialised.containsKey(v)) {
      if (atIndex && Arrays.equals(shape(v), shape) && producers.containsKey(v)) aligned.put(v, true);
      else elsewhere.put(v, true);
      return;
    }
    Eqn e = producers.get(v).eqn();
    boolean same = atIndex && sameIndex(e);
    for (Atom in : e.ins()) walk(in, same, shape, aligned, elsewhere);
  }

  /** True if {@code e} reads each operand variable at the index of the element it computes. */
  private static boolean sameIndex(Eqn e) {
    if (e.outs().size() != 1) return false;
    Primitive p = Primitive.byName(e.primitive()).orElse(null);
    if (p == null) return false;
    switch (p.group()) {
      case ELEMENTWISE_UNARY, ELEMENTWISE_BINARY, COMPARISON, SELECT, CONVERSION, IDENTITY, SPECIAL_FUNCTION -> {
        long[] out = shape(e.outs().get(0));
        for (Atom in : e.ins()) if (in instanceof Var v && !Arrays.equals(shape(v), out)) return false;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** The index of the fusion group before {@code j} whose only root is {@code v}, else -1. */
  private static int groupOf(List<Step> steps, Var v, int j) {
    for (int s = 0; s < j; s++) {
      if (steps.get(s) instanceof Step.Fusion f && f.roots().size() == 1 && f.roots().get(0) == v) return s;
    }
    return -1;
  }

  private boolean readBetween(List<Step> steps, Var v, int i, int j) {
    for (int s = i + 1; s < j; s++) for (Var u : reads.apply(steps.get(s))) if (u == v) return true;
    return false;
  }

  private static long[] shape(Atom a) {
    return ((ArrayType) a.type()).shape().sizes();
  }
}
