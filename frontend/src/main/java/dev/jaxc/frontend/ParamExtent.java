package dev.jaxc.frontend;

import java.util.Arrays;

/**
 * Finds where a free-text param value ends (§8.3). Values are Python {@code str()} output and may
 * hold anything, so the end is where, outside brackets, whitespace is followed by the next
 * {@code key=} or the list's closing {@code ]}:
 *
 * <ul>
 *   <li>broken layout (one param per line): the next key starts a line at the params' indentation,
 *       or sorts after the current key (params are printed sorted);
 *   <li>flat layout: the next key sorts after the current one (a leading {@code name} may be
 *       followed by any key), or the value so far is a single word.
 * </ul>
 *
 * Brackets {@code ()[]{}} must balance; {@code <…>} is balanced when it looks like a repr
 * ({@code <function f at 0x…>}, {@code <lambda>}) and ignored when it does not close (at most
 * {@value #MAX_ANGLES} are tracked, so free text such as {@code a<b} costs nothing); quotes are
 * opaque inside brackets, where Python prints reprs.
 */
final class ParamExtent {
  private static final int MAX_ANGLES = 8;
  private static final int INITIAL_STACK = 8;

  private final Lexer lx;
  private final boolean broken;
  private final int indent;
  private final String key;
  private final boolean leadingName;

  /**
   * @param broken whether the list is printed one param per line
   * @param indent column of the first key (broken layout)
   * @param key the key whose value is scanned
   * @param leadingName whether {@code key} is a {@code name} printed first, out of sort order
   */
  ParamExtent(Lexer lx, boolean broken, int indent, String key, boolean leadingName) {
    this.lx = lx;
    this.broken = broken;
    this.indent = indent;
    this.key = key;
    this.leadingName = leadingName;
  }

  /** End of the value starting at {@code start}, before any whitespace that follows it. */
  int end(int start) {
    String s = lx.text;
    int n = lx.length;
    // Open brackets: grown on demand (a value is scanned per param, most hold few brackets).
    char[] closers = new char[INITIAL_STACK];
    int[] openers = new int[INITIAL_STACK];
    int sp = 0;
    int brackets = 0; // open brackets other than '<'
    int angles = 0;
    boolean spaced = false; // whitespace seen outside brackets
    int i = start;
    while (i < n) {
      char c = s.charAt(i);
      if (brackets == 0) {
        if (c == ']') return i;
        if (Lexer.isSpace(c)) {
          int j = i;
          boolean newline = false;
          while (j < n && Lexer.isSpace(s.charAt(j))) newline |= s.charAt(j++) == '\n';
          if (j >= n || s.charAt(j) == ']' || isBoundary(j, newline, spaced)) return i;
          if (sp == 0) spaced = true;
          i = j;
          continue;
        }
      }
      int open = "([{".indexOf(c);
      if (open >= 0) {
        if (lx.depth() + brackets >= Lexer.MAX_DEPTH) {
          throw lx.error("nesting deeper than " + Lexer.MAX_DEPTH + " levels", i, i + 1);
        }
        if (sp == closers.length) {
          closers = Arrays.copyOf(closers, sp * 2);
          openers = Arrays.copyOf(openers, sp * 2);
        }
        closers[sp] = ")]}".charAt(open);
        openers[sp++] = i;
        brackets++;
      } else if (c == '<' && Lexer.isIdentStart(lx.charAt(i + 1)) && angles < MAX_ANGLES) {
        if (sp == closers.length) {
          closers = Arrays.copyOf(closers, sp * 2);
          openers = Arrays.copyOf(openers, sp * 2);
        }
        closers[sp] = '>';
        openers[sp++] = i;
        angles++;
      } else if (c == ')' || c == ']' || c == '}') {
        while (sp > 0 && closers[sp - 1] == '>') { // a '<' that was not a repr
          sp--;
          angles--;
        }
        if (sp > 0 && closers[sp - 1] == c) {
          sp--;
          brackets--;
        } else if (sp > 0) {
          throw lx.error(
              "unbalanced brackets: '" + s.charAt(openers[sp - 1]) + "' at " + where(openers[sp - 1])
                  + " is closed by '" + c + "'",
              i,
              i + 1);
        }
        // An unmatched ')' or '}' outside brackets is just text.
      } else if (c == '>') {
        if (sp > 0 && closers[sp - 1] == '>') {
          sp--;
          angles--;
        }
      } else if ((c == '\'' || c == '"') && brackets > 0) {
        i = stringEnd(i);
        continue;
      }
      i++;
    }
    for (int k = 0; k < sp; k++) {
      if (closers[k] != '>') {
        throw lx.error(
            "unbalanced '" + s.charAt(openers[k]) + "' in the value of parameter '" + key
                + "': no matching '" + closers[k] + "' before the end of the input",
            openers[k],
            openers[k] + 1);
      }
    }
    return n;
  }

  private boolean isBoundary(int j, boolean newline, boolean spaced) {
    int k = lx.identEnd(j);
    if (k == j || lx.charAt(k) != '=' || lx.charAt(k + 1) == '=') return false;
    boolean sorted = leadingName || compareToKey(j, k) > 0;
    if (broken) return newline && (lx.column(j) == indent || sorted);
    return sorted || !spaced;
  }

  /** {@code text[j, k)} compared with {@code key} as {@link String#compareTo} would, without a copy. */
  private int compareToKey(int j, int k) {
    int n = Math.min(k - j, key.length());
    for (int i = 0; i < n; i++) {
      int d = lx.text.charAt(j + i) - key.charAt(i);
      if (d != 0) return d;
    }
    return (k - j) - key.length();
  }

  /** End of a quoted Python string at {@code q}; strings never span lines. */
  private int stringEnd(int q) {
    String s = lx.text;
    char quote = s.charAt(q);
    int i = q + 1;
    while (i < lx.length) {
      char c = s.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else if (c == '\n') {
        break;
      } else {
        i++;
      }
    }
    throw lx.error("unterminated string: no closing " + quote + " on this line", q, Math.min(i, lx.length));
  }

  private String where(int offset) {
    dev.jaxc.ir.diag.Span sp = lx.span(offset, offset);
    return sp.line() + ":" + sp.col();
  }
}
