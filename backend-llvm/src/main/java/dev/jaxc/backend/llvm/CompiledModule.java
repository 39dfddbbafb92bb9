package dev.jaxc.backend.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.abi.JitEntry;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Jit;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Type.ArrayType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;

/**
 * An optimised module for one target, owning its LLVM context, module and target machine. Gives
 * the object file, assembly and LLVM IR, and on a host-architecture target runs the entry point
 * in this process (MCJIT on a copy of the module with {@link JitEntry} added).
 */
public final class CompiledModule implements AutoCloseable {
  private final LLVMContextRef ctx;
  private final LLVMModuleRef module;
  private final TargetMachine tm;
  private final String name;
  private final List<ArrayType> inputTypes;
  private final List<ArrayType> outputTypes;
  private LLVMModuleRef jitModule;
  private Jit jit;

  /**
   * Takes ownership of an optimised module, its context and target machine ({@code baked}: leading
   * constvars baked in). Public for other backends' host modules (the PTX backend's emulation).
   */
  public CompiledModule(LLVMContextRef ctx, LLVMModuleRef module, TargetMachine tm, Plan plan, String name, int baked) {
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

  /** A relocatable ELF object for the target. */
  public synchronized byte[] objectCode() {
    return tm.emit(module, false);
  }

  public synchronized String assembly() {
    return new String(tm.emit(module, true), StandardCharsets.UTF_8);
  }

  public synchronized String llvmIr() {
    return Llvm.take(LLVMPrintModuleToString(module));
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
