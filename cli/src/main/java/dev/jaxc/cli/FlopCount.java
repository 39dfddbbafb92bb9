package dev.jaxc.cli;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Type.ArrayType;
import java.util.List;
import java.util.OptionalLong;

/**
 * The floating-point work of a lowered jaxpr for {@code jaxc bench}'s GFLOP/s: the multiply-adds
 * of its dot_generals and convolutions (2 flops each), counted from shapes; a scan's body counts
 * {@code length} times. Empty when the count cannot be known before running (such an equation
 * inside a while or cond body) or when there is none.
 */
final class FlopCount {
  private FlopCount() {}

  static OptionalLong of(Jaxpr j) {
    OptionalLong f = nested(List.of(j));
    return f.isPresent() && f.getAsLong() > 0 ? f : OptionalLong.empty();
  }

  private static OptionalLong of(Eqn e) {
    switch (e.primitive()) {
      case "dot_general": {
        long k = 1;
        long[] lhs = shape(e.ins().get(0));
        for (long d : contracting(e.params())) k *= lhs[(int) d];
        return OptionalLong.of(2 * elements(e.outs().get(0)) * k);
      }
      case "conv_general_dilated": {
        long[] rhs = shape(e.ins().get(1));
        long kernel = elements(e.ins().get(1));
        return OptionalLong.of(2 * elements(e.outs().get(0)) * (kernel / rhs[kernelOutFeature(e.params())]));
      }
      case "scan": {
        OptionalLong body = nested(e.params().getJaxprs("jaxpr"));
        return body.isEmpty() ? body : OptionalLong.of(body.getAsLong() * e.params().getLong("length"));
      }
      default:
        for (ParamValue v : e.params().values().values()) {
          if (hasWork(v)) return OptionalLong.empty();  // while, cond: trip count unknown here
        }
        return OptionalLong.of(0);
    }
  }

  private static OptionalLong nested(List<Jaxpr> bodies) {
    long total = 0;
    for (Jaxpr b : bodies) {
      for (Eqn e : b.eqns()) {
        OptionalLong f = of(e);
        if (f.isEmpty()) return f;
        total += f.getAsLong();
      }
    }
    return OptionalLong.of(total);
  }

  private static boolean hasWork(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue j) return nested(List.of(j.jaxpr())).orElse(1) > 0;
    if (v instanceof ParamValue.Tuple t) return t.items().stream().anyMatch(FlopCount::hasWork);
    return false;
  }

  /** dot_general's lhs contracting dimensions: the first of {@code ((lc, rc), (lb, rb))}. */
  private static long[] contracting(Params p) {
    ParamValue v = p.get("dimension_numbers").orElseThrow();
    if (v instanceof ParamValue.Tuple outer && outer.items().get(0) instanceof ParamValue.Tuple c)
      return Params.asLongs("dimension_numbers", c.items().get(0));
    throw new Params.ParamException("dimension_numbers: unexpected form " + v);
  }

  /** The kernel's output-feature dimension: rhs_spec[0] (None means OIHW: 0). */
  private static int kernelOutFeature(Params p) {
    if (p.isNone("dimension_numbers")) return 0;
    ParamValue v = p.get("dimension_numbers").orElseThrow();
    ParamValue rhs;
    if (v instanceof ParamValue.Record r && r.fields().containsKey("rhs_spec")) rhs = r.fields().get("rhs_spec");
    else if (v instanceof ParamValue.Tuple t && t.items().size() == 3) rhs = t.items().get(1);
    else throw new Params.ParamException("dimension_numbers: unexpected form " + v);
    return (int) Params.asLongs("dimension_numbers", rhs)[0];
  }

  private static long[] shape(Atom a) {
    return ((ArrayType) a.type()).shape().sizes();
  }

  private static long elements(Atom a) {
    return ((ArrayType) a.type()).shape().elementCount();
  }
}
