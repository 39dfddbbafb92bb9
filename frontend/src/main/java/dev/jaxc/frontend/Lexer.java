package dev.jaxc.frontend;

import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over the cleaned source text with the scanning primitives the parsers share. The jaxpr
 * text is context-sensitive (types, literals and param values each have their own lexical
 * rules), so the parsers call the scanner for the kind of token they expect at each point rather
 * than pulling from a single token stream. Every method moves forward only, so a parse is linear
 * in the input. Also tracks nesting depth, so that hostile inputs fail with an error instead of
 * overflowing the stack.
 */
final class Lexer {
  static final int MAX_DEPTH = 200;
  private static final int QUOTE_MAX = 32;

  /** A character that is not Latin-1 reads as this byte (it is nothing in the grammar). */
  private static final byte OTHER = '?';
  /** Bytes the first pass stops at: line breaks, control characters and {@link #OTHER}. */
  private static final boolean[] NOTED = new boolean[256];

  static {
    for (int c = 0; c < 0x20; c++) NOTED[c] = c != ' ' && c != '\t';
    NOTED[0x7f] = true;
    NOTED[OTHER] = true;
  }

  final String text;
  /**
   * The text one byte per character (a character past Latin-1 reads as {@code '?'}), so offsets
   * are the same: the scanners read bytes, which is several times faster than {@code charAt}.
   * The jaxpr grammar is ASCII; only free-text param values can hold other characters, and their
   * text is always taken from {@link #text}.
   */
  final byte[] bytes;
  final int length;
  /** Whether {@link #bytes} is the text itself (no character past Latin-1). */
  private final boolean exact;
  /** The first control character other than tab and line breaks, or -1. */
  private final int firstControl;
  private final LineIndex lines;
  private final TextTable<String> names = new TextTable<>(this);
  int pos;
  private int depth;

  Lexer(String text) {
    this.text = text;
    this.length = text.length();
    byte[] b = text.getBytes(StandardCharsets.ISO_8859_1); // a copy for Latin-1 text
    if (b.length != length) { // a surrogate pair became one '?': map character by character
      b = new byte[length];
      for (int i = 0; i < length; i++) {
        char c = text.charAt(i);
        b[i] = c < 256 ? (byte) c : OTHER;
      }
    }
    this.bytes = b;
    // One pass finds the line starts, the first control character and whether any '?' stands
    // for a character past Latin-1.
    int[] starts = new int[Math.max(16, length / 32)];
    int lineCount = 0;
    starts[lineCount++] = 0;
    int control = -1;
    boolean same = true;
    for (int i = 0; i < length; i++) {
      if (!NOTED[b[i] & 0xff]) continue;
      byte c = b[i];
      if (c == '\n') {
        if (lineCount == starts.length) starts = Arrays.copyOf(starts, lineCount * 2);
        starts[lineCount++] = i + 1;
      } else if (c == OTHER) {
        same &= text.charAt(i) == OTHER;
      } else if (c != '\r' && control < 0) {
        control = i;
      }
    }
    this.exact = same;
    this.firstControl = control;
    this.lines = new LineIndex(starts, lineCount, length);
  }

  /** The first control character other than tab and line breaks (binary input), or -1. */
  int firstControl() {
    return firstControl;
  }

  // ---- positions and errors

  Span span(int start, int end) {
    return lines.span(start, end);
  }

  int column(int offset) {
    return lines.colOf(offset);
  }

  JaxcException error(String message, int start, int end) {
    return new JaxcException(message, span(start, end));
  }

  /** An error located at the token starting at {@code at}. */
  JaxcException errorAt(String message, int at) {
    if (at >= length) at = endOfText();
    return error(message, at, tokenEnd(at));
  }

  /** Just after the last non-blank character: where "end of input" errors point. */
  int endOfText() {
    int i = length;
    while (i > 0 && isSpace((char) bytes[i - 1])) i--;
    return i;
  }

  /** "expected X, found Y" at the current position. */
  JaxcException expected(String what) {
    return errorAt("expected " + what + ", found " + found(pos), pos);
  }

  /** Describes the token at {@code p} for messages: {@code 'foo'}, or "end of input". */
  String found(int p) {
    if (p >= length) return "end of input";
    char c = charAt(p);
    if (c == '\n' || c == '\r') return "end of line";
    if (c == ' ') return "a space";
    if (c == '\t') return "a tab";
    int end = tokenEnd(p);
    String tok = text.substring(p, Math.min(end, p + QUOTE_MAX));
    return "'" + tok + (end > p + QUOTE_MAX ? "…" : "") + "'";
  }

  /** End of the token at {@code p}: a word, a number, or one other character. */
  int tokenEnd(int p) {
    if (p >= length) return p;
    int i = p;
    if (charAt(i) == '-' && isWordChar(charAt(i + 1))) i++;
    boolean number = isDigit(charAt(i));
    while (i < length && (isWordChar(charAt(i)) || (number && charAt(i) == '.'))) i++;
    return i == p ? p + 1 : i;
  }

  // ---- characters

  boolean atEnd() {
    return pos >= length;
  }

  char peek() {
    return pos < length ? (char) (bytes[pos] & 0xff) : 0;
  }

  /**
   * The character at {@code i}, 0 outside the text; a character past Latin-1 reads as
   * {@code '?'} (only grammar characters, all ASCII, are compared with it).
   */
  char charAt(int i) {
    return i >= 0 && i < length ? (char) (bytes[i] & 0xff) : 0;
  }

  /** Whether the ASCII string {@code s} is at {@code at}. */
  boolean startsWith(String s, int at) {
    int n = s.length();
    if (at < 0 || at + n > length) return false;
    for (int i = 0; i < n; i++) if (bytes[at + i] != s.charAt(i)) return false;
    return true;
  }

  /** {@code w} at {@code p}, not followed by a word character. */
  boolean atWord(String w, int p) {
    return startsWith(w, p) && !isWordChar(charAt(p + w.length()));
  }

  /** The first {@code c} at or after {@code from}, or -1. */
  int indexOf(char c, int from) {
    for (int i = Math.max(from, 0); i < length; i++) if (bytes[i] == c) return i;
    return -1;
  }

  /** The text {@code [start, end)}. */
  String substring(int start, int end) {
    return text.substring(start, end);
  }

  // ---- ranges as keys

  int hash(int start, int end) {
    int h = 0;
    for (int i = start; i < end; i++) h = 31 * h + bytes[i];
    return mix(h);
  }

  /** {@link #hash(int, int)} of a text that reads {@code s}. */
  static int hash(String s) {
    int h = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      h = 31 * h + (c < 256 ? (byte) c : OTHER);
    }
    return mix(h);
  }

  private static int mix(int h) {
    // Mixed (MurmurHash3's finaliser): short names differ in few low bits, and the tables probe
    // linearly from the low bits.
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }

  /** Whether the texts {@code [s1, e1)} and {@code [s2, e2)} are equal. */
  boolean regionEquals(int s1, int e1, int s2, int e2) {
    int n = e1 - s1;
    if (n != e2 - s2) return false;
    for (int i = 0; i < n; i++) if (bytes[s1 + i] != bytes[s2 + i]) return false;
    return exact || text.regionMatches(s1, text, s2, n);
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  static boolean isWordChar(char c) {
    return isIdentStart(c) || (c >= '0' && c <= '9');
  }

  /** {@link #isWordChar} by byte. */
  private static final boolean[] WORD = new boolean[256];

  static {
    for (int c = 0; c < 256; c++) WORD[c] = isWordChar((char) c);
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  // ---- whitespace

  /**
   * Skips spaces, line breaks and {@code #} comment lines (the source-info annotations of
   * {@code pretty_print(source_info=True)}). Returns whether a line break was crossed.
   */
  boolean skipSpace() {
    boolean newline = false;
    byte[] b = bytes;
    int p = pos;
    while (p < length) {
      byte c = b[p];
      if (c == '\n') {
        newline = true;
        p++;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        p++;
      } else if (c == '#') {
        while (p < length && b[p] != '\n') p++;
      } else {
        break;
      }
    }
    pos = p;
    return newline;
  }

  /** The first position at or after {@code p} that is not a space or line break. */
  int skipSpaceFrom(int p) {
    while (p < length && isSpace((char) bytes[p])) p++;
    return p;
  }

  // ---- words

  int identEnd(int p) {
    byte[] b = bytes;
    if (p < 0 || p >= length || !isIdentStart((char) b[p])) return p;
    int i = p + 1;
    while (i < length && WORD[b[i] & 0xff]) i++;
    return i;
  }

  /** Reads an identifier, or fails with "expected {@code what}, found …". */
  Token ident(String what) {
    int end = identEnd(pos);
    if (end == pos) throw expected(what);
    Token t = new Token(text.substring(pos, end), span(pos, end));
    pos = end;
    return t;
  }

  /**
   * The text {@code [start, end)} as a string shared by every occurrence: for words that repeat
   * thousands of times (primitive names), not for variables (each is bound once).
   */
  String name(int start, int end) {
    String s = names.get(start, end);
    if (s == null) {
      s = text.substring(start, end);
      names.put(start, end, s);
    }
    return s;
  }

  /** Consumes {@code c} or fails with "expected {@code what}, found …". */
  void expect(char c, String what) {
    if (peek() != c) throw expected(what);
    pos++;
  }

  // ---- nesting

  /** Enters one nesting level opened at {@code at}; fails past {@link #MAX_DEPTH}. */
  void enter(int at) {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels", at, at + 1);
    }
  }

  void leave() {
    depth--;
  }

  int depth() {
    return depth;
  }

  /** Restores the depth after an abandoned attempt (see {@link ParamDecoder}). */
  void resetDepth(int d) {
    depth = d;
  }
}
