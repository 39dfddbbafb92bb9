package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.LLVMBuildPtrToInt;
import static org.bytedeco.llvm.global.LLVM.LLVMIntNE;

import dev.jaxc.backend.llvm.Support;
import dev.jaxc.backend.llvm.emit.BufferAccess;
import dev.jaxc.backend.llvm.emit.ClassTestFold;
import dev.jaxc.backend.llvm.emit.Constants;
import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.ElementwiseLowering;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.LoopEmitter;
import dev.jaxc.backend.llvm.emit.PadConfig;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import dev.jaxc.backend.llvm.emit.ReduceSlot;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.emit.XlaRewrites;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Producer;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
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
  private final StepOverride override;

  /**
   * A backend's own emission of some steps (the GPU's block-cooperative reductions): given the
   * step and this emitter (for its operands' generators), it emits the step and returns true, or
   * returns false to leave it to the common emission.
   */
  public interface StepOverride {
    boolean emit(Step s, ScheduleEmitter emitter);
  }

  /** {@code parallel}: the module's parallel regions (fusion loops may be split across threads). */
  public ScheduleEmitter(Ir ir, Plan plan, ParallelRegions parallel, Function<Buffer, LLVMValueRef> bases) {
    this(ir, plan, parallel, bases, null);
  }

  /** As above, with {@code override} (null: none) asked first for every step. */
  public ScheduleEmitter(Ir ir, Plan plan, ParallelRegions parallel, Function<Buffer, LLVMValueRef> bases,
      StepOverride override) {
    this.override = override;
    this.ir = ir;
    this.plan = plan;
    this.bases = bases;
    this.rewrites = new XlaRewrites(plan, ir.numerics());
    this.lowering = new ElementwiseLowering(ir, ClassTestFold.rawZeroCompares(plan.jaxpr()), rewrites);
    this.access = new BufferAccess(ir);
    this.loops = new LoopEmitter(ir, parallel);
  }

  public void emitAll() {
    for (Step s : plan.steps()) emit(s);
  }

  /** Emits one step at the builder's position. */
  public void emit(Step s) {
    if (override != null && override.emit(s, this)) return;
    if (s instanceof Step.Fusion f) {
      fusion(f);
    } else if (s instanceof Step.CopyOut c) {
      copyOut(c);
    } else if (s instanceof Step.Kernel k) {
      located(k.eqn(), () -> {
        if (k.epilogue() != null) KernelLowering.emit(primitive(k.eqn()), withEpilogue(k.eqn(), k.epilogue()));
        else kernel(k.eqn());
      });
    } else if (s instanceof Step.Rows g) {
      rows(g);
    } else if (s instanceof Step.MultiOutput m) {
      multiOutput(m);
    } else {
      throw new AssertionError(s);
    }
  }

  /**
   * A row group: one loop over the rows (split across threads), running each member for the row:
   * a reduction's one result, or a fusion group's elements of the row.
   */
  private void rows(Step.Rows g) {
    long[] rows = g.shape();
    long work = 0;
    for (Step s : g.steps()) work += s instanceof Step.Fusion f ? fusionWork(f) : elements(rowKernel(s).eqn().ins().get(0));
    List<Step> members = g.steps();
    loops.forEachParallel(rows, work, 1, r -> {
      List<ReduceSlot> slots = new ArrayList<>();
      for (int i = 0; i < members.size(); i++) {
        Step s = members.get(i);
        if (s instanceof Step.Fusion f) {
          rowOfFusion(f, r);
        } else if (s instanceof Step.Kernel || s instanceof Step.MultiOutput) {
          Step.Kernel k = rowKernel(s);
          if (s instanceof Step.MultiOutput m) for (Var root : m.roots()) storing.put(root, true);
          KernelContext cx = context(k.eqn());
          Var shared = keptOperand(k.eqn(), rows, members.subList(i + 1, members.size()));
          if (shared != null) cx = keeping(cx, shared, r, slots);
          // The first member reads the row from memory; the later ones can prefetch the next.
          if (i > 0) cx = withFirstOperand(cx, NextRowPrefetch.around(ir, access, plan, bases, g, cx.operands().get(0), cx.operandType(0)));
          KernelLowering.emitRow(primitive(k.eqn()), cx, r);
          storing.clear();
        } else {
          throw new AssertionError(s);
        }
      }
      kept.clear();
      slots.forEach(ReduceSlot::release);
    });
  }

  /** A row group member's reduction (a multi-output member's kernel). */
  private static Step.Kernel rowKernel(Step s) {
    return s instanceof Step.MultiOutput m ? m.kernel() : (Step.Kernel) s;
  }

  /** A row of a fused reduction operand kept on the stack for the group's later members. */
  private record KeptRow(ReduceSlot slot, long[] rest, Index row) {}

  /** Operands of row reductions kept for the current row, by variable (set while a row is emitted). */
  private final java.util.IdentityHashMap<Var, KeptRow> kept = new java.util.IdentityHashMap<>();

  /** Largest row (elements) kept on the stack. */
  private static final long KEPT_ROW_MAX = 4096;

  /**
   * The fused operand of a row reduction that a later member of the group reads too (softmax's
   * exp(x - max), read by the sum and by the division): the reduction computes each element of
   * the row once and keeps it, and the later members load it instead of computing it again.
   */
  private Var keptOperand(Eqn e, long[] rows, List<Step> later) {
    if (!(e.ins().get(0) instanceof Var v) || plan.isMaterialised(v)) return null;
    long[] shape = type(v).shape().sizes();
    long rest = 1;
    for (int d = rows.length; d < shape.length; d++) rest *= shape[d];
    if (rest < 1 || rest > KEPT_ROW_MAX) return null;
    for (Step s : later) {
      if (!(s instanceof Step.Fusion f)) continue;
      for (Var root : f.roots()) if (readsFused(plan.producer(root).eqn(), v)) return v;
    }
    return null;
  }

  private boolean readsFused(Eqn e, Var v) {
    for (Atom a : e.ins()) {
      if (!(a instanceof Var u) || plan.isMaterialised(u)) continue;
      if (u == v || readsFused(plan.producer(u).eqn(), v)) return true;
    }
    return false;
  }

  /** {@code cx} whose first operand also stores each element it computes into a row slot. */
  private KernelContext keeping(KernelContext cx, Var v, Index row, List<ReduceSlot> slots) {
    long[] shape = type(v).shape().sizes();
    long[] rest = java.util.Arrays.copyOfRange(shape, row.rank(), shape.length);
    long n = 1;
    for (long d : rest) n *= d;
    ReduceSlot slot = ReduceSlot.array(ir, type(v).dtype(), Math.toIntExact(n));
    slots.add(slot);
    ElementGenerator computed = cx.operands().get(0);
    kept.put(v, new KeptRow(slot, rest, row));
    return withFirstOperand(cx, idx -> {
      Value x = computed.at(idx);
      slot.store(restLinear(rest, idx, row.rank()), x);
      return x;
    });
  }

  /** {@code cx} with {@code first} as its first operand's generator. */
  private KernelContext withFirstOperand(KernelContext cx, ElementGenerator first) {
    if (first == cx.operands().get(0)) return cx;
    List<ElementGenerator> ops = new ArrayList<>(cx.operands());
    ops.set(0, first);
    return new KernelContext(ir, cx.eqn(), ops, cx.results(), cx.resultTypes(), access, loops, lowering, plan, bases);
  }

  private LLVMValueRef restLinear(long[] rest, Index idx, int rowRank) {
    return access.linear(rest, new Index(idx.dims().subList(rowRank, idx.rank())));
  }

  /** True if {@code idx} is at the kept row (the same index values, so the same row). */
  private static boolean sameRow(KeptRow k, Index idx) {
    for (int d = 0; d < k.row().rank(); d++) if (!idx.get(d).equals(k.row().get(d))) return false;
    return true;
  }

  private void rowOfFusion(Step.Fusion f, Index row) {
    long[] shape = type(f.roots().get(0)).shape().sizes();
    long[] rest = java.util.Arrays.copyOfRange(shape, row.rank(), shape.length);
    List<ElementGenerator> gens = new ArrayList<>();
    for (Var root : f.roots()) gens.add(computed(plan.producer(root)));
    loops.forEach(rest, t -> {
      List<LLVMValueRef> dims = new ArrayList<>(row.dims());
      dims.addAll(t.dims());
      Index idx = new Index(dims);
      for (int k = 0; k < gens.size(); k++) {
        Var root = f.roots().get(k);
        access.store(bases.apply(plan.buffer(root)), type(root), idx, gens.get(k).at(idx));
      }
    });
  }

  private long fusionWork(Step.Fusion f) {
    long perElement = 0;
    for (Var root : f.roots()) perElement += equations(plan.producer(root));
    return type(f.roots().get(0)).shape().elementCount() * perElement;
  }

  private static long elements(Atom a) {
    return type(a).shape().elementCount();
  }

  /**
   * The group's loop may run on several threads; its generators are composed inside the loop body
   * (where a thread's own stack slots go). Its work: elements × the cost of the group's fused equations.
   */
  private void fusion(Step.Fusion f) {
    ArrayType shape = type(f.roots().get(0));
    long perElement = 0;
    for (Var root : f.roots()) perElement += equations(plan.producer(root));
    long work = shape.shape().elementCount() * perElement;
    // Scalars the group reads (a dynamic_slice's start, a loop's step size) are loaded once,
    // before the loop: inside it LLVM must reload them after every store (the stores might alias
    // them), which kept a 1024-element dynamic_slice copy scalar, 70% of an svd sweep's time.
    List<Var> preloaded = new ArrayList<>();
    if (shape.rank() > 0) {
      java.util.IdentityHashMap<Var, Boolean> seen = new java.util.IdentityHashMap<>();
      for (Var root : f.roots()) preloadScalars(plan.producer(root), seen, preloaded);
    }
    try {
      Var only = f.roots().size() == 1 ? f.roots().get(0) : null;
      Primitive rootPrimitive = only == null ? null : Primitive.byName(plan.producer(only).eqn().primitive()).orElse(null);
      if (shape.rank() > 0 && rootPrimitive == Primitive.CONCATENATE && loops.parallel().severalPerStep()) {
        byOperand(only, plan.producer(only).eqn(), perElement);
        return;
      }
      if (shape.rank() > 0 && rootPrimitive == Primitive.PAD && loops.parallel().severalPerStep()
          && plainPad(plan.producer(only).eqn())) {
        byRegion(only, plan.producer(only).eqn(), perElement);
        return;
      }
      java.util.function.Consumer<Index> body = idx -> {
        List<ElementGenerator> gens = new ArrayList<>();
        for (Var root : f.roots()) gens.add(computed(plan.producer(root)));
        for (int r = 0; r < gens.size(); r++) {
          Var root = f.roots().get(r);
          access.store(bases.apply(plan.buffer(root)), type(root), idx, gens.get(r).at(idx));
        }
      };
      long[] cuts = concatenationCuts(f);
      if (cuts.length > 0) {
        loops.forEachParallelCut(shape.shape().sizes(), work, LoopEmitter.VECTOR_GRAIN, cuts, lowering.ranges(), body);
      } else {
        loops.forEachParallel(shape.shape().sizes(), work, LoopEmitter.VECTOR_GRAIN, period(f), body);
      }
    } finally {
      for (Var v : preloaded) bound.remove(v);
    }
  }

  /**
   * The period of the group's last axis: the operand's extent where a tile the group computes
   * repeats along its last axis (and the group's loop has that axis last), else 0.
   */
  private long period(Step.Fusion f) {
    long[] sizes = type(f.roots().get(0)).shape().sizes();
    if (sizes.length == 0) return 0;
    long last = sizes[sizes.length - 1];
    for (Producer p : fusedProducers(f)) {
      if (p.primitive() != Primitive.TILE) continue;
      long[] in = type(p.eqn().ins().get(0)).shape().sizes();
      long[] out = type(p.eqn().outs().get(0)).shape().sizes();
      int r = out.length - 1;
      if (r >= 0 && out[r] == last && in[r] != out[r]) return in[r];
    }
    return 0;
  }

  /** Segments a fusion's last axis is cut into at most: each is a loop of its own. */
  private static final int MAX_SEGMENTS = 8;

  /**
   * Where the fused concatenations along the group's last axis change operand (RoPE's {@code
   * concatenate([-x2, x1], -1)} inside a multiply-add): the loop over that axis is cut there, so
   * in each segment a concatenation reached at the loop's own index reads one operand with unit
   * stride instead of every operand at clamped indices and a select (vectorised as gathers:
   * rope ran at 1.65 of XLA's time on a Cascade Lake). Empty where none, or too many.
   */
  private long[] concatenationCuts(Step.Fusion f) {
    long[] sizes = type(f.roots().get(0)).shape().sizes();
    if (sizes.length < 2) return new long[0];
    long last = sizes[sizes.length - 1];
    java.util.TreeSet<Long> cuts = new java.util.TreeSet<>();
    for (Producer p : fusedProducers(f)) {
      if (p.primitive() != Primitive.CONCATENATE) continue;
      Eqn e = p.eqn();
      long[] out = type(e.outs().get(0)).shape().sizes();
      int dim = e.params().getInt("dimension");
      if (dim != out.length - 1 || out[dim] != last) continue;
      long at = 0;
      for (Atom in : e.ins()) {
        cuts.add(at);
        at += type(in).shape().sizes()[dim];
      }
    }
    cuts.remove(0L);
    cuts.remove(last);
    if (cuts.size() + 1 > MAX_SEGMENTS) return new long[0];
    return cuts.stream().mapToLong(Long::longValue).toArray();
  }

  /** The group's equations: its roots' producers and the fused ones they read, depth first, each once. */
  private List<Producer> fusedProducers(Step.Fusion f) {
    List<Producer> r = new ArrayList<>();
    java.util.IdentityHashMap<Var, Boolean> seen = new java.util.IdentityHashMap<>();
    for (Var root : f.roots()) fusedProducers(plan.producer(root), seen, r);
    return r;
  }

  private void fusedProducers(Producer p, java.util.IdentityHashMap<Var, Boolean> seen, List<Producer> r) {
    r.add(p);
    for (Atom in : p.eqn().ins()) {
      if (!(in instanceof Var v) || plan.isMaterialised(v) || seen.put(v, Boolean.TRUE) != null) continue;
      fusedProducers(plan.producer(v), seen, r);
    }
  }

  /** A pad without interior padding or cropping, of a non-empty operand. */
  private static boolean plainPad(Eqn e) {
    ArrayType in = type(e.ins().get(0));
    if (in.shape().elementCount() == 0) return false;
    for (long[] c : PadConfig.of(e.params(), in.rank())) if (c[0] < 0 || c[1] < 0 || c[2] != 0) return false;
    return true;
  }

  /**
   * A pad the group stores: the operand copied into the interior by a loop nest over its own
   * index space (unit-stride loads and stores), then the border, as boxes of the padding value
   * (along each dimension d the low and high slabs, within the interior along the dimensions
   * before d). The pad's generator tests every index and loads the operand through a clamped
   * index, which LLVM vectorises as a gather: jnp.pad of 16 MiB ran at 1.1–1.4× XLA's time.
   */
  private void byRegion(Var root, Eqn e, long perElement) {
    ArrayType t = type(root);
    long[] out = t.shape().sizes();
    long[] in = type(e.ins().get(0)).shape().sizes();
    long[][] config = PadConfig.of(e.params(), in.length);
    Buffer buffer = plan.buffer(root);
    ElementGenerator x = of(e.ins().get(0));
    ElementGenerator value = of(e.ins().get(1));
    loops.forEachParallel(in, type(e.ins().get(0)).shape().elementCount() * perElement, LoopEmitter.VECTOR_GRAIN, idx -> {
      LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
      for (int d = 0; d < j.length; d++) if (config[d][0] > 0) j[d] = ir.add(j[d], ir.i64(config[d][0]));
      access.store(bases.apply(buffer), t, Index.of(j), x.at(idx));
    });
    for (int d = 0; d < out.length; d++) {
      for (boolean low : new boolean[] {true, false}) {
        long[] box = new long[out.length];
        long[] offset = new long[out.length];
        for (int k = 0; k < out.length; k++) {
          if (k < d) {
            box[k] = in[k];
            offset[k] = config[k][0];
          } else if (k > d) {
            box[k] = out[k];
          }
        }
        box[d] = low ? config[d][0] : config[d][1];
        offset[d] = low ? 0 : config[d][0] + in[d];
        if (Arrays.stream(box).anyMatch(n -> n == 0)) continue;
        long elements = Arrays.stream(box).reduce(1, (a, b) -> a * b);
        loops.forEachParallel(box, elements, LoopEmitter.VECTOR_GRAIN, idx -> {
          LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
          for (int k = 0; k < j.length; k++) if (offset[k] > 0) j[k] = ir.add(j[k], ir.i64(offset[k]));
          access.store(bases.apply(buffer), t, Index.of(j), value.at(Index.SCALAR));
        });
      }
    }
  }

  /**
   * A concatenation the group stores: a loop nest per operand over its own part of the result,
   * so each element evaluates one operand, where the concatenation's generator evaluates every
   * operand and selects (a scaled slice concatenated with another: 1.11 of XLA's time).
   */
  private void byOperand(Var root, Eqn e, long perElement) {
    int dim = e.params().getInt("dimension");
    ArrayType t = type(root);
    Buffer out = plan.buffer(root);
    long offset = 0;
    for (Atom in : e.ins()) {
      long[] sizes = type(in).shape().sizes();
      long at = offset;
      offset += sizes[dim];
      long work = type(in).shape().elementCount() * perElement;
      loops.forEachParallel(sizes, work, LoopEmitter.VECTOR_GRAIN, idx -> {
        Value v = of(in).at(idx);
        LLVMValueRef[] j = idx.dims().toArray(new LLVMValueRef[0]);
        j[dim] = ir.add(j[dim], ir.i64(at));
        access.store(bases.apply(out), t, Index.of(j), v);
      });
    }
  }

  /** Binds each materialised rank-0 value that {@code p}'s composed generator reads to its load here. */
  private void preloadScalars(Producer p, java.util.IdentityHashMap<Var, Boolean> seen, List<Var> preloaded) {
    List<Atom> ins = new ArrayList<>(p.eqn().ins());
    XlaRewrites.Contraction c = rewrites.contraction(p.eqn());
    if (c != null) ins.addAll(c.product().ins());
    for (Atom in : ins) {
      if (!(in instanceof Var v) || seen.put(v, true) != null || bound.containsKey(v) || storing.containsKey(v)) continue;
      if (plan.isMaterialised(v)) {
        if (type(v).rank() != 0 || kept.containsKey(v)) continue;
        Buffer b = plan.buffer(v);
        bound.put(v, access.load(bases.apply(b), b.type(), Index.SCALAR));
        preloaded.add(v);
      } else if (!kept.containsKey(v)) {
        preloadScalars(plan.producer(v), seen, preloaded);
      }
    }
  }

  /** Roots a multi-output kernel stores as it evaluates them (set while it is emitted). */
  private final java.util.IdentityHashMap<Var, Boolean> storing = new java.util.IdentityHashMap<>();

  /**
   * The kernel reads each stored root through a generator that computes the element, stores it
   * at its index and passes it on: the kernel evaluates each element once, so each is stored once.
   */
  private void multiOutput(Step.MultiOutput m) {
    for (Var root : m.roots()) storing.put(root, true);
    try {
      kernel(m.kernel().eqn());
    } finally {
      storing.clear();
    }
  }

  private ElementGenerator storedRoot(Var v) {
    return idx -> {
      Value x = computed(plan.producer(v)).at(idx);
      access.store(bases.apply(plan.buffer(v)), type(v), idx, x);
      return x;
    };
  }

  /** Kernel results bound to the finished element being stored (set while an epilogue is composed). */
  private final java.util.IdentityHashMap<Var, Value> bound = new java.util.IdentityHashMap<>();

  /**
   * The context of a kernel that stores {@code root}, its elementwise chain's value at each finished
   * element: the chain's generators are composed afresh at each store, where the code should land
   * (the GEMM's store loop, a parallel body's own frame), with the kernel's result bound to the
   * element being stored (the chain reads it at that same index only, plan/Epilogues).
   */
  private KernelContext withEpilogue(Eqn e, Var root) {
    Var result = e.outs().get(0);
    List<ElementGenerator> ops = new ArrayList<>();
    for (Atom in : e.ins()) ops.add(fusedOrLoaded(in));
    LLVMValueRef base = bases.apply(plan.buffer(root));
    int[] perm = chainTranspose(root, result, new java.util.IdentityHashMap<>());
    // A transposed chain may end in a plain reshape (plan/Epilogues): its buffer holds its
    // operand's elements in the operand's row-major order, so that operand is what is stored.
    Eqn last = plan.producer(root).eqn();
    Var stored = perm != null && last.primitive().equals("reshape") ? (Var) last.ins().get(0) : root;
    KernelContext.Epilogue store = new KernelContext.Epilogue() {
      @Override
      public void store(Index idx, Value v) {
        // A transposed root is stored at its own index (root axis i is the result's axis perm[i]).
        Index at = idx;
        if (perm != null) {
          LLVMValueRef[] j = new LLVMValueRef[perm.length];
          for (int i = 0; i < perm.length; i++) j[i] = idx.get(perm[i]);
          at = Index.of(j);
        }
        bound.put(result, v);
        Value y;
        try {
          y = computed(plan.producer(stored)).at(at);
        } finally {
          bound.remove(result);
        }
        access.store(base, type(stored), at, y);
      }

      @Override
      public int[] permutation() {
        return perm == null ? null : perm.clone();
      }
    };
    return new KernelContext(ir, e, ops, List.of(base), List.of(type(result)), access, loops, lowering, plan, bases, store);
  }

  /**
   * The permutation of the transpose on the epilogue chain from kernel result {@code result} to
   * {@code v} (plan/Epilogues allows one), or null: found through the unmaterialised values whose
   * generators reach the result (a residual operand's own fused transpose is not on the chain).
   * {@code seen} maps each value visited to whether it reaches the result.
   */
  private int[] chainTranspose(Var v, Var result, java.util.Map<Var, Boolean> seen) {
    seen.put(v, false);
    Eqn e = plan.producer(v).eqn();
    for (Atom a : e.ins()) {
      if (!(a instanceof Var u)) continue;
      if (u != result && !seen.containsKey(u) && !plan.isMaterialised(u)) {
        int[] below = chainTranspose(u, result, seen);
        if (below != null) return below;
      }
      if (u == result || seen.getOrDefault(u, false)) {
        seen.put(v, true);
        if (e.primitive().equals("transpose")) return toInts(e.params().getLongs("permutation"));
      }
    }
    return null;
  }

  private static int[] toInts(long[] xs) {
    int[] r = new int[xs.length];
    for (int i = 0; i < xs.length; i++) r[i] = (int) xs[i];
    return r;
  }

  /**
   * Runs a kernel's emission so that what it finds wrong is reported at the kernel's equation: a
   * param the type rule did not need (cumsum's {@code reverse}), or a problem inside a combiner
   * the kernel made itself (cumlogsumexp's log-add-exp), which has no place in the text.
   */
  private static void located(Eqn e, Runnable emit) {
    try {
      emit.run();
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    } catch (JaxcException x) {
      if (x.span() != null && x.span().isKnown()) throw x;
      throw new JaxcException(x.getMessage(), e.span());
    }
  }

  /** The planner schedules only lowered primitives (Support), so the kernel exists. */
  private void kernel(Eqn e) {
    KernelLowering.emit(primitive(e), context(e));
  }

  private static Primitive primitive(Eqn e) {
    Primitive p = Primitive.byName(e.primitive()).orElseThrow(
        () -> new JaxcException("unsupported primitive " + e.primitive(), e.span()));
    if (!Support.isLowered(p))
      throw new JaxcException("unsupported primitive " + e.primitive() + " (" + Support.of(p).detail() + ")", e.span());
    return p;
  }

  /** The plan being emitted. */
  public Plan plan() {
    return plan;
  }

  /** The buffer accesses this emitter uses. */
  public BufferAccess access() {
    return access;
  }

  /** The run-time address of buffer {@code b}. */
  public LLVMValueRef base(Buffer b) {
    return bases.apply(b);
  }

  /** A fusion root's generator, composed afresh (call it where its code should land). */
  public ElementGenerator rootGenerator(Var root) {
    return computed(plan.producer(root));
  }

  /** The context a kernel equation is emitted with: its operands' generators, its result buffers. */
  public KernelContext context(Eqn e) {
    List<ElementGenerator> ops = new ArrayList<>();
    for (Atom in : e.ins()) ops.add(fusedOrLoaded(in));
    List<LLVMValueRef> results = new ArrayList<>();
    List<ArrayType> types = new ArrayList<>();
    for (Var out : e.outs()) {
      results.add(bases.apply(plan.buffer(out)));
      types.add(type(out));
    }
    return new KernelContext(ir, e, ops, results, types, access, loops, lowering, plan, bases);
  }

  /**
   * A kernel operand: a load or a literal, or, when the planner fused its producers into the
   * kernel (input fusion), those producers composed afresh at each evaluation, so the code and
   * any stack slots they need land in the function and loop where the kernel evaluates them (a
   * parallel body's own frame).
   */
  private ElementGenerator fusedOrLoaded(Atom a) {
    if (a instanceof Var v && storing.containsKey(v)) return storedRoot(v);
    if (a instanceof Var v && !plan.isMaterialised(v)) return idx -> computed(plan.producer(v)).at(idx);
    return of(a);
  }

  private void copyOut(Step.CopyOut c) {
    ArrayType t = type(c.source());
    ElementGenerator g = of(c.source());
    Buffer out = new Buffer.Output(c.output(), (ArrayType) plan.outputs().get(c.output()).type());
    Runnable copy = () -> loops.forEach(t.shape().sizes(), idx -> access.store(bases.apply(out), t, idx, g.at(idx)));
    // A cond branch that returns an operand its caller passed in the result's own buffer
    // (InPlaceUpdates) has nothing to copy.
    if (c.source() instanceof Var v && plan.isMaterialised(v) && plan.buffer(v) instanceof Buffer.Input) {
      LLVMValueRef src = LLVMBuildPtrToInt(ir.b, bases.apply(plan.buffer(v)), ir.i64, "");
      LLVMValueRef dst = LLVMBuildPtrToInt(ir.b, bases.apply(out), ir.i64, "");
      ir.ifElse(ir.icmp(LLVMIntNE, src, dst), "copy.out", copy, () -> {});
    } else {
      copy.run();
    }
  }

  /** The generator of an atom as its consumers see it: constant, buffer load, or fused producer. */
  private ElementGenerator of(Atom a) {
    if (a instanceof Literal lit) return idx -> Constants.literal(ir, lit);
    Var v = (Var) a;
    Value finished = bound.get(v);
    if (finished != null) return idx -> finished;
    if (storing.containsKey(v)) return storedRoot(v);
    if (plan.isMaterialised(v)) {
      Buffer b = plan.buffer(v);
      return idx -> access.load(bases.apply(b), b.type(), idx);
    }
    KeptRow k = kept.get(v);
    if (k != null) {
      ElementGenerator again = computed(plan.producer(v));
      return idx -> sameRow(k, idx) ? k.slot().load(restLinear(k.rest(), idx, k.row().rank())) : again.at(idx);
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

  /** The cost of an element of the equations {@link #computed} composes for {@code p} ({@link ElementCost}). */
  private long equations(Producer p) {
    long n = ElementCost.of(p.primitive(), p.eqn());
    for (Atom in : p.eqn().ins()) if (in instanceof Var v && !plan.isMaterialised(v)) n += equations(plan.producer(v));
    return n;
  }

  private static ArrayType type(Atom a) {
    return (ArrayType) a.type();
  }
}
