package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Makes the {@link Plan} of a jaxpr: classifies equations (fusible or kernel), decides which
 * values are materialised, schedules fusion groups and kernels in equation order, and assigns
 * buffers (caller pointers for inputs and outputs, one workspace with reuse for the rest).
 *
 * <p>A value is materialised when it is a jaxpr input or output, an operand or result of a
 * kernel, or when recomputing it at every use would repeat real work: it has several uses, or a
 * consumer reads each of its elements more than once (a broadcast, a rank-0 operand of a larger
 * operation) — unless its producer is cheap, i.e. an index rewrite of materialised values or an
 * f32/f64 multiply of them.
 *
 * <p>The bodies of cond, while and scan are planned by the same rules, recursively ({@link
 * ControlFlowPlanner}); their workspace becomes part of the parent's, reserved for the step.
 *
 * <p>A kernel operand is materialised too, unless the backend's rules say the kernel reads it
 * through a generator ({@link BackendRules#fusesOperand}: reductions on the CPU), so its
 * elementwise producers run inside the kernel's loops; such a value with several consumers is
 * recomputed in each when its chain is short ({@link #duplicable}).
 *
 * <p>A reduction that reads a value materialised by a fusion group of the same shape at the same
 * index computes and stores it itself ({@link MultiOutputFusion}).
 *
 * <p>The arrays of a chain of scatters or dynamic_update_slices that ends in an output live in
 * that output's buffer ({@link InPlaceUpdates}), so each update writes only what it updates.
 *
 * <p>A kernel that needs working memory ({@link BackendRules#scratchBytes}) gets scratch in the
 * workspace, live during its own step only.
 */
public final class Planner {
  /** Index rewrites and identities: recomputing them per use costs a load, not arithmetic. */
  private static final Set<Primitive> CHEAP = Set.of(
      Primitive.BROADCAST_IN_DIM, Primitive.BROADCAST_TO, Primitive.RESHAPE, Primitive.SQUEEZE,
      Primitive.TRANSPOSE, Primitive.REV, Primitive.SLICE, Primitive.IOTA, Primitive.SPLIT,
      Primitive.COPY, Primitive.STOP_GRADIENT, Primitive.OPTIMIZATION_BARRIER, Primitive.NAME,
      Primitive.DEVICE_PUT, Primitive.SHARDING_CONSTRAINT, Primitive.RESHARD, Primitive.PVARY);

  /**
   * Elementwise primitives XLA does not count as expensive (instruction_fusion's IsExpensive:
   * divisions, powers and transcendental functions are): it duplicates them into every consumer.
   */
  private static final Set<Primitive> CHEAP_ELEMENTWISE = Set.of(
      Primitive.ADD, Primitive.SUB, Primitive.MUL, Primitive.NEG, Primitive.ABS, Primitive.MAX, Primitive.MIN,
      Primitive.SELECT_N, Primitive.CLAMP, Primitive.EQ, Primitive.NE, Primitive.LT, Primitive.LE, Primitive.GT,
      Primitive.GE, Primitive.AND, Primitive.OR, Primitive.NOT, Primitive.XOR, Primitive.SHIFT_LEFT,
      Primitive.SHIFT_RIGHT_ARITHMETIC, Primitive.SHIFT_RIGHT_LOGICAL, Primitive.CONVERT_ELEMENT_TYPE,
      Primitive.SIGN, Primitive.FLOOR, Primitive.CEIL, Primitive.ROUND, Primitive.SQUARE, Primitive.IS_FINITE);

  /** The most equations a recomputed cheap value composes (itself included; see {@link #recomputable}). */
  private static final int MAX_RECOMPUTED = 2;

  /** Primitives of a scalar computed from literals alone (see {@link #fromLiterals}). */
  private static final Set<Primitive> FOLDABLE = Set.of(Primitive.DIV, Primitive.REM, Primitive.INTEGER_POW);

  /** The most equations such a scalar composes. */
  private static final int MAX_FOLDED = 8;

  /** The longest elementwise chain duplicated into several consumers (see {@link #duplicable}). */
  private static final int MAX_DUPLICATED = 8;

  private final Jaxpr jaxpr;
  private final BackendRules rules;
  private final IdentityHashMap<Eqn, Primitive> primitives = new IdentityHashMap<>();
  private final IdentityHashMap<Var, Producer> producers = new IdentityHashMap<>();
  private final IdentityHashMap<Var, List<Eqn>> consumers = new IdentityHashMap<>();
  private final IdentityHashMap<Var, Integer> outputIndex = new IdentityHashMap<>();
  private final IdentityHashMap<Var, Boolean> materialised = new IdentityHashMap<>();
  private final IdentityHashMap<Eqn, ControlFlowPlan> controlFlow = new IdentityHashMap<>();
  /** Kernels with an epilogue ({@link Epilogues}), and the kernel each epilogue root belongs to. */
  private final IdentityHashMap<Eqn, Var> epilogues = new IdentityHashMap<>();
  private final IdentityHashMap<Var, Eqn> epilogueKernel = new IdentityHashMap<>();

  private Planner(Jaxpr jaxpr, BackendRules rules) {
    this.jaxpr = jaxpr;
    this.rules = rules;
  }

  /**
   * Plans a jaxpr for the backend whose {@code rules} say what is lowered, what fuses into which
   * kernel and what scratch kernels need.
   *
   * @throws JaxcException "unsupported primitive NAME" at the equation of the first primitive
   *     that is unknown or not lowered, or "unsupported type" at a value jaxc cannot compute with
   */
  public static Plan plan(Jaxpr jaxpr, BackendRules rules) {
    return new Planner(jaxpr, rules).run();
  }

  private Plan run() {
    for (Var v : jaxpr.inputs()) {
      arrayType(v);
      materialised.put(v, true);
    }
    for (Eqn e : jaxpr.eqns()) {
      Primitive p = primitive(e);
      primitives.put(e, p);
      if (ControlFlowPlanner.handles(p)) controlFlow.put(e, ControlFlowPlanner.plan(e, p, body -> plan(body, rules)));
      for (int k = 0; k < e.outs().size(); k++) {
        Var out = e.outs().get(k);
        arrayType(out);
        producers.put(out, new Producer(e, p, k));
      }
      for (Atom a : e.ins()) {
        if (a instanceof Var v) consumers.computeIfAbsent(v, x -> new ArrayList<>()).add(e);
        else arrayType(a);
      }
    }
    for (int k = 0; k < jaxpr.outs().size(); k++) {
      Atom a = jaxpr.outs().get(k);
      arrayType(a);
      if (a instanceof Var v && producers.containsKey(v)) outputIndex.putIfAbsent(v, k);
    }
    for (Eqn e : jaxpr.eqns()) {
      for (Var out : e.outs()) if (mustMaterialise(out)) materialised.put(out, true);
    }
    // Consumers first, so a value whose consumers are no longer stored is seen through them.
    for (int i = jaxpr.eqns().size() - 1; i >= 0; i--) {
      for (Var out : jaxpr.eqns().get(i).outs()) if (materialised.containsKey(out) && readInOneLoop(out)) materialised.remove(out);
    }
    fuseEpilogues();
    RowFusion rowFusion = new RowFusion(producers, materialised, rules);
    List<Step> steps = rowFusion.group(schedule());
    return assign(new MultiOutputFusion(producers, materialised, rules, rowFusion, this::read).merge(steps));
  }

  /**
   * Epilogue fusion, decided after materialisation (it only takes values out of memory): each
   * kernel the backend lets evaluate an elementwise chain on its result takes the chain, whose
   * values but the root are then not materialised.
   */
  private void fuseEpilogues() {
    Epilogues finder = new Epilogues(jaxpr.eqns(), primitives, producers, consumers, outputIndex, materialised, rules);
    for (Eqn e : jaxpr.eqns()) {
      if (kind(e) != EqnKind.KERNEL || !rules.fusesResult(primitives.get(e), e)) continue;
      Epilogues.Chain c = finder.take(e);
      if (c == null) continue;
      for (Var v : c.inner()) materialised.remove(v);
      epilogues.put(e, c.root());
      epilogueKernel.put(c.root(), e);
    }
  }

  private Primitive primitive(Eqn e) {
    Primitive p = Primitive.byName(e.primitive()).orElse(null);
    if (p == null) throw new JaxcException("unsupported primitive " + e.primitive(), e.span());
    String missing = rules.missing(p);
    if (missing != null) throw new JaxcException("unsupported primitive " + e.primitive() + " (" + missing + ")", e.span());
    return p;
  }

  private static ArrayType arrayType(Atom a) {
    Type t = a.type();
    if (t instanceof ArrayType at && at.shape().isStatic() && at.dtype().isCore()) return at;
    String what = a instanceof Var v ? " of " + v.name() : "";
    throw new JaxcException("unsupported type " + t.text() + what, a.span());
  }

  private boolean mustMaterialise(Var v) {
    Producer p = producers.get(v);
    if (outputIndex.containsKey(v) || EqnKind.of(p.primitive()) == EqnKind.KERNEL) return true;
    List<Eqn> uses = consumers.getOrDefault(v, List.of());
    for (Eqn use : uses) if (kind(use) == EqnKind.KERNEL && !fusedInto(use, v)) return true;
    if (uses.isEmpty() || cheap(p.eqn()) || fromLiterals(v)) return false;
    // A kernel that reads v through a generator reads each element once (an update's result is
    // larger than its update, which is not read repeatedly for that).
    for (Eqn use : uses) if (kind(use) != EqnKind.KERNEL && readsRepeatedly(use, v) && !placedOnce(use, v)) return true;
    if (uses.size() > 1 && recomputable(v)) return false;
    return uses.size() > 1 && !(feedsKernel(v, MAX_DUPLICATED) && duplicable(v));
  }

  /**
   * True if {@code v} flows into a kernel that fuses it, directly or through a chain of fusible
   * equations whose results have one consumer each (at most {@code depth} of them).
   */
  private boolean feedsKernel(Var v, int depth) {
    if (depth == 0) return false;
    for (Eqn use : consumers.getOrDefault(v, List.of())) {
      if (kind(use) == EqnKind.KERNEL) {
        if (fusedInto(use, v)) return true;
        continue;
      }
      if (use.outs().size() != 1) continue;
      Var out = use.outs().get(0);
      if (outputIndex.containsKey(out) || consumers.getOrDefault(out, List.of()).size() != 1) continue;
      if (feedsKernel(out, depth - 1)) return true;
    }
    return false;
  }

  /**
   * True if every operand of kernel {@code use} that is {@code v} is read through a generator. An
   * update (scatter, dynamic_update_slice) whose fused value would read the array it updates
   * takes it materialised instead: read while written, the array could not stay in place
   * ({@link InPlaceUpdates}), and each update would copy all of it.
   */
  private boolean fusedInto(Eqn use, Var v) {
    Primitive p = primitives.get(use);
    for (int k = 0; k < use.ins().size(); k++) {
      if (use.ins().get(k) == v && !rules.fusesOperand(p, use, k)) return false;
    }
    if (InPlaceUpdates.UPDATES.contains(p) && use.ins().get(0) == v) return fill(v);
    if (InPlaceUpdates.UPDATES.contains(p) && use.ins().get(0) instanceof Var x
        && InPlaceUpdates.reads(v, x, producers, materialised)) return false;
    return true;
  }

  /**
   * Whether an updated array is a fill, so its update kernel may compute it as it starts the
   * result: a few elementwise or index operations on literals and scalars, reading no array
   * (an array read while the result, perhaps in its buffer, is written could be overwritten
   * first). {@code jnp.zeros(n).at[i].add(u)} then writes its zeros once, into the result: the
   * one-hot gradient of a cross entropy had stored 16 MiB of zeros and copied them.
   */
  private boolean fill(Var v) {
    return cheapChain(v, Set.of(), MAX_FOLDED, u -> elements(u) == 1);
  }

  /**
   * A value read by a reduction that fuses it and by other consumers is recomputed in each
   * (XLA's duplication of a reduction's input fusion) when it is a short elementwise chain over
   * materialised values: recomputing a few operations per element costs less than writing and
   * reading back a full-size temporary (softmax's exp(x - max), layernorm's x - mean).
   */
  private boolean duplicable(Var v) {
    return composed(v) <= MAX_DUPLICATED;
  }

  /**
   * A value with several consumers that each recompute, as XLA duplicates cheap elementwise
   * producers into every consumer's loop: a short chain of cheap real-valued operations
   * ({@link #CHEAP_ELEMENTWISE}, index rewrites) that reads at most one materialised array of its
   * own size. Recomputing it then reads no more memory per use than loading it would, and saves
   * writing it: a bias add read three times by the tanh GELU after it had cost a full-size
   * temporary and a second pass over memory (4096 × 1024: 1.37× XLA's time).
   */
  private boolean recomputable(Var v) {
    // Index rewrites have their own rule (cheap when they read materialised values only).
    if (!CHEAP_ELEMENTWISE.contains(producers.get(v).primitive())) return false;
    long size = elements(v);
    int[] full = {0};  // stored arrays of v's size read
    return cheapChain(v, Set.of(), MAX_RECOMPUTED, u -> elements(u) < size || ++full[0] <= 1);
  }

  /**
   * Whether the generator of {@code v} composes at most {@code max} equations through unstored
   * values, each cheap ({@link #CHEAP_ELEMENTWISE}, an index rewrite, or in {@code extra}) and
   * real, and every stored value it reads passes {@code stored}.
   */
  private boolean cheapChain(Var v, Set<Primitive> extra, int max, Predicate<Var> stored) {
    return cheapChain(v, extra, max, stored, new int[1]);
  }

  private boolean cheapChain(Atom a, Set<Primitive> extra, int max, Predicate<Var> stored, int[] count) {
    if (!(a instanceof Var v)) return true;
    if (materialised.containsKey(v) || !producers.containsKey(v)) return stored.test(v);
    Primitive p = producers.get(v).primitive();
    if (!CHEAP_ELEMENTWISE.contains(p) && !CHEAP.contains(p) && !extra.contains(p)) return false;
    if (arrayType(v).dtype().isComplex() || ++count[0] > max) return false;
    for (Atom in : producers.get(v).eqn().ins()) if (!cheapChain(in, extra, max, stored, count)) return false;
    return true;
  }

  /**
   * A value that all its consumers read at their own index, through elementwise operations of its
   * shape, on the way to one stored value or one kernel that evaluates each element once: every
   * use is then composed into one loop body at the same index, where LLVM computes it once (XLA
   * fuses such a producer, as fusing it duplicates nothing). Stored, it cost a full-size temporary
   * and a second pass: jnp.remainder's {@code rem}, read four times by its sign fix-up.
   */
  private boolean readInOneLoop(Var v) {
    Producer p = producers.get(v);
    if (p == null || outputIndex.containsKey(v) || !sameIndexGroup(p.primitive())) return false;
    if (consumers.getOrDefault(v, List.of()).size() < 2) return false;
    Map<Object, Boolean> roots = new IdentityHashMap<>();
    return reachesOneRoot(v, roots) && roots.size() == 1 && paths(v, new IdentityHashMap<>()) <= MAX_PATHS;
  }

  /**
   * The most paths from a value to the one loop that reads it: each is a copy of its generator
   * where the loop is emitted (LLVM merges them), so a series in which each term reads the last
   * twice (a Chebyshev recurrence) must stay stored, or the copies double with every term.
   */
  private static final int MAX_PATHS = 4;

  /** The paths from {@code v} through unstored values to where they are stored or fused (capped). */
  private int paths(Var v, Map<Var, Integer> memo) {
    Integer known = memo.get(v);
    if (known != null) return known;
    int n = 0;
    Map<Eqn, Boolean> seen = new IdentityHashMap<>();
    for (Eqn use : consumers.getOrDefault(v, List.of())) {
      if (seen.put(use, true) != null) continue;  // listed once per operand it reads v as
      for (Atom in : use.ins()) {
        if (in != v) continue;
        Var out = use.outs().get(0);
        boolean stops = kind(use) == EqnKind.KERNEL || materialised.containsKey(out) || outputIndex.containsKey(out)
            || epilogueKernel.containsKey(out);
        n = Math.min(MAX_PATHS + 1, n + (stops ? 1 : paths(out, memo)));
      }
    }
    memo.put(v, n);
    return n;
  }

  private boolean reachesOneRoot(Var v, Map<Object, Boolean> roots) {
    for (Eqn use : consumers.getOrDefault(v, List.of())) {
      Primitive p = primitives.get(use);
      if (kind(use) == EqnKind.KERNEL) {
        for (int k = 0; k < use.ins().size(); k++) {
          if (use.ins().get(k) == v && !(rules.fusesOperand(p, use, k) && rules.evaluatesEachOnce(p, use, k))) return false;
        }
        roots.put(use, true);
      } else {
        if (!sameIndexGroup(p) || use.outs().size() != 1 || !Arrays.equals(shape(use.outs().get(0)), shape(v))) return false;
        Var out = use.outs().get(0);
        if (materialised.containsKey(out) || outputIndex.containsKey(out) || epilogueKernel.containsKey(out)) roots.put(out, true);
        else if (!reachesOneRoot(out, roots)) return false;
      }
      if (roots.size() > 1) return false;
    }
    return true;
  }

  /** Primitives that read each operand of their own shape at the index they compute. */
  private static boolean sameIndexGroup(Primitive p) {
    return switch (p.group()) {
      case ELEMENTWISE_UNARY, ELEMENTWISE_BINARY, COMPARISON, SELECT, CONVERSION, SPECIAL_FUNCTION -> true;
      default -> false;
    };
  }

  private static long[] shape(Atom a) {
    return ((ArrayType) a.type()).shape().sizes();
  }

  /**
   * A scalar computed from literals alone by a few elementwise operations (jnp.remainder's
   * divisor, {@code where(13 == 0, 1, 13)}): each use computes it, which LLVM folds to a constant,
   * as XLA folds it. Stored once and loaded, it was an unknown divisor: {@code x % 13} over 4M
   * int32 ran as scalar divisions, 2.9× XLA's time.
   */
  private boolean fromLiterals(Var v) {
    return elements(v) == 1 && cheapChain(v, FOLDABLE, MAX_FOLDED, u -> false);
  }

  /** The equations a generator of {@code v} composes (through unmaterialised operands). */
  private int composed(Var v) {
    if (materialised.containsKey(v) || !producers.containsKey(v)) return 0;
    int n = 1;
    for (Atom a : producers.get(v).eqn().ins()) if (a instanceof Var u) n += composed(u);
    return n;
  }

  private EqnKind kind(Eqn e) {
    return EqnKind.of(primitives.get(e));
  }

  private boolean cheap(Eqn e) {
    if (!CHEAP.contains(primitives.get(e)) && !floatProduct(e)) return false;
    for (Atom a : e.ins()) if (a instanceof Var v && !materialised.containsKey(v)) return false;
    return true;
  }

  /**
   * An f32/f64 multiply of materialised values is recomputed per use, as XLA duplicates it into
   * each consumer's loop, where it can be contracted into an add (emit/XlaRewrites): one
   * multiply more per use, no extra memory traffic.
   */
  private boolean floatProduct(Eqn e) {
    if (primitives.get(e) != Primitive.MUL || !e.params().isNone("out_dtype")) return false;
    DType d = arrayType(e.outs().get(0)).dtype();
    return d == DType.F32 || d == DType.F64;
  }

  /**
   * Whether {@code consumer} places each element of {@code v} in one place of its larger result
   * (concatenate, pad's operand) and v is a short chain of cheap operations. Its generator
   * evaluates every operand at each element and selects one, so only cheap operands are worth
   * recomputing there: RoPE's {@code concatenate([-x2, x1])} had stored {@code -x2} first.
   */
  private boolean placedOnce(Eqn consumer, Var v) {
    Primitive p = primitives.get(consumer);
    boolean once = p == Primitive.CONCATENATE || (p == Primitive.PAD && consumer.ins().get(0) == v && consumer.ins().get(1) != v);
    if (!once || !CHEAP_ELEMENTWISE.contains(producers.get(v).primitive())) return false;
    return cheapChain(v, Set.of(), MAX_RECOMPUTED, u -> true);
  }

  /** A consumer with more elements than {@code v} reads some of v's elements several times. */
  private static boolean readsRepeatedly(Eqn consumer, Var v) {
    long n = elements(v);
    for (Var out : consumer.outs()) if (elements(out) > n) return true;
    return false;
  }

  private static long elements(Atom a) {
    return ((ArrayType) a.type()).shape().elementCount();
  }

  private List<Step> schedule() {
    List<Step> steps = new ArrayList<>();
    for (Eqn e : jaxpr.eqns()) {
      if (kind(e) == EqnKind.KERNEL) {
        boolean needed = false;
        for (Var out : e.outs()) needed |= consumers.containsKey(out) || outputIndex.containsKey(out);
        // A kernel with an epilogue runs where its root is computed, after the chain's operands.
        if (needed && !epilogues.containsKey(e)) steps.add(new Step.Kernel(e));
      } else {
        for (Var out : e.outs()) {
          if (epilogueKernel.containsKey(out)) steps.add(new Step.Kernel(epilogueKernel.get(out), out));
          else if (materialised.containsKey(out)) steps.add(new Step.Fusion(List.of(out)));
        }
      }
    }
    for (int k = 0; k < jaxpr.outs().size(); k++) {
      Atom a = jaxpr.outs().get(k);
      if (!(a instanceof Var v && outputIndex.getOrDefault(v, -1) == k)) steps.add(new Step.CopyOut(k, a));
    }
    return steps;
  }

  /**
   * Buffers: caller pointers for inputs and outputs, workspace offsets for the rest. A
   * control-flow step also reserves its region (its own buffers and its bodies' workspace) for
   * the step, which for a loop is the whole loop.
   */
  private Plan assign(List<Step> steps) {
    IdentityHashMap<Var, Buffer> buffers = new IdentityHashMap<>();
    List<Var> inputs = jaxpr.inputs();
    for (int k = 0; k < inputs.size(); k++) buffers.put(inputs.get(k), new Buffer.Input(k, arrayType(inputs.get(k))));
    InPlaceUpdates inPlace = new InPlaceUpdates(jaxpr, steps, primitives, producers, materialised, outputIndex, this::read,
        controlFlow);
    // Live ranges of the temporaries, in schedule steps.
    List<Var> temps = new ArrayList<>();
    IdentityHashMap<Var, int[]> range = new IdentityHashMap<>();
    for (int s = 0; s < steps.size(); s++) {
      for (Var v : defined(steps.get(s))) {
        Integer out = outputIndex.get(v);
        if (out == null) out = inPlace.shared.get(v);
        if (out != null) {
          buffers.put(v, new Buffer.Output(out, arrayType(v)));
        } else {
          temps.add(v);
          range.put(v, new int[] {s, s});
        }
      }
      for (Var v : read(steps.get(s))) {
        int[] r = range.get(v);
        if (r != null) r[1] = s;
      }
    }
    // Placed in order of first step, as the allocator requires.
    WorkspaceAllocator alloc = new WorkspaceAllocator();
    IdentityHashMap<Eqn, ControlFlowPlan> regions = new IdentityHashMap<>();
    IdentityHashMap<Eqn, Buffer.Temp> scratch = new IdentityHashMap<>();
    for (int s = 0; s < steps.size(); s++) {
      Step step = steps.get(s);
      for (Var v : defined(step)) {
        int[] r = range.get(v);
        if (r == null) continue;
        ArrayType t = arrayType(v);
        long bytes = t.shape().elementCount() * t.dtype().byteSize();
        buffers.put(v, new Buffer.Temp(alloc.place(new WorkspaceAllocator.Request(bytes, r[0], r[1])), t));
      }
      if (step instanceof Step.Kernel k && controlFlow.get(k.eqn()) != null) {
        ControlFlowPlan c = controlFlow.get(k.eqn());
        regions.put(k.eqn(), c.relocated(alloc.place(new WorkspaceAllocator.Request(c.bytes(), s, s))));
      }
      // A kernel's scratch lives during its own step only.
      for (Step.Kernel k : kernels(step)) {
        long bytes = rules.scratchBytes(primitives.get(k.eqn()), k.eqn());
        if (bytes > 0) {
          Buffer.Temp t = new Buffer.Temp(alloc.place(new WorkspaceAllocator.Request(bytes, s, s)),
              new ArrayType(DType.U8, Shape.of(bytes)));
          scratch.put(k.eqn(), t);
        }
      }
    }
    return new Plan(jaxpr, buffers, producers, steps, temps, scratch, alloc.size(), regions, inPlace.overwrites);
  }

  private static List<Var> defined(Step s) {
    return RowFusion.defined(s);
  }

  /** The kernel steps of a step: itself, or a row group's members. */
  private static List<Step.Kernel> kernels(Step s) {
    List<Step.Kernel> r = new ArrayList<>();
    if (s instanceof Step.Kernel k) r.add(k);
    if (s instanceof Step.Rows g) for (Step inner : g.steps()) r.addAll(kernels(inner));
    if (s instanceof Step.MultiOutput m) r.add(m.kernel());
    return r;
  }

  /** The materialised values a step reads (through its fused producers). */
  private List<Var> read(Step s) {
    List<Var> r = new ArrayList<>();
    if (s instanceof Step.Fusion f) {
      Map<Var, Boolean> seen = new IdentityHashMap<>();
      for (Var root : f.roots()) readThroughFusion(producers.get(root).eqn(), r, seen);
    } else if (s instanceof Step.Kernel k) {
      // Operands fused into the kernel read their own materialised inputs.
      Map<Var, Boolean> seen = new IdentityHashMap<>();
      for (Atom a : k.eqn().ins()) {
        if (!(a instanceof Var v) || seen.put(v, true) != null) continue;
        if (materialised.containsKey(v)) r.add(v);
        else readThroughFusion(producers.get(v).eqn(), r, seen);
      }
      // The epilogue reads its chain's operands (the kernel's own result, met again, adds nothing).
      if (k.epilogue() != null) readThroughFusion(producers.get(k.epilogue()).eqn(), r, seen);
    } else if (s instanceof Step.CopyOut c) {
      if (c.source() instanceof Var v) r.add(v);
    } else if (s instanceof Step.Rows g) {
      for (Step inner : g.steps()) r.addAll(read(inner));
    } else if (s instanceof Step.MultiOutput m) {
      // The stored roots' own operands are read where the kernel computes them.
      r.addAll(read(m.kernel()));
      Map<Var, Boolean> seen = new IdentityHashMap<>();
      for (Var root : m.roots()) readThroughFusion(producers.get(root).eqn(), r, seen);
    } else {
      throw new AssertionError(s);
    }
    return r;
  }

  private void readThroughFusion(Eqn e, List<Var> reads, Map<Var, Boolean> seen) {
    for (Atom a : e.ins()) {
      if (!(a instanceof Var v) || seen.put(v, true) != null) continue;
      if (materialised.containsKey(v)) reads.add(v);
      else readThroughFusion(producers.get(v).eqn(), reads, seen);
    }
  }
}
