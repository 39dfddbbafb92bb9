package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one jaxpr is computed: which values have buffers (and where), which are fused into their
 * consumers, and the schedule of fusion groups, kernels and output copies. Made by {@link
 * Planner}. Maps are keyed by variable (or equation) identity and never iterated for emission, so
 * emission order comes only from the lists, which keeps the generated code deterministic.
 *
 * <p>A plan is made per jaxpr: the top level, and each body of a cond, while or scan, whose plans
 * hang off the equation ({@link #controlFlow}). A body's temporaries live in the top-level
 * workspace too, at absolute offsets inside the region its equation's step reserves.
 */
public final class Plan {
  /** Alignment of workspace offsets and of the workspace itself, in bytes. */
  public static final int ALIGNMENT = 64;

  private final Jaxpr jaxpr;
  private final Map<Var, Buffer> buffers;
  private final Map<Var, Producer> producers;
  private final List<Step> steps;
  private final List<Var> temporaries;
  private final Map<Eqn, Buffer.Temp> scratch;
  private final long workspaceBytes;
  private final Map<Eqn, ControlFlowPlan> controlFlow;
  private final int[] overwrites;

  Plan(Jaxpr jaxpr, IdentityHashMap<Var, Buffer> buffers, IdentityHashMap<Var, Producer> producers,
      List<Step> steps, List<Var> temporaries, IdentityHashMap<Eqn, Buffer.Temp> scratch,
      long workspaceBytes, IdentityHashMap<Eqn, ControlFlowPlan> controlFlow, int[] overwrites) {
    this.jaxpr = jaxpr;
    this.buffers = buffers;
    this.producers = producers;
    this.steps = List.copyOf(steps);
    this.temporaries = List.copyOf(temporaries);
    this.scratch = scratch;
    this.workspaceBytes = workspaceBytes;
    this.controlFlow = controlFlow;
    this.overwrites = overwrites.clone();
  }

  /**
   * The input whose buffer output {@code k} may be computed in (−1: none): the output is a chain
   * of scatters or dynamic_update_slices that starts at that input, and nothing reads the input
   * after the chain's first update ({@link InPlaceUpdates}). A loop whose body carries a value
   * this way keeps the carry in one buffer and updates it in place, instead of copying it into
   * the other buffer on every iteration ({@code x.at[i].set(…)} in a fori_loop).
   */
  public int overwrites(int k) {
    return overwrites[k];
  }

  public Jaxpr jaxpr() {
    return jaxpr;
  }

  /** The compiled function's inputs: constvars, then invars. */
  public List<Var> inputs() {
    return jaxpr.inputs();
  }

  public List<Atom> outputs() {
    return jaxpr.outs();
  }

  public boolean isMaterialised(Var v) {
    return buffers.containsKey(v);
  }

  /** The buffer of a materialised value. */
  public Buffer buffer(Var v) {
    Buffer b = buffers.get(v);
    if (b == null) throw new IllegalArgumentException(v + " is not materialised");
    return b;
  }

  /** The equation that binds {@code v}; {@code v} must not be a jaxpr input. */
  public Producer producer(Var v) {
    Producer p = producers.get(v);
    if (p == null) throw new IllegalArgumentException(v + " is not bound by an equation");
    return p;
  }

  public List<Step> steps() {
    return steps;
  }

  /** Whether {@code e} is a scheduled cond, while or scan equation (with nested plans). */
  public boolean isControlFlow(Eqn e) {
    return controlFlow.containsKey(e);
  }

  /** The nested plans and workspace region of a scheduled cond, while or scan equation. */
  public ControlFlowPlan controlFlow(Eqn e) {
    ControlFlowPlan c = controlFlow.get(e);
    if (c == null) throw new IllegalArgumentException(e.primitive() + " is not a scheduled control-flow equation");
    return c;
  }

  /**
   * Every workspace buffer the schedule may ask an address for: this plan's temporaries, then per
   * kernel step its scratch, and for each control-flow step its region's buffers and its nested
   * plans' (recursively).
   */
  public List<Buffer.Temp> workspaceBuffers() {
    List<Buffer.Temp> r = new ArrayList<>();
    for (Var v : temporaries) r.add((Buffer.Temp) buffers.get(v));
    for (Step s : steps) kernelBuffers(s, r);
    return r;
  }

  private void kernelBuffers(Step s, List<Buffer.Temp> r) {
    if (s instanceof Step.Rows g) {
      for (Step inner : g.steps()) kernelBuffers(inner, r);
      return;
    }
    if (s instanceof Step.MultiOutput m) s = m.kernel();
    if (!(s instanceof Step.Kernel k)) return;
    if (scratch.get(k.eqn()) != null) r.add(scratch.get(k.eqn()));
    if (controlFlow.get(k.eqn()) != null) r.addAll(controlFlow.get(k.eqn()).workspaceBuffers());
  }

  /** This plan with its workspace (nested plans included) moved by {@code delta} bytes. */
  Plan relocated(long delta) {
    if (delta == 0) return this;
    IdentityHashMap<Var, Buffer> moved = new IdentityHashMap<>();
    buffers.forEach((v, b) -> moved.put(v, b instanceof Buffer.Temp t ? new Buffer.Temp(t.offset() + delta, t.type()) : b));
    IdentityHashMap<Eqn, Buffer.Temp> sc = new IdentityHashMap<>();
    scratch.forEach((e, t) -> sc.put(e, new Buffer.Temp(t.offset() + delta, t.type())));
    IdentityHashMap<Eqn, ControlFlowPlan> cf = new IdentityHashMap<>();
    controlFlow.forEach((e, c) -> cf.put(e, c.relocated(delta)));
    return new Plan(jaxpr, moved, new IdentityHashMap<>(producers), steps, temporaries, sc, workspaceBytes, cf, overwrites);
  }

  /** The values that live in the workspace, in the order they are defined. */
  public List<Var> temporaries() {
    return temporaries;
  }

  /** The scratch memory of a kernel equation (u8 bytes in the workspace), or null if it needs none. */
  public Buffer.Temp scratch(Eqn kernel) {
    return scratch.get(kernel);
  }

  /** Bytes of workspace the schedule needs (0: no workspace is allocated). */
  public long workspaceBytes() {
    return workspaceBytes;
  }
}
