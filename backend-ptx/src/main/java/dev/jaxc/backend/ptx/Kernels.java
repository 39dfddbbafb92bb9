package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.BufferAccess;
import dev.jaxc.backend.llvm.emit.Constants;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.kernel.StepFunctions;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Step;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Type.ArrayType;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The kernels of a plan, each {@code void NAME_kK(ptr in0, …, ptr out0, …, ptr workspace, i64
 * iteration)} (the uniform signature of {@link DeviceProgram}), and the program that launches
 * them. A step's kernel computes the step's buffer addresses ({@link KernelAddresses}) and calls
 * the step's function, emitted by the CPU backend's {@link StepFunctions} with {@link
 * GridRegions} as its parallel regions (reductions and row groups: the block-cooperative kernel
 * {@link GpuReductions} emits); a cond, while or scan step may instead become host-driven
 * control flow over its bodies' step kernels ({@link HostControl}), with small kernels of its own
 * (carry copies, a literal carry's store, a branch number). The same code serves the PTX module
 * and the emulation.
 */
final class Kernels {
  /** The kernels emitted (the launch table), the program, and the workspace it needs. */
  record Emitted(List<LLVMValueRef> functions, List<GridMapping.ProgramLaunch> launches,
      List<DeviceProgram.Node> program, long workspaceBytes, long zeroedOffset, long zeroedBytes) {}

  final Ir ir;
  final String name;
  final GridRegions regions;
  /** Reductions and row groups as block-cooperative kernels ({@link GpuReductions}). */
  private final GpuReductions reductions;
  /** Kernels' partials and counters in the workspace. */
  private final LaunchScratch scratch;
  final HostControl.Policy policy;
  private final int inputs;
  private final int outputs;
  private final LLVMTypeRef type;
  private final List<LLVMValueRef> functions = new ArrayList<>();
  private final List<GridMapping.ProgramLaunch> launches = new ArrayList<>();
  private final long planBytes;
  private int next;
  private int bodies;
  /** Workspace slots (after the plan's workspace) for branch numbers read back by the host. */
  private int slots;

  private Kernels(Ir ir, Plan plan, String name, ThreadIndex index, HostControl.Policy policy, int baked) {
    this.ir = ir;
    this.policy = policy;
    this.name = name;
    this.regions = new GridRegions(ir, index);
    this.scratch = new LaunchScratch(ir);
    this.reductions = new GpuReductions(ir, index, scratch);
    this.inputs = plan.inputs().size() - baked;
    this.outputs = plan.outputs().size();
    this.planBytes = plan.workspaceBytes();
    LLVMTypeRef[] params = new LLVMTypeRef[inputs + outputs + 2];
    java.util.Arrays.fill(params, ir.ptr);
    params[inputs + outputs + 1] = ir.i64;
    this.type = ir.fnType(ir.voidType, params);
  }

  static Emitted emit(Ir ir, Plan plan, String name, ThreadIndex index, HostControl.Policy policy) {
    return emit(ir, plan, name, index, policy, new LLVMValueRef[0]);
  }

  /**
   * As above, with the plan's leading {@code baked.length} inputs (constvars baked with
   * {@code --consts}) read from those globals' addresses: the kernels' parameters are the rest.
   */
  static Emitted emit(Ir ir, Plan plan, String name, ThreadIndex index, HostControl.Policy policy, LLVMValueRef[] baked) {
    Kernels k = new Kernels(ir, plan, name, index, policy, baked.length);
    List<DeviceProgram.Node> program = k.steps(plan, KernelAddresses.top(baked));
    return new Emitted(List.copyOf(k.functions), List.copyOf(k.launches), program, k.placeScratch(),
        k.scratch.zeroedOffset(), k.scratch.zeroedBytes());
  }

  /** Places the kernels' scratch after the read-back slots; the workspace's bytes with it. */
  private long placeScratch() {
    long slotsEnd = slotsBase() + (long) slots * Plan.ALIGNMENT;
    long scratchBytes = scratch.place(slotsEnd);
    if (scratchBytes > 0) return slotsEnd + scratchBytes;
    return slots == 0 ? planBytes : slotsEnd;
  }

  private long slotsBase() {
    return (planBytes + Plan.ALIGNMENT - 1) / Plan.ALIGNMENT * Plan.ALIGNMENT;
  }

  /** A fresh workspace slot (64 bytes) for a value the host reads back. */
  long slot() {
    return slotsBase() + (long) slots++ * Plan.ALIGNMENT;
  }

  /** The program of {@code plan}'s steps. */
  List<DeviceProgram.Node> steps(Plan plan, KernelAddresses addresses) {
    StepFunctions sf = new StepFunctions(ir, plan, regions, bodies++ == 0 ? name : name + ".b" + (bodies - 1), reductions);
    List<DeviceProgram.Node> r = new ArrayList<>();
    for (Step s : plan.steps()) {
      List<DeviceProgram.Node> driven = s instanceof Step.Kernel k ? HostControl.tryDrive(this, plan, k.eqn(), addresses) : null;
      if (driven != null) r.addAll(driven);
      else r.add(step(sf, s, addresses));
    }
    return r;
  }

  /** One step as one kernel. */
  private DeviceProgram.Node step(StepFunctions sf, Step s, KernelAddresses addresses) {
    LLVMValueRef fn = begin();
    KernelAddresses.Params k = params(fn);
    sf.emit(s, b -> addresses.at(ir, k, b));
    LLVMValueRef call = LLVMGetLastInstruction(ir.currentBlock());
    return finish(fn, describe(s), LLVMGetCalledValue(call));
  }

  /** A kernel that copies {@code bytes} bytes from {@code src} to {@code dst}, an element per thread. */
  DeviceProgram.Node copy(KernelAddresses.Source src, KernelAddresses.Source dst, long bytes, String what) {
    LLVMValueRef fn = begin();
    KernelAddresses.Params k = params(fn);
    LLVMValueRef s = src.at(ir, k);
    LLVMValueRef d = dst.at(ir, k);
    long unit = bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 1;
    LLVMTypeRef t = unit == 8 ? ir.i64 : unit == 4 ? ir.i32 : ir.i8;
    regions.range(bytes / unit, 1, bytes / unit, (begin, end) -> ir.loop(begin, end, 1, i -> {
      LLVMValueRef v = ir.load(t, ir.gep(t, s, i), (int) unit);
      ir.store(v, ir.gep(t, d, i), (int) unit);
    }));
    return finish(fn, what, fn);
  }

  /** A one-thread kernel that stores scalar literal {@code lit} (of type {@code t}) at {@code dst}. */
  DeviceProgram.Node fill(Literal lit, ArrayType t, KernelAddresses.Source dst) {
    LLVMValueRef fn = begin();
    KernelAddresses.Params k = params(fn);
    new BufferAccess(ir).store(dst.at(ir, k), t, Index.SCALAR, Constants.literal(ir, lit));
    return finish(fn, "carry literal", fn);
  }

  /**
   * A one-thread kernel that stores at workspace offset {@code slot} the i32 branch number of the
   * index at {@code index} (dtype {@code d}): the index if in [0, n), else n - 1 (XLA's
   * Conditional, as {@code ControlFlowCond} on the CPU).
   */
  DeviceProgram.Node branchNumber(KernelAddresses.Source index, ArrayType t, int n, long slot) {
    LLVMValueRef fn = begin();
    KernelAddresses.Params k = params(fn);
    DType d = t.dtype();
    LLVMValueRef v = new BufferAccess(ir).load(index.at(ir, k), t, Index.SCALAR).v();
    LLVMValueRef wide = ir.intCast(v, ir.i64, d != DType.BOOL && !d.isUnsigned());
    LLVMValueRef in = ir.icmp(LLVMIntULT, wide, ir.i64(n));
    LLVMValueRef b = ir.select(in, ir.trunc(wide, ir.i32), ir.i32(n - 1));
    ir.store(b, KernelAddresses.temp(ir, k, slot), 4);
    return finish(fn, "branch number", fn);
  }

  /**
   * A host-driven loop being emitted. Kernels of its own body get its iteration as their
   * parameter; kernels of a loop nested in it read it from its workspace slot, which a
   * one-thread kernel at the start of each of its iterations writes ({@link #counter}).
   */
  static final class Loop {
    final long slot;
    /** Whether a kernel reads the slot (then the loop needs its counter kernel). */
    boolean read;

    Loop(long slot) {
      this.slot = slot;
    }
  }

  /** The host-driven loops around the kernels being emitted, innermost first. */
  private final java.util.ArrayDeque<Loop> loops = new java.util.ArrayDeque<>();

  /** Enters a host-driven loop (its body's kernels are emitted until {@link #exitLoop}). */
  Loop enterLoop() {
    Loop l = new Loop(slot());
    loops.push(l);
    return l;
  }

  void exitLoop(Loop l) {
    if (loops.pop() != l) throw new IllegalStateException("host loops exited out of order");
  }

  /** Loop {@code l}'s iteration (i64) in kernel {@code k}: its parameter, or {@code l}'s slot. */
  LLVMValueRef iteration(KernelAddresses.Params k, Loop l) {
    if (loops.peek() == l) return k.iteration();
    if (!loops.contains(l)) throw new IllegalStateException("the iteration of a loop the kernel is not in");
    l.read = true;
    return ir.load(ir.i64, KernelAddresses.temp(ir, k, l.slot), 8);
  }

  /** A one-thread kernel that stores its iteration parameter in loop {@code l}'s slot. */
  DeviceProgram.Node counter(Loop l) {
    LLVMValueRef fn = begin();
    KernelAddresses.Params k = params(fn);
    ir.store(k.iteration(), KernelAddresses.temp(ir, k, l.slot), 8);
    return finish(fn, "loop counter", fn);
  }

  /** How many kernels are emitted so far (a mark to roll back to). */
  int mark() {
    return functions.size();
  }

  /** The launches emitted since {@code mark}. */
  List<GridMapping.ProgramLaunch> since(int mark) {
    return List.copyOf(launches.subList(mark, launches.size()));
  }

  /** Deletes the kernels emitted since {@code mark} (a construct kept on the device instead). */
  void rollBack(int mark, int slotMark) {
    for (int i = functions.size() - 1; i >= mark; i--) {
      LLVMDeleteFunction(functions.remove(i));
      launches.remove(i);
    }
    slots = slotMark;
  }

  int slotMark() {
    return slots;
  }

  private LLVMValueRef begin() {
    LLVMValueRef fn = LLVMAddFunction(ir.module, name + "_k" + next++, type);
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    scratch.begin(params(fn).workspace());
    return fn;
  }

  private KernelAddresses.Params params(LLVMValueRef fn) {
    return new KernelAddresses.Params(fn, inputs, outputs);
  }

  /** Ends kernel {@code fn}, whose launch is decided from {@code analysed}; its program node. */
  private DeviceProgram.Node finish(LLVMValueRef fn, String step, LLVMValueRef analysed) {
    LLVMBuildRetVoid(ir.b);
    functions.add(fn);
    String kernel = LLVMGetValueName(fn).getString();
    // A reduction or row group emitted its own block-cooperative kernel, with its own launch.
    GpuReductions.Launch own = reductions.take();
    launches.add(own != null
        ? new GridMapping.ProgramLaunch(kernel, step, Math.toIntExact(Math.max(1, own.gridX())), own.blockX(), true, true)
        : GridMapping.launch(kernel, step, analysed));
    return new DeviceProgram.Node.Run(functions.size() - 1);
  }


  /** The step in a few words: its kind, and a kernel's primitive. */
  static String describe(Step s) {
    if (s instanceof Step.Fusion f) return "fusion of " + f.roots().size() + " root" + (f.roots().size() > 1 ? "s" : "");
    if (s instanceof Step.Kernel k) return k.eqn().primitive();
    if (s instanceof Step.Rows r) {
      StringBuilder b = new StringBuilder("row group:");
      for (Step m : r.steps()) b.append(' ').append(m instanceof Step.Kernel k ? k.eqn().primitive() : "fusion");
      return b.toString();
    }
    if (s instanceof Step.CopyOut) return "output copy";
    throw new AssertionError(s);
  }
}
