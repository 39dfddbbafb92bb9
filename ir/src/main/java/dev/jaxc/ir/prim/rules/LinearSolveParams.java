package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parameters of {@code custom_linear_solve[const_lengths jaxprs]}: how many of the leading
 * operands are consts of each solver role, and the role jaxprs that are present. Operands are
 * {@code *matvec_consts *vecmat_consts *solve_consts *transpose_solve_consts *b}.
 *
 * @param constLengths const count per role, in {@link #ROLES} order
 * @param solvers the role jaxprs present ({@code None} roles are left out)
 */
public record LinearSolveParams(Map<String, Long> constLengths, Map<String, Jaxpr> solvers) {
  /** The four solver roles, in operand order. */
  public static final List<String> ROLES = List.of("matvec", "vecmat", "solve", "transpose_solve");

  public static LinearSolveParams of(Params p) {
    return new LinearSolveParams(constLengths(p), solvers(p));
  }

  /** Operands taken by the consts of all roles; the rest are b. */
  public long totalConsts() {
    return constLengths.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Index of the first const of {@code role} among the operands. */
  public int offset(String role) {
    int from = 0;
    for (String r : ROLES) {
      if (r.equals(role)) return from;
      from += Math.toIntExact(constLengths.get(r));
    }
    throw new IllegalArgumentException(role);
  }

  public int length(String role) {
    return Math.toIntExact(constLengths.get(role));
  }

  /** {@code const_lengths=_LinearSolveTuple(matvec=1, vecmat=1, solve=2, transpose_solve=2)}. */
  private static Map<String, Long> constLengths(Params p) {
    List<ParamValue> values =
        roleValues(p, "const_lengths")
            .orElseThrow(
                () ->
                    new ParamException(
                        "parameter 'const_lengths' must be _LinearSolveTuple(matvec=…, vecmat=…,"
                            + " solve=…, transpose_solve=…)"));
    Map<String, Long> r = new LinkedHashMap<>();
    for (int i = 0; i < ROLES.size(); i++) {
      long n = Params.asLongs("const_lengths", values.get(i))[0];
      if (n < 0) throw new ParamException("parameter 'const_lengths' has a negative count " + n);
      r.put(ROLES.get(i), n);
    }
    return r;
  }

  private static Map<String, Jaxpr> solvers(Params p) {
    Map<String, Jaxpr> r = new LinkedHashMap<>();
    roleValues(p, "jaxprs")
        .ifPresent(
            values -> {
              for (int i = 0; i < ROLES.size(); i++)
                if (values.get(i) instanceof ParamValue.JaxprValue j)
                  r.put(ROLES.get(i), j.jaxpr());
            });
    return r;
  }

  /** The four role fields of a {@code _LinearSolveTuple} record (or a plain 4-tuple), in order. */
  private static Optional<List<ParamValue>> roleValues(Params p, String key) {
    ParamValue v = p.get(key).orElse(null);
    if (v instanceof ParamValue.Record rec && rec.fields().keySet().containsAll(ROLES))
      return Optional.of(ROLES.stream().map(rec.fields()::get).toList());
    if (v instanceof ParamValue.Tuple t && t.items().size() == ROLES.size())
      return Optional.of(t.items());
    return Optional.empty();
  }
}
