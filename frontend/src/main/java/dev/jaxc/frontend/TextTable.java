package dev.jaxc.frontend;

/**
 * A hash table keyed by ranges of the source text, so that a name, type or param list seen
 * before is found without first copying its text into a {@code String}. A key is kept as the
 * range of its first occurrence. One parse's table: not thread-safe.
 *
 * @param <V> what a key maps to
 */
final class TextTable<V> {
  private static final int INITIAL = 64;

  private final Lexer lx;
  /** Per slot: the key's hash, start and end (next to each other: one cache line per probe). */
  private int[] keys = new int[3 * INITIAL];
  private Object[] values = new Object[INITIAL];
  private int size;

  TextTable(Lexer lx) {
    this.lx = lx;
  }

  /** The value of the text {@code [start, end)}, or null. */
  V get(int start, int end) {
    return valueAt(find(lx.hash(start, end), start, end));
  }

  /** The value of the key {@code s}, or null (for names held as strings; off the hot path). */
  V get(String s) {
    int h = Lexer.hash(s);
    int mask = values.length - 1;
    for (int i = h & mask; values[i] != null; i = (i + 1) & mask) {
      int k = 3 * i;
      if (keys[k] == h && keys[k + 2] - keys[k + 1] == s.length() && lx.text.startsWith(s, keys[k + 1])) {
        return valueAt(i);
      }
    }
    return null;
  }

  /** Maps the text {@code [start, end)} to {@code v}, replacing what it mapped to. */
  void put(int start, int end, V v) {
    int h = lx.hash(start, end);
    int i = find(h, start, end);
    if (i >= 0) {
      values[i] = v;
      return;
    }
    if (2 * (size + 1) > values.length) grow();
    insert(h, start, end, v);
    size++;
  }

  /** The slot holding the key, or -1. */
  private int find(int h, int start, int end) {
    int mask = values.length - 1;
    for (int i = h & mask; values[i] != null; i = (i + 1) & mask) {
      int k = 3 * i;
      if (keys[k] == h && lx.regionEquals(keys[k + 1], keys[k + 2], start, end)) return i;
    }
    return -1;
  }

  @SuppressWarnings("unchecked")
  private V valueAt(int i) {
    return i < 0 ? null : (V) values[i];
  }

  private void insert(int h, int start, int end, Object v) {
    int mask = values.length - 1;
    int i = h & mask;
    while (values[i] != null) i = (i + 1) & mask;
    keys[3 * i] = h;
    keys[3 * i + 1] = start;
    keys[3 * i + 2] = end;
    values[i] = v;
  }

  private void grow() {
    int[] k = keys;
    Object[] v = values;
    keys = new int[2 * k.length];
    values = new Object[2 * v.length];
    for (int i = 0; i < v.length; i++) if (v[i] != null) insert(k[3 * i], k[3 * i + 1], k[3 * i + 2], v[i]);
  }
}
