package dev.jaxc.ir.prim.rules;

import static dev.jaxc.ir.prim.rules.RuleOperands.declaredShape;
import static dev.jaxc.ir.prim.rules.RuleOperands.error;
import static dev.jaxc.ir.prim.rules.RuleParams.tuple;

import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Dimension arithmetic of the type rules (XLA's, as JAX states it): dims that may be symbolic,
 * axes, and the dilate/stride/broadcast arithmetic of the window, convolution and elementwise
 * shape rules.
 */
final class RuleDims {
  private RuleDims() {}

  /** Equal sizes; a symbolic dim equals only the same expression. Sharding is ignored. */
  static boolean sameDim(Dim a, Dim b) {
    if (a instanceof Dim.Known x && b instanceof Dim.Known y) return x.size() == y.size();
    if (a instanceof Dim.Symbolic x && b instanceof Dim.Symbolic y)
      return x.expr().replace(" ", "").equals(y.expr().replace(" ", ""));
    return false;
  }

  static boolean sameShape(Shape a, Shape b) {
    if (a.rank() != b.rank()) return false;
    for (int i = 0; i < a.rank(); i++) if (!sameDim(a.dims().get(i), b.dims().get(i))) return false;
    return true;
  }

  static boolean isKnown(Dim d, long size) {
    return d instanceof Dim.Known k && k.size() == size;
  }

  static OptionalLong known(Dim d) {
    return d instanceof Dim.Known k ? OptionalLong.of(k.size()) : OptionalLong.empty();
  }

  /**
   * A result dim computed from symbolic inputs: jaxc does not do symbolic arithmetic, so it takes
   * the declared result's dim (JAX's own canonical form) where there is one.
   */
  static Dim derived(RuleContext ctx, int out, int axis, String expr) {
    Optional<Shape> d = declaredShape(ctx, out);
    if (d.isPresent() && axis < d.get().rank()) return d.get().dims().get(axis);
    return new Dim.Symbolic(expr);
  }

  /** Normalises an axis in [-rank, rank) to [0, rank). */
  static int axis(RuleContext ctx, long axis, int rank, String what) {
    long a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
      throw error(ctx, what + " " + axis + " is out of range for rank " + rank);
    return (int) a;
  }

  /** Checks an axis list: each in [0, rank), none repeated. */
  static void axesInRange(RuleContext ctx, long[] axes, int rank, String what) {
    boolean[] seen = new boolean[rank];
    for (long a : axes) {
      if (a < 0 || a >= rank)
        throw error(ctx, what + " " + tuple(axes) + " has " + a + ", out of range for rank "
            + rank);
      if (seen[(int) a]) throw error(ctx, what + " " + tuple(axes) + " repeats " + a);
      seen[(int) a] = true;
    }
  }

  /** The shape without the given (valid) axes. */
  static Shape dropAxes(Shape s, long[] axes) {
    List<Dim> dims = new ArrayList<>();
    outer:
    for (int i = 0; i < s.rank(); i++) {
      for (long a : axes) if (a == i) continue outer;
      dims.add(s.dims().get(i));
    }
    return new Shape(dims);
  }

  /** The known size of a dim; symbolic dims cannot enter the arithmetic below. */
  static long size(Shape s, int axis, String prim, int operand) {
    if (s.dims().get(axis) instanceof Dim.Known k) return k.size();
    throw new TypeRuleException(
        prim
            + " needs known sizes here, but dimension "
            + axis
            + " is symbolic ("
            + s.dims().get(axis).text()
            + ")",
        operand);
  }

  /** All sizes of a shape, for rules that compute with them. */
  static long[] sizes(Shape s, String prim, int operand) {
    long[] r = new long[s.rank()];
    for (int i = 0; i < r.length; i++) r[i] = size(s, i, prim, operand);
    return r;
  }

  /** Size after inserting {@code dilation - 1} holes between elements: max(0, 1 + r(d - 1)). */
  static long dilate(long d, long dilation) {
    return Math.max(0, 1 + dilation * (d - 1));
  }

  /** Number of window positions: max(0, floor((d - window) / stride) + 1). */
  static long strided(long d, long window, long stride) {
    return Math.max(0, Math.floorDiv(d - window, stride) + 1);
  }

  /**
   * JAX's {@code broadcasting_shape_rule}: rank-0 operands are ignored; the others need one rank
   * and, per axis, equal sizes or 1 (the result takes the size that is not 1).
   */
  static Shape broadcast(List<Shape> shapes, String prim) {
    int ref = -1;
    for (int i = 0; i < shapes.size(); i++) {
      if (shapes.get(i).rank() == 0) continue;
      if (ref < 0) ref = i;
      else if (shapes.get(i).rank() != shapes.get(ref).rank())
        throw new TypeRuleException(
            prim
                + ": arrays must have the same number of dimensions, got "
                + shapes.get(ref).text()
                + " and "
                + shapes.get(i).text(),
            i);
    }
    if (ref < 0) return Shape.SCALAR;
    List<Dim> out = new ArrayList<>(shapes.get(ref).dims());
    for (int axis = 0; axis < out.size(); axis++) {
      for (int i = ref + 1; i < shapes.size(); i++) {
        if (shapes.get(i).rank() == 0) continue;
        Dim d = shapes.get(i).dims().get(axis);
        if (sameDim(d, out.get(axis)) || isOne(d)) continue;
        if (isOne(out.get(axis))) out.set(axis, d);
        else
          throw new TypeRuleException(
              prim
                  + " got incompatible shapes for broadcasting: "
                  + shapes.get(ref).text()
                  + " and "
                  + shapes.get(i).text(),
              i);
      }
    }
    return new Shape(out);
  }

  private static boolean isOne(Dim d) {
    return d instanceof Dim.Known k && k.size() == 1;
  }

  /** A shape of known sizes. */
  static Shape shape(long... sizes) {
    List<Dim> ds = new ArrayList<>(sizes.length);
    for (long s : sizes) {
      if (s < 0) throw new TypeRuleException("negative size " + s + " in shape " + java.util.Arrays.toString(sizes));
      ds.add(Dim.of(s));
    }
    return new Shape(ds);
  }

  /** Concatenation of dim lists, keeping each dim as it is (annotations included). */
  @SafeVarargs
  static Shape concat(List<Dim>... parts) {
    List<Dim> ds = new ArrayList<>();
    for (List<Dim> p : parts) ds.addAll(p);
    return new Shape(ds);
  }
}
