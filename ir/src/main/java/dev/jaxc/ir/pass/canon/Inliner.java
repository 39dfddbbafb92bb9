package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Program;

/**
 * Replaces every call-like equation ({@code jit}, {@code pjit}, {@code xla_call}, {@code
 * closed_call}, {@code core_call}, {@code call}, {@code custom_jvp_call}, {@code custom_vjp_call},
 * {@code custom_vjp_call_jaxpr}, {@code remat2}) by its callee's equations, and {@code
 * custom_linear_solve} by its {@code solve} jaxpr's (applied to the solve consts and b), and makes every
 * pass-through equation ({@code copy}, {@code stop_gradient}, {@code optimization_barrier}, {@code
 * sharding_constraint}, {@code reshard}, {@code device_put}, {@code pvary}, {@code random_clone},
 * {@code name}) an alias: later uses of its results, jaxpr outputs included, use its operands.
 * Calls inside nested jaxprs that stay (cond branches, while and scan bodies, combiners, …) are
 * inlined there.
 *
 * <p>Variables: the top-level jaxpr's constvars, invars and binders, and those of nested jaxprs
 * that stay, are kept (the same objects). Each inlined copy of a callee gets new variables with
 * names no variable in the program has, so a jaxpr object called twice gives distinct values.
 * Outputs keep their count and order; an output may become an input, a literal or a repeat.
 *
 * <p>Closed-over constants. A legacy printout may show a callee with constvars that its operands
 * do not supply ({@code pjit[jaxpr={ lambda e:c64[3]; f:c64[8]. …}] c}, format doc §9.6): the
 * values are not in the text. Each such constvar becomes a new constvar of the top-level jaxpr,
 * appended after the existing ones, so the compiled function takes it as an extra input after the
 * other constvars and before the invars. One variable stands for one constvar object, however often
 * its jaxpr is inlined. Inside a cond, while or scan body the constant is passed in as an extra
 * operand on its way to the top; other holders close over it as a constvar of their nested jaxpr.
 * Where the operands do supply the constvars (they number constvars plus invars), they are bound
 * like invars.
 *
 * <p>Equations keep their spans, so later errors still point at the text they came from.
 */
public final class Inliner implements IrPass {
  @Override
  public Program apply(Program program) {
    return new InlineRewriter(program).run();
  }
}
