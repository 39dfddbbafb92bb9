package dev.jaxc.backend.llvm.emit;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The comparisons with zero that XLA:CPU evaluates without flushing denormals.
 *
 * <p>XLA:CPU flushes denormals in hardware (DAZ), so a lone {@code x == 0} is true for a denormal
 * {@code x}. But LLVM's InstCombine turns an and/or of single-use float comparisons of one value
 * against different class constants ({@code x == 0} with {@code |x| == inf}, or with {@code
 * is_finite(x)}) into one {@code llvm.is.fpclass} bit test, which sees a denormal as subnormal,
 * not zero. {@code jnp.frexp}'s {@code isinf(x) | isnan(x) | x == 0} is such a test, and so is
 * {@code isinf(x) | (x == 0)} in {@code jnp.ldexp}. A comparison against the same constant as its
 * partner ({@code x == 0 | x != x}) merges into one fcmp instead and keeps DAZ. Measured on JAX
 * 0.10.2 for f32 and f64 denormals (testdata case misc_sign_bits_misc).
 */
public final class ClassTestFold {
  private ClassTestFold() {}

  /** A boolean that LLVM can express as a class test of {@code x}. */
  private record Term(Var x, boolean hasClassConstant, List<Eqn> zeroCompares) {}

  /** The {@code eq}/{@code ne} equations of {@code j} (not nested ones) to compare without DAZ. */
  public static Set<Eqn> rawZeroCompares(Jaxpr j) {
    Map<Var, Eqn> def = new IdentityHashMap<>();
    Map<Var, Integer> uses = new IdentityHashMap<>();
    for (Eqn e : j.eqns()) {
      for (Var o : e.outs()) def.put(o, e);
      for (Atom a : e.ins()) if (a instanceof Var v) uses.merge(v, 1, Integer::sum);
    }
    for (Atom a : j.outs()) if (a instanceof Var v) uses.merge(v, 1, Integer::sum);
    Set<Eqn> raw = Collections.newSetFromMap(new IdentityHashMap<>());
    Analysis an = new Analysis(def, uses);
    for (Eqn e : j.eqns()) {
      if (!e.primitive().equals("or") && !e.primitive().equals("and")) continue;
      Term t = an.term(e);
      if (t != null && t.hasClassConstant()) raw.addAll(t.zeroCompares());
    }
    return raw;
  }

  private record Analysis(Map<Var, Eqn> def, Map<Var, Integer> uses) {
    /** The term of a single-use boolean operand, or null. */
    Term operand(Atom a) {
      if (!(a instanceof Var v) || uses.getOrDefault(v, 0) != 1) return null;
      Eqn e = def.get(v);
      return e == null ? null : term(e);
    }

    Term term(Eqn e) {
      List<Atom> in = e.ins();
      switch (e.primitive()) {
        case "eq", "ne" -> {
          Atom a = in.get(0);
          Atom b = in.get(1);
          if (a == b && floatVar(a)) return new Term((Var) a, false, List.of());
          if (isZero(b) && floatVar(a)) return new Term((Var) a, false, List.of(e));
          if (isZero(a) && floatVar(b)) return new Term((Var) b, false, List.of(e));
          if (isInf(b) && floatVar(a)) return new Term(absOperand((Var) a), true, List.of());
          if (isInf(a) && floatVar(b)) return new Term(absOperand((Var) b), true, List.of());
          return null;
        }
        case "is_finite" -> {
          return floatVar(in.get(0)) ? new Term((Var) in.get(0), true, List.of()) : null;
        }
        case "not" -> {
          return operand(in.get(0));
        }
        case "and", "or" -> {
          Term l = operand(in.get(0));
          Term r = operand(in.get(1));
          if (l == null || r == null || l.x() != r.x()) return null;
          List<Eqn> zeros = new ArrayList<>(l.zeroCompares());
          zeros.addAll(r.zeroCompares());
          return new Term(l.x(), l.hasClassConstant() || r.hasClassConstant(), zeros);
        }
        default -> {
          return null;
        }
      }
    }

    /** {@code |x| == inf} tests {@code x}: LLVM looks through fabs. */
    Var absOperand(Var v) {
      Eqn e = def.get(v);
      if (e != null && e.primitive().equals("abs") && uses.getOrDefault(v, 0) == 1
          && e.ins().get(0) instanceof Var x)
        return x;
      return v;
    }
  }

  /** f32, f64 and bf16 are the dtypes whose comparisons flush denormals. */
  private static boolean floatVar(Atom a) {
    if (!(a instanceof Var v) || !(v.type() instanceof ArrayType t)) return false;
    DType d = t.dtype();
    return d == DType.F32 || d == DType.F64 || d == DType.BF16;
  }

  private static boolean isZero(Atom a) {
    return a instanceof Literal l
        && (l.value() instanceof Scalar.Float f ? f.value() == 0.0
            : l.value() instanceof Scalar.Int i && i.value().signum() == 0);
  }

  private static boolean isInf(Atom a) {
    return a instanceof Literal l && l.value() instanceof Scalar.Float f && Double.isInfinite(f.value());
  }
}
