package dev.jaxc.frontend;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Types as {@code str_short} prints them (§4.1): {@code f32[2,3]}, {@code f32<host>[3]},
 * {@code f32[8@x,4]}, {@code f32[4]{V:x}}, symbolic dims {@code f32[max(c, 4),2*b]},
 * {@code key<fry>[]}, {@code Tok}, the unit {@code *} of JAX <= 0.3, and other abstract values ({@code Ref{f32[3]}}) kept as
 * opaque text. A type never spans lines.
 */
final class TypeParser {
  /**
   * JAX's unit, printed {@code *} (binders {@code _:*}, operands and outputs {@code *}) until
   * units were removed in 0.3.x (2022): a value that carries nothing.
   */
  static final Type UNIT = new Type.OpaqueType("*");

  private TypeParser() {}

  /**
   * As {@link #parse(Lexer)}, reusing the result for a plain type ({@code f32[8,64]}: a word and
   * digits and commas in brackets, followed by what may end a type) read before. Types are
   * immutable, and the text decides the result, so sharing changes nothing but memory and time.
   */
  static Type parse(Lexer lx, TextTable<Type> seen) {
    int start = lx.pos;
    int end = plainEnd(lx, start);
    if (end < 0) return parse(lx);
    Type t = seen.get(start, end);
    if (t != null) {
      lx.pos = end;
      return t;
    }
    t = parse(lx);
    if (lx.pos == end) seen.put(start, end, t);
    return t;
  }

  /** End of a plain type at {@code p} followed by a character that may end a type, else -1. */
  private static int plainEnd(Lexer lx, int p) {
    int i = lx.identEnd(p);
    if (i == p || lx.charAt(i) != '[') return -1;
    i++;
    while (Lexer.isDigit(lx.charAt(i)) || lx.charAt(i) == ',') i++;
    if (lx.charAt(i) != ']') return -1;
    i++;
    char c = lx.charAt(i);
    return c == 0 || Lexer.isSpace(c) || ".;,)]}".indexOf(c) >= 0 ? i : -1;
  }

  /** Reads the type at the cursor (just after a binder's or literal's {@code :}). */
  static Type parse(Lexer lx) {
    int start = lx.pos;
    if (lx.peek() == '*') { // the unit type of JAX <= 0.3.x (AbstractUnit.str_short)
      lx.pos++;
      return UNIT;
    }
    int wordEnd = lx.identEnd(start);
    if (wordEnd == start) throw lx.expected("a type after ':'");
    String word = lx.text.substring(start, wordEnd);
    Type t;
    Optional<DType> dtype = DType.fromShortName(word);
    if (word.equals("Tok")) {
      lx.pos = wordEnd;
      t = new Type.TokenType();
    } else if (word.equals("key") && lx.charAt(wordEnd) == '<') {
      lx.pos = wordEnd;
      String impl = angle(lx);
      t = new Type.KeyType(impl, shape(lx, word));
    } else if (dtype.isPresent()) {
      lx.pos = wordEnd;
      String memorySpace = lx.peek() == '<' ? angle(lx) : null;
      Shape shape = shape(lx, word);
      String vma = suffixes(lx);
      t = new Type.ArrayType(dtype.get(), shape, false, memorySpace, vma);
    } else if (Character.isUpperCase(word.charAt(0))) {
      lx.pos = wordEnd;
      while ("<{[(".indexOf(lx.peek()) >= 0) group(lx);
      t = new Type.OpaqueType(lx.text.substring(start, lx.pos));
    } else if (lx.charAt(wordEnd) == '[' || lx.charAt(wordEnd) == '<') {
      throw lx.error("unknown dtype '" + word + "'", start, wordEnd);
    } else {
      throw lx.error("expected a type after ':', found '" + word + "'", start, wordEnd);
    }
    char c = lx.peek();
    if (c != 0 && !Lexer.isSpace(c) && ".;,)]}".indexOf(c) < 0) {
      throw lx.errorAt(
          "unexpected " + lx.found(lx.pos) + " after type '" + lx.text.substring(start, lx.pos) + "'",
          lx.pos);
    }
    return t;
  }

  /** {@code <name>} after a dtype or {@code key}: a memory space or PRNG implementation. */
  private static String angle(Lexer lx) {
    int open = lx.pos;
    int i = open + 1;
    while (Lexer.isWordChar(lx.charAt(i))) i++;
    if (lx.charAt(i) != '>' || i == open + 1) {
      throw lx.error("malformed type: expected a name and '>' after '<'", open, open + 1);
    }
    lx.pos = i + 1;
    return lx.text.substring(open + 1, i);
  }

  private static Shape shape(Lexer lx, String dtype) {
    if (lx.peek() != '[') {
      throw lx.errorAt("malformed type: expected '[' after '" + dtype + "', found " + lx.found(lx.pos), lx.pos);
    }
    int open = lx.pos++;
    List<Dim> dims = new ArrayList<>();
    char end = lx.peek();
    if (end != ']' && end != ';') {
      do {
        int dimStart = lx.pos;
        end = scanDim(lx, open);
        dims.add(dim(lx, dimStart, lx.pos));
        lx.pos++;
      } while (end == ',');
    } else {
      lx.pos++;
    }
    if (end == ';') {
      // Named axes (`f32[3;i:4]`, `f32[;i:4]`, JAX <= 0.4.30) only matter to xmap/vmap
      // collectives: dropped.
      while (scanDim(lx, open) != ']') lx.pos++;
      lx.pos++;
    }
    return new Shape(dims);
  }

  /** Advances to the {@code ,}, {@code ;} or {@code ]} ending a dim (outside parentheses). */
  private static char scanDim(Lexer lx, int open) {
    int parens = 0;
    int firstParen = -1;
    while (true) {
      char c = lx.peek();
      if (c == 0 || c == '\n' || c == '\r' || c == '[' || c == '{' || c == '}') {
        throw lx.error("unterminated type: this '[' has no matching ']'", open, open + 1);
      }
      if (c == '(') {
        if (parens++ == 0) firstParen = lx.pos;
        if (lx.depth() + parens > Lexer.MAX_DEPTH) {
          throw lx.error("nesting deeper than " + Lexer.MAX_DEPTH + " levels", lx.pos, lx.pos + 1);
        }
      } else if (c == ')') {
        if (--parens < 0) throw lx.error("unbalanced ')' in a dimension", lx.pos, lx.pos + 1);
      } else if (parens > 0 && c == ']') {
        throw lx.error("unbalanced '(' in a dimension: no ')' before ']'", firstParen, firstParen + 1);
      } else if (parens == 0 && (c == ',' || c == ';' || c == ']')) {
        return c;
      }
      lx.pos++;
    }
  }

  private static Dim dim(Lexer lx, int start, int end) {
    String raw = lx.text.substring(start, end);
    String s = raw.strip();
    if (s.isEmpty()) throw lx.error("malformed type: empty dimension", start, Math.max(end, start + 1));
    int at = s.indexOf('@');
    String size = at < 0 ? s : s.substring(0, at);
    if (allDigits(size)) {
      long n;
      try {
        n = Long.parseLong(size);
      } catch (NumberFormatException e) {
        throw lx.error("dimension " + size + " is too large", start, end);
      }
      if (at < 0) return Dim.of(n);
      String sharding = s.substring(at + 1);
      if (sharding.isEmpty()) throw lx.error("malformed dimension '" + s + "': no mesh axis after '@'", start, end);
      return new Dim.Known(n, sharding);
    }
    // Symbolic (shape-polymorphic or dynamic-shape) dims name at least one dimension variable.
    boolean valid = containsLetter(s);
    for (int i = 0; i < s.length() && valid; i++) {
      char c = s.charAt(i);
      valid = Lexer.isWordChar(c) || " +-*^(),".indexOf(c) >= 0;
    }
    if (!valid) throw lx.error("malformed dimension '" + s + "'", start, end);
    return new Dim.Symbolic(s);
  }

  private static boolean containsLetter(String s) {
    for (int i = 0; i < s.length(); i++) if (Lexer.isIdentStart(s.charAt(i))) return true;
    return false;
  }

  private static boolean allDigits(String s) {
    if (s.isEmpty()) return false;
    for (int i = 0; i < s.length(); i++) if (!Lexer.isDigit(s.charAt(i))) return false;
    return true;
  }

  /** Varying-axes suffixes glued after the shape ({@code {V:x}}, {@code {U:u}{x}}), as printed. */
  private static String suffixes(Lexer lx) {
    if (lx.peek() != '{') return null;
    int start = lx.pos;
    while (lx.peek() == '{') group(lx);
    return lx.text.substring(start, lx.pos);
  }

  /** Skips one balanced bracket group on the current line. */
  private static void group(Lexer lx) {
    int open = lx.pos;
    StringBuilder closers = new StringBuilder();
    do {
      char c = lx.peek();
      if (c == 0 || c == '\n' || c == '\r') {
        throw lx.error("unterminated type: '" + lx.text.charAt(open) + "' is not closed on this line", open, open + 1);
      }
      int k = "<{[(".indexOf(c);
      if (k >= 0) {
        closers.append(">}])".charAt(k));
        if (lx.depth() + closers.length() > Lexer.MAX_DEPTH) {
          throw lx.error("nesting deeper than " + Lexer.MAX_DEPTH + " levels", lx.pos, lx.pos + 1);
        }
      } else if (">}])".indexOf(c) >= 0) {
        char want = closers.charAt(closers.length() - 1);
        if (c != want) {
          throw lx.error("unbalanced brackets in type: expected '" + want + "', found '" + c + "'", lx.pos, lx.pos + 1);
        }
        closers.setLength(closers.length() - 1);
      }
      lx.pos++;
    } while (closers.length() > 0);
  }
}
