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
  private final RowFusion rowFusion;
  private final Function<Step, List<Var>> reads;

  MultiOutputFusion(Map<Var, Producer> producers, Map<Var, Boolean> materialised, BackendRules rules,
      RowFusion rowFusion, Function<Step, List<Var>> reads) {
    this.producers = producers;
    this.materialised = materialised;
    this.rules = rules;
    this.rowFusion = rowFusion;
    this.reads = reads;
  }

  List<Step> merge(List<Step> steps) {
    List<Step> out = new ArrayList<>(steps);
    for (int j = 0; j < out.size(); j++) {
      Map<Var, Boolean> taken = new IdentityHashMap<>();
      Step merged;
      if (out.get(j) instanceof Step.Kernel k) {
        List<Var> roots = roots(out, j, k, List.of(), null);
        if (roots.isEmpty()) continue;
        roots.forEach(v -> taken.put(v, true));
        merged = new Step.MultiOutput(k, roots);
      } else if (out.get(j) instanceof Step.Rows g) {
        merged = rows(out, j, g, taken);
        if (merged == null) continue;
      } else {
        continue;
      }
      int removed = 0;
      for (int s = j - 1; s >= 0; s--) {
        if (out.get(s) instanceof Step.Fusion f && taken.containsKey(f.roots().get(0))) {
          out.remove(s);
          removed++;
        }
      }
      j -= removed;
      out.set(j, merged);
    }
    return out;
  }

  /**
   * A row group whose row reductions store values of their operands' chains for the row (the
   * reduction evaluates each element of its row once), or null when none does. A stored value is
   * then written inside the group, so every later member must read it at its own row only.
   */
  private Step.Rows rows(List<Step> out, int j, Step.Rows g, Map<Var, Boolean> taken) {
    List<Step> members = new ArrayList<>(g.steps());
    boolean any = false;
    for (int m = 0; m < members.size(); m++) {
      if (!(members.get(m) instanceof Step.Kernel k)) continue;
      List<Var> roots = roots(out, j, k, members.subList(0, m), members.subList(m + 1, members.size()));
      roots.removeIf(taken::containsKey);
      if (roots.isEmpty()) continue;
      roots.forEach(v -> taken.put(v, true));
      members.set(m, new Step.MultiOutput(k, roots));
      any = true;
    }
    if (!any) return null;
    return new Step.Rows(g.rows(), members);
  }

  /**
   * The values kernel {@code k} (at step {@code j}, or a member of the row group there after
   * {@code before}) can store: their fusion groups come before step {@code j} and nothing between
   * reads them; in a row group ({@code later} not null) every later member reads them at its row.
   */
  private List<Var> roots(List<Step> out, int j, Step.Kernel k, List<Step> before, List<Step> later) {
    List<Var> roots = new ArrayList<>();
    for (Var v : alignedValues(k.eqn())) {
      int i = groupOf(out, v, j);
      if (i < 0 || readBetween(out, v, i, j)) continue;
      if (readBy(before, v)) continue;
      if (later != null && !readAtRow(later, v, out.get(j))) continue;
      roots.add(v);
    }
    return roots;
  }

  private boolean readBy(List<Step> steps, Var v) {
    for (Step s : steps) for (Var u : reads.apply(s)) if (u == v) return true;
    return false;
  }

  /** True if each step of {@code later} reads {@code v} only at its own row of group {@code g}. */
  private boolean readAtRow(List<Step> later, Var v, Step g) {
    Step.Rows rows = (Step.Rows) g;
    Map<Var, Boolean> defined = new IdentityHashMap<>();
    defined.put(v, true);
    for (Step s : rows.steps()) for (Var u : RowFusion.defined(s)) defined.put(u, true);
    for (Step s : later) if (!rowFusion.fits(s, rows.shape(), defined)) return false;
    return true;
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
