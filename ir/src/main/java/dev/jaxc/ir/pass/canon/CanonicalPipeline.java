package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Program;
import java.util.List;

/**
 * The IR passes between the type pass and code generation. Backends only see their result: no
 * call-like equations ({@code jit}, {@code pjit}, {@code custom_jvp_call}, {@code remat2}, …), no
 * pass-through equations ({@code stop_gradient}, {@code device_put}, …), no dead pure equations.
 *
 * <p>What a backend must still expect: control-flow equations ({@code cond}, {@code while}, {@code
 * scan}) whose bodies are canonical too; jaxpr outputs that are inputs, literals, or the same
 * variable more than once; and, only for legacy printouts whose nested jaxprs closed over
 * constants, extra top-level constvars (see {@link Inliner}).
 */
public final class CanonicalPipeline {
  /**
   * The passes, in the order they run: inlining first, so DCE sees across former calls (and the
   * transposes that dots no longer read).
   */
  public static final List<IrPass> PASSES = List.of(new Inliner(), new TransposeFolding(), new ScatterSelects(), new DeadCodeElimination());

  private CanonicalPipeline() {}

  public static Program run(Program program) {
    Program p = program;
    for (IrPass pass : PASSES) p = pass.apply(p);
    return p;
  }
}
