package dev.jaxc.backend.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.abi.JitEntry;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Jit;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.LlvmException;
import dev.jaxc.backend.llvm.llvm.ModulePartitions;
import dev.jaxc.backend.llvm.llvm.PartitionedModule;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.backend.llvm.runtime.ParallelFor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;

/**
 * A module for one target, owning its LLVM context, module and target machine. Gives the object
 * file, assembly and LLVM IR, and on a host-architecture target runs the entry point in this
 * process (MCJIT on a copy of the module with {@link JitEntry} added). A module from
 * {@link Compiler} is optimised when first needed, and how depends on what is asked: objects from
 * {@link ModulePartitions partitions} optimised and compiled on all cores where the module is large
 * enough (joined by {@code ld.lld -r} for {@link #objectCode}), the whole module at once for
 * assembly, IR text and the JIT.
 */
public final class CompiledModule implements AutoCloseable {
  private final LLVMContextRef ctx;
  private final LLVMModuleRef module;
  private final TargetMachine tm;
  private final String name;
  private final List<ArrayType> inputTypes;
  private final List<ArrayType> outputTypes;
  private final PhaseTimer timer;
  private boolean optimised;
  private List<byte[]> objects;
  private LLVMModuleRef jitModule;
  private Jit jit;

  /**
   * Takes ownership of an optimised module, its context and target machine ({@code baked}: leading
   * constvars baked in). Public for other backends' host modules (the PTX backend's emulation).
   */
  public CompiledModule(LLVMContextRef ctx, LLVMModuleRef module, TargetMachine tm, Plan plan, String name, int baked) {
    this(ctx, module, tm, plan, name, baked, true, PhaseTimer.NONE);
  }

  /**
   * As above for a verified module not optimised yet: it is, when first needed, with its phases
   * (optimise, codegen, codegen asm, print IR) recorded by {@code timer}.
   */
  CompiledModule(LLVMContextRef ctx, LLVMModuleRef module, TargetMachine tm, Plan plan, String name, int baked,
      boolean optimised, PhaseTimer timer) {
    this.optimised = optimised;
    this.timer = timer;
    this.ctx = ctx;
    this.module = module;
    this.tm = tm;
    this.name = name;
    this.inputTypes = plan.inputs().stream().skip(baked).map(CompiledModule::arrayType).toList();
    this.outputTypes = plan.outputs().stream().map(CompiledModule::arrayType).toList();
  }

  private static ArrayType arrayType(Atom a) {
    return (ArrayType) a.type();
  }

  /** The entry point's name (the C symbol). */
  public String name() {
    return name;
  }

  public TargetSpec target() {
    return tm.spec();
  }

  /** Constvars (those not baked in), then invars: one buffer each, in this order. */
  public List<ArrayType> inputTypes() {
    return inputTypes;
  }

  public List<ArrayType> outputTypes() {
    return outputTypes;
  }

  /**
   * A relocatable ELF object for the target: a partitioned module's objects joined, or where the
   * tools to join them are missing, or their temporary files cannot be written (a full temporary
   * directory), the whole module compiled at once, which needs no file.
   */
  public synchronized byte[] objectCode() {
    if (!Linker.canJoin()) return single();
    List<byte[]> o = objects();
    if (o.size() == 1) return o.get(0);
    try {
      return Linker.relocatable(o, tm.spec()).orElseThrow(() -> new AssertionError("canJoin said yes"));
    } catch (IOException e) {
      objects = null;
      return single();
    } catch (Linker.LinkException e) {
      throw new LlvmException("cannot join the partitions' objects: " + e.getMessage());
    }
  }

  private byte[] single() {
    if (objects != null && objects.size() == 1) return objects.get(0);
    optimiseWhole();
    return timer.time("codegen", () -> tm.emit(module, false));
  }

  /**
   * The object files that together make the module: one, or where the module was partitioned one
   * per partition (link them all, in this order).
   */
  public synchronized List<byte[]> objects() {
    if (objects != null) return objects;
    Optional<ModulePartitions> split = optimised || tm.spec().optLevel() == 0 || Linker.onPath("ld.lld").isEmpty()
        ? Optional.empty()
        : ModulePartitions.of(module, name, f -> f.startsWith(ParallelFor.BODY) || f.startsWith(name + ".step."));
    if (split.isEmpty()) {
      objects = List.of(single());
    } else {
      try (PartitionedModule parts = timer.time("optimise", () -> {
        PartitionedModule made = PartitionedModule.optimise(split.get(), tm.spec());
        timer.otherThreads(PartitionedModule.workerCpuNanos());
        return made;
      })) {
        objects = timer.time("codegen", () -> {
          List<byte[]> made = parts.objects();
          timer.otherThreads(PartitionedModule.workerCpuNanos());
          return made;
        });
      }
    }
    return objects;
  }

  public synchronized String assembly() {
    optimiseWhole();
    return timer.time("codegen asm", () -> new String(tm.emit(module, true), StandardCharsets.UTF_8));
  }

  public synchronized String llvmIr() {
    optimiseWhole();
    return timer.time("print IR", () -> Llvm.take(LLVMPrintModuleToString(module)));
  }

  private void optimiseWhole() {
    if (optimised) return;
    timer.run("optimise", () -> tm.optimize(module, false));
    optimised = true;
  }

  /**
   * Runs the entry point once on direct buffers (dense row-major, the C ABI's encodings) and
   * returns its {@link ErrorCode}. Safe to call from several threads at once.
   */
  public ErrorCode run(ByteBuffer[] inputs, ByteBuffer[] outputs) {
    check(inputs, inputTypes, "input");
    check(outputs, outputTypes, "output");
    ByteBuffer[] all = new ByteBuffer[inputs.length + outputs.length];
    System.arraycopy(inputs, 0, all, 0, inputs.length);
    System.arraycopy(outputs, 0, all, inputs.length, outputs.length);
    return ErrorCode.of(jit().call(jitModule, JitEntry.NAME, all));
  }

  private static void check(ByteBuffer[] bufs, List<ArrayType> types, String what) {
    if (bufs.length != types.size())
      throw new IllegalArgumentException(types.size() + " " + what + "s expected, got " + bufs.length);
    for (int k = 0; k < bufs.length; k++) {
      long need = types.get(k).shape().elementCount() * types.get(k).dtype().byteSize();
      if (!bufs[k].isDirect() || bufs[k].remaining() < need)
        throw new IllegalArgumentException(what + " " + k + " must be a direct buffer of at least "
            + need + " bytes for " + types.get(k).text());
    }
  }

  private synchronized Jit jit() {
    if (jit != null) return jit;
    if (tm.spec().arch() != TargetSpec.host().arch())
      throw new IllegalStateException("cannot run " + tm.spec().triple() + " code on this machine");
    optimiseWhole();
    jitModule = LLVMCloneModule(module);
    try (Ir ir = new Ir(ctx, jitModule)) {
      JitEntry.emit(ir, name, inputTypes.size());
    }
    Compiler.verify(jitModule);
    jit = new Jit(jitModule, tm.spec().optLevel());
    return jit;
  }

  @Override
  public synchronized void close() {
    if (jit != null) jit.close();  // disposes jitModule
    LLVMDisposeModule(module);
    tm.close();
    LLVMContextDispose(ctx);
  }
}
