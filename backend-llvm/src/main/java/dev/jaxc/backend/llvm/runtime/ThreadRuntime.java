package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.Libc;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.function.Consumer;
import java.util.function.Function;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The thread runtime, emitted as internal functions into the modules that have a parallel
 * region (so cross-compiling needs no C toolchain, and other modules import nothing for it):
 *
 * <pre>
 * void jaxc_parallel_for(void (*body)(void *ctx, i64 begin, i64 end), void *ctx, i64 n, i64 grain, i64 useful,
 *                        i64 *threads);  // *threads: 0, or the count this entry point call already found
 * i64 jaxc_num_threads(void);            // JAXC_NUM_THREADS if a positive integer, else the online CPUs; ≤ 64
 * void jaxc_run_chunks(region *r);       // claims chunks (an atomic counter) and runs them until none is left
 * void *jaxc_thread_start(region *r);    // pthread start routine: jaxc_run_chunks(r)
 * </pre>
 *
 * {@code jaxc_parallel_for} uses t = min(threads, useful, ⌈n / grain⌉) threads (threads: asked
 * once per call of the entry point, since sysconf costs about 8 µs); with t = 1 it
 * calls the body on [0, n). Else it cuts [0, n) into min(⌈n / grain⌉, {@link #CHUNKS_PER_THREAD}·t)
 * chunks whose bounds are multiples of {@code grain} (except n), starts t − 1 threads and runs
 * chunks on the calling thread too, each thread claiming the next chunk until none is left, then
 * joins them. Claiming rather than a fixed share per thread keeps a thread the OS runs late (a
 * busy machine) from holding up the others, and a thread that could not be created costs nothing:
 * the others run its chunks. Fork-join per call, all state on the caller's stack: nothing global,
 * so it is reentrant.
 */
final class ThreadRuntime {
  private static final String PARALLEL_FOR = "jaxc_parallel_for";
  private static final String NUM_THREADS = "jaxc_num_threads";
  private static final String RUN_CHUNKS = "jaxc_run_chunks";
  private static final String THREAD_START = "jaxc_thread_start";
  private static final String ENV = "JAXC_NUM_THREADS";
  /** Values of JAXC_NUM_THREADS above this are read as this (no overflow while parsing). */
  private static final long ENV_CAP = 1 << 20;
  /** Chunks per thread: small enough to even out late threads, big enough to be worth claiming. */
  private static final int CHUNKS_PER_THREAD = 4;

  private final Ir ir;
  private final Threading threading;
  private final TargetSpec.Arch arch;
  /** { body, ctx, n, grain, units, chunks, next }: one region, shared by its threads. */
  private final LLVMTypeRef region;

  ThreadRuntime(Ir ir, Threading threading, TargetSpec.Arch arch) {
    this.ir = ir;
    this.threading = threading;
    this.arch = arch;
    this.region = LLVMStructTypeInContext(ir.ctx,
        new PointerPointer<>(ir.ptr, ir.ptr, ir.i64, ir.i64, ir.i64, ir.i64, ir.i64), 7, 0);
  }

  /** {@code void (ptr ctx, i64 begin, i64 end)}: a parallel region's outlined body. */
  LLVMTypeRef bodyType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.i64, ir.i64);
  }

  LLVMTypeRef parallelForType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.ptr, ir.i64, ir.i64, ir.i64, ir.ptr);
  }

  /** The module's {@code jaxc_parallel_for}, emitted (with what it calls) the first time. */
  LLVMValueRef parallelFor() {
    return ir.outlined(PARALLEL_FOR, parallelForType(), this::emitParallelFor);
  }

  private void emitParallelFor(LLVMValueRef fn) {
    LLVMValueRef body = LLVMGetParam(fn, 0);
    LLVMValueRef ctx = LLVMGetParam(fn, 1);
    LLVMValueRef n = LLVMGetParam(fn, 2);
    LLVMValueRef grain = LLVMGetParam(fn, 3);
    LLVMValueRef useful = LLVMGetParam(fn, 4);
    LLVMValueRef known = LLVMGetParam(fn, 5);
    int max = Threading.MAX_THREADS;
    LLVMValueRef r = alloca(region, 8);
    LLVMValueRef handles = alloca(LLVMArrayType2(ir.i64, max), 8);
    LLVMValueRef started = alloca(LLVMArrayType2(ir.i8, max), 1);

    LLVMValueRef units = ir.udiv(ir.sub(ir.add(n, grain), ir.i64(1)), grain);
    LLVMBasicBlockRef entry = ir.currentBlock();
    LLVMBasicBlockRef ask = ir.block("ask");
    LLVMBasicBlockRef decide = ir.block("decide");
    LLVMValueRef cached = ir.load(ir.i64, known, 8);
    ir.condBr(ir.icmp(LLVMIntEQ, cached, ir.i64(0)), ask, decide);
    ir.at(ask);
    LLVMValueRef asked = ir.call(ir.fnType(ir.i64), numThreads());
    ir.store(asked, known, 8);
    ir.br(decide);
    ir.at(decide);
    LLVMValueRef threads = ir.phi(ir.i64);
    ir.incoming(threads, cached, entry);
    ir.incoming(threads, asked, ask);
    LLVMValueRef t = umin(umin(threads, useful), units);
    LLVMBasicBlockRef serial = ir.block("serial");
    LLVMBasicBlockRef split = ir.block("split");
    ir.condBr(ir.icmp(LLVMIntULE, t, ir.i64(1)), serial, split);
    ir.at(serial);
    ir.call(bodyType(), body, ctx, ir.i64(0), n);
    LLVMBuildRetVoid(ir.b);

    ir.at(split);
    LLVMValueRef[] fields = {body, ctx, n, grain, units, umin(units, ir.mul(t, ir.i64(CHUNKS_PER_THREAD))), ir.i64(0)};
    for (int k = 0; k < fields.length; k++) ir.store(fields[k], field(r, k), 8);
    counted(ir.i64(1), t, i -> {
      LLVMValueRef rc = Libc.pthreadCreate(ir, ir.gep(ir.i64, handles, i), LLVMConstPointerNull(ir.ptr), threadStart(), r);
      ir.store(ir.zext(ir.icmp(LLVMIntEQ, rc, ir.i32(0)), ir.i8), ir.gep(ir.i8, started, i), 1);
    });
    ir.call(ir.fnType(ir.voidType, ir.ptr), runChunks(), r);
    counted(ir.i64(1), t, i -> {
      LLVMBasicBlockRef join = ir.block("join");
      LLVMBasicBlockRef next = ir.block("next");
      ir.condBr(ir.icmp(LLVMIntNE, ir.load(ir.i8, ir.gep(ir.i8, started, i), 1), ir.constInt(ir.i8, 0)), join, next);
      ir.at(join);
      Libc.pthreadJoin(ir, ir.load(ir.i64, ir.gep(ir.i64, handles, i), 8), LLVMConstPointerNull(ir.ptr));
      ir.br(next);
      ir.at(next);
    });
    LLVMBuildRetVoid(ir.b);
  }

  /**
   * {@code void jaxc_run_chunks(region *r)}: chunk c of C covers units [c·q + min(c, m), (c+1)·q +
   * min(c+1, m)) with q = units / C, m = units % C, scaled by grain and cut at n.
   */
  private LLVMValueRef runChunks() {
    return ir.outlined(RUN_CHUNKS, ir.fnType(ir.voidType, ir.ptr), fn -> {
      LLVMValueRef r = LLVMGetParam(fn, 0);
      LLVMValueRef body = ir.load(ir.ptr, field(r, 0), 8);
      LLVMValueRef ctx = ir.load(ir.ptr, field(r, 1), 8);
      LLVMValueRef n = ir.load(ir.i64, field(r, 2), 8);
      LLVMValueRef grain = ir.load(ir.i64, field(r, 3), 8);
      LLVMValueRef units = ir.load(ir.i64, field(r, 4), 8);
      LLVMValueRef chunks = ir.load(ir.i64, field(r, 5), 8);
      LLVMValueRef q = ir.udiv(units, chunks);
      LLVMValueRef m = ir.urem(units, chunks);
      LLVMBasicBlockRef claim = ir.block("claim");
      LLVMBasicBlockRef run = ir.block("run");
      LLVMBasicBlockRef done = ir.block("done");
      ir.br(claim);
      ir.at(claim);
      // Only the counter is shared while chunks run; thread start and join order the rest.
      LLVMValueRef c = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpAdd, field(r, 6), ir.i64(1),
          LLVMAtomicOrderingMonotonic, 0);
      ir.condBr(ir.icmp(LLVMIntULT, c, chunks), run, done);
      ir.at(run);
      Function<LLVMValueRef, LLVMValueRef> bound =
          k -> umin(ir.mul(ir.add(ir.mul(k, q), umin(k, m)), grain), n);
      ir.call(bodyType(), body, ctx, bound.apply(c), bound.apply(ir.add(c, ir.i64(1))));
      ir.br(claim);
      ir.at(done);
      LLVMBuildRetVoid(ir.b);
    });
  }

  /** {@code void *jaxc_thread_start(region *r)}: a started thread's life. */
  private LLVMValueRef threadStart() {
    return ir.outlined(THREAD_START, ir.fnType(ir.ptr, ir.ptr), fn -> {
      ir.call(ir.fnType(ir.voidType, ir.ptr), runChunks(), LLVMGetParam(fn, 0));
      ir.ret(LLVMConstPointerNull(ir.ptr));
    });
  }

  /** {@code i64 jaxc_num_threads(void)}: the baked count, or JAXC_NUM_THREADS, or the online CPUs. */
  private LLVMValueRef numThreads() {
    return ir.outlined(NUM_THREADS, ir.fnType(ir.i64), fn -> {
      if (threading.threads() > 0) {
        ir.ret(ir.i64(threading.threads()));
        return;
      }
      LLVMValueRef name = LLVMBuildGlobalStringPtr(ir.b, ENV, "jaxc_num_threads_env");
      LLVMValueRef s = Libc.getenv(ir, name);
      LLVMBasicBlockRef entry = ir.currentBlock();
      LLVMBasicBlockRef parse = ir.block("parse");
      LLVMBasicBlockRef digit = ir.block("digit");
      LLVMBasicBlockRef end = ir.block("end");
      LLVMBasicBlockRef given = ir.block("given");
      LLVMBasicBlockRef cpus = ir.block("cpus");
      ir.condBr(LLVMBuildIsNull(ir.b, s, ""), cpus, parse);
      // v = the decimal digits of s, capped; valid if s is one or more digits and v ≥ 1.
      ir.at(parse);
      LLVMValueRef i = ir.phi(ir.i64);
      LLVMValueRef v = ir.phi(ir.i64);
      ir.incoming(i, ir.i64(0), entry);
      ir.incoming(v, ir.i64(0), entry);
      LLVMValueRef c = ir.zext(ir.load(ir.i8, ir.gep(ir.i8, s, i), 1), ir.i64);
      LLVMValueRef d = ir.sub(c, ir.i64('0'));
      ir.condBr(ir.icmp(LLVMIntULT, d, ir.i64(10)), digit, end);
      ir.at(digit);
      ir.incoming(i, ir.add(i, ir.i64(1)), digit);
      ir.incoming(v, umin(ir.add(ir.mul(v, ir.i64(10)), d), ir.i64(ENV_CAP)), digit);
      ir.br(parse);
      ir.at(end);
      LLVMValueRef ok = ir.and(ir.icmp(LLVMIntEQ, c, ir.i64(0)), ir.icmp(LLVMIntUGE, v, ir.i64(1)));
      ir.condBr(ok, given, cpus);
      ir.at(given);
      ir.ret(umin(v, ir.i64(Threading.MAX_THREADS)));
      ir.at(cpus);
      LLVMValueRef online = Libc.sysconf(ir, ir.i32(scNprocessorsOnln()));
      LLVMValueRef atLeastOne = ir.select(ir.icmp(LLVMIntSLT, online, ir.i64(1)), ir.i64(1), online);
      ir.ret(umin(atLeastOne, ir.i64(Threading.MAX_THREADS)));
    });
  }

  /** {@code _SC_NPROCESSORS_ONLN} in the target's C library (glibc's value on both). */
  private int scNprocessorsOnln() {
    return switch (arch) {
      case X86_64, AARCH64 -> 84;
      case NVPTX -> throw new IllegalArgumentException("no thread runtime on " + arch);
    };
  }

  /** A stack slot; called in the entry block, so it is allocated once per call. */
  private LLVMValueRef alloca(LLVMTypeRef t, int align) {
    LLVMValueRef a = LLVMBuildAlloca(ir.b, t, "");
    LLVMSetAlignment(a, align);
    return a;
  }

  private LLVMValueRef field(LLVMValueRef r, int k) {
    return LLVMBuildStructGEP2(ir.b, region, r, k, "");
  }

  private LLVMValueRef umin(LLVMValueRef x, LLVMValueRef y) {
    return ir.select(ir.icmp(LLVMIntULT, x, y), x, y);
  }

  /** {@code for (i = from; i < to; i++) body(i)} with from < to. */
  private void counted(LLVMValueRef from, LLVMValueRef to, Consumer<LLVMValueRef> body) {
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef loop = ir.block("loop");
    LLVMBasicBlockRef exit = ir.block("loop.end");
    ir.br(loop);
    ir.at(loop);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, from, pre);
    body.accept(i);
    LLVMValueRef next = LLVMBuildNUWAdd(ir.b, i, ir.i64(1), "");
    ir.incoming(i, next, ir.currentBlock());
    ir.condBr(ir.icmp(LLVMIntULT, next, to), loop, exit);
    ir.at(exit);
  }
}
