package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Type rules of the call-like primitives and custom_linear_solve (format doc §9.4–§9.9). */
public final class CallRules {
  private CallRules() {}

  /**
   * jit, pjit, xla_call, closed_call, core_call, call, custom_jvp_call, custom_vjp_call,
   * custom_vjp_call_jaxpr, remat2: operands match the callee's inputs one to one (for the custom_*
   * calls the first {@code num_consts} of them are consts, still inputs of the callee); results are
   * the callee's output types.
   */
  public static List<Type> call(RuleContext ctx) {
    String prim = ctx.primitive();
    Jaxpr callee =
        NestedJaxprs.callee(ctx.params())
            .orElseThrow(
                () ->
                    new TypeRuleException(
                        prim + " needs its callee in a jaxpr, call_jaxpr or fun_jaxpr parameter"));
    long consts = ctx.params().getLong("num_consts", 0);
    if (consts < 0 || consts > ctx.arity())
      throw new TypeRuleException(
          prim + " has num_consts=" + consts + " but only " + ctx.arity() + " operands");
    List<Type> in = NestedJaxprs.inputs(callee, ctx.arity());
    if (in.size() != ctx.arity())
      throw new TypeRuleException(
          prim
              + " has "
              + ctx.arity()
              + " operands, but its callee takes "
              + in.size()
              + " "
              + RuleOperands.text(in));
    RuleOperands.matchOperands(ctx, 0, in, "callee takes");
    return callee.outTypes();
  }

  /**
   * {@code custom_linear_solve[const_lengths jaxprs] *matvec_consts *vecmat_consts *solve_consts
   * *transpose_solve_consts *b}: the solution has b's types (then any auxiliary outputs of {@code
   * solve} beyond what {@code matvec} returns). Each solver jaxpr that is present takes its consts
   * and a vector of b's types.
   */
  public static List<Type> customLinearSolve(RuleContext ctx) {
    String prim = ctx.primitive();
    LinearSolveParams params = LinearSolveParams.of(ctx.params());
    long total = params.totalConsts();
    if (total > ctx.arity())
      throw new TypeRuleException(
          prim
              + " const_lengths add up to "
              + total
              + " but there are only "
              + ctx.arity()
              + " operands");
    List<Type> b = ctx.in().subList((int) total, ctx.arity());
    List<Type> results = new ArrayList<>(b);
    Map<String, Jaxpr> solvers = params.solvers();
    for (String role : LinearSolveParams.ROLES) {
      int from = params.offset(role);
      int n = params.length(role);
      Jaxpr j = solvers.get(role);
      if (j != null) {
        List<Type> in = NestedJaxprs.inputs(j, n + b.size());
        List<Type> expected = new ArrayList<>(ctx.in().subList(from, from + n));
        expected.addAll(b);
        if (!RuleOperands.sameTypes(in, expected))
          throw new TypeRuleException(
              prim
                  + " "
                  + role
                  + " jaxpr takes "
                  + RuleOperands.text(in)
                  + " but is given "
                  + RuleOperands.text(expected));
      }
    }
    Jaxpr solve = solvers.get("solve");
    Jaxpr matvec = solvers.get("matvec");
    if (solve != null && matvec != null) {
      List<Type> solveOut = solve.outTypes();
      int aux = solveOut.size() - matvec.outs().size();
      if (aux > 0) results.addAll(solveOut.subList(solveOut.size() - aux, solveOut.size()));
    }
    return results;
  }
}
