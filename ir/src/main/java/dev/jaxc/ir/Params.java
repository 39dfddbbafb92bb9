package dev.jaxc.ir;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An equation's parameters in printed order, with typed accessors. Accessors throw {@link
 * ParamException} when a value is missing or of the wrong shape; the type pass turns that into a
 * located error.
 */
public record Params(Map<String, ParamValue> values) {
  public static final Params EMPTY = new Params(Map.of());

  public Params {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** Thrown by the typed accessors; the message names the parameter. */
  public static final class ParamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ParamException(String message) {
      super(message, null, false, false);
    }
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  public Optional<ParamValue> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** True if the key is absent or its value is {@code None}. */
  public boolean isNone(String key) {
    ParamValue v = values.get(key);
    return v == null || v instanceof ParamValue.None;
  }

  public Params with(String key, ParamValue value) {
    Map<String, ParamValue> m = new LinkedHashMap<>(values);
    m.put(key, value);
    return new Params(m);
  }

  private ParamValue require(String key) {
    ParamValue v = values.get(key);
    if (v == null) throw new ParamException("missing parameter '" + key + "'");
    return v;
  }

  public long getLong(String key) {
    return asLong(key, require(key));
  }

  public long getLong(String key, long dflt) {
    ParamValue v = values.get(key);
    return v == null || v instanceof ParamValue.None ? dflt : asLong(key, v);
  }

  public int getInt(String key) {
    return asInt(key, getLong(key));
  }

  public int getInt(String key, int dflt) {
    return asInt(key, getLong(key, dflt));
  }

  private static int asInt(String key, long v) {
    if (v != (int) v) throw new ParamException("parameter '" + key + "' is out of range: " + v);
    return (int) v;
  }

  public boolean getBool(String key, boolean dflt) {
    ParamValue v = values.get(key);
    if (v == null || v instanceof ParamValue.None) return dflt;
    if (v instanceof ParamValue.Bool b) return b.value();
    if (v instanceof ParamValue.Int i) return i.value().signum() != 0;
    throw new ParamException("parameter '" + key + "' must be a boolean");
  }

  public double getDouble(String key) {
    ParamValue v = require(key);
    if (v instanceof ParamValue.Float f) return f.value();
    if (v instanceof ParamValue.Int i) return i.value().doubleValue();
    throw new ParamException("parameter '" + key + "' must be a number");
  }

  /** A tuple of ints ({@code (0, 1)}); a bare int counts as a 1-tuple. */
  public long[] getLongs(String key) {
    return asLongs(key, require(key));
  }

  /** Like {@link #getLongs(String)}, or empty when absent or None. */
  public Optional<long[]> getLongsOpt(String key) {
    return isNone(key) ? Optional.empty() : Optional.of(getLongs(key));
  }

  public int[] getInts(String key) {
    long[] ls = getLongs(key);
    int[] r = new int[ls.length];
    for (int i = 0; i < ls.length; i++) r[i] = Math.toIntExact(ls[i]);
    return r;
  }

  public DType getDType(String key) {
    ParamValue v = require(key);
    if (v instanceof ParamValue.DTypeValue d) return d.dtype();
    if (v instanceof ParamValue.Text t) {
      Optional<DType> d = DType.fromNumpyName(t.text().trim());
      if (d.isPresent()) return d.get();
    }
    throw new ParamException("parameter '" + key + "' must be a dtype, not " + v);
  }

  public Optional<DType> getDTypeOpt(String key) {
    return isNone(key) ? Optional.empty() : Optional.of(getDType(key));
  }

  public Jaxpr getJaxpr(String key) {
    ParamValue v = require(key);
    if (v instanceof ParamValue.JaxprValue j) return j.jaxpr();
    throw new ParamException("parameter '" + key + "' must be a jaxpr");
  }

  /** A tuple of jaxprs ({@code branches=(…)}). */
  public List<Jaxpr> getJaxprs(String key) {
    ParamValue v = require(key);
    List<Jaxpr> r = new ArrayList<>();
    if (v instanceof ParamValue.Tuple t) {
      for (ParamValue item : t.items()) {
        if (!(item instanceof ParamValue.JaxprValue j))
          throw new ParamException("parameter '" + key + "' must hold jaxprs");
        r.add(j.jaxpr());
      }
      return r;
    }
    if (v instanceof ParamValue.JaxprValue j) return List.of(j.jaxpr());
    throw new ParamException("parameter '" + key + "' must be a tuple of jaxprs");
  }

  /** The raw value text of a bare word or enum member: {@code Enum(GatherScatterMode, CLIP)} → "CLIP". */
  public Optional<String> getWord(String key) {
    ParamValue v = values.get(key);
    if (v instanceof ParamValue.Enum e) return Optional.of(e.member());
    if (v instanceof ParamValue.Text t) return Optional.of(t.text());
    if (v instanceof ParamValue.Str s) return Optional.of(s.value());
    if (v instanceof ParamValue.Int i) return Optional.of(i.value().toString());
    return Optional.empty();
  }

  public ParamValue.Record getRecord(String key) {
    ParamValue v = require(key);
    if (v instanceof ParamValue.Record r) return r;
    throw new ParamException("parameter '" + key + "' must be a named record");
  }

  static long asLong(String key, ParamValue v) {
    if (v instanceof ParamValue.Int i) {
      BigInteger b = i.value();
      if (b.bitLength() < 64) return b.longValue();
    }
    if (v instanceof ParamValue.Bool b) return b.value() ? 1 : 0;
    throw new ParamException("parameter '" + key + "' must be an integer, not " + v);
  }

  /** Decodes a tuple (or list) of ints. */
  public static long[] asLongs(String key, ParamValue v) {
    if (v instanceof ParamValue.Tuple t) {
      long[] r = new long[t.items().size()];
      for (int i = 0; i < r.length; i++) r[i] = asLong(key, t.items().get(i));
      return r;
    }
    if (v instanceof ParamValue.Int) return new long[] {asLong(key, v)};
    throw new ParamException("parameter '" + key + "' must be a tuple of integers, not " + v);
  }
}
