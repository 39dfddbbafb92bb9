package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.LLVMIntEQ;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.ControlFlowPlan;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Control flow driven from the host, as XLA:GPU does it: a cond, while or scan step becomes
 * program nodes ({@link DeviceProgram.Node}) around its bodies' plans, whose steps are kernels
 * like the top level's (grid-mapped where parallel), instead of one kernel that runs the whole
 * construct in one GPU thread.
 *
 * <p>The rule: a construct is driven from the host when one of its bodies has a grid-mapped
 * kernel of at least {@link #SCAN_THREADS} threads for a scan, {@link #READ_BACK_THREADS} for a
 * while or cond (a read-back, which synchronises, per iteration or branch); otherwise (all its
 * bodies' steps scalar, one-thread or small) a launch per step would cost more than the whole
 * loop on one thread, and it stays one device kernel. The thresholds are a little above where
 * the two cost the same on an H200 (a scan: under 256 elements; a while: about 700): 100 iterations of an elementwise body over N f32 took 2.8 ms host-driven as a
 * while (28 µs an iteration) and 0.35 ms as a scan (3.5 µs), and about 41 ns × N × 100 in one
 * thread (1.05 ms at N = 256, 8.2 ms at 2048). Constructs nest: a loop's kernels get its
 * iteration as their parameter, and where a nested loop's kernels need an outer loop's iteration
 * (its carries' parity, its slices), a one-thread kernel at the start of each outer iteration
 * stores it in a workspace slot they read ({@link Kernels.Loop}). vmap's batched while (a predicate per element) and a scan with a literal xs stay on the
 * device too.
 *
 * <p>Carries are double-buffered as on the CPU ({@link ControlFlowPlan}): the result buffers and
 * the spares, chosen in each kernel by the iteration's parity, so no copies run per iteration;
 * a copy kernel fills the carries at the start and (while only) copies them back when the loop
 * stopped after an odd number of iterations. A scan's x and y slices are the xs and ys buffers
 * offset by the iteration.
 */
public final class HostControl {
  /** Which constructs are driven from the host. */
  public enum Policy {
    /** The rule above. */
    RULE,
    /** Every construct that can be (tests: small cases prove the host-driven program). */
    ALWAYS,
    /** None (the first slice's one kernel per construct; to compare the two on a GPU). */
    NEVER;

    /** {@code JAXC_PTX_HOST_CONTROL=always|never}, else the rule. */
    public static Policy fromEnvironment() {
      String v = System.getenv("JAXC_PTX_HOST_CONTROL");
      if ("always".equals(v)) return ALWAYS;
      if ("never".equals(v)) return NEVER;
      return RULE;
    }
  }

  /** Threads of a body kernel that make a scan worth driving from the host. */
  static final long SCAN_THREADS = GridMapping.BLOCK;
  /** Likewise for a while or cond, which read a value back (and synchronise) each time. */
  static final long READ_BACK_THREADS = 4L * GridMapping.BLOCK;

  private HostControl() {}

  /** The nodes of step {@code e} driven from the host, or null to emit it as one kernel. */
  static List<DeviceProgram.Node> tryDrive(Kernels ks, Plan plan, Eqn e, KernelAddresses a) {
    String p = e.primitive();
    boolean loop = p.equals("while") || p.equals("scan");
    if (!loop && !p.equals("cond")) return null;
    if (ks.policy == Policy.NEVER) return null;
    ControlFlowPlan c = plan.controlFlow(e);
    int mark = ks.mark();
    int slotMark = ks.slotMark();
    Drive d = new Drive(ks, plan, e, a, p.equals("scan") ? SCAN_THREADS : READ_BACK_THREADS);
    List<DeviceProgram.Node> r;
    if (c instanceof ControlFlowPlan.While w) r = d.whileLoop(w);
    else if (c instanceof ControlFlowPlan.Scan s) r = d.scan(s);
    else if (c instanceof ControlFlowPlan.Cond k) r = d.cond(k);
    else throw new AssertionError(c);
    if (r != null && (d.parallel || ks.policy == Policy.ALWAYS)) return r;
    ks.rollBack(mark, slotMark);
    return null;
  }

  private static final class Drive {
    final Kernels ks;
    final Plan plan;
    final Eqn e;
    final KernelAddresses a;
    /** Threads a body kernel needs to be worth the launches. */
    final long threshold;
    /** Whether a body has a kernel worth the launches. */
    boolean parallel;

    Drive(Kernels ks, Plan plan, Eqn e, KernelAddresses a, long threshold) {
      this.threshold = threshold;
      this.ks = ks;
      this.plan = plan;
      this.e = e;
      this.a = a;
    }

    /** A body's steps as program nodes, noting whether any is parallel enough. */
    List<DeviceProgram.Node> body(Plan body, List<KernelAddresses.Source> inputs, List<KernelAddresses.Source> outputs) {
      int mark = ks.mark();
      List<DeviceProgram.Node> r = ks.steps(body, KernelAddresses.body(inputs, outputs));
      for (GridMapping.ProgramLaunch l : ks.since(mark)) {
        if (l.mapped() && (long) l.gridX() * l.blockX() >= threshold) parallel = true;
      }
      return r;
    }

    List<DeviceProgram.Node> whileLoop(ControlFlowPlan.While w) {
      if (w.batched()) return null;
      WhileParams wp = ParamDecoding.at(e, WhileParams::of);
      int cn = wp.condNconsts();
      int bn = wp.bodyNconsts();
      int n = e.outs().size();
      List<KernelAddresses.Source> results = results(0, n);
      List<KernelAddresses.Source> spares = temps(w.spares());
      List<DeviceProgram.Node> r = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        if (!init(r, e.ins().get(cn + bn + k), type(e.outs().get(k)), results.get(k))) return null;
      }
      Kernels.Loop loop = ks.enterLoop();
      List<KernelAddresses.Source> cur = new ArrayList<>();
      List<KernelAddresses.Source> next = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        cur.add(byParity(loop, results.get(k), spares.get(k)));
        next.add(byParity(loop, spares.get(k), results.get(k)));
      }
      List<KernelAddresses.Source> condIn = operands(0, cn);
      condIn.addAll(cur);
      List<DeviceProgram.Node> cond = new ArrayList<>(body(w.cond(), condIn, temps(List.of(w.predicate()))));
      List<KernelAddresses.Source> bodyIn = operands(cn, cn + bn);
      bodyIn.addAll(cur);
      List<DeviceProgram.Node> body = body(w.body(), bodyIn, next);
      if (loop.read) cond.add(0, ks.counter(loop));  // the cond runs first in each iteration
      ks.exitLoop(loop);
      List<DeviceProgram.Node> exit = new ArrayList<>();
      for (int k = 0; k < n; k++) copy(exit, spares.get(k), results.get(k), type(e.outs().get(k)), "carry copy-back");
      r.add(new DeviceProgram.Node.While(cond, w.predicate().offset(), body, exit));
      return r;
    }

    List<DeviceProgram.Node> scan(ControlFlowPlan.Scan s) {
      ScanParams sp = ParamDecoding.at(e, ScanParams::of);
      int nc = sp.numConsts();
      int nCarry = sp.numCarry();
      long length = sp.length();
      boolean reverse = sp.reverse();
      int n = e.ins().size();
      List<KernelAddresses.Source> results = results(0, nCarry);
      List<KernelAddresses.Source> spares = temps(s.spares());
      List<DeviceProgram.Node> r = new ArrayList<>();
      // Iteration i reads the results when length - i is even, so the last one writes them.
      boolean initInResults = length % 2 == 0;
      for (int k = 0; k < nCarry; k++) {
        KernelAddresses.Source dst = initInResults ? results.get(k) : spares.get(k);
        if (!init(r, e.ins().get(nc + k), type(e.outs().get(k)), dst)) return null;
      }
      if (length == 0) {
        // nothing runs: the carries are in place; still decide as for a loop (no kernel is worth it)
        return r;
      }
      Kernels.Loop loop = ks.enterLoop();
      List<KernelAddresses.Source> in = operands(0, nc);
      for (int k = 0; k < nCarry; k++) {
        in.add(scanParity(loop, length, results.get(k), spares.get(k)));
      }
      for (int j = nc + nCarry; j < n; j++) {
        KernelAddresses.Source xs = operand(e.ins().get(j));
        if (xs == null) {
          ks.exitLoop(loop);
          return null;
        }
        in.add(slice(loop, xs, bytes(type(s.body().inputs().get(j))), length, reverse));
      }
      List<KernelAddresses.Source> out = new ArrayList<>();
      for (int k = 0; k < nCarry; k++) out.add(scanParity(loop, length, spares.get(k), results.get(k)));
      List<KernelAddresses.Source> ys = results(nCarry, e.outs().size());
      for (int k = nCarry; k < e.outs().size(); k++) {
        out.add(slice(loop, ys.get(k - nCarry), bytes(type(s.body().outputs().get(k))), length, reverse));
      }
      List<DeviceProgram.Node> body = new ArrayList<>(body(s.body(), in, out));
      if (loop.read) body.add(0, ks.counter(loop));
      ks.exitLoop(loop);
      r.add(new DeviceProgram.Node.Repeat(length, body));
      return r;
    }

    List<DeviceProgram.Node> cond(ControlFlowPlan.Cond c) {
      int nb = c.branches().size();
      List<KernelAddresses.Source> args = operands(1, e.ins().size());
      List<KernelAddresses.Source> results = results(0, e.outs().size());
      if (nb == 1) return body(c.branches().get(0), args, results);
      KernelAddresses.Source index = operand(e.ins().get(0));
      if (index == null) return null;  // a literal index: rare; one kernel
      long slot = ks.slot();
      List<DeviceProgram.Node> r = new ArrayList<>();
      r.add(ks.branchNumber(index, type(e.ins().get(0)), nb, slot));
      List<List<DeviceProgram.Node>> branches = new ArrayList<>();
      for (Plan b : c.branches()) branches.add(body(b, args, results));
      r.add(new DeviceProgram.Node.Switch(slot, branches));
      return r;
    }

    /** Fills a carry at {@code dst} from operand {@code atom}; false if it cannot (a non-scalar literal). */
    boolean init(List<DeviceProgram.Node> r, Atom atom, ArrayType t, KernelAddresses.Source dst) {
      if (atom instanceof Literal lit) {
        if (t.rank() != 0) return false;
        r.add(ks.fill(lit, t, dst));
        return true;
      }
      copy(r, operand(atom), dst, t, "carry copy");
      return true;
    }

    void copy(List<DeviceProgram.Node> r, KernelAddresses.Source src, KernelAddresses.Source dst, ArrayType t, String what) {
      long b = bytes(t);
      if (b > 0) r.add(ks.copy(src, dst, b, what));
    }

    /** Operands {@code from..to-1}; null for a literal (substituted into the bodies). */
    List<KernelAddresses.Source> operands(int from, int to) {
      List<KernelAddresses.Source> r = new ArrayList<>();
      for (int k = from; k < to; k++) r.add(operand(e.ins().get(k)));
      return r;
    }

    KernelAddresses.Source operand(Atom atom) {
      if (!(atom instanceof Var v)) return null;
      Buffer b = plan.buffer(v);
      return (ir, k) -> a.at(ir, k, b);
    }

    List<KernelAddresses.Source> results(int from, int to) {
      List<KernelAddresses.Source> r = new ArrayList<>();
      for (int k = from; k < to; k++) {
        Buffer b = plan.buffer(e.outs().get(k));
        r.add((ir, kp) -> a.at(ir, kp, b));
      }
      return r;
    }

    static List<KernelAddresses.Source> temps(List<Buffer.Temp> ts) {
      List<KernelAddresses.Source> r = new ArrayList<>();
      for (Buffer.Temp t : ts) r.add((ir, k) -> KernelAddresses.temp(ir, k, t.offset()));
      return r;
    }

    /** {@code even} at even iterations of {@code loop}, {@code odd} at odd ones (while's carries). */
    KernelAddresses.Source byParity(Kernels.Loop loop, KernelAddresses.Source even, KernelAddresses.Source odd) {
      return (ir, k) -> ir.select(isEven(ir, ks.iteration(k, loop)), even.at(ir, k), odd.at(ir, k));
    }

    /** {@code first} when {@code length - i} is even, else {@code second} (scan's carries). */
    KernelAddresses.Source scanParity(Kernels.Loop loop, long length, KernelAddresses.Source first,
        KernelAddresses.Source second) {
      return (ir, k) -> ir.select(isEven(ir, ir.sub(ir.i64(length), ks.iteration(k, loop))), first.at(ir, k),
          second.at(ir, k));
    }

    /** Slice t of a buffer of slices of {@code stride} bytes; t = i, or length - 1 - i reversed. */
    KernelAddresses.Source slice(Kernels.Loop loop, KernelAddresses.Source base, long stride, long length, boolean reverse) {
      return (ir, k) -> {
        LLVMValueRef i = ks.iteration(k, loop);
        LLVMValueRef t = reverse ? ir.sub(ir.i64(length - 1), i) : i;
        return ir.gep(ir.i8, base.at(ir, k), ir.mul(t, ir.i64(stride)));
      };
    }

    static LLVMValueRef isEven(Ir ir, LLVMValueRef x) {
      return ir.icmp(LLVMIntEQ, ir.and(x, ir.i64(1)), ir.i64(0));
    }

    static ArrayType type(Atom a) {
      return (ArrayType) a.type();
    }

    static long bytes(ArrayType t) {
      return t.shape().elementCount() * t.dtype().byteSize();
    }
  }
}
