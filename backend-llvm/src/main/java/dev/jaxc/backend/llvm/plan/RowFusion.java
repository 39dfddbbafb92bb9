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

/**
 * Row fusion: consecutive steps that all work row by row over the same leading dimensions (the
 * rows) become one {@link Step.Rows}, a loop over the rows that runs every step for a row before
 * the next row, so a row read by several of them stays in cache (softmax: the row's max, the sum
 * of exp(x - max), then the outputs; layernorm: mean, variance, normalised row).
 *
 * <p>A group starts at a reduction the backend can emit per row ({@link
 * BackendRules#rowReduction}) and takes the following steps while each one writes values whose
 * leading dimensions are the rows and reads values written earlier in the group only at its own
 * row: through elementwise operations on operands with the same leading dimensions, broadcasts
 * that keep them, and reshapes between shapes that both start with them. Values written before
 * the group may be read anywhere. A group of one step stays as it was.
 */
final class RowFusion {
  private final Map<Var, Producer> producers;
  private final Map<Var, Boolean> materialised;
  private final BackendRules rules;

  RowFusion(Map<Var, Producer> producers, Map<Var, Boolean> materialised, BackendRules rules) {
    this.producers = producers;
    this.materialised = materialised;
    this.rules = rules;
  }

  List<Step> group(List<Step> steps) {
    List<Step> out = new ArrayList<>();
    int s = 0;
    while (s < steps.size()) {
      long[] rows = rowsOfReduction(steps.get(s));
      if (rows == null) {
        out.add(steps.get(s++));
        continue;
      }
      Map<Var, Boolean> defined = new IdentityHashMap<>();
      List<Step> members = new ArrayList<>();
      while (s < steps.size() && fits(steps.get(s), rows, defined)) {
        members.add(steps.get(s));
        for (Var v : defined(steps.get(s))) defined.put(v, true);
        s++;
      }
      if (members.size() >= 2) {
        out.add(new Step.Rows(Arrays.stream(rows).boxed().toList(), members));
      } else {
        out.addAll(members);
        if (members.isEmpty()) out.add(steps.get(s++));
      }
    }
    return out;
  }

  /** The rows of a reduction step the backend emits per row, else null. */
  private long[] rowsOfReduction(Step s) {
    if (!(s instanceof Step.Kernel k)) return null;
    Eqn e = k.eqn();
    Primitive p = producers.get(e.outs().get(0)).primitive();
    int kept = rules.rowReduction(p, e);
    if (kept < 1) return null;
    long[] shape = shape(e.ins().get(0));
    long[] rows = Arrays.copyOf(shape, kept);
    return Arrays.stream(rows).reduce(1, (a, b) -> a * b) >= 2 ? rows : null;
  }

  /**
   * True if step {@code s} can join a group over {@code rows} in which the values {@code defined}
   * were written by earlier members (it reads them at its own row only).
   */
  boolean fits(Step s, long[] rows, Map<Var, Boolean> defined) {
    if (s instanceof Step.Kernel k) {
      long[] r = rowsOfReduction(k);
      if (r == null || !Arrays.equals(r, rows)) return false;
      return reads(k.eqn().ins().get(0), rows, true, defined);
    }
    if (s instanceof Step.Fusion f) {
      for (Var root : f.roots()) {
        if (!startsWith(shape(root), rows)) return false;
        for (Atom a : producers.get(root).eqn().ins()) if (!reads(a, rows, preserves(producers.get(root).eqn(), a, rows), defined)) return false;
      }
      return true;
    }
    return false;
  }

  /**
   * True if reading {@code a} (at the row when {@code atRow}) is safe inside the group: a value
   * written earlier in the group must be read at the row only.
   */
  private boolean reads(Atom a, long[] rows, boolean atRow, Map<Var, Boolean> defined) {
    if (!(a instanceof Var v)) return true;
    if (materialised.containsKey(v)) return !defined.containsKey(v) || atRow;
    Eqn e = producers.get(v).eqn();
    for (Atom in : e.ins()) if (!reads(in, rows, atRow && preserves(e, in, rows), defined)) return false;
    return true;
  }

  /** True if {@code e} reads {@code operand} at the row of the output index it computes. */
  private static boolean preserves(Eqn e, Atom operand, long[] rows) {
    long[] out = shape(e.outs().get(0));
    long[] in = shape(operand);
    if (!startsWith(out, rows) || !startsWith(in, rows)) return false;
    Primitive p = Primitive.byName(e.primitive()).orElse(null);
    if (p == null) return false;
    switch (p.group()) {
      case ELEMENTWISE_UNARY, ELEMENTWISE_BINARY, COMPARISON, SELECT, CONVERSION, IDENTITY, SPECIAL_FUNCTION -> {
        return in.length == out.length;
      }
      case SHAPE -> {
        if (p == Primitive.RESHAPE || p == Primitive.SQUEEZE) return true;  // row-major: both start with the rows
        if (p != Primitive.BROADCAST_IN_DIM) return false;
        long[] dims = e.params().getLongs("broadcast_dimensions");
        for (int d = 0; d < rows.length; d++) if (d >= dims.length || dims[d] != d) return false;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  private static boolean startsWith(long[] shape, long[] rows) {
    return shape.length >= rows.length && Arrays.equals(Arrays.copyOf(shape, rows.length), rows);
  }

  private static long[] shape(Atom a) {
    return ((ArrayType) a.type()).shape().sizes();
  }

  static List<Var> defined(Step s) {
    if (s instanceof Step.Fusion f) return f.roots();
    if (s instanceof Step.Kernel k) return k.epilogue() != null ? List.of(k.epilogue()) : k.eqn().outs();
    if (s instanceof Step.Rows r) {
      List<Var> all = new ArrayList<>();
      for (Step inner : r.steps()) all.addAll(defined(inner));
      return all;
    }
    if (s instanceof Step.CopyOut) return List.of();
    if (s instanceof Step.MultiOutput m) {
      List<Var> all = new ArrayList<>(m.kernel().eqn().outs());
      all.addAll(m.roots());
      return all;
    }
    throw new AssertionError(s);
  }
}
