package dev.jaxc.backend.ptx.host;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.LlvmException;
import dev.jaxc.backend.llvm.llvm.TargetMachine;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.backend.ptx.ProgramEmitter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The host library of a {@link DeviceProgram} for an x86-64 or AArch64 Linux host: the PTX
 * embedded as a string, {@link HostRuntime}'s driver loading and launching, and the C entry points
 * ({@code NAME}, {@code NAME_async}, {@code NAME_host}, {@code NAME_num_inputs},
 * {@code NAME_num_outputs}, {@code NAME_workspace_size}, {@code NAME_input_bytes},
 * {@code NAME_output_bytes}; see {@link PtxHeaderWriter}). The object imports only dlopen, dlsym,
 * malloc, free and pthread_mutex_lock/unlock from the C library: no CUDA at link time.
 */
public final class HostLibrary {
  /** Alignment of each buffer in the device staging block of {@code NAME_host} calls. */
  public static final long STAGING_ALIGNMENT = 256;

  private HostLibrary() {}

  /**
   * Writes the shared library {@code output} ({@code --emit shared}) with the system's linker;
   * the library needs only the C library at load time.
   */
  public static void linkShared(DeviceProgram program, TargetSpec host, java.nio.file.Path output)
      throws Linker.LinkException, java.io.IOException {
    Linker.linkShared(object(program, host), output, host);
  }

  /** The object file ({@code --emit obj}). */
  public static byte[] object(DeviceProgram program, TargetSpec host) {
    return build(program, host, (tm, m) -> tm.emit(m, false));
  }

  /** The assembly text. */
  public static String assembly(DeviceProgram program, TargetSpec host) {
    return build(program, host, (tm, m) -> new String(tm.emit(m, true), StandardCharsets.UTF_8));
  }

  /** The optimised LLVM IR text. */
  public static String llvmIr(DeviceProgram program, TargetSpec host) {
    return build(program, host, (tm, m) -> Llvm.take(LLVMPrintModuleToString(m)));
  }

  /**
   * Byte offsets of the inputs, then the outputs, in the staging block, each {@link
   * #STAGING_ALIGNMENT}-aligned; the last entry is the block's size.
   */
  public static long[] stagingOffsets(DeviceProgram program) {
    List<Long> sizes = new java.util.ArrayList<>(program.inputBytes());
    sizes.addAll(program.outputBytes());
    long[] offsets = new long[sizes.size() + 1];
    long at = 0;
    for (int i = 0; i < sizes.size(); i++) {
      offsets[i] = at;
      at += (sizes.get(i) + STAGING_ALIGNMENT - 1) / STAGING_ALIGNMENT * STAGING_ALIGNMENT;
    }
    offsets[sizes.size()] = at;
    return offsets;
  }

  private static <T> T build(DeviceProgram program, TargetSpec host, BiFunction<TargetMachine, LLVMModuleRef, T> emit) {
    check(program, host);
    Llvm.init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = null;
    try (TargetMachine tm = new TargetMachine(host)) {
      m = HostRuntime.parse(ctx);
      try (Ir ir = new Ir(ctx, m)) {
        entryPoints(ir, program, descriptor(ir, program));
        steps(ir, program);
      }
      tm.configure(m);
      BytePointer err = new BytePointer((BytePointer) null);
      Llvm.check(LLVMVerifyModule(m, LLVMReturnStatusAction, err) != 0, err, "invalid PTX host module");
      tm.optimize(m);
      return emit.apply(tm, m);
    } finally {
      if (m != null) LLVMDisposeModule(m);
      LLVMContextDispose(ctx);
    }
  }

  private static void check(DeviceProgram p, TargetSpec host) {
    if (host.arch() == TargetSpec.Arch.NVPTX)
      throw new IllegalArgumentException("the host library is for an x86-64 or AArch64 host, not " + host.triple());
    if (!p.name().matches("[A-Za-z_][A-Za-z0-9_]*"))
      throw new IllegalArgumentException("entry point name '" + p.name() + "' is not a C identifier");
    if (p.ptx().indexOf('\0') >= 0) throw new IllegalArgumentException("the PTX text holds a NUL character");
    if (p.workspaceBytes() < 0) throw new IllegalArgumentException("negative workspace size");
    for (long b : p.inputBytes()) if (b < 0) throw new IllegalArgumentException("negative input size");
    for (long b : p.outputBytes()) if (b < 0) throw new IllegalArgumentException("negative output size");
    for (DeviceProgram.Launch l : p.launches()) {
      if (!l.kernel().matches("[A-Za-z_$][A-Za-z0-9_$]*"))
        throw new IllegalArgumentException("kernel name '" + l.kernel() + "' is not a PTX identifier");
    }
  }

  /** The constant {@code %jaxc.ptx.program} describing {@code p}. */
  private static LLVMValueRef descriptor(Ir ir, DeviceProgram p) {
    LLVMTypeRef programType = LLVMGetTypeByName2(ir.ctx, HostRuntime.PROGRAM_TYPE);
    LLVMTypeRef launchType = LLVMGetTypeByName2(ir.ctx, HostRuntime.LAUNCH_TYPE);
    if (programType == null || programType.isNull() || launchType == null || launchType.isNull())
      throw new LlvmException("the PTX host runtime lacks its descriptor types");
    LLVMValueRef[] launches = new LLVMValueRef[p.launches().size()];
    for (int k = 0; k < launches.length; k++) {
      DeviceProgram.Launch l = p.launches().get(k);
      launches[k] = LLVMConstNamedStruct(launchType, array(string(ir, "jaxc.ptx.kernel." + k, l.kernel()),
          ir.i32(l.gridX()), ir.i32(l.blockX()), ir.i32(l.sharedBytes())), 4);
    }
    long[] staging = stagingOffsets(p);
    int nio = p.inputBytes().size() + p.outputBytes().size();
    LLVMValueRef[] fields = {
        string(ir, "jaxc.ptx.module", p.ptx()),
        ir.i32(p.inputBytes().size()),
        ir.i32(p.outputBytes().size()),
        ir.i32(launches.length),
        global(ir, "jaxc.ptx.launches", LLVMConstArray2(launchType, array(launches), launches.length)),
        ir.i64(p.workspaceBytes()),
        longs(ir, "jaxc.ptx.input_bytes", p.inputBytes().stream().mapToLong(Long::longValue).toArray()),
        longs(ir, "jaxc.ptx.output_bytes", p.outputBytes().stream().mapToLong(Long::longValue).toArray()),
        longs(ir, "jaxc.ptx.staging", java.util.Arrays.copyOf(staging, nio)),
        ir.i64(staging[nio]),
        ir.i32(smNumber(p.sm())),
        ir.i64(p.zeroedOffset()),
        ir.i64(p.zeroedBytes()),
    };
    return global(ir, "jaxc.ptx.descriptor", LLVMConstNamedStruct(programType, array(fields), fields.length));
  }

  /**
   * Defines {@code jaxc.ptx.steps}, which {@code runtime.ll} declares: the program's nodes as host
   * code ({@link ProgramEmitter}), each launch a call of {@code jaxc.ptx.launch_one} with the
   * iteration stored in its parameter slot, each read-back a {@code jaxc.ptx.read_back} (which
   * synchronises the stream); the first failing CUresult is returned.
   */
  private static void steps(Ir ir, DeviceProgram p) {
    LLVMValueRef fn = runtimeFunction(ir, HostRuntime.STEPS);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    LLVMValueRef prog = LLVMGetParam(fn, 0);
    LLVMValueRef funcs = LLVMGetParam(fn, 1);
    LLVMValueRef params = LLVMGetParam(fn, 2);
    LLVMValueRef iterationSlot = LLVMGetParam(fn, 3);
    LLVMValueRef stream = LLVMGetParam(fn, 4);
    LLVMValueRef ws = LLVMGetParam(fn, 5);
    LLVMValueRef launchOne = runtimeFunction(ir, HostRuntime.LAUNCH_ONE);
    LLVMValueRef readBack = runtimeFunction(ir, HostRuntime.READ_BACK);
    LLVMValueRef value = ir.entryAlloca(ir.i32, 4);
    ProgramEmitter.emit(ir, p.program(), new ProgramEmitter.Host() {
      @Override
      public void launch(int launch, LLVMValueRef iteration) {
        ir.store(iteration, iterationSlot, 8);
        check(ir.call(LLVMGlobalGetValueType(launchOne), launchOne, prog, funcs, ir.i32(launch), params, stream));
      }

      @Override
      public LLVMValueRef read(long offset, int bytes) {
        ir.store(ir.i32(0), value, 4);
        check(ir.call(LLVMGlobalGetValueType(readBack), readBack, value, ir.add(ws, ir.i64(offset)), ir.i64(bytes), stream));
        return bytes == 1 ? ir.intCast(ir.load(ir.i8, value, 1), ir.i32, false) : ir.load(ir.i32, value, 4);
      }

      private void check(LLVMValueRef rc) {
        org.bytedeco.llvm.LLVM.LLVMBasicBlockRef fail = ir.block("fail");
        org.bytedeco.llvm.LLVM.LLVMBasicBlockRef ok = ir.block("ok");
        ir.condBr(ir.icmp(LLVMIntNE, rc, ir.i32(0)), fail, ok);
        ir.at(fail);
        ir.ret(rc);
        ir.at(ok);
      }
    });
    ir.ret(ir.i32(0));
  }

  /** {@code sm_80} as 80, {@code sm_90a} as 90; 0 when {@code sm} names no number. */
  static int smNumber(String sm) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("sm_(\\d+)").matcher(sm);
    return m.lookingAt() ? Integer.parseInt(m.group(1)) : 0;
  }

  private static void entryPoints(Ir ir, DeviceProgram p, LLVMValueRef program) {
    String name = p.name();
    LLVMTypeRef callType = ir.fnType(ir.i32, ir.ptr, ir.ptr, ir.ptr, ir.ptr, ir.i32);
    LLVMValueRef call = runtimeFunction(ir, HostRuntime.CALL);
    LLVMValueRef nullPtr = LLVMConstPointerNull(ir.ptr);

    LLVMValueRef sync = entry(ir, name, ir.fnType(ir.i32, ir.ptr, ir.ptr));
    ir.ret(ir.call(callType, call, program, LLVMGetParam(sync, 0), LLVMGetParam(sync, 1), nullPtr,
        ir.i32(HostRuntime.MODE_DEVICE)));
    LLVMValueRef async = entry(ir, name + "_async", ir.fnType(ir.i32, ir.ptr, ir.ptr, ir.ptr));
    ir.ret(ir.call(callType, call, program, LLVMGetParam(async, 0), LLVMGetParam(async, 1), LLVMGetParam(async, 2),
        ir.i32(HostRuntime.MODE_ASYNC)));
    LLVMValueRef host = entry(ir, name + "_host", ir.fnType(ir.i32, ir.ptr, ir.ptr));
    ir.ret(ir.call(callType, call, program, LLVMGetParam(host, 0), LLVMGetParam(host, 1), nullPtr,
        ir.i32(HostRuntime.MODE_HOST)));

    entry(ir, name + "_num_inputs", ir.fnType(ir.i32));
    ir.ret(ir.i32(p.inputBytes().size()));
    entry(ir, name + "_num_outputs", ir.fnType(ir.i32));
    ir.ret(ir.i32(p.outputBytes().size()));
    entry(ir, name + "_workspace_size", ir.fnType(ir.i64));
    ir.ret(ir.i64(p.workspaceBytes()));

    LLVMTypeRef bytesType = ir.fnType(ir.i64, ir.ptr, ir.i32, ir.i32);
    LLVMValueRef bytes = runtimeFunction(ir, HostRuntime.BYTES);
    String[] which = {"_input_bytes", "_output_bytes"};
    for (int w = 0; w < 2; w++) {
      LLVMValueRef fn = entry(ir, name + which[w], ir.fnType(ir.i64, ir.i32));
      ir.ret(ir.call(bytesType, bytes, program, ir.i32(w), LLVMGetParam(fn, 0)));
    }
  }

  private static LLVMValueRef entry(Ir ir, String name, LLVMTypeRef type) {
    if (LLVMGetNamedFunction(ir.module, name) != null && !LLVMGetNamedFunction(ir.module, name).isNull())
      throw new IllegalArgumentException("entry point name clash: " + name);
    LLVMValueRef fn = LLVMAddFunction(ir.module, name, type);
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    return fn;
  }

  private static LLVMValueRef runtimeFunction(Ir ir, String name) {
    LLVMValueRef fn = LLVMGetNamedFunction(ir.module, name);
    if (fn == null || fn.isNull()) throw new LlvmException("the PTX host runtime lacks " + name);
    return fn;
  }

  /** A private NUL-terminated string constant. */
  private static LLVMValueRef string(Ir ir, String name, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    BytePointer data = new BytePointer(bytes.length + 1L);
    data.put(bytes).put(bytes.length, (byte) 0);
    LLVMValueRef s = LLVMConstStringInContext2(ir.ctx, data, bytes.length, 0);
    data.close();
    LLVMValueRef g = global(ir, name, s);
    LLVMSetUnnamedAddr(g, 1);
    return g;
  }

  private static LLVMValueRef longs(Ir ir, String name, long[] values) {
    LLVMValueRef[] v = new LLVMValueRef[values.length];
    for (int i = 0; i < values.length; i++) v[i] = ir.i64(values[i]);
    return global(ir, name, LLVMConstArray2(ir.i64, array(v), v.length));
  }

  private static LLVMValueRef global(Ir ir, String name, LLVMValueRef init) {
    LLVMValueRef g = LLVMAddGlobal(ir.module, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
  }

  private static PointerPointer<LLVMValueRef> array(LLVMValueRef... values) {
    PointerPointer<LLVMValueRef> p = new PointerPointer<>(Math.max(values.length, 1));
    for (int i = 0; i < values.length; i++) p.put(i, values[i]);
    return p;
  }
}
