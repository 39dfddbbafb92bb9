package dev.jaxc.backend.llvm.abi;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The only C library functions generated code calls: {@code malloc} and {@code free} (the entry
 * point's workspace), {@code madvise} (only in modules with an output of 8 MiB or more:
 * {@link OutputPages}), and, only in modules with a parallel region, {@code getenv}, {@code sysconf},
 * {@code pthread_create}, {@code pthread_join} and {@code syscall} (the thread pool: futex,
 * sched_yield). All are in glibc's
 * libc.so.6 since 2.34; before that the pthread ones are in libpthread.so.0 (the linker adds it).
 */
public final class Libc {
  /**
   * The symbols of the thread runtime: a module with a split region imports them all (getenv and
   * sysconf not when the thread count is baked in), others none.
   */
  public static final List<String> THREAD_SYMBOLS =
      List.of("getenv", "sysconf", "pthread_create", "pthread_join", "syscall");

  private Libc() {}

  public static LLVMValueRef malloc(Ir ir, LLVMValueRef bytes) {
    LLVMTypeRef t = ir.fnType(ir.ptr, ir.i64);
    return ir.call(t, declare(ir, "malloc", t), bytes);
  }

  public static void free(Ir ir, LLVMValueRef p) {
    LLVMTypeRef t = ir.fnType(ir.voidType, ir.ptr);
    ir.call(t, declare(ir, "free", t), p);
  }

  /** {@code char *getenv(const char *name)}. */
  public static LLVMValueRef getenv(Ir ir, LLVMValueRef name) {
    LLVMTypeRef t = ir.fnType(ir.ptr, ir.ptr);
    return ir.call(t, declare(ir, "getenv", t), name);
  }

  /** {@code long sysconf(int name)} (long is 64 bits on both targets). */
  public static LLVMValueRef sysconf(Ir ir, LLVMValueRef name) {
    LLVMTypeRef t = ir.fnType(ir.i64, ir.i32);
    return ir.call(t, declare(ir, "sysconf", t), name);
  }

  /**
   * {@code int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void
   * *), void *arg)}; 0 on success.
   */
  public static LLVMValueRef pthreadCreate(Ir ir, LLVMValueRef handle, LLVMValueRef attr, LLVMValueRef start,
      LLVMValueRef arg) {
    LLVMTypeRef t = ir.fnType(ir.i32, ir.ptr, ir.ptr, ir.ptr, ir.ptr);
    return ir.call(t, declare(ir, "pthread_create", t), handle, attr, start, arg);
  }

  /** {@code int pthread_join(pthread_t thread, void **result)}; pthread_t is an unsigned long. */
  public static LLVMValueRef pthreadJoin(Ir ir, LLVMValueRef handle, LLVMValueRef result) {
    LLVMTypeRef t = ir.fnType(ir.i32, ir.i64, ir.ptr);
    return ir.call(t, declare(ir, "pthread_join", t), handle, result);
  }

  /** {@code int madvise(void *addr, size_t length, int advice)}. */
  public static LLVMValueRef madvise(Ir ir, LLVMValueRef addr, LLVMValueRef length, int advice) {
    LLVMTypeRef t = ir.fnType(ir.i32, ir.ptr, ir.i64, ir.i32);
    return ir.call(t, declare(ir, "madvise", t), addr, length, ir.i32(advice));
  }

  /** {@code long syscall(long number, ...)}: variadic; integer and pointer arguments. */
  public static LLVMValueRef syscall(Ir ir, LLVMValueRef number, LLVMValueRef... args) {
    LLVMTypeRef t = LLVMFunctionType(ir.i64, new PointerPointer<>(1).put(0, ir.i64), 1, 1);
    LLVMValueRef[] all = new LLVMValueRef[args.length + 1];
    all[0] = number;
    System.arraycopy(args, 0, all, 1, args.length);
    return ir.call(t, declare(ir, "syscall", t), all);
  }

  private static LLVMValueRef declare(Ir ir, String name, LLVMTypeRef t) {
    LLVMValueRef fn = LLVMGetNamedFunction(ir.module, name);
    if (fn == null || fn.isNull()) {
      fn = LLVMAddFunction(ir.module, name, t);
      ir.addFunctionAttribute(fn, "nounwind");
    }
    return fn;
  }
}
