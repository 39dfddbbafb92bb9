package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;
import java.util.Arrays;
import java.util.List;

/** Param shapes several records share: int tuples with defaults, (low, high) pairs, record fields. */
final class ParamReads {
  private ParamReads() {}

  /** An int tuple, or {@code n} copies of {@code fill} when absent or None (dilations). */
  static long[] longsOr(Params p, String key, int n, long fill) {
    if (p.isNone(key)) {
      long[] r = new long[n];
      Arrays.fill(r, fill);
      return r;
    }
    return p.getLongs(key);
  }

  /** {@code ((lo, hi), …)}: one (low, high) pair per dimension. */
  static long[][] pairs(Params p, String key) {
    ParamValue v =
        p.get(key).orElseThrow(() -> new ParamException("missing parameter '" + key + "'"));
    if (!(v instanceof ParamValue.Tuple t))
      throw new ParamException(
          "parameter '" + key + "' must be a tuple of (low, high) pairs, not " + v);
    List<ParamValue> items = t.items();
    long[][] r = new long[items.size()][];
    for (int i = 0; i < r.length; i++) {
      r[i] = Params.asLongs(key, items.get(i));
      if (r[i].length != 2)
        throw new ParamException(
            "parameter '" + key + "' must hold (low, high) pairs, not " + items.get(i));
    }
    return r;
  }

  /** The {@code key} param as a named record of type {@code type}. */
  static ParamValue.Record record(Params p, String key, String type) {
    ParamValue v =
        p.get(key).orElseThrow(() -> new ParamException("missing parameter '" + key + "'"));
    if (v instanceof ParamValue.Record r && r.type().equals(type)) return r;
    throw new ParamException(key + " must be a " + type + ", got " + v);
  }

  /** An int-tuple field; an optional one that is absent is empty. */
  static long[] field(ParamValue.Record r, String name, boolean required) {
    ParamValue v = r.fields().get(name);
    if (v == null) {
      if (required) throw new ParamException(r.type() + " lacks the field " + name);
      return new long[0];
    }
    return Params.asLongs(name, v);
  }

  /** {@code (a, b, c)} for messages, as Python prints a tuple. */
  static String tuple(long[] xs) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < xs.length; i++) sb.append(i > 0 ? ", " : "").append(xs[i]);
    return sb.append(xs.length == 1 ? ",)" : ")").toString();
  }
}
