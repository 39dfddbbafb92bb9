package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Severity;
import dev.jaxc.ir.diag.Span;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Recursive descent over the jaxpr grammar (§3): printouts with shared {@code let}s, jaxprs,
 * equations, binders, operands and param lists. Names are resolved while parsing, one closed
 * scope per {@code { lambda … }}. Keywords are not reserved (§5.1): {@code in} is the keyword
 * only when an output list follows it, and an equation starts with binders ({@code name:}) or a
 * primitive name, so variables named {@code in}, {@code let} or {@code lambda} parse by position.
 */
final class JaxprReader {
  private final Lexer lx;
  private final ParamListReader params;
  /** Types read so far by their text (a model repeats a few types many times). */
  private final TextTable<Type> types;
  private final Deque<SharedJaxprs> printouts = new ArrayDeque<>();
  /** The scopes of the jaxprs being read, innermost first: only to explain undefined names. */
  private final Deque<Scope> enclosing = new ArrayDeque<>();

  JaxprReader(Lexer lx) {
    this.lx = lx;
    this.types = new TextTable<>(lx);
    this.params = new ParamListReader(lx, this);
  }

  /** The whole input: one printout and nothing after it. */
  Jaxpr program() {
    lx.skipSpace();
    if (lx.atEnd()) {
      throw lx.error("empty input: expected a jaxpr starting with '{ lambda'", 0, 0);
    }
    Jaxpr main = printout();
    lx.skipSpace();
    if (!lx.atEnd()) {
      throw lx.errorAt("unexpected " + lx.found(lx.pos) + " after the end of the jaxpr", lx.pos);
    }
    return main;
  }

  /** {@code let NAME = { … } in} lines, then the jaxpr they serve (§7.3, §8.4). */
  Jaxpr printout() {
    SharedJaxprs shared = new SharedJaxprs();
    printouts.push(shared);
    try {
      while (atLet(lx.pos)) {
        int nameStart = lx.skipSpaceFrom(lx.pos + 3);
        int eq = lx.indexOf('=', nameStart);
        int nameEnd = eq;
        while (Lexer.isSpace(lx.charAt(nameEnd - 1))) nameEnd--;
        String name = lx.text.substring(nameStart, nameEnd);
        lx.pos = lx.skipSpaceFrom(eq + 1);
        Jaxpr j = jaxpr(null);
        lx.skipSpace();
        if (!lx.atWord("in", lx.pos)) {
          throw lx.expected("'in' after the shared jaxpr '" + name + "'");
        }
        lx.pos += 2;
        shared.define(name, lx.span(nameStart, nameEnd), j);
        lx.skipSpace();
      }
      if (lx.peek() == '{' && !startsJaxpr(lx.pos)) {
        lx.pos = lx.skipSpaceFrom(lx.pos + 1);
        throw lx.expected("'lambda' after '{'");
      }
      if (!startsJaxpr(lx.pos)) throw lx.expected("a jaxpr starting with '{ lambda'");
      return shared.link(jaxpr(null));
    } finally {
      printouts.pop();
    }
  }

  /** The shared jaxprs of the printout being read. */
  SharedJaxprs sharedJaxprs() {
    return printouts.peek();
  }

  /** {@code let NAME = {} at {@code p}, NAME on one line (it may contain spaces). */
  boolean atLet(int p) {
    if (!lx.atWord("let", p) || !Lexer.isBlank(lx.charAt(p + 3))) return false;
    int i = p + 3;
    while (i < lx.length && lx.charAt(i) != '=' && lx.charAt(i) != '\n') i++;
    return lx.charAt(i) == '=' && i > lx.skipSpaceFrom(p + 3) && lx.charAt(lx.skipSpaceFrom(i + 1)) == '{';
  }

  /** {@code {} followed by {@code lambda}. */
  boolean startsJaxpr(int p) {
    return lx.charAt(p) == '{' && lx.atWord("lambda", lx.skipSpaceFrom(p + 1));
  }

  /**
   * {@code { lambda CONSTVARS ; INVARS . let EQNS in ( OUTS ) }}.
   *
   * @param outer the binders of the call equation whose body this is (names a referenced
   *     {@code _} output, §5.2), or null
   */
  Jaxpr jaxpr(List<Var> outer) {
    int open = lx.pos;
    if (!startsJaxpr(open)) throw lx.expected("'{ lambda'");
    lx.enter(open);
    lx.pos = lx.skipSpaceFrom(open + 1) + "lambda".length();
    Scope scope = new Scope(lx);
    enclosing.push(scope);
    List<Var> constvars = binders(scope, ';');
    lx.pos++;
    List<Var> invars = binders(scope, '.');
    lx.pos++;
    lx.skipSpace();
    if (!lx.atWord("let", lx.pos)) throw lx.expected("'let' after the input binders");
    lx.pos += 3;
    List<Eqn> eqns = new ArrayList<>();
    while (true) {
      lx.skipSpace();
      if (lx.atEnd()) throw unterminated(open);
      char c = lx.peek();
      if (c == ';') {
        lx.pos++;
      } else if (inKeyword(lx.pos, false) || (lx.atWord("in", lx.pos) && ":[{".indexOf(lx.charAt(lx.pos + 2)) < 0)) {
        break; // a bare `in` not starting a binder or Ref is the keyword: outputs() reports the rest
      } else if (c == '}') {
        throw lx.errorAt("missing 'in (…)': the jaxpr's output list must come before '}'", lx.pos);
      } else {
        eqns.add(equation(scope));
      }
    }
    lx.pos += 2;
    lx.skipSpace();
    List<Atom> outs = outputs(scope, outer);
    lx.skipSpace();
    if (lx.peek() == ':') effects();
    lx.skipSpace();
    if (lx.atEnd()) throw unterminated(open);
    lx.expect('}', "'}' to close the jaxpr");
    lx.leave();
    enclosing.pop();
    return new Jaxpr(constvars, invars, eqns, outs, lx.span(open, lx.pos));
  }

  private RuntimeException unterminated(int open) {
    return lx.error(
        "unterminated jaxpr: the input ends before this '{ lambda' is closed by 'in (…) }'",
        open,
        open + 1);
  }

  /** {@code in} followed by the output list (a complex literal operand is not one). */
  private boolean inKeyword(int p, boolean operandPosition) {
    if (!lx.atWord("in", p)) return false;
    int q = lx.skipSpaceFrom(p + 2);
    return lx.charAt(q) == '(' && !(operandPosition && LiteralParser.isParenLiteral(lx.text, q));
  }

  private List<Var> binders(Scope scope, char terminator) {
    List<Var> vars = new ArrayList<>();
    while (true) {
      lx.skipSpace();
      char c = lx.peek();
      if (c == terminator) return vars;
      if (terminator == ';' && c == '.') {
        throw lx.errorAt(
            "expected ';' between the constvars and the input binders"
                + " (write '{ lambda ; a:f32[]. let' when there are no constvars), found '.'",
            lx.pos);
      }
      if (!Lexer.isIdentStart(c)) {
        throw lx.expected(terminator == ';' ? "a constvar 'name:type' or ';'" : "an input binder 'name:type' or '.'");
      }
      Var v = binder(scope, vars);
      scope.bind(v);
      vars.add(v);
    }
  }

  /** {@code name:type}; the name must be new in the scope (and among {@code pending}). */
  private Var binder(Scope scope, List<Var> pending) {
    Token name = lx.ident("a binder 'name:type'");
    if (lx.peek() != ':') {
      throw lx.errorAt(
          "expected ':' and a type after binder '" + name.text() + "', found " + lx.found(lx.pos), lx.pos);
    }
    lx.pos++;
    Type type = TypeParser.parse(lx, types);
    Var first = scope.clash(name.span().start(), name.span().end());
    for (int i = 0; i < pending.size() && first == null; i++) {
      Var p = pending.get(i);
      if (!p.isDropped() && p.name().equals(name.text())) first = p;
    }
    if (first != null) {
      Span s = first.span();
      throw new JaxcException(
          "variable '" + name.text() + "' is already bound in this jaxpr (at " + s.line() + ":" + s.col() + ")",
          name.span());
    }
    return new Var(name.text(), type, name.span());
  }

  private Eqn equation(Scope scope) {
    int start = lx.pos;
    int col = lx.column(start);
    char c = lx.peek();
    if (c == '=') { // no results, JAX <= 0.4.21: " = prim args"
      lx.pos++;
      skipBlanks();
      return application(scope, start, col, List.of());
    }
    if (c == '(') return new RefEquations(lx, this, scope).parse(start, List.of());
    if (!Lexer.isIdentStart(c)) throw lx.expected("an equation or 'in (…)'");
    int idEnd = lx.identEnd(start);
    char next = lx.charAt(idEnd);
    if (next == ':') {
      List<Var> outs = new ArrayList<>(2);
      while (true) {
        outs.add(binder(scope, outs));
        lx.skipSpace();
        c = lx.peek();
        if (c == '=') {
          lx.pos++;
          skipBlanks();
          return application(scope, start, col, outs);
        }
        if (c == ',' || lx.startsWith("<-", lx.pos)) {
          return new RefEquations(lx, this, scope).parse(start, outs);
        }
        if (!Lexer.isIdentStart(c) || lx.charAt(lx.identEnd(lx.pos)) != ':') {
          throw lx.expected("'=' after the equation's binders");
        }
      }
    }
    if ((next == '[' || next == '{') && RefEquations.isTarget(lx, start)) {
      return new RefEquations(lx, this, scope).parse(start, List.of());
    }
    return application(scope, start, col, List.of());
  }

  /** {@code prim[params] operands}, after the binders and {@code =} (if any). */
  private Eqn application(Scope scope, int start, int col, List<Var> outs) {
    int ps = lx.pos;
    int pe = ps;
    if (Lexer.isIdentStart(lx.charAt(pe))) {
      while (Lexer.isWordChar(lx.charAt(pe)) || lx.charAt(pe) == '-' || lx.charAt(pe) == '.') pe++;
    }
    if (pe == ps) throw lx.expected("a primitive name after '='");
    String prim = lx.name(ps, pe);
    Span primSpan = lx.span(ps, pe);
    if (outs.isEmpty() && lx.charAt(start) != '=' && lx.charAt(pe) != '[' && assignsLater(pe)) {
      throw lx.error("expected ':' and a type after binder '" + prim + "', or '=' before a primitive", ps, pe);
    }
    lx.pos = pe;
    Params eqnParams = lx.peek() == '[' ? params.read(prim, outs) : Params.EMPTY;
    int end = lx.pos;
    List<Atom> ins = new ArrayList<>(4);
    List<Span> inSpans = new ArrayList<>(4);
    while (true) {
      boolean newline = lx.skipSpace();
      if (lx.atEnd() || (newline && lx.column(lx.pos) <= col) || endsOperands(lx.pos)) break;
      int operandStart = lx.pos;
      ins.add(atom(scope, -1, null));
      inSpans.add(lx.span(operandStart, lx.pos));
      end = lx.pos;
    }
    lx.pos = end;
    for (int i = 0; i < outs.size(); i++) scope.bind(outs.get(i));
    return new Eqn(outs, prim, eqnParams, ins, lx.span(start, end), primSpan, inSpans);
  }

  private void skipBlanks() {
    while (Lexer.isBlank(lx.peek())) lx.pos++;
  }

  /** Whether " = " follows on this line: a binder without its type, not a result-less equation. */
  private boolean assignsLater(int p) {
    for (int i = p; i < lx.length && lx.charAt(i) != '\n'; i++) {
      if (lx.startsWith(" = ", i)) return true;
    }
    return false;
  }

  /**
   * What ends an operand list even on a continuation line: a separator, {@code in (}, binders,
   * or the {@code =} of a result-less equation (JAX <= 0.4.21).
   */
  private boolean endsOperands(int p) {
    char c = lx.charAt(p);
    if (";}),]=".indexOf(c) >= 0 || inKeyword(p, true)) return true;
    int e = lx.identEnd(p);
    return e > p && lx.charAt(e) == ':' && !LiteralParser.isLiteralWord(lx, p, e);
  }

  /**
   * A variable or literal.
   *
   * @param outIndex position in an output list, or -1 for an operand
   * @param outer binders of the enclosing call equation, or null
   */
  Atom atom(Scope scope, int outIndex, List<Var> outer) {
    int start = lx.pos;
    char c = lx.peek();
    if (Lexer.isIdentStart(c)) {
      int e = lx.identEnd(start);
      // `inf`, `nan`, `infj`, `nanj` are also variable names: a bound one is a variable.
      boolean literal =
          LiteralParser.isLiteralWord(lx, start, e)
              && (lx.charAt(start) == 'T' || lx.charAt(start) == 'F' || lx.charAt(e) == ':'
                  || scope.lookup(start, e) == null);
      if (!literal) {
        lx.pos = e;
        boolean dropped = e == start + 1 && c == '_';
        if (dropped && outer != null && outIndex >= 0 && outIndex < outer.size()) {
          // A dead value: JAX prints `_` here only where the call's own binder is `_` too (§5.2).
          Var binder = outer.get(outIndex);
          if (!binder.isDropped()) {
            throw lx.error("output '_' names no value, but the enclosing equation binds this result as '"
                + binder.name() + "'", start, e);
          }
          return new Var("_", binder.type(), lx.span(start, e));
        }
        Var v = scope.lookup(start, e);
        if (v == null) throw undefined(lx.substring(start, e), start, e);
        return v;
      }
    } else if (c == '*') {
      // JAX <= 0.3.x: the unit value (core.unit, or the unitvar), printed `*`.
      lx.pos++;
      return new Literal(new Scalar.Opaque("*"), TypeParser.UNIT, true, lx.span(start, lx.pos));
    } else if (!(c == '-' || Lexer.isDigit(c) || c == '(' || c == '[')) {
      throw lx.expected(outIndex >= 0 ? "an output (a variable or literal)" : "an operand (a variable or literal)");
    }
    Scalar value = LiteralParser.value(lx);
    Literal lit;
    if (lx.peek() == ':') {
      lx.pos++;
      int typeStart = lx.pos;
      Type type = TypeParser.parse(lx, types);
      if (!(value instanceof Scalar.Opaque) && type instanceof Type.ArrayType at && at.rank() != 0) {
        // JAX prints a value only for scalar literals; a non-scalar constant is a constvar, or
        // `[...]:f32[3]` under jax_use_simplified_jaxpr_constants (0.7+). Checked with 0.10.2.
        throw new JaxcException(new Diagnostic(Severity.ERROR,
            "literal '" + lx.text.substring(start, typeStart - 1) + "' has the non-scalar type " + type.text()
                + ": a literal with a value is a scalar",
            lx.span(start, lx.pos), DiagnosticCode.NON_SCALAR_LITERAL,
            "write its type as " + at.dtype().shortName() + "[], or make the array a constvar"));
      }
      lit = new Literal(value, type, true, lx.span(start, lx.pos));
    } else if (value instanceof Scalar.Opaque) {
      throw lx.error("the literal '[...]' needs a type, e.g. '[...]:f32[3]'", start, lx.pos);
    } else {
      lit = new Literal(value, LiteralParser.placeholderType(value), false, lx.span(start, lx.pos));
    }
    char after = lx.peek();
    if (after != 0 && !Lexer.isSpace(after) && ";,)]}".indexOf(after) < 0) {
      throw lx.errorAt("unexpected " + lx.found(lx.pos) + " after literal '" + lx.text.substring(start, lx.pos) + "'", lx.pos);
    }
    return lit;
  }

  /** "undefined variable", noting when the name belongs to an enclosing jaxpr (§5.3). */
  RuntimeException undefined(String name, int start, int end) {
    for (Scope s : enclosing) {
      Var outer = s.lookup(name);
      if (outer != null && outer.span().isKnown()) {
        return lx.error(
            "undefined variable '" + name + "' (it is bound at " + outer.span().line() + ":" + outer.span().col()
                + " in an enclosing jaxpr, but each '{ lambda … }' sees only its own variables)",
            start,
            end);
      }
    }
    return lx.error("undefined variable '" + name + "'", start, end);
  }

  private List<Atom> outputs(Scope scope, List<Var> outer) {
    if (lx.peek() != '(') throw lx.expected("'(' and the output list after 'in'");
    int open = lx.pos++;
    List<Atom> outs = new ArrayList<>();
    lx.skipSpace();
    if (lx.peek() == ')') {
      lx.pos++;
      return outs;
    }
    while (true) {
      lx.skipSpace();
      if (lx.atEnd()) throw lx.error("unterminated output list: '(' is never closed", open, open + 1);
      outs.add(atom(scope, outs.size(), outer));
      lx.skipSpace();
      char c = lx.peek();
      if (c == ',') {
        lx.pos++;
        lx.skipSpace();
        if (lx.peek() == ')') {
          lx.pos++;
          return outs;
        }
      } else if (c == ')') {
        lx.pos++;
        return outs;
      } else if (lx.atEnd()) {
        throw lx.error("unterminated output list: '(' is never closed", open, open + 1);
      } else {
        throw lx.expected("',' or ')' in the output list");
      }
    }
  }

  /** {@code : { OrderedDebug }} after the outputs ({@code print_effects=True}): skipped. */
  private void effects() {
    int colon = lx.pos++;
    lx.skipSpace();
    if (lx.peek() != '{') throw lx.expected("'{' and the effects after ':'");
    int depth = 0;
    do {
      char c = lx.peek();
      if (c == 0) throw lx.error("unterminated effects list", colon, colon + 1);
      if (c == '{') depth++;
      if (c == '}') depth--;
      lx.pos++;
    } while (depth > 0);
  }
}
