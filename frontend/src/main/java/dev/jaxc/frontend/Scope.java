package dev.jaxc.frontend;

import dev.jaxc.ir.Var;
import java.util.Arrays;

/**
 * The names bound in one {@code { lambda … }}: constvars, invars and equation binders so far.
 * Every jaxpr is a closed scope (§5.3), so there is no parent. {@code _} may be bound many times;
 * the latest one answers a reference to {@code _} (§5.2).
 *
 * <p>Names are looked up by their text, without copying it. JAX names variables {@code a},
 * {@code b}, …, {@code z}, {@code ba}, {@code bb}, … in order, so a name of lowercase letters is
 * kept in an array at its number in base 26: a model's variables fill it densely, and an operand,
 * usually bound a few lines before, is found in a cache line that is already loaded (a hash table
 * of a million names misses the cache on every lookup). Other names go to a hash table.
 */
final class Scope {
  /** Letters a name's number may have: 26^6 fits an int. */
  private static final int MAX_LETTERS = 6;

  private final Lexer lx;
  private Var[] byNumber = new Var[64];
  private int count;
  private final TextTable<Var> others;
  private boolean hasOthers;
  private Var lastDropped;

  Scope(Lexer lx) {
    this.lx = lx;
    this.others = new TextTable<>(lx);
  }

  Var lookup(String name) {
    if (name.equals("_")) return lastDropped;
    int n = number(name);
    Var v = n >= 0 && n < byNumber.length ? byNumber[n] : null;
    return v != null || !hasOthers ? v : others.get(name);
  }

  /** {@link #lookup(String)} of the name written at {@code [start, end)}. */
  Var lookup(int start, int end) {
    return end == start + 1 && lx.charAt(start) == '_' ? lastDropped : get(start, end);
  }

  /** The variable already bound under this name, if any ({@code _} never clashes). */
  Var clash(String name) {
    return name.equals("_") ? null : lookup(name);
  }

  /** {@link #clash(String)} of the name written at {@code [start, end)}. */
  Var clash(int start, int end) {
    return end == start + 1 && lx.charAt(start) == '_' ? null : get(start, end);
  }

  /** Binds {@code v}, whose span must be its name as written in the text this scope reads. */
  void bind(Var v) {
    if (v.isDropped()) {
      lastDropped = v;
      return;
    }
    int start = v.span().start();
    int end = start + v.name().length();
    int n = number(start, end);
    // The array grows only while names stay dense; a stray long name goes to the hash table. A
    // name is looked up in the array first, so a later binding there hides an earlier one in
    // the table, as rebinding should.
    if (n >= 0 && n >= byNumber.length && n < 8 * (count + 1024)) {
      byNumber = Arrays.copyOf(byNumber, Math.max(2 * byNumber.length, n + 1));
    }
    if (n >= 0 && n < byNumber.length) {
      byNumber[n] = v;
    } else {
      others.put(start, end, v);
      hasOthers = true;
    }
    count++;
  }

  private Var get(int start, int end) {
    int n = number(start, end);
    Var v = n >= 0 && n < byNumber.length ? byNumber[n] : null;
    return v != null || !hasOthers ? v : others.get(start, end);
  }

  /** The name's number in bijective base 26 ({@code a} = 1) if it is 1 to 6 lowercase letters, else -1. */
  private int number(int start, int end) {
    if (end <= start || end - start > MAX_LETTERS) return -1;
    byte[] b = lx.bytes;
    int n = 0;
    for (int i = start; i < end; i++) {
      int d = b[i] - ('a' - 1);
      if (d < 1 || d > 26) return -1;
      n = 26 * n + d;
    }
    return n;
  }

  private static int number(String s) {
    if (s.isEmpty() || s.length() > MAX_LETTERS) return -1;
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      int d = s.charAt(i) - ('a' - 1);
      if (d < 1 || d > 26) return -1;
      n = 26 * n + d;
    }
    return n;
  }
}
