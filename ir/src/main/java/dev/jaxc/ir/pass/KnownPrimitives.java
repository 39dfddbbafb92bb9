package dev.jaxc.ir.pass;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Severity;
import dev.jaxc.ir.prim.Primitive;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * For the commands that compile: the first equation, in text order, whose primitive jaxc does not
 * know is one error at the primitive's name, with "did you mean 'X'?" when a known primitive is
 * a few edits away. (The type pass alone trusts unknown primitives' declared types with a
 * warning, which is what {@code inspect} wants.) Ref equations ({@code _ref_syntax}) are not
 * checked: their names are the parser's, not JAX's.
 */
public final class KnownPrimitives {
  private final Set<Jaxpr> seen = Collections.newSetFromMap(new IdentityHashMap<>());

  private KnownPrimitives() {}

  /** @throws JaxcException code {@link DiagnosticCode#UNKNOWN_PRIMITIVE} at the first unknown name */
  public static void check(Program p) {
    new KnownPrimitives().jaxpr(p.main());
  }

  /** "did you mean 'X'?" for the known primitive closest to {@code name}, if one is close. */
  public static Optional<String> suggestion(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String lower = name.toLowerCase(Locale.ROOT);
    for (Primitive p : Primitive.values()) {
      String known = p.printedName();
      int d = known.equals(lower) ? 0 : distance(lower, known, Math.min(bestDistance, 8));
      if (d < bestDistance || (d == bestDistance && closer(lower, known, best))) {
        best = known;
        bestDistance = d;
      }
    }
    // One edit in a short name, two in a medium one, three in a long one: closer than chance.
    int allowed = name.length() <= 4 ? 1 : name.length() <= 8 ? 2 : 3;
    return best != null && bestDistance <= allowed ? Optional.of("did you mean '" + best + "'?") : Optional.empty();
  }

  /**
   * Between names as many edits away: the one sharing the longer prefix with {@code name}
   * ({@code sinn}: sin, not sign), then the alphabetically first.
   */
  private static boolean closer(String name, String candidate, String best) {
    int c = commonPrefix(name, candidate);
    int b = commonPrefix(name, best);
    return c != b ? c > b : candidate.compareTo(best) < 0;
  }

  private static int commonPrefix(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) n++;
    return n;
  }

  private void jaxpr(Jaxpr j) {
    if (!seen.add(j)) return;
    for (Eqn e : j.eqns()) {
      if (!e.params().has("_ref_syntax") && Primitive.byName(e.primitive()).isEmpty()) {
        throw new JaxcException(new Diagnostic(Severity.ERROR, "unknown primitive '" + e.primitive() + "'",
            e.primSpan(), DiagnosticCode.UNKNOWN_PRIMITIVE, suggestion(e.primitive()).orElse(null)));
      }
      // The params (and their nested jaxprs) follow the name in the text.
      for (ParamValue v : e.params().values().values()) param(v);
    }
  }

  private void param(ParamValue v) {
    if (v instanceof ParamValue.JaxprValue j) {
      jaxpr(j.jaxpr());
    } else if (v instanceof ParamValue.Tuple t) {
      for (ParamValue i : t.items()) param(i);
    } else if (v instanceof ParamValue.Record r) {
      for (ParamValue f : r.fields().values()) param(f);
    }
  }

  /** Levenshtein distance, or a value above {@code limit} once it cannot come below it. */
  static int distance(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) > limit) return limit + 1;
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      int rowMin = cur[0];
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
        rowMin = Math.min(rowMin, cur[j]);
      }
      if (rowMin > limit) return limit + 1;
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
