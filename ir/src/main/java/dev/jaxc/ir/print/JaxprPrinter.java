package dev.jaxc.ir.print;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import java.util.List;
import java.util.Map;

/**
 * Writes a jaxpr in the current JAX text format (0.10.x): typed literals, one equation per line,
 * params that hold jaxprs broken one per line. Shared jaxprs are printed inline where used.
 * Variable names are printed as they are; passes that add variables give them fresh names.
 * Parsing the output gives back a jaxpr equal to this one under {@code IrEquality}.
 */
public final class JaxprPrinter {
  private static final String REF_SYNTAX = "_ref_syntax";
  private final StringBuilder out = new StringBuilder();

  private JaxprPrinter() {}

  /** The jaxpr as {@code print(jaxpr)} would show it, ending in a newline. */
  public static String print(Jaxpr jaxpr) {
    JaxprPrinter p = new JaxprPrinter();
    p.jaxpr(jaxpr, 0);
    return p.out.append('\n').toString();
  }

  /** One literal as {@code VALUE:TYPE}; JAX <= 0.3's unit as {@code *}, as it printed it. */
  public static String literal(Literal lit) {
    if (lit.type() instanceof Type.OpaqueType o && o.text().equals("*")) return "*";
    return scalar(lit.value()) + ":" + lit.type().text();
  }

  /** One param value's text. */
  public static String paramValue(ParamValue v) {
    JaxprPrinter p = new JaxprPrinter();
    p.value(v, 0);
    return p.out.toString();
  }

  private void jaxpr(Jaxpr j, int indent) {
    out.append("{ lambda ");
    binders(j.constvars());
    out.append("; ");
    binders(j.invars());
    out.append(". let");
    for (Eqn e : j.eqns()) {
      newline(indent + 4);
      eqn(e, indent + 4);
    }
    if (j.eqns().isEmpty()) out.append(' ');
    newline(indent + 2);
    out.append("in (");
    List<Atom> outs = j.outs();
    for (int i = 0; i < outs.size(); i++) {
      if (i > 0) out.append(", ");
      atom(outs.get(i));
    }
    if (outs.size() == 1) out.append(',');
    out.append(") }");
  }

  private void binders(List<Var> vars) {
    for (int i = 0; i < vars.size(); i++) {
      if (i > 0) out.append(' ');
      out.append(vars.get(i).name()).append(':').append(vars.get(i).type().text());
    }
  }

  private void eqn(Eqn e, int indent) {
    if (e.params().get(REF_SYNTAX).orElse(null) instanceof ParamValue.Text t) {
      out.append(t.text());
      return;
    }
    if (!e.outs().isEmpty()) {
      binders(e.outs());
      out.append(" = ");
    }
    out.append(e.primitive());
    Map<String, ParamValue> ps = e.params().values();
    if (!ps.isEmpty()) {
      boolean broken = ps.values().stream().anyMatch(JaxprPrinter::needsBreak);
      out.append('[');
      boolean first = true;
      for (Map.Entry<String, ParamValue> kv : ps.entrySet()) {
        if (broken) newline(indent + 2);
        else if (!first) out.append(' ');
        first = false;
        out.append(kv.getKey()).append('=');
        value(kv.getValue(), indent + 2);
      }
      if (broken) newline(indent);
      out.append(']');
    }
    out.append(' ');
    for (int i = 0; i < e.ins().size(); i++) {
      if (i > 0) out.append(' ');
      atom(e.ins().get(i));
    }
  }

  private static boolean needsBreak(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue) return true;
    if (v instanceof ParamValue.Tuple t) return t.items().stream().anyMatch(JaxprPrinter::needsBreak);
    if (v instanceof ParamValue.Record r)
      return r.fields().values().stream().anyMatch(JaxprPrinter::needsBreak);
    if (v instanceof ParamValue.Text t) return t.text().indexOf('\n') >= 0;
    return false;
  }

  private void value(ParamValue v, int indent) {
    // Java 17 has no pattern switch; the chain covers every ParamValue permit.
    if (v instanceof ParamValue.Int i) out.append(i.value());
    else if (v instanceof ParamValue.Float f) out.append(PyRepr.ofDouble(f.value()));
    else if (v instanceof ParamValue.Bool b) out.append(b.value() ? "True" : "False");
    else if (v instanceof ParamValue.None) out.append("None");
    else if (v instanceof ParamValue.DTypeValue d) out.append(d.dtype().numpyName());
    else if (v instanceof ParamValue.Str s) out.append(PyRepr.ofString(s.value()));
    else if (v instanceof ParamValue.Enum e) out.append(e.type()).append('.').append(e.member());
    else if (v instanceof ParamValue.Text t) out.append(t.text());
    else if (v instanceof ParamValue.JaxprValue j) jaxpr(j.jaxpr(), indent);
    else if (v instanceof ParamValue.Tuple t) tuple(t, indent);
    else if (v instanceof ParamValue.Record r) {
      out.append(r.type()).append('(');
      boolean first = true;
      for (Map.Entry<String, ParamValue> kv : r.fields().entrySet()) {
        if (!first) out.append(", ");
        first = false;
        out.append(kv.getKey()).append('=');
        value(kv.getValue(), indent);
      }
      out.append(')');
    } else throw new AssertionError(v);
  }

  private void tuple(ParamValue.Tuple t, int indent) {
    boolean jaxprs = !t.items().isEmpty()
        && t.items().stream().allMatch(x -> x instanceof ParamValue.JaxprValue);
    out.append(t.list() ? '[' : '(');
    if (jaxprs) {
      // JAX prints a tuple of jaxprs one per line, without commas.
      for (ParamValue item : t.items()) {
        newline(indent + 2);
        value(item, indent + 2);
      }
      newline(indent);
    } else {
      for (int i = 0; i < t.items().size(); i++) {
        if (i > 0) out.append(", ");
        value(t.items().get(i), indent);
      }
      if (t.items().size() == 1 && !t.list()) out.append(',');
    }
    out.append(t.list() ? ']' : ')');
  }

  private void atom(Atom a) {
    if (a instanceof Var v) out.append(v.name());
    else out.append(literal((Literal) a));
  }

  static String scalar(Scalar s) {
    if (s instanceof Scalar.Bool b) return b.value() ? "True" : "False";
    if (s instanceof Scalar.Int i) return i.value().toString();
    if (s instanceof Scalar.Float f) return PyRepr.ofDouble(f.value());
    if (s instanceof Scalar.Complex c) return PyRepr.ofComplex(c.re(), c.im());
    if (s instanceof Scalar.Float0) return "(b'',)";
    return ((Scalar.Opaque) s).text();
  }

  private void newline(int indent) {
    out.append('\n');
    out.append(" ".repeat(indent));
  }
}
