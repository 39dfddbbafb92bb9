package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.ControlFlowPlan;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.backend.llvm.runtime.WorkBuffers;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.ScanParams;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The iterations of a scan without carries ({@code lax.map}, and the batched linear-algebra
 * templates) on threads: they depend on nothing but their own x slices and the consts, and each
 * writes its own y slices, so chunks of iterations run at once, each on a copy of the body's
 * workspace taken from {@link WorkBuffers} (the shared one is the step's alone). Results do not
 * depend on the thread count: every iteration runs the same code on the same data. Parallel
 * regions inside the body then run inline, on the chunk's thread.
 *
 * <p>Not for a body with an {@code rng_uniform} (its XLA state advances with each execution, in
 * iteration order), nor on a target whose regions do not split (the GPU's grids). Where a chunk's
 * workspace cannot be had, a flag is raised and, once the region has joined, the whole scan runs
 * again in order on the shared workspace, so out of memory costs time, never results.
 */
final class ScanMapThreads {
  /** Iterations below which the body's own parallel regions are the better use of the threads. */
  static final long MIN_LENGTH = 4;
  /** Iterations a while loop of the body is assumed to run, for the work estimate. */
  static final long LOOP_TRIPS = 32;

  private ScanMapThreads() {}

  /**
   * Whether the {@code length} iterations of {@code body} (no carries) go to threads: from
   * {@link #MIN_LENGTH} on, and from 2 when no step of the body is large enough to split across
   * threads itself (eigh's QL rotations applied to 2 column blocks at 256×256: the iterations are
   * the only parallel work).
   */
  static boolean applies(KernelContext cx, Plan body, long length) {
    TargetSpec target = cx.ir().target();
    if (length < 2 || target == null || target.arch() == TargetSpec.Arch.NVPTX) return false;
    ParallelRegions regions = cx.loops().parallel();
    if (length < MIN_LENGTH) {
      long largest = largestStep(body);
      if (regions.splits(largest, 1, largest)) return false;
    }
    if (!stateless(body)) return false;
    return regions.splits(length, 1, saturatingMul(length, work(body)));
  }

  /** The most elements one step of {@code p} writes, nested bodies' steps included. */
  private static long largestStep(Plan p) {
    long w = 0;
    for (Step s : p.steps()) w = Math.max(w, largestStep(p, s));
    return w;
  }

  private static long largestStep(Plan p, Step s) {
    if (s instanceof Step.Rows r) return r.steps().stream().mapToLong(x -> largestStep(p, x)).max().orElse(0);
    if (s instanceof Step.MultiOutput m) return Math.max(largestStep(p, m.kernel()), work(p, s));
    if (!(s instanceof Step.Kernel k) || !p.isControlFlow(k.eqn())) return work(p, s);
    return nested(p.controlFlow(k.eqn())).stream().mapToLong(ScanMapThreads::largestStep).max().orElse(0);
  }

  /** The plans a control-flow step runs: a cond's branches, a while's cond and body, a scan's body. */
  private static List<Plan> nested(ControlFlowPlan c) {
    if (c instanceof ControlFlowPlan.Cond cond) return cond.branches();
    if (c instanceof ControlFlowPlan.While w) return List.of(w.cond(), w.body());
    return List.of(((ControlFlowPlan.Scan) c).body());
  }

  /**
   * Emits the region: {@code iteration(t, temps)} runs iteration t with the body's workspace
   * buffers at {@code temps}; {@code inOrder} emits the whole scan on the shared workspace (after
   * a failed allocation).
   */
  static void emit(KernelContext cx, Plan body, long length, ControlFlowBodies bodies,
      BiConsumer<LLVMValueRef, Function<Buffer, LLVMValueRef>> iteration, Runnable inOrder) {
    Ir ir = cx.ir();
    ParallelRegions regions = cx.loops().parallel();
    Buffer.Temp first = null;
    long hi = 0;
    for (Buffer.Temp t : body.workspaceBuffers()) {
      if (first == null || t.offset() < first.offset()) first = t;
      hi = Math.max(hi, t.offset() + t.bytes());
    }
    long bytes = first == null ? 0 : hi - first.offset();
    long work = saturatingMul(length, work(body));
    if (bytes == 0) {
      regions.range(length, 1, work, (begin, end) ->
          cx.loops().forRange(begin, end, t -> iteration.accept(t, cx.bases())));
      return;
    }
    long lo = first.offset();
    // The flag: the first byte of the shared body workspace, which no chunk uses.
    LLVMValueRef flag = bodies.address(first);
    ir.store(ir.constInt(ir.i8, 0), flag, 1);
    regions.range(length, 1, work, (begin, end) -> {
      LLVMValueRef buf = WorkBuffers.get(ir, ir.i64(bytes));
      LLVMBasicBlockRef oom = ir.block("map.oom");
      LLVMBasicBlockRef run = ir.block("map.chunk");
      LLVMBasicBlockRef done = ir.block("map.chunk.end");
      ir.condBr(ir.isNull(buf), oom, run);
      ir.at(oom);
      LLVMValueRef st = LLVMBuildStore(ir.b, ir.constInt(ir.i8, 1), flag);
      LLVMSetAlignment(st, 1);
      LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
      ir.br(done);
      ir.at(run);
      Function<Buffer, LLVMValueRef> temps = b -> b instanceof Buffer.Temp t
          ? ir.gep(ir.i8, buf, ir.i64(t.offset() - lo)) : cx.bases().apply(b);
      cx.loops().forRange(begin, end, t -> iteration.accept(t, temps));
      WorkBuffers.put(ir, buf);
      ir.br(done);
      ir.at(done);
    });
    LLVMValueRef raised = LLVMBuildLoad2(ir.b, ir.i8, flag, "");
    LLVMSetAlignment(raised, 1);
    LLVMSetOrdering(raised, LLVMAtomicOrderingMonotonic);
    LLVMBasicBlockRef again = ir.block("map.again");
    LLVMBasicBlockRef end = ir.block("map.end");
    ir.condBr(ir.icmp(LLVMIntNE, raised, ir.constInt(ir.i8, 0)), again, end);
    ir.at(again);
    inOrder.run();
    ir.br(end);
    ir.at(end);
  }

  /** Whether nothing in {@code p} (nested plans included) keeps state across executions. */
  static boolean stateless(Plan p) {
    for (Step s : p.steps()) if (!stateless(p, s)) return false;
    return true;
  }

  private static boolean stateless(Plan p, Step s) {
    if (s instanceof Step.Rows r) {
      for (Step inner : r.steps()) if (!stateless(p, inner)) return false;
      return true;
    }
    if (s instanceof Step.MultiOutput m) s = m.kernel();
    if (!(s instanceof Step.Kernel k)) return true;
    if (k.eqn().primitive().equals(Primitive.RNG_UNIFORM.printedName())) return false;
    return !p.isControlFlow(k.eqn()) || nested(p.controlFlow(k.eqn())).stream().allMatch(ScanMapThreads::stateless);
  }

  /**
   * A rough count of the scalar operations of one execution of {@code p}: the elements its steps
   * write (a kernel's inputs too), nested bodies times their trips (a while loop's taken as
   * {@link #LOOP_TRIPS}).
   */
  static long work(Plan p) {
    long w = 0;
    for (Step s : p.steps()) w = saturatingAdd(w, work(p, s));
    return w;
  }

  private static long work(Plan p, Step s) {
    if (s instanceof Step.Fusion f) return f.roots().stream().mapToLong(ScanMapThreads::elements).sum();
    if (s instanceof Step.CopyOut c) return elements(c.source());
    if (s instanceof Step.Rows r) return r.steps().stream().mapToLong(x -> work(p, x)).reduce(0, ScanMapThreads::saturatingAdd);
    if (s instanceof Step.MultiOutput m) {
      return saturatingAdd(work(p, m.kernel()), m.roots().stream().mapToLong(ScanMapThreads::elements).sum());
    }
    return kernelWork(p, ((Step.Kernel) s).eqn());
  }

  private static long kernelWork(Plan p, Eqn e) {
    long w = 0;
    for (Var v : e.outs()) w = saturatingAdd(w, elements(v));
    for (Atom a : e.ins()) w = saturatingAdd(w, elements(a));
    if (!p.isControlFlow(e)) return w;
    ControlFlowPlan c = p.controlFlow(e);
    long nested;
    if (c instanceof ControlFlowPlan.Cond cond) nested = cond.branches().stream().mapToLong(ScanMapThreads::work).max().orElse(0);
    else if (c instanceof ControlFlowPlan.While wl) nested = saturatingMul(LOOP_TRIPS, saturatingAdd(work(wl.cond()), work(wl.body())));
    else nested = saturatingMul(ScanParams.of(e.params()).length(), work(((ControlFlowPlan.Scan) c).body()));
    return saturatingAdd(w, nested);
  }

  private static long elements(Atom a) {
    return a.type() instanceof ArrayType t ? t.shape().elementCount() : 1;
  }

  private static long saturatingAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatingMul(long a, long b) {
    if (a == 0 || b == 0) return 0;
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
