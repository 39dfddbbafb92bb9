package dev.jaxc.backend.llvm;

import dev.jaxc.backend.llvm.kernel.KernelLowering;
import dev.jaxc.backend.llvm.plan.BackendRules;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.prim.Primitive;
import java.util.function.Predicate;

/**
 * The CPU backend's answers to the planner: lowered primitives from {@link Support}, scratch from
 * {@link KernelLowering}, and input fusion into the reductions (their operands are read through
 * generators inside the reduction loops, so {@code sum(exp(x - m))} or {@code sum(x * x)} never
 * materialise their operand).
 */
public record CpuBackendRules(Predicate<Primitive> lowered, boolean multiOutput) implements BackendRules {
  public static final CpuBackendRules DEFAULT = new CpuBackendRules(Support::isLowered);
  /**
   * For a backend that emits each step as its own launch and folds reductions in its own way (PTX):
   * no multi-output fusion.
   */
  public static final CpuBackendRules WITHOUT_MULTI_OUTPUT = new CpuBackendRules(Support::isLowered, false);

  /** With multi-output fusion of reductions. */
  public CpuBackendRules(Predicate<Primitive> lowered) {
    this(lowered, true);
  }

  @Override
  public String missing(Primitive p) {
    return lowered.test(p) ? null : Support.of(p).detail();
  }

  @Override
  public boolean fusesOperand(Primitive p, Eqn e, int operand) {
    return switch (p) {
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_AND, REDUCE_OR, REDUCE_XOR, ARGMAX, ARGMIN ->
          operand == 0;
      // The operands, not the init values (read once, outside the loops).
      case REDUCE -> operand < e.ins().size() / 2;
      default -> false;
    };
  }

  /**
   * Every reduction (ReduceLanes, ReduceColumns, ReduceKernel) folds each element of its operands
   * once, so a value its operand's chain materialises is stored from the reduction's loop.
   */
  @Override
  public boolean evaluatesEachOnce(Primitive p, Eqn e, int operand) {
    return multiOutput && fusesOperand(p, e, operand);
  }

  @Override
  public int rowReduction(Primitive p, Eqn e) {
    return KernelLowering.rowReduction(p, e);
  }

  @Override
  public long scratchBytes(Primitive p, Eqn e) {
    return KernelLowering.scratchBytes(p, e);
  }
}
