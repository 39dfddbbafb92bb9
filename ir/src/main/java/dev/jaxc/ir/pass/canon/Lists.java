package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.ParamValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** List edits for operand layouts: insert a run, keep a masked subset. */
final class Lists {
  private Lists() {}

  static <T> List<T> insert(List<T> list, int at, List<? extends T> items) {
    List<T> r = new ArrayList<>(list.subList(0, at));
    r.addAll(items);
    r.addAll(list.subList(at, list.size()));
    return r;
  }

  static <T> List<T> repeat(T item, int n) {
    return Collections.nCopies(n, item);
  }

  /** The items whose {@code keep} entry is set; {@code keep} has one entry per item. */
  static <T> List<T> keep(List<T> list, boolean[] keep) {
    if (keep.length != list.size())
      throw new IllegalArgumentException(keep.length + " flags for " + list.size() + " items");
    List<T> r = new ArrayList<>();
    for (int i = 0; i < keep.length; i++) if (keep[i]) r.add(list.get(i));
    return r;
  }

  static boolean[] concat(boolean[]... parts) {
    int n = 0;
    for (boolean[] p : parts) n += p.length;
    boolean[] r = new boolean[n];
    int at = 0;
    for (boolean[] p : parts) {
      System.arraycopy(p, 0, r, at, p.length);
      at += p.length;
    }
    return r;
  }

  static boolean[] all(int n) {
    boolean[] r = new boolean[n];
    Arrays.fill(r, true);
    return r;
  }

  static boolean every(boolean[] flags) {
    for (boolean f : flags) if (!f) return false;
    return true;
  }

  static boolean any(boolean[] flags) {
    for (boolean f : flags) if (f) return true;
    return false;
  }

  /** A param tuple of ints. */
  static ParamValue.Tuple ints(long[] xs) {
    List<ParamValue> items = new ArrayList<>();
    for (long x : xs) items.add(ParamValue.Int.of(x));
    return new ParamValue.Tuple(items);
  }
}
