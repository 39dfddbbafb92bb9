package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Drops unused results of cond, while and scan, and then the operands their bodies no longer
 * read. Operand layouts are format doc §9. Empty (leave the equation's interface alone) where a
 * body has constvars or the counts do not fit the layout.
 */
final class Narrowing {
  private Narrowing() {}

  /** {@code cond[branches] index *args}: every branch loses the unused results. */
  static Optional<Eqn> cond(Eqn e, boolean[] used, Sweeper s) {
    List<Jaxpr> branches = e.params().getJaxprs("branches");
    int nArgs = e.ins().size() - 1;
    for (Jaxpr b : branches)
      if (!b.constvars().isEmpty() || b.invars().size() != nArgs || b.outs().size() != used.length)
        return Optional.empty();
    List<Jaxpr> swept = branches.stream().map(b -> s.keepingOutputs(b, used)).toList();
    boolean[] args = new boolean[nArgs];
    for (Jaxpr b : swept) {
      boolean[] reads = reads(b, b.invars());
      for (int k = 0; k < nArgs; k++) args[k] |= reads[k];
    }
    List<ParamValue> kept = swept.stream().map(b -> jaxpr(s.keepingInvars(b, args))).toList();
    Params p = keepLinear(e.params().with("branches", new ParamValue.Tuple(kept)), args);
    boolean[] operands = Lists.concat(new boolean[] {true}, args);
    return Optional.of(rebuild(e, Lists.keep(e.outs(), used), p, operands));
  }

  /**
   * {@code while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts] *cond_consts *body_consts
   * *carry}: a carry stays if its result is used, the condition reads it, or a carry that stays is
   * computed from it.
   */
  static Optional<Eqn> whileLoop(Eqn e, boolean[] used, Sweeper s) {
    Params ps = e.params();
    WhileParams w = WhileParams.of(ps);
    int cn = w.condNconsts();
    int bn = w.bodyNconsts();
    Jaxpr cj = w.condJaxpr();
    Jaxpr bj = w.bodyJaxpr();
    int nCarry = e.ins().size() - cn - bn;
    if (!cj.constvars().isEmpty()
        || !bj.constvars().isEmpty()
        || cj.invars().size() != cn + nCarry
        || bj.invars().size() != bn + nCarry
        || bj.outs().size() != nCarry
        || used.length != nCarry) return Optional.empty();
    Jaxpr cond = s.keepingOutputs(cj);
    boolean[] live = used.clone();
    boolean[] condReads = reads(cond, cj.invars());
    for (int i = 0; i < nCarry; i++) live[i] |= condReads[cn + i];
    Jaxpr body = fixpoint(bj, live, new boolean[0], bn, s);
    boolean[] condConsts = Arrays.copyOfRange(condReads, 0, cn);
    boolean[] bodyConsts = Arrays.copyOfRange(reads(body, bj.invars()), 0, bn);
    Params p =
        ps.with("cond_jaxpr", jaxpr(s.keepingInvars(cond, Lists.concat(condConsts, live))))
            .with("cond_nconsts", count(condConsts))
            .with("body_jaxpr", jaxpr(s.keepingInvars(body, Lists.concat(bodyConsts, live))))
            .with("body_nconsts", count(bodyConsts));
    return Optional.of(
        rebuild(e, Lists.keep(e.outs(), live), p, Lists.concat(condConsts, bodyConsts, live)));
  }

  /**
   * {@code scan[jaxpr num_consts num_carry …] *consts *carry *xs}, results {@code *carry *ys}: a
   * carry stays if its result is used or something that stays is computed from it; a y if its
   * result is used.
   */
  static Optional<Eqn> scan(Eqn e, boolean[] used, Sweeper s) {
    Params ps = e.params();
    ScanParams sp = ScanParams.of(ps);
    int nc = sp.numConsts();
    int nCarry = sp.numCarry();
    Jaxpr bj = sp.jaxpr();
    int n = e.ins().size();
    if (!bj.constvars().isEmpty()
        || bj.invars().size() != n
        || bj.outs().size() != used.length
        || nc + nCarry > n
        || nCarry > used.length) return Optional.empty();
    boolean[] carry = Arrays.copyOfRange(used, 0, nCarry);
    boolean[] ys = Arrays.copyOfRange(used, nCarry, used.length);
    Jaxpr body = fixpoint(bj, carry, ys, nc, s);
    boolean[] reads = reads(body, bj.invars());
    boolean[] consts = Arrays.copyOfRange(reads, 0, nc);
    boolean[] xs = Arrays.copyOfRange(reads, nc + nCarry, n);
    boolean[] operands = Lists.concat(consts, carry, xs);
    Params p =
        ps.with("jaxpr", jaxpr(s.keepingInvars(body, operands)))
            .with("num_consts", count(consts))
            .with("num_carry", count(carry));
    if (p.get("linear").orElse(null) instanceof ParamValue.Tuple t && t.items().size() == n)
      p = p.with("linear", new ParamValue.Tuple(Lists.keep(t.items(), operands), t.list()));
    return Optional.of(rebuild(e, Lists.keep(e.outs(), Lists.concat(carry, ys)), p, operands));
  }

  /**
   * Sweeps a loop body whose outputs are {@code *carry *rest}, growing {@code carry} (in place)
   * until every carry the swept body reads is kept. The body's carry inputs start at {@code
   * carryFrom}.
   */
  private static Jaxpr fixpoint(
      Jaxpr body, boolean[] carry, boolean[] rest, int carryFrom, Sweeper s) {
    while (true) {
      Jaxpr swept = s.keepingOutputs(body, Lists.concat(carry, rest));
      boolean[] reads = reads(swept, body.invars());
      boolean grew = false;
      for (int i = 0; i < carry.length; i++) {
        if (!carry[i] && reads[carryFrom + i]) {
          carry[i] = true;
          grew = true;
        }
      }
      if (!grew) return swept;
    }
  }

  /** cond's per-arg {@code linear} flags (≤ 0.4.30), narrowed with the args. */
  private static Params keepLinear(Params p, boolean[] args) {
    ParamValue linear = p.get("linear").orElse(null);
    if (linear instanceof ParamValue.Tuple t && t.items().size() == args.length)
      return p.with("linear", new ParamValue.Tuple(Lists.keep(t.items(), args), t.list()));
    return p;
  }

  /** Which of {@code vars} the swept jaxpr reads. */
  private static boolean[] reads(Jaxpr swept, List<Var> vars) {
    Set<Var> r = Sweeper.reads(swept);
    boolean[] m = new boolean[vars.size()];
    for (int i = 0; i < m.length; i++) m[i] = r.contains(vars.get(i));
    return m;
  }

  private static ParamValue jaxpr(Jaxpr j) {
    return new ParamValue.JaxprValue(j);
  }

  private static ParamValue count(boolean[] flags) {
    int n = 0;
    for (boolean f : flags) if (f) n++;
    return ParamValue.Int.of(n);
  }

  /** The equation with the kept results, new params and the operands {@code keep} selects. */
  private static Eqn rebuild(Eqn e, List<Var> outs, Params p, boolean[] keep) {
    List<Span> spans = e.inSpans().isEmpty() ? e.inSpans() : Lists.keep(e.inSpans(), keep);
    List<Atom> ins = Lists.keep(e.ins(), keep);
    return new Eqn(outs, e.primitive(), p, ins, e.span(), e.primSpan(), spans);
  }
}
