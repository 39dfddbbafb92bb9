package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Var;
import java.util.List;

/** One item of the schedule, emitted in order. */
public sealed interface Step {
  /**
   * One loop nest over the roots' common shape that evaluates each root's generator (composed
   * with its fused producers) and stores it into the root's buffer.
   */
  record Fusion(List<Var> roots) implements Step {
    public Fusion {
      roots = List.copyOf(roots);
      if (roots.isEmpty()) throw new IllegalArgumentException("a fusion group needs a root");
    }
  }

  /**
   * An equation that reads materialised operands and writes materialised results; or, with an
   * {@code epilogue} (a GEMM whose result only an elementwise chain reads, {@link Epilogues}),
   * one that evaluates the chain on each finished result element and stores the chain's root
   * {@code epilogue} instead, its own result never materialised.
   */
  record Kernel(Eqn eqn, Var epilogue) implements Step {
    /** A kernel that stores its own results. */
    public Kernel(Eqn eqn) {
      this(eqn, null);
    }
  }

  /**
   * Multi-output fusion ({@link MultiOutputFusion}): {@code kernel}, a reduction that evaluates
   * each element of its operands once, also stores {@code roots}, materialised values of its
   * operands' fused chains with the operands' shape, each where its element is computed — one
   * pass over memory instead of a fusion group's loop and then the kernel's.
   */
  record MultiOutput(Kernel kernel, List<Var> roots) implements Step {
    public MultiOutput {
      roots = List.copyOf(roots);
      if (roots.isEmpty()) throw new IllegalArgumentException("a multi-output kernel needs a stored root");
    }
  }

  /**
   * One loop over {@code rows} (the leading dimensions every member works on) that runs each
   * member, a row-reduction kernel or a fusion group, for one row before the next row
   * ({@link RowFusion}).
   */
  record Rows(List<Long> rows, List<Step> steps) implements Step {
    public Rows {
      rows = List.copyOf(rows);
      steps = List.copyOf(steps);
    }

    public long[] shape() {
      return rows.stream().mapToLong(Long::longValue).toArray();
    }
  }

  /**
   * Fills {@code outputs[output]} from an atom that has no buffer of its own there: a literal, a
   * jaxpr input, or a value already stored in another output.
   */
  record CopyOut(int output, Atom source) implements Step {}
}
