package dev.jaxc.backend.llvm;

import dev.jaxc.backend.llvm.kernel.KernelLowering;
import dev.jaxc.backend.llvm.plan.BackendRules;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import dev.jaxc.ir.prim.Primitive;
import java.util.function.Predicate;

/**
 * The CPU backend's answers to the planner: lowered primitives from {@link Support}, scratch from
 * {@link KernelLowering}, and input fusion into the reductions (their operands are read through
 * generators inside the reduction loops, so {@code sum(exp(x - m))} or {@code sum(x * x)} never
 * materialise their operand); in {@link #CPU}, output fusion of elementwise chains into the GEMMs'
 * stores ({@link #fusesResult}).
 */
public record CpuBackendRules(Predicate<Primitive> lowered, boolean multiOutput, boolean epilogues)
    implements BackendRules {
  /** The lowered primitives, with multi-output fusion of reductions, without epilogue fusion. */
  public static final CpuBackendRules DEFAULT = new CpuBackendRules(Support::isLowered);
  /**
   * For a backend that emits each step as its own launch and folds reductions in its own way (PTX):
   * no multi-output fusion, no epilogues.
   */
  public static final CpuBackendRules WITHOUT_MULTI_OUTPUT = new CpuBackendRules(Support::isLowered, false, false);
  /** The CPU compiler's rules: DEFAULT with epilogue fusion into the GEMMs. */
  public static final CpuBackendRules CPU = new CpuBackendRules(Support::isLowered, true, true);

  /** With multi-output fusion of reductions, without epilogue fusion. */
  public CpuBackendRules(Predicate<Primitive> lowered) {
    this(lowered, true, false);
  }

  /**
   * dot_general and convolution (one GEMM loop nest, kernel/GemmCore) store each finished element
   * through a callback, which evaluates the epilogue there: its C block row is contiguous, so the
   * store loop stays a vector loop.
   */
  @Override
  public boolean fusesResult(Primitive p, Eqn e) {
    return epilogues && (p == Primitive.DOT_GENERAL || p == Primitive.CONV_GENERAL_DILATED);
  }

  /**
   * dot_general stores a transposed result in the transposed order (kernel/GemmDot, as XLA's layout
   * assignment makes a dot write the layout its transpose wants), where the result's innermost
   * axis is one of the operands' free axes: the GEMM then stores whole rows of its C block (the
   * operand that reads that axis becomes B). A batch axis innermost would store every element a
   * row apart.
   */
  @Override
  public boolean transposesResult(Primitive p, Eqn e, long[] permutation) {
    if (!epilogues || p != Primitive.DOT_GENERAL) return false;
    long[] sizes = ((ArrayType) e.outs().get(0).type()).shape().sizes();
    int last = permutation.length - 1;
    while (last > 0 && sizes[(int) permutation[last]] == 1) last--;
    return last < 0 || permutation[last] >= DotDimensionNumbers.of(e.params()).lhsBatch().length;
  }

  @Override
  public String missing(Primitive p) {
    return lowered.test(p) ? null : Support.of(p).detail();
  }

  /**
   * Reductions read their operands through generators; with multi-output fusion (the CPU's own
   * kernels, not PTX's), scatters and dynamic_update_slice read their update that way too, so
   * {@code x.at[i].set(c * a + s * b)} computes the row as it stores it (the planner keeps an
   * update materialised when it reads the array being updated, {@code Planner#fusedInto}).
   */
  @Override
  public boolean fusesOperand(Primitive p, Eqn e, int operand) {
    return reductionOperand(p, e, operand) || multiOutput && updateOperand(p, operand);
  }

  /**
   * Every reduction (ReduceLanes, ReduceColumns, ReduceKernel) folds each element of its operands
   * once, so a value its operand's chain materialises is stored from the reduction's loop.
   */
  @Override
  public boolean evaluatesEachOnce(Primitive p, Eqn e, int operand) {
    return multiOutput && reductionOperand(p, e, operand);
  }

  private static boolean reductionOperand(Primitive p, Eqn e, int operand) {
    return switch (p) {
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_AND, REDUCE_OR, REDUCE_XOR, ARGMAX, ARGMIN ->
          operand == 0;
      // The operands, not the init values (read once, outside the loops).
      case REDUCE -> operand < e.ins().size() / 2;
      default -> false;
    };
  }

  /** The update operand of a scatter or dynamic_update_slice. */
  private static boolean updateOperand(Primitive p, int operand) {
    return switch (p) {
      // The updated array too (the kernel starts its result from it): the planner fuses only a fill.
      case SCATTER, SCATTER_ADD, SCATTER_SUB, SCATTER_MUL, SCATTER_MIN, SCATTER_MAX -> operand == 2 || operand == 0;
      case DYNAMIC_UPDATE_SLICE -> operand == 1 || operand == 0;
      default -> false;
    };
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
