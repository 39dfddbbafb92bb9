package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.prim.Primitive;

/**
 * What the {@link Planner} asks of a backend, so that it imports no kernels: which primitives
 * are lowered, which kernel operands may be computed by fused producers inside the kernel's loops
 * (input fusion) instead of materialised, and how much scratch memory a kernel needs. The CPU
 * backend's answers are {@code CpuBackendRules}; another backend supplies its own.
 */
public interface BackendRules {
  /** Null when {@code p} is lowered; otherwise why not (shown after "unsupported primitive NAME"). */
  String missing(Primitive p);

  /**
   * True if the kernel of {@code e} (primitive {@code p}) reads operand {@code operand} only
   * through its element generator, once per element it needs, so an elementwise producer of that
   * operand can be evaluated inside the kernel's loops.
   */
  boolean fusesOperand(Primitive p, Eqn e, int operand);

  /**
   * The number of leading kept dimensions (the rows) when the reduction kernel of {@code e} can
   * be emitted one row at a time inside a row loop ({@link Step.Rows}): it reduces exactly the
   * dimensions after them. Otherwise -1.
   */
  int rowReduction(Primitive p, Eqn e);

  /**
   * True if the kernel of {@code e} evaluates each element of operand {@code operand} exactly once,
   * at its own index, through its generator, so values its fused chain computes can be stored from
   * inside the kernel's loop ({@link Step.MultiOutput}). Default: no multi-output fusion.
   */
  default boolean evaluatesEachOnce(Primitive p, Eqn e, int operand) {
    return false;
  }

  /**
   * True if the kernel of {@code e} (primitive {@code p}) stores its one result through a callback
   * that may evaluate an elementwise chain on each finished element first (epilogue fusion, {@link
   * Epilogues}). None by default.
   */
  default boolean fusesResult(Primitive p, Eqn e) {
    return false;
  }

  /**
   * True if the kernel of {@code e}, which {@link #fusesResult fuses its result}, can also store it
   * transposed by {@code permutation} (a transpose as the epilogue's root, {@link Epilogues}): its
   * loops then run in the transposed order, so the transpose costs no pass of its own. None by
   * default.
   */
  default boolean transposesResult(Primitive p, Eqn e, long[] permutation) {
    return false;
  }

  /** Bytes of scratch memory the kernel of {@code e} needs during its own step (0: none). */
  long scratchBytes(Primitive p, Eqn e);
}
