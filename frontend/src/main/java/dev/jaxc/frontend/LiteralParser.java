package dev.jaxc.frontend;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import java.math.BigInteger;

/**
 * Literal values as Python prints them (§4.2): integers of any size, float reprs with {@code inf}
 * and {@code nan}, {@code True}/{@code False}, complex numbers ({@code (1+2j)}, {@code 1j},
 * {@code (inf+nanj)}), the float0 zero {@code (b'',)} and the opaque {@code [...]}.
 */
final class LiteralParser {
  private static final String FLOAT0 = "(b'',)";
  private static final String OPAQUE = "[...]";

  private LiteralParser() {}

  /** Whether a word (an identifier-like token) is literal syntax: {@code True}, {@code nan}, {@code infj}. */
  static boolean isLiteralWord(String w) {
    return switch (w) {
      case "True", "False", "inf", "nan", "infj", "nanj" -> true;
      default -> false;
    };
  }

  /** {@link #isLiteralWord(String)} of the text {@code [p, e)}, without copying it. */
  static boolean isLiteralWord(Lexer lx, int p, int e) {
    int n = e - p;
    if (n < 3 || n > 5) return false;
    return switch (lx.charAt(p)) {
      case 'T' -> n == 4 && lx.startsWith("True", p);
      case 'F' -> n == 5 && lx.startsWith("False", p);
      case 'i' -> lx.startsWith("inf", p) && (n == 3 || (n == 4 && lx.charAt(p + 3) == 'j'));
      case 'n' -> lx.startsWith("nan", p) && (n == 3 || (n == 4 && lx.charAt(p + 3) == 'j'));
      default -> false;
    };
  }

  /** Whether a parenthesised literal (complex or float0) starts at {@code p}. */
  static boolean isParenLiteral(String s, int p) {
    return s.startsWith(FLOAT0, p) || complexParenEnd(s, p) > 0;
  }

  /** Reads the literal value at the cursor (not its type). */
  static Scalar value(Lexer lx) {
    int start = lx.pos;
    String s = lx.text;
    char c = lx.peek();
    if (c == '(') {
      if (s.startsWith(FLOAT0, start)) {
        lx.pos += FLOAT0.length();
        return new Scalar.Float0();
      }
      int end = complexParenEnd(s, start);
      if (end < 0) throw malformed(lx, start, parenEnd(s, start));
      lx.pos = end;
      int reEnd = numberEnd(s, start + 1);
      double re = toDouble(s.substring(start + 1, reEnd));
      double im = toDouble(s.substring(reEnd + 1, end - 2));
      return new Scalar.Complex(re, s.charAt(reEnd) == '-' ? -im : im);
    }
    if (c == '[') {
      if (!s.startsWith(OPAQUE, start)) throw malformed(lx, start, parenEnd(s, start));
      lx.pos += OPAQUE.length();
      return new Scalar.Opaque(OPAQUE);
    }
    int end = wordEnd(s, start);
    if (end == start) throw lx.expected("a literal");
    String w = s.substring(start, end);
    Scalar v = parseWord(w);
    if (v == null) throw malformed(lx, start, end);
    lx.pos = end;
    return v;
  }

  /** The weak placeholder type of an untyped literal (§4.2: the type pass resolves it). */
  static Type placeholderType(Scalar v) {
    if (v instanceof Scalar.Int) return new Type.ArrayType(DType.I32, Shape.SCALAR, true);
    if (v instanceof Scalar.Float) return new Type.ArrayType(DType.F32, Shape.SCALAR, true);
    if (v instanceof Scalar.Complex) return new Type.ArrayType(DType.C64, Shape.SCALAR, true);
    if (v instanceof Scalar.Bool) return Type.ArrayType.scalar(DType.BOOL);
    if (v instanceof Scalar.Float0) return Type.ArrayType.scalar(DType.FLOAT0);
    throw new IllegalStateException("no placeholder type for " + v);
  }

  private static Scalar parseWord(String w) {
    switch (w) {
      case "True":
        return new Scalar.Bool(true);
      case "False":
        return new Scalar.Bool(false);
      default:
        break;
    }
    boolean imaginary = w.endsWith("j");
    String num = imaginary ? w.substring(0, w.length() - 1) : w;
    if (num.isEmpty() || numberEnd(num, 0) != num.length()) return null;
    if (imaginary) return new Scalar.Complex(0.0, toDouble(num));
    if (isInteger(num)) return new Scalar.Int(new BigInteger(num));
    return new Scalar.Float(toDouble(num));
  }

  private static boolean isInteger(String num) {
    for (int i = num.charAt(0) == '-' ? 1 : 0; i < num.length(); i++) {
      if (!Lexer.isDigit(num.charAt(i))) return false;
    }
    return true;
  }

  /** Python float text (digits, {@code inf}, {@code nan}, optional sign) to a double. */
  static double toDouble(String num) {
    boolean neg = num.startsWith("-");
    String body = neg ? num.substring(1) : num;
    double v = switch (body) {
      case "inf" -> Double.POSITIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(body);
    };
    return neg ? -v : v;
  }

  /**
   * End of a number at {@code p}: optional {@code -}, then {@code inf}, {@code nan} or digits
   * with an optional fraction and exponent; {@code p} if there is none.
   */
  static int numberEnd(String s, int p) {
    int i = p;
    if (i < s.length() && s.charAt(i) == '-') i++;
    if (s.startsWith("inf", i) || s.startsWith("nan", i)) return i + 3;
    int digits = i;
    while (i < s.length() && Lexer.isDigit(s.charAt(i))) i++;
    if (i == digits) return p;
    if (i < s.length() && s.charAt(i) == '.') {
      i++;
      while (i < s.length() && Lexer.isDigit(s.charAt(i))) i++;
    }
    if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      int e = i + 1;
      if (e < s.length() && (s.charAt(e) == '+' || s.charAt(e) == '-')) e++;
      int expDigits = e;
      while (e < s.length() && Lexer.isDigit(s.charAt(e))) e++;
      if (e == expDigits) return p;
      i = e;
    }
    return i;
  }

  /** End of {@code (RE±IMj)} at {@code p}, or -1. */
  private static int complexParenEnd(String s, int p) {
    if (p >= s.length() || s.charAt(p) != '(') return -1;
    int reEnd = numberEnd(s, p + 1);
    if (reEnd == p + 1 || reEnd >= s.length()) return -1;
    char sign = s.charAt(reEnd);
    if (sign != '+' && sign != '-') return -1;
    int imEnd = numberEnd(s, reEnd + 1);
    if (imEnd == reEnd + 1 || s.charAt(reEnd + 1) == '-') return -1;
    if (!s.startsWith("j)", imEnd)) return -1;
    return imEnd + 2;
  }

  /** End of a literal word: the characters numbers, signs and exponents are made of. */
  static int wordEnd(String s, int p) {
    int i = p;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Lexer.isWordChar(c) || c == '.' || c == '+' || c == '-') i++;
      else break;
    }
    return i;
  }

  /** Where to end the span of a malformed bracketed literal: its closing bracket or the line end. */
  private static int parenEnd(String s, int p) {
    int i = p + 1;
    while (i < s.length() && s.charAt(i) != '\n' && s.charAt(i) != ')' && s.charAt(i) != ']') i++;
    return i < s.length() && s.charAt(i) != '\n' ? i + 1 : i;
  }

  private static RuntimeException malformed(Lexer lx, int start, int end) {
    String t = lx.text.substring(start, Math.min(end, start + 40));
    return lx.error("malformed literal '" + t + "'", start, end);
  }
}
