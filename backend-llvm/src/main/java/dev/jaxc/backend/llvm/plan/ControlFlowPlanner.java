package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Makes the {@link ControlFlowPlan} of a cond, while or scan equation (operand layouts: format doc
 * §9): checks the layout, plans every body with {@code planBody} (the planner itself, so bodies
 * may nest control flow) and lays out the step's region with offsets from its start.
 *
 * <p>Operands that stay the same in every run of a body (cond's args, loop consts) and are
 * literals are substituted into the body, so the body reads a constant instead of a buffer that
 * would have to hold it.
 */
final class ControlFlowPlanner {
  private ControlFlowPlanner() {}

  static boolean handles(Primitive p) {
    return p == Primitive.COND || p == Primitive.WHILE || p == Primitive.SCAN;
  }

  /** Region-relative offsets; the planner relocates the result once the region is placed. */
  static ControlFlowPlan plan(Eqn e, Primitive p, Function<Jaxpr, Plan> planBody) {
    return switch (p) {
      case COND -> cond(e, planBody);
      case WHILE -> whileLoop(e, planBody);
      case SCAN -> scan(e, planBody);
      default -> throw new IllegalArgumentException(p.printedName());
    };
  }

  /** {@code cond[branches] index *args}. */
  private static ControlFlowPlan cond(Eqn e, Function<Jaxpr, Plan> planBody) {
    int nArgs = e.ins().size() - 1;
    List<Plan> branches = new ArrayList<>();
    long nested = 0;
    for (Jaxpr b : e.params().getJaxprs("branches")) {
      expect(b.inputs().size() == nArgs && b.outs().size() == e.outs().size(), e, "a branch does not match the operands");
      Plan plan = planBody.apply(withLiterals(b, e.ins().subList(1, e.ins().size())));
      branches.add(plan);
      nested = Math.max(nested, plan.workspaceBytes());
    }
    expect(!branches.isEmpty(), e, "no branches");
    return new ControlFlowPlan.Cond(branches, WorkspaceAllocator.align(nested));
  }

  /** {@code while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts] *cond_consts *body_consts *carry}. */
  private static ControlFlowPlan whileLoop(Eqn e, Function<Jaxpr, Plan> planBody) {
    WhileParams w = ParamDecoding.at(e, WhileParams::of);
    int cn = w.condNconsts();
    int bn = w.bodyNconsts();
    Jaxpr cj = w.condJaxpr();
    Jaxpr bj = w.bodyJaxpr();
    int nCarry = e.ins().size() - cn - bn;
    expect(nCarry >= 0 && e.outs().size() == nCarry, e, "operands do not match cond_nconsts and body_nconsts");
    expect(cj.inputs().size() == cn + nCarry && cj.outs().size() == 1, e, "cond_jaxpr does not match the operands");
    expect(bj.inputs().size() == bn + nCarry && bj.outs().size() == nCarry, e, "body_jaxpr does not match the operands");
    ArrayType pred = (ArrayType) cj.outs().get(0).type();
    expect(pred.dtype() == DType.BOOL, e, "cond_jaxpr must return a bool");
    for (Var c : e.outs()) expect(isPrefix(pred, (ArrayType) c.type()), e, "a batched predicate must be a prefix of every carry's shape");
    Plan cond = planBody.apply(withLiterals(cj, e.ins().subList(0, cn)));
    Plan body = planBody.apply(withLiterals(bj, e.ins().subList(cn, cn + bn)));
    Region r = new Region();
    List<Buffer.Temp> spares = r.takeEach(e.outs());
    Buffer.Temp predicate = r.take(pred);
    long base = r.end;
    long nested = Math.max(cond.workspaceBytes(), body.workspaceBytes());
    return new ControlFlowPlan.While(cond.relocated(base), body.relocated(base), spares, predicate,
        base + WorkspaceAllocator.align(nested));
  }

  /** {@code scan[jaxpr num_consts num_carry length reverse …] *consts *carry *xs}. */
  private static ControlFlowPlan scan(Eqn e, Function<Jaxpr, Plan> planBody) {
    ScanParams sp = ParamDecoding.at(e, ScanParams::of);
    int nc = sp.numConsts();
    int nCarry = sp.numCarry();
    Jaxpr bj = sp.jaxpr();
    expect(nc + nCarry <= e.ins().size() && nCarry <= e.outs().size(), e, "operands do not match num_consts and num_carry");
    expect(bj.inputs().size() == e.ins().size() && bj.outs().size() == e.outs().size(), e, "the body does not match the operands");
    Plan body = planBody.apply(withLiterals(bj, e.ins().subList(0, nc)));
    Region r = new Region();
    List<Buffer.Temp> spares = r.takeEach(e.outs().subList(0, nCarry));
    long base = r.end;
    return new ControlFlowPlan.Scan(body.relocated(base), spares, base + WorkspaceAllocator.align(body.workspaceBytes()));
  }

  /** Consecutive aligned buffers from offset 0. */
  private static final class Region {
    long end;

    Buffer.Temp take(ArrayType t) {
      Buffer.Temp b = new Buffer.Temp(end, t);
      end += WorkspaceAllocator.align(b.bytes());
      return b;
    }

    List<Buffer.Temp> takeEach(List<Var> vs) {
      List<Buffer.Temp> r = new ArrayList<>();
      for (Var v : vs) r.add(take((ArrayType) v.type()));
      return r;
    }
  }

  /**
   * {@code j} with each of its leading inputs whose operand (in {@code operands}, one per input
   * from the first) is a literal replaced by that literal in its equations and outputs. The input
   * stays, unread, so the body's input numbering still matches the operands.
   */
  static Jaxpr withLiterals(Jaxpr j, List<Atom> operands) {
    Map<Var, Atom> sub = new IdentityHashMap<>();
    List<Var> inputs = j.inputs();
    for (int k = 0; k < operands.size(); k++) {
      if (operands.get(k) instanceof Literal lit) sub.put(inputs.get(k), lit.withType(inputs.get(k).type()));
    }
    if (sub.isEmpty()) return j;
    List<Eqn> eqns = new ArrayList<>();
    for (Eqn q : j.eqns()) {
      List<Atom> ins = q.ins().stream().map(a -> sub.getOrDefault(a, a)).toList();
      eqns.add(ins.equals(q.ins()) ? q : q.withParts(q.outs(), q.params(), ins));
    }
    List<Atom> outs = j.outs().stream().map(a -> sub.getOrDefault(a, a)).toList();
    return new Jaxpr(j.constvars(), j.invars(), eqns, outs, j.span());
  }

  private static boolean isPrefix(ArrayType pred, ArrayType carry) {
    if (pred.rank() > carry.rank()) return false;
    for (int d = 0; d < pred.rank(); d++) if (pred.shape().dim(d) != carry.shape().dim(d)) return false;
    return true;
  }

  private static void expect(boolean ok, Eqn e, String what) {
    if (!ok) throw new JaxcException("unsupported " + e.primitive() + ": " + what, e.span());
  }
}
