package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.BufferAccess;
import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.ElementwiseLowering;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import java.util.List;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What a kernel sees: its equation, a generator per operand (a buffer load, a literal, or a fused
 * producer: kernels may read fused operands), the base address and type of each result buffer,
 * and the shared emitters. With an {@code epilogue} (null: none), {@code results} holds the
 * chain root's buffer and {@code resultTypes} the kernel's own result type, and the kernel stores
 * through {@link #storeResult}. {@code plan} is the plan being emitted and {@code bases} the run-time
 * address of each of its buffers: kernels that need operand addresses ({@link #operandBase}) or
 * that run nested plans (control flow: {@link Plan#controlFlow}) use them.
 */
public record KernelContext(
    Ir ir,
    Eqn eqn,
    List<ElementGenerator> operands,
    List<LLVMValueRef> results,
    List<ArrayType> resultTypes,
    BufferAccess access,
    LoopEmitter loops,
    ElementwiseLowering lowering,
    Plan plan,
    Function<Buffer, LLVMValueRef> bases,
    Epilogue epilogue) {
  /**
   * Stores a kernel's finished result element after evaluating the elementwise chain the planner
   * fused into it (plan/Epilogues), in the chain root's buffer.
   */
  public interface Epilogue {
    void store(Index idx, Value result);

    /**
     * The root's transpose permutation where the chain ends in one (root axis i is result axis
     * {@code permutation[i]}, plan/Epilogues), else null: the kernel may then run its loops in
     * the root's order.
     */
    default int[] permutation() {
      return null;
    }
  }

  public KernelContext {
    operands = List.copyOf(operands);
    results = List.copyOf(results);
    resultTypes = List.copyOf(resultTypes);
  }

  /** A context whose kernel stores its own results (no epilogue). */
  public KernelContext(Ir ir, Eqn eqn, List<ElementGenerator> operands, List<LLVMValueRef> results,
      List<ArrayType> resultTypes, BufferAccess access, LoopEmitter loops, ElementwiseLowering lowering, Plan plan,
      Function<Buffer, LLVMValueRef> bases) {
    this(ir, eqn, operands, results, resultTypes, access, loops, lowering, plan, bases, null);
  }

  /**
   * Stores element {@code idx} of the kernel's first result: into its buffer, or, with an epilogue,
   * the chain's value there into the root's buffer (kernels whose results the planner may fuse,
   * {@code BackendRules.fusesResult}, store through this).
   */
  public void storeResult(Index idx, Value v) {
    if (epilogue == null) access.store(results.get(0), resultTypes.get(0), idx, v);
    else epilogue.store(idx, v);
  }

  /** The permutation the kernel's result is stored transposed by ({@link Epilogue#permutation}), or null. */
  public int[] resultPermutation() {
    return epilogue == null ? null : epilogue.permutation();
  }

  /**
   * A context without the plan (the first version's constructor, kept for kernels and tests
   * written against it): {@link #operandBase} and nested plans are not available.
   */
  public KernelContext(Ir ir, Eqn eqn, List<ElementGenerator> operands, List<LLVMValueRef> results,
      List<ArrayType> resultTypes, BufferAccess access, LoopEmitter loops, ElementwiseLowering lowering) {
    this(ir, eqn, operands, results, resultTypes, access, loops, lowering, null, null, null);
  }

  /**
   * The address of the kernel's scratch memory (64-byte aligned, {@link
   * KernelLowering#scratchBytes} of them), or null when it asked for none or has no plan.
   */
  public LLVMValueRef scratch() {
    if (plan == null) return null;
    Buffer s = plan.scratch(eqn);
    return s == null ? null : bases.apply(s);
  }

  public ArrayType operandType(int i) {
    return (ArrayType) eqn.ins().get(i).type();
  }

  /**
   * The address of operand {@code i}'s buffer. Every variable operand of a kernel is materialised;
   * a literal operand has no buffer (read it through its generator).
   */
  public LLVMValueRef operandBase(int i) {
    if (plan == null) throw new IllegalStateException("kernel context without a plan");
    if (!(eqn.ins().get(i) instanceof Var v)) throw new IllegalArgumentException("operand " + i + " is a literal");
    return bases.apply(plan.buffer(v));
  }
}
