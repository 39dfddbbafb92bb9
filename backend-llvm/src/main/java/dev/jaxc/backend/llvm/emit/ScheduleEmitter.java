package dev.jaxc.backend.llvm.emit;

import dev.jaxc.backend.llvm.Support;
import dev.jaxc.backend.llvm.kernel.KernelContext;
import dev.jaxc.backend.llvm.kernel.KernelLowering;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Producer;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.backend.llvm.runtime.ParallelFor;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Emits a plan's schedule at the builder's position: each fusion group as one loop nest that
 * evaluates its root's composed generator and stores it, each output copy as a loop that reads
 * its source. {@code bases} gives the run-time address of every buffer (set up by the entry point
 * before the first step, so every address dominates every step). A control-flow kernel emits its
 * bodies' plans with another ScheduleEmitter, whose {@code bases} bind the body's inputs and
 * outputs to the addresses of the iteration and pass workspace buffers through.
 */
public final class ScheduleEmitter {
  private final Ir ir;
  private final Plan plan;
  private final Function<Buffer, LLVMValueRef> bases;
  private final ElementwiseLowering lowering;
  private final XlaRewrites rewrites;
  private final BufferAccess access;
  private final LoopEmitter loops;

  /** {@code parallel}: the module's parallel regions (fusion loops may be split across threads). */
  public ScheduleEmitter(Ir ir, Plan plan, ParallelFor parallel, Function<Buffer, LLVMValueRef> bases) {
    this.ir = ir;
    this.plan = plan;
    this.bases = bases;
    this.rewrites = new XlaRewrites(plan);
    this.lowering = new ElementwiseLowering(ir, ClassTestFold.rawZeroCompares(plan.jaxpr()), rewrites);
    this.access = new BufferAccess(ir);
    this.loops = new LoopEmitter(ir, parallel);
  }

  public void emitAll() {
    for (Step s : plan.steps()) emit(s);
  }

  /** Emits one step at the builder's position. */
  public void emit(Step s) {
    if (s instanceof Step.Fusion f) {
      fusion(f);
    } else if (s instanceof Step.CopyOut c) {
      copyOut(c);
    } else if (s instanceof Step.Kernel k) {
      kernel(k.eqn());
    } else {
      throw new AssertionError(s);
    }
  }

  /**
   * The group's loop may run on several threads; its generators are composed inside the loop body
   * (where a thread's own stack slots go). Its work: elements × the group's fused equations.
   */
  private void fusion(Step.Fusion f) {
    ArrayType shape = type(f.roots().get(0));
    long perElement = 0;
    for (Var root : f.roots()) perElement += equations(plan.producer(root));
    long work = shape.shape().elementCount() * perElement;
    loops.forEachParallel(shape.shape().sizes(), work, LoopEmitter.VECTOR_GRAIN, idx -> {
      List<ElementGenerator> gens = new ArrayList<>();
      for (Var root : f.roots()) gens.add(computed(plan.producer(root)));
      for (int r = 0; r < gens.size(); r++) {
        Var root = f.roots().get(r);
        access.store(bases.apply(plan.buffer(root)), type(root), idx, gens.get(r).at(idx));
      }
    });
  }

  /** The planner schedules only lowered primitives (Support), so the kernel exists. */
  private void kernel(Eqn e) {
    Primitive p = Primitive.byName(e.primitive()).orElseThrow(
        () -> new JaxcException("unsupported primitive " + e.primitive(), e.span()));
    if (!Support.isLowered(p))
      throw new JaxcException("unsupported primitive " + e.primitive() + " (" + Support.of(p).detail() + ")", e.span());
    List<ElementGenerator> ops = new ArrayList<>();
    for (Atom in : e.ins()) ops.add(of(in));
    List<LLVMValueRef> results = new ArrayList<>();
    List<ArrayType> types = new ArrayList<>();
    for (Var out : e.outs()) {
      results.add(bases.apply(plan.buffer(out)));
      types.add(type(out));
    }
    KernelLowering.emit(p, new KernelContext(ir, e, ops, results, types, access, loops, lowering, plan, bases));
  }

  private void copyOut(Step.CopyOut c) {
    ArrayType t = type(c.source());
    ElementGenerator g = of(c.source());
    Buffer out = new Buffer.Output(c.output(), (ArrayType) plan.outputs().get(c.output()).type());
    loops.forEach(t.shape().sizes(), idx -> access.store(bases.apply(out), t, idx, g.at(idx)));
  }

  /** The generator of an atom as its consumers see it: constant, buffer load, or fused producer. */
  private ElementGenerator of(Atom a) {
    if (a instanceof Literal lit) return idx -> Constants.literal(ir, lit);
    Var v = (Var) a;
    if (plan.isMaterialised(v)) {
      Buffer b = plan.buffer(v);
      return idx -> access.load(bases.apply(b), b.type(), idx);
    }
    return computed(plan.producer(v));
  }

  /** The generator of a producer's result, composed from its operands' generators. */
  private ElementGenerator computed(Producer p) {
    List<ElementGenerator> ops = new ArrayList<>();
    for (Atom in : p.eqn().ins()) ops.add(of(in));
    XlaRewrites.Contraction c = rewrites.contraction(p.eqn());
    if (c != null) {
      List<ElementGenerator> factors = new ArrayList<>();
      for (Atom in : c.product().ins()) factors.add(of(in));
      return lowering.contracted(p, c, factors, ops);
    }
    return lowering.generator(p, ops);
  }

  /** How many equations {@link #computed} composes for {@code p}. */
  private long equations(Producer p) {
    long n = 1;
    for (Atom in : p.eqn().ins()) if (in instanceof Var v && !plan.isMaterialised(v)) n += equations(plan.producer(v));
    return n;
  }

  private static ArrayType type(Atom a) {
    return (ArrayType) a.type();
  }
}
