package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.List;

/**
 * Moves loop-invariant equations out of {@code while} (cond and body) and {@code scan} bodies:
 * an equation whose operands are all loop consts (or literals, or results of equations already
 * moved) is evaluated once before the loop, in the enclosing jaxpr, and its results enter the loop
 * as new consts ({@code cond_nconsts}/{@code body_nconsts}, {@code num_consts}). What may move is
 * {@link InvariantEqns}'s choice: pure, holding no jaxpr, and not growing the memory that stays
 * live across the loop. Inner loops are treated first, so work invariant in two nested loops
 * leaves both.
 *
 * <p>Runs on canonical, key-free programs (after {@link CanonicalPipeline} and random
 * expansion). Hoisted copies get fresh variable names; the body keeps its variables, the moved
 * results becoming its new const invars; consts that only moved work read are then dropped by
 * {@link DeadCodeElimination}. A program with nothing to move is returned as the same object.
 */
public final class LoopInvariantHoisting implements IrPass {
  public static Program run(Program program) {
    return new LoopInvariantHoisting().apply(program);
  }

  @Override
  public Program apply(Program program) {
    Jaxpr main = new Rewriter(FreshNames.after(program)).jaxpr(program.main());
    // Consts read only by moved work are dead now: DCE drops them from the loops.
    return main == program.main()
        ? program
        : new DeadCodeElimination().apply(program.withMain(main));
  }

  private static final class Rewriter extends HoistingWalk {
    private final FreshNames names;

    Rewriter(FreshNames names) {
      this.names = names;
    }

    @Override
    Eqn rewrite(Eqn e, List<Eqn> before) {
      return loop(e, before);
    }

    /** The loop equation with its invariant work moved into {@code before}; others as they are. */
    private Eqn loop(Eqn e, List<Eqn> before) {
      Primitive p = Primitive.byName(e.primitive()).orElse(null);
      if (p != Primitive.WHILE && p != Primitive.SCAN) return e;
      try {
        return p == Primitive.WHILE ? whileLoop(e, before) : scan(e, before);
      } catch (Params.ParamException x) {
        throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
      }
    }

    /** {@code while[…] *cond_consts *body_consts *carry}. */
    private Eqn whileLoop(Eqn e, List<Eqn> before) {
      WhileParams w = WhileParams.of(e.params());
      int cn = w.condNconsts();
      int bn = w.bodyNconsts();
      List<Atom> ins = e.ins();
      InvariantEqns.Split c =
          new InvariantEqns(names).split(w.condJaxpr(), ins.subList(0, cn), before);
      InvariantEqns.Split b =
          new InvariantEqns(names).split(w.bodyJaxpr(), ins.subList(cn, cn + bn), before);
      if (c.extra().isEmpty() && b.extra().isEmpty()) return e;
      Params params =
          e.params()
              .with("cond_jaxpr", new ParamValue.JaxprValue(c.loop()))
              .with("cond_nconsts", ParamValue.Int.of(cn + c.extra().size()))
              .with("body_jaxpr", new ParamValue.JaxprValue(b.loop()))
              .with("body_nconsts", ParamValue.Int.of(bn + b.extra().size()));
      Eqn r = withOperands(e, params, cn, c.extra());
      return withOperands(r, params, cn + c.extra().size() + bn, b.extra());
    }

    /** {@code scan[…] *consts *carry *xs}. */
    private Eqn scan(Eqn e, List<Eqn> before) {
      ScanParams sp = ScanParams.of(e.params());
      int nc = sp.numConsts();
      InvariantEqns.Split s = new InvariantEqns(names).split(sp.jaxpr(), e.ins().subList(0, nc), before);
      int k = s.extra().size();
      if (k == 0) return e;
      Params params =
          e.params()
              .with("jaxpr", new ParamValue.JaxprValue(s.loop()))
              .with("num_consts", ParamValue.Int.of(nc + k));
      // linear=(…) has one flag per operand (≤ 0.9.2).
      if (params.get("linear").orElse(null) instanceof ParamValue.Tuple t)
        params =
            params.with(
                "linear",
                new ParamValue.Tuple(
                    Lists.insert(t.items(), nc, Lists.repeat(new ParamValue.Bool(false), k)),
                    t.list()));
      return withOperands(e, params, nc, s.extra());
    }

    /** {@code e} with {@code params} and {@code extra} operands (no use sites) inserted at {@code at}. */
    private static Eqn withOperands(Eqn e, Params params, int at, List<? extends Atom> extra) {
      List<Span> spans =
          e.inSpans().isEmpty()
              ? e.inSpans()
              : Lists.insert(e.inSpans(), at, Lists.repeat(Span.NONE, extra.size()));
      return new Eqn(
          e.outs(), e.primitive(), params, Lists.insert(e.ins(), at, extra), e.span(), e.primSpan(),
          spans);
    }
  }
}
