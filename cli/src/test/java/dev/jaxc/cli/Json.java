package dev.jaxc.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for the benchmark suite's meta.json (objects as maps, arrays as lists,
 * numbers as doubles, strings without escapes beyond \" \\ \/ \n \t, true, false, null).
 */
final class Json {
  private final String s;
  private int at;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.space();
    if (j.at != text.length()) throw j.error("trailing text");
    return v;
  }

  private Object value() {
    space();
    if (at >= s.length()) throw error("unexpected end");
    char c = s.charAt(at);
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (s.startsWith("true", at)) return word("true", Boolean.TRUE);
    if (s.startsWith("false", at)) return word("false", Boolean.FALSE);
    if (s.startsWith("null", at)) return word("null", null);
    int start = at;
    while (at < s.length() && "+-0123456789.eEinfaINFATy".indexOf(s.charAt(at)) >= 0) at++;
    if (start == at) throw error("unexpected '" + c + "'");
    String n = s.substring(start, at);
    return n.equals("Infinity") ? Double.POSITIVE_INFINITY : n.equals("-Infinity") ? Double.NEGATIVE_INFINITY : Double.parseDouble(n);
  }

  private Object word(String w, Object v) {
    at += w.length();
    return v;
  }

  private Map<String, Object> object() {
    Map<String, Object> r = new LinkedHashMap<>();
    at++;
    space();
    if (s.charAt(at) == '}') {
      at++;
      return r;
    }
    while (true) {
      space();
      String k = string();
      space();
      expect(':');
      r.put(k, value());
      space();
      if (s.charAt(at) == '}') {
        at++;
        return r;
      }
      expect(',');
    }
  }

  private List<Object> array() {
    List<Object> r = new ArrayList<>();
    at++;
    space();
    if (s.charAt(at) == ']') {
      at++;
      return r;
    }
    while (true) {
      r.add(value());
      space();
      if (s.charAt(at) == ']') {
        at++;
        return r;
      }
      expect(',');
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (s.charAt(at) != '"') {
      char c = s.charAt(at++);
      if (c == '\\') {
        char e = s.charAt(at++);
        b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
      } else {
        b.append(c);
      }
    }
    at++;
    return b.toString();
  }

  private void expect(char c) {
    if (at >= s.length() || s.charAt(at) != c) throw error("expected '" + c + "'");
    at++;
  }

  private void space() {
    while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON at offset " + at + ": " + what);
  }
}
