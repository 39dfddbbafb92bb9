package dev.jaxc.frontend;

import dev.jaxc.ir.diag.Span;
import java.util.Arrays;

/**
 * Start offsets of the lines of a text, for turning offsets into 1-based line and column. One
 * instance serves one thread (it remembers the last line asked for).
 */
final class LineIndex {
  private final int[] starts;
  private final int count;
  private final int length;
  /** The 0-based line of the last {@link #lineOf} answer (not thread-safe: one parse's index). */
  private int last;

  LineIndex(String text) {
    int[] s = new int[16];
    int n = 0;
    s[n++] = 0;
    for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {  // indexOf is vectorised
      if (n == s.length) s = Arrays.copyOf(s, n * 2);
      s[n++] = i + 1;
    }
    this.starts = s;
    this.count = n;
    this.length = text.length();
  }

  /** From line starts already found ({@code starts[0] == 0}, ascending; the array is kept). */
  LineIndex(int[] starts, int count, int length) {
    this.starts = starts;
    this.count = count;
    this.length = length;
  }

  int lineCount() {
    return count;
  }

  /** The 1-based line holding {@code offset} (offsets past the end count as the last line). */
  int lineOf(int offset) {
    int o = Math.max(0, Math.min(offset, length));
    int l = last;  // a parse asks in text order: mostly the line of the last answer or the next
    if (o >= starts[l] && (l + 1 == count || o < starts[l + 1])) return l + 1;
    if (l + 1 < count && o >= starts[l + 1] && (l + 2 == count || o < starts[l + 2])) {
      last = l + 1;
      return l + 2;
    }
    int i = Arrays.binarySearch(starts, 0, count, o);
    int line = i >= 0 ? i : -i - 2;
    last = line;
    return line + 1;
  }

  int lineStart(int line) {
    return starts[line - 1];
  }

  int colOf(int offset) {
    int o = Math.max(0, Math.min(offset, length));
    return o - lineStart(lineOf(o)) + 1;
  }

  Span span(int start, int end) {
    int line = lineOf(start);
    return new Span(start, Math.max(start, end), line, start - lineStart(line) + 1);
  }
}
