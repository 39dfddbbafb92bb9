package dev.jaxc.ir.pass;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Severity;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import dev.jaxc.ir.types.TypeConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Types a program: gives every untyped literal its dtype, promotes the operands of hand-written
 * equations that mix dtypes (or rejects them under {@code --promotion strict}), and checks each
 * equation's declared result types against its primitive's rule. Nested jaxprs are typed before
 * the equation that holds them. Returns a new program; the input is not changed.
 */
public final class TypePass {
  private final TypeConfig cfg;
  private final Diagnostics warnings;
  private final PrimitiveRules rules;
  private final Set<String> warned = new HashSet<>();
  /** Shared jaxprs (one object referenced by several equations) are typed once per hint list. */
  private final Map<Jaxpr, Map<List<Type>, Jaxpr>> typed = new IdentityHashMap<>();
  private OperandTyping operands;

  public TypePass(TypeConfig cfg, Diagnostics warnings, PrimitiveRules rules) {
    this.cfg = cfg;
    this.warnings = warnings;
    this.rules = rules;
  }

  /** @throws JaxcException at the first ill-typed place */
  public static Program run(Program p, TypeConfig cfg, Diagnostics warnings) {
    return new TypePass(cfg, warnings, PrimitiveRules.DEFAULT).run(p);
  }

  public Program run(Program p) {
    operands = new OperandTyping(cfg, rules, FreshNames.after(p));
    typed.clear();
    warned.clear();
    return p.withMain(jaxpr(p.main(), List.of()));
  }

  /**
   * @param outHints the types the enclosing equation declares for its results; an untyped literal
   *     output takes its dtype from the one at its position when the counts agree (a cond branch
   *     returning {@code 0.0} into an f16 result)
   */
  private Jaxpr jaxpr(Jaxpr j, List<Type> outHints) {
    List<Type> hints = outHints.size() == j.outs().size() ? outHints : List.of();
    Jaxpr done = typed.computeIfAbsent(j, k -> new HashMap<>()).get(hints);
    if (done != null) return done;
    Map<Var, Var> scope = new IdentityHashMap<>();
    List<Var> constvars = bind(j.constvars(), scope);
    List<Var> invars = bind(j.invars(), scope);
    List<Eqn> eqns = new ArrayList<>();
    for (Eqn e : j.eqns()) equation(e, scope, eqns);
    List<Atom> outs = new ArrayList<>();
    for (int k = 0; k < j.outs().size(); k++) {
      Atom a = j.outs().get(k);
      if (a instanceof Literal l) {
        outs.add(operands.output(l, hints.isEmpty() ? null : hints.get(k)));
      } else {
        outs.add(lookup((Var) a, scope));
      }
    }
    Jaxpr r = new Jaxpr(constvars, invars, eqns, outs, j.span());
    typed.get(j).put(hints, r);
    return r;
  }

  private static List<Var> bind(List<Var> vars, Map<Var, Var> scope) {
    List<Var> r = new ArrayList<>();
    for (Var v : vars) {
      Var n = v.withType(v.type());
      scope.put(v, n);
      r.add(n);
    }
    return r;
  }

  /** A variable's typed counterpart; one the parser left unbound (a dead {@code _}) stays as is. */
  private static Var lookup(Var v, Map<Var, Var> scope) {
    return scope.getOrDefault(v, v);
  }

  private void equation(Eqn e, Map<Var, Var> scope, List<Eqn> out) {
    List<Type> declared = e.outs().stream().map(Var::type).toList();
    Params params = params(e.params(), declared);
    List<Atom> ins = new ArrayList<>();
    for (Atom a : e.ins()) ins.add(a instanceof Var v ? lookup(v, scope) : a);
    Optional<Primitive> prim = Primitive.byName(e.primitive());
    if (prim.isEmpty() || e.params().has("_ref_syntax")) {
      trust(e, prim.isEmpty());
      ins.replaceAll(a -> a instanceof Literal l ? operands.lone(l) : a);
      out.add(e.withParts(bindOuts(e.outs(), declared, scope), params, ins));
      return;
    }
    Primitive p = prim.get();
    operands.type(e, p, params, ins, out);
    List<Type> inferred = infer(e, p, params, ins, declared);
    if (inferred.size() != declared.size()) {
      throw new JaxcException(
          e.primitive() + " produces " + count(inferred.size(), "result") + " but "
              + declared.size() + (declared.size() == 1 ? " is" : " are") + " declared",
          e.primSpan());
    }
    List<Type> outTypes = new ArrayList<>();
    for (int k = 0; k < declared.size(); k++) {
      Var binder = e.outs().get(k);
      if (!TypeMatch.same(declared.get(k), inferred.get(k))) {
        throw new JaxcException(
            "declared type " + declared.get(k).text() + " of '" + binder.name()
                + "' does not match " + e.primitive() + "'s result type "
                + inferred.get(k).text(),
            binder.span());
      }
      outTypes.add(TypeMatch.withInferredWeak(declared.get(k), inferred.get(k)));
    }
    out.add(e.withParts(bindOuts(e.outs(), outTypes, scope), params, ins));
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private void trust(Eqn e, boolean unknown) {
    if (!warned.add(e.primitive())) return;
    warnings.add(new Diagnostic(Severity.WARNING,
        (unknown ? "unknown primitive '" + e.primitive() + "'" : "'" + e.primitive() + "' on a Ref")
            + ": its declared result types are trusted",
        e.primSpan(),
        unknown ? DiagnosticCode.TRUSTED_PRIMITIVE : DiagnosticCode.TRUSTED_REF,
        unknown ? KnownPrimitives.suggestion(e.primitive()).orElse(null) : null));
  }

  private static List<Var> bindOuts(List<Var> outs, List<Type> types, Map<Var, Var> scope) {
    List<Var> r = new ArrayList<>();
    for (int k = 0; k < outs.size(); k++) {
      Var n = outs.get(k).withType(types.get(k));
      scope.put(outs.get(k), n);
      r.add(n);
    }
    return r;
  }

  private List<Type> infer(Eqn e, Primitive p, Params params, List<Atom> ins, List<Type> declared) {
    List<Type> inTypes = ins.stream().map(Atom::type).toList();
    try {
      return rules.rule(p).apply(new RuleContext(e.primitive(), inTypes, params, declared, cfg));
    } catch (TypeRuleException x) {
      int k = x.operand();
      Span operand = k >= 0 && k < e.ins().size() ? e.inSpan(k) : Span.NONE;
      throw new JaxcException(x.getMessage(), operand.isKnown() ? operand : e.primSpan());
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    } catch (Dim.NegativeSize x) {
      throw new JaxcException(e.primitive() + ": its params give a result with a " + x.getMessage(), e.primSpan());
    }
  }

  /** Params with their nested jaxprs typed. */
  private Params params(Params ps, List<Type> declared) {
    Map<String, ParamValue> m = new LinkedHashMap<>();
    for (Map.Entry<String, ParamValue> kv : ps.values().entrySet()) {
      m.put(kv.getKey(), param(kv.getValue(), declared));
    }
    return new Params(m);
  }

  private ParamValue param(ParamValue v, List<Type> declared) {
    if (v instanceof ParamValue.JaxprValue j) {
      return new ParamValue.JaxprValue(jaxpr(j.jaxpr(), declared));
    }
    if (v instanceof ParamValue.Tuple t) {
      List<ParamValue> items = t.items().stream().map(i -> param(i, declared)).toList();
      return new ParamValue.Tuple(items, t.list());
    }
    if (v instanceof ParamValue.Record r) {
      Map<String, ParamValue> fields = new LinkedHashMap<>();
      r.fields().forEach((k, f) -> fields.put(k, param(f, declared)));
      return new ParamValue.Record(r.type(), fields);
    }
    return v;
  }
}
