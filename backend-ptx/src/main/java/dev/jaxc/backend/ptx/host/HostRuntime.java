package dev.jaxc.backend.ptx.host;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.llvm.Llvm;
import dev.jaxc.backend.llvm.llvm.LlvmException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;

/**
 * The model-independent half of the PTX host library: {@code runtime.ll}, textual LLVM IR written
 * once for every LP64 Linux host (driver loading, per-context module, work memory, launches),
 * parsed into a fresh module that {@link HostLibrary} completes with the model's half.
 */
final class HostRuntime {
  /** The resource's name, next to this class. */
  static final String RESOURCE = "runtime.ll";

  /** The call every entry point makes: {@code i32 (ptr program, ptr ins, ptr outs, ptr stream, i32 mode)}. */
  static final String CALL = "jaxc.ptx.call";
  /** {@code i64 (ptr program, i32 which, i32 index)}: a buffer's byte size, -1 if there is none. */
  static final String BYTES = "jaxc.ptx.bytes";
  /** {@code i32 (ptr program, ptr funcs, ptr params, ptr iteration, ptr stream, i64 workspace)}: declared, HostLibrary defines it. */
  static final String STEPS = "jaxc.ptx.steps";
  /** {@code i32 (ptr program, ptr funcs, i32 kernel, ptr params, ptr stream)}: one launch's CUresult. */
  static final String LAUNCH_ONE = "jaxc.ptx.launch_one";
  /** {@code i32 (ptr dst, i64 src, i64 bytes, ptr stream)}: a synchronising read-back's CUresult. */
  static final String READ_BACK = "jaxc.ptx.read_back";
  static final String PROGRAM_TYPE = "jaxc.ptx.program";
  static final String LAUNCH_TYPE = "jaxc.ptx.launch";

  /** The entry's {@code mode} argument. */
  static final int MODE_DEVICE = 0;
  static final int MODE_ASYNC = 1;
  static final int MODE_HOST = 2;

  private HostRuntime() {}

  static String text() {
    try (InputStream in = HostRuntime.class.getResourceAsStream(RESOURCE)) {
      if (in == null) throw new IllegalStateException("resource " + RESOURCE + " missing from the jar");
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The runtime parsed into a new module of {@code ctx} (the caller owns it). */
  static LLVMModuleRef parse(LLVMContextRef ctx) {
    Llvm.init();
    byte[] text = text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    BytePointer data = new BytePointer(text.length + 1L);
    data.put(text).put(text.length, (byte) 0);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, text.length, new BytePointer(RESOURCE));
    data.close();
    LLVMModuleRef m = new LLVMModuleRef();
    BytePointer err = new BytePointer((BytePointer) null);
    boolean failed = LLVMParseIRInContext(ctx, buf, m, err) != 0;  // takes the buffer
    if (failed) {
      String msg = err.isNull() ? "" : err.getString();
      if (!err.isNull()) LLVMDisposeMessage(err);
      throw new LlvmException("the PTX host runtime does not parse: " + msg);
    }
    return m;
  }
}
