package dev.jaxc.frontend;

import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An equation's {@code [key=value …]} list (§8). Jaxpr values ({@code { lambda … }}, tuples of
 * them, names of shared jaxprs) are parsed as jaxprs; the end of every other value is found by
 * {@link ParamExtent} and its text decoded by {@link ParamDecoder}.
 */
final class ParamListReader {
  /** Primitives whose nested jaxpr's outputs are the equation's results, one to one (§5.2). */
  private static final Set<String> CALLS =
      Set.of(
          "jit", "pjit", "xla_call", "closed_call", "call", "core_call", "remat2", "checkpoint",
          "custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr", "custom_jvp_call_jaxpr", "remat_call");

  private final Lexer lx;
  private final JaxprReader reader;
  private final ParamDecoder decoder;
  /**
   * Values decoded so far by their text, and param lists by their entries: a model repeats a few
   * of each many times. Only values without jaxprs (no '{') are shared: they hold no spans or
   * variables, and are immutable.
   */
  private final Map<String, ParamValue> decoded = new HashMap<>();
  private final Map<List<Map.Entry<String, ParamValue>>, Params> lists = new HashMap<>();
  /** Lists without jaxprs by their text, {@code [} to {@code ]}. */
  private final TextTable<Params> texts;

  ParamListReader(Lexer lx, JaxprReader reader) {
    this.lx = lx;
    this.reader = reader;
    this.decoder = new ParamDecoder(lx, reader);
    this.texts = new TextTable<>(lx);
  }

  /**
   * Reads the list at the cursor ({@code [}) of an equation with results {@code outs}. A list
   * whose text was read before is not read again: reading a list looks at nothing but its own
   * text (the column of a broken list's keys is counted from the line breaks inside it), the
   * nesting depth (checked here to be far from the limit) and, for jaxpr values, the equation
   * and the shared jaxprs (lists with jaxprs are never reused).
   */
  Params read(String prim, List<Var> outs) {
    int open = lx.pos;
    int close = candidateEnd(open);
    if (close > 0) {
      Params p = texts.get(open, close);
      if (p != null) {
        lx.pos = close;
        return p;
      }
    }
    Params p = readList(prim, outs);
    if (close > 0 && lx.pos == close && isShareable(p)) texts.put(open, close, p);
    return p;
  }

  /**
   * Just after the {@code ]} that closes the {@code [} at {@code open}, counting square brackets
   * only, if the list holds fewer brackets than the depth left; else -1. Only a key for {@link
   * #texts}: a list whose reading ends elsewhere is not remembered.
   */
  private int candidateEnd(int open) {
    byte[] b = lx.bytes;
    int squares = 0;
    int brackets = 0;
    int room = Lexer.MAX_DEPTH - lx.depth() - 2;
    for (int i = open; i < lx.length; i++) {
      byte c = b[i];
      if (c == '[') {
        squares++;
      } else if (c == ']') {
        if (--squares == 0) return i + 1;
        continue;
      } else if (c != '(' && c != '{' && c != '<') {
        continue;
      }
      if (++brackets >= room) return -1;
    }
    return -1;
  }

  private Params readList(String prim, List<Var> outs) {
    int open = lx.pos++;
    int i = lx.pos;
    while (Lexer.isBlank(lx.charAt(i))) i++;
    char after = lx.charAt(i); // a '#' annotation may follow the '[' (pretty_print(name_stack=True))
    boolean broken = after == 0 || after == '\n' || after == '\r' || after == '#';
    lx.skipSpace();
    int indent = lx.column(lx.pos);
    Map<String, ParamValue> values = new LinkedHashMap<>();
    while (true) {
      lx.skipSpace();
      if (lx.atEnd()) {
        throw lx.error("unterminated parameter list: '[' is never closed by ']'", open, open + 1);
      }
      if (lx.peek() == ']') {
        lx.pos++;
        return shared(values);
      }
      Token key = lx.ident("a parameter 'key=value' or ']'");
      if (lx.peek() != '=') {
        throw lx.errorAt(
            "expected '=' after parameter name '" + key.text() + "', found " + lx.found(lx.pos), lx.pos);
      }
      lx.pos++;
      boolean leadingName = values.isEmpty() && key.text().equals("name");
      ParamValue v = paramValue(prim, key.text(), outs, new ParamExtent(lx, broken, indent, key.text(), leadingName));
      if (values.put(key.text(), v) != null) {
        throw new JaxcException("duplicate parameter '" + key.text() + "'", key.span());
      }
      char c = lx.peek();
      if (c != 0 && c != ']' && !Lexer.isSpace(c)) {
        throw lx.errorAt(
            "expected a space or ']' after the value of parameter '" + key.text() + "', found " + lx.found(lx.pos),
            lx.pos);
      }
    }
  }

  private ParamValue paramValue(String prim, String key, List<Var> outs, ParamExtent extent) {
    int start = lx.pos;
    if (reader.startsJaxpr(start)) {
      boolean call = CALLS.contains(prim) && (key.equals("jaxpr") || key.equals("call_jaxpr") || key.equals("fun_jaxpr"));
      return new ParamValue.JaxprValue(reader.jaxpr(call ? outs : null));
    }
    if (lx.peek() == '(') {
      // Jaxprs in a tuple are separated by spaces, and cond's may be shared names (§7.2).
      int q = lx.skipSpaceFrom(start + 1);
      boolean names = key.equals("branches") && (Lexer.isIdentStart(lx.charAt(q)) || lx.charAt(q) == ')');
      if (reader.startsJaxpr(q) || names) return jaxprTuple();
    }
    int end = extent.end(start);
    int vs = start;
    int ve = end;
    while (vs < ve && Lexer.isSpace(lx.charAt(vs))) vs++;
    while (ve > vs && Lexer.isSpace(lx.charAt(ve - 1))) ve--;
    lx.pos = end;
    String text = lx.text.substring(vs, ve);
    if (isJaxprKey(key) && isSharedName(text)) {
      Token name = new Token(text, lx.span(vs, ve));
      return new ParamValue.JaxprValue(reader.sharedJaxprs().reference(List.of(name), true));
    }
    if (vs == ve) return new ParamValue.Text("");
    // Too short to nest past the depth limit, so decoding it here cannot fail where it did not before.
    boolean reusable = text.indexOf('{') < 0 && lx.depth() + text.length() < Lexer.MAX_DEPTH;
    ParamValue v = reusable ? decoded.get(text) : null;
    if (v == null) {
      v = decoder.decode(vs, ve);
      if (reusable) decoded.put(text, v);
    }
    lx.pos = end;
    return v;
  }

  /** An earlier list with the same entries in the same order, or a new one; lists with jaxprs are never shared. */
  private static boolean isShareable(Params p) {
    for (ParamValue v : p.values().values()) if (!isShareable(v)) return false;
    return true;
  }

  private Params shared(Map<String, ParamValue> values) {
    for (ParamValue v : values.values()) if (!isShareable(v)) return new Params(values);
    List<Map.Entry<String, ParamValue>> key = List.copyOf(values.entrySet());
    return lists.computeIfAbsent(key, k -> new Params(values));
  }

  private static boolean isShareable(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue) return false;
    if (v instanceof ParamValue.Tuple t) {
      for (ParamValue x : t.items()) if (!isShareable(x)) return false;
    }
    if (v instanceof ParamValue.Record r) {
      for (ParamValue x : r.fields().values()) if (!isShareable(x)) return false;
    }
    return true;
  }

  /** Keys that hold jaxprs, so a bare name there is a shared jaxpr (§7.2). */
  private static boolean isJaxprKey(String key) {
    return key.endsWith("jaxpr") || key.equals("branches") || key.equals("callee") || key.equals("call");
  }

  private static boolean isSharedName(String s) {
    if (s.isEmpty() || s.equals("None") || !Lexer.isIdentStart(s.charAt(0))) return false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Lexer.isWordChar(c) && c != ' ' && c != '.' && c != '-') return false;
    }
    return true;
  }

  /** {@code ( jaxpr-or-name … )}: branches, inline or shared (§7.1, §7.2). */
  private ParamValue jaxprTuple() {
    int open = lx.pos++;
    lx.enter(open);
    List<ParamValue> items = new ArrayList<>();
    while (true) {
      lx.skipSpace();
      if (lx.atEnd()) throw lx.error("unterminated tuple of jaxprs: '(' is never closed", open, open + 1);
      if (lx.peek() == ')') break;
      if (reader.startsJaxpr(lx.pos)) {
        items.add(new ParamValue.JaxprValue(reader.jaxpr(null)));
        continue;
      }
      List<Token> names = new ArrayList<>();
      while (Lexer.isIdentStart(lx.peek())) {
        int s = lx.pos;
        int e = s;
        while (Lexer.isWordChar(lx.charAt(e)) || lx.charAt(e) == '.' || lx.charAt(e) == '-') e++;
        names.add(new Token(lx.text.substring(s, e), lx.span(s, e)));
        lx.pos = e;
        lx.skipSpace();
      }
      if (names.isEmpty()) throw lx.expected("a jaxpr or the name of a shared jaxpr");
      items.add(new ParamValue.JaxprValue(reader.sharedJaxprs().reference(names, false)));
    }
    lx.pos++;
    lx.leave();
    return new ParamValue.Tuple(items, false);
  }
}
