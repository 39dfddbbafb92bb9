package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.Destructors;
import dev.jaxc.backend.llvm.abi.FloatMode;
import dev.jaxc.backend.llvm.abi.Libc;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.function.Function;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The thread runtime: a persistent pool, emitted as internal functions and globals into the
 * modules that have a parallel region (so cross-compiling needs no C toolchain, and other modules
 * import nothing for it). One pool per module (per shared library):
 *
 * <pre>
 * void jaxc_parallel_for(void (*body)(void *ctx, i64 begin, i64 end), void *ctx, i64 n, i64 grain, i64 useful);
 * i64  jaxc_num_threads(void);     // JAXC_NUM_THREADS if a positive integer, else the online CPUs; ≤ 64
 * void jaxc_run_chunks(i64 epoch); // claims chunks of region `epoch` until none is left
 * void *jaxc_pool_worker(void *epoch);
 * void jaxc_pool_stop(void);       // a destructor: wakes, stops and joins the workers
 * </pre>
 *
 * <p>{@code jaxc_parallel_for} first claims the pool (a lock word, compare-and-swap); a caller
 * that finds it held by another call of the entry point runs its region inline on its own thread
 * (results do not depend on the thread count, and that caller never waits for another call's
 * work; with several callers the cores are busy anyway). The pool owner decides t = min(threads,
 * useful, ⌈n / grain⌉), where threads is read once per process ({@code jaxc_num_threads}, or
 * {@code NAME_set_num_threads}); t = 1 calls the body on [0, n). On its first split region it
 * starts t − 1 workers ({@code pthread_create}; one that cannot start is not retried, and with
 * none the region runs inline), more later if the count is raised. It then publishes the region
 * (body, context, chunking: min(⌈n / grain⌉, 4t) chunks of whole grains) under a new epoch in
 * one 64-bit word {@code epoch << 32 | next chunk}, wakes parked workers, claims chunks itself,
 * and waits until every chunk is done. Chunks are claimed with a compare-and-swap on that word,
 * so a worker that wakes late can never claim a chunk of a finished or later region. Every
 * started worker joins every region (the chunk count bounds the parallelism).
 *
 * <p>Workers set the float mode ({@link FloatMode}) once, then wait for a new epoch: they spin
 * {@link #SPIN} pauses (a region following soon is picked up in well under a microsecond), then
 * park on a futex ({@code syscall(SYS_futex)}, private wait/wake); the owner makes the wake system
 * call only when some worker is parked. The pool's threads live until the library is unloaded
 * ({@code jaxc_pool_stop} in {@code llvm.global_dtors}; in-process when the JIT is closed).
 */
final class ThreadRuntime {
  private static final String ENV = "JAXC_NUM_THREADS";
  /** Values of JAXC_NUM_THREADS above this are read as this (no overflow while parsing). */
  private static final long ENV_CAP = 1 << 20;
  /** Chunks per thread: small enough to even out late threads, big enough to be worth claiming. */
  private static final int CHUNKS_PER_THREAD = 4;
  /** Pause instructions a worker spins before parking (tens of µs). */
  private static final int SPIN = 1 << 12;
  private static final int FUTEX_WAIT_PRIVATE = 128;
  private static final int FUTEX_WAKE_PRIVATE = 129;

  private final Ir ir;
  private final Threading threading;
  private final TargetSpec.Arch arch;
  /** { body, ctx, n, grain, units, chunks }: the published region. */
  private final LLVMTypeRef regionType;
  private LLVMValueRef region;
  private LLVMValueRef word;
  private LLVMValueRef seq;
  private LLVMValueRef sleepers;
  private LLVMValueRef done;
  private LLVMValueRef busy;
  private LLVMValueRef threads;
  private LLVMValueRef workers;
  private LLVMValueRef tried;
  private LLVMValueRef stop;
  private LLVMValueRef handles;

  ThreadRuntime(Ir ir, Threading threading, TargetSpec.Arch arch) {
    this.ir = ir;
    this.threading = threading;
    this.arch = arch;
    this.regionType = LLVMStructTypeInContext(ir.ctx,
        new PointerPointer<>(ir.ptr, ir.ptr, ir.i64, ir.i64, ir.i64, ir.i64), 6, 0);
  }

  /** Whether the module has the runtime (some region was split). */
  boolean emitted() {
    return region != null;
  }

  /** {@code void (ptr ctx, i64 begin, i64 end)}: a parallel region's outlined body. */
  LLVMTypeRef bodyType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.i64, ir.i64);
  }

  LLVMTypeRef parallelForType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.ptr, ir.i64, ir.i64, ir.i64);
  }

  /** The module's {@code jaxc_parallel_for}, emitted (with what it calls) the first time. */
  LLVMValueRef parallelFor() {
    if (region == null) globals();
    return ir.outlined("jaxc_parallel_for", parallelForType(), this::emitParallelFor);
  }

  private void globals() {
    region = global("jaxc.pool.region", regionType, LLVMConstNull(regionType), 64);
    word = global("jaxc.pool.word", ir.i64, ir.i64(0), 64);
    seq = global("jaxc.pool.seq", ir.i32, ir.i32(0), 64);
    sleepers = global("jaxc.pool.sleepers", ir.i32, ir.i32(0), 64);
    done = global("jaxc.pool.done", ir.i64, ir.i64(0), 64);
    busy = global("jaxc.pool.busy", ir.i32, ir.i32(0), 64);
    threads = global("jaxc.pool.threads", ir.i64, ir.i64(0), 8);
    workers = global("jaxc.pool.workers", ir.i64, ir.i64(0), 8);
    tried = global("jaxc.pool.tried", ir.i64, ir.i64(0), 8);
    stop = global("jaxc.pool.stop", ir.i32, ir.i32(0), 4);
    LLVMTypeRef ht = LLVMArrayType2(ir.i64, Threading.MAX_THREADS);
    handles = global("jaxc.pool.handles", ht, LLVMConstNull(ht), 8);
    Destructors.add(ir, stopFunction());
  }

  private LLVMValueRef global(String name, LLVMTypeRef t, LLVMValueRef init, int align) {
    LLVMValueRef g = LLVMAddGlobal(ir.module, t, name);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, init);
    LLVMSetAlignment(g, align);  // own cache lines for the contended words
    return g;
  }

  private void emitParallelFor(LLVMValueRef fn) {
    LLVMValueRef body = LLVMGetParam(fn, 0);
    LLVMValueRef ctx = LLVMGetParam(fn, 1);
    LLVMValueRef n = LLVMGetParam(fn, 2);
    LLVMValueRef grain = LLVMGetParam(fn, 3);
    LLVMValueRef useful = LLVMGetParam(fn, 4);
    LLVMValueRef units = ir.udiv(ir.sub(ir.add(n, grain), ir.i64(1)), grain);

    LLVMBasicBlockRef inline = ir.block("inline");
    LLVMBasicBlockRef owned = ir.block("owned");
    LLVMValueRef claimed = cmpxchg(busy, ir.i32(0), ir.i32(1));
    ir.condBr(claimed, owned, inline);
    ir.at(inline);
    ir.call(bodyType(), body, ctx, ir.i64(0), n);
    LLVMBuildRetVoid(ir.b);

    ir.at(owned);
    LLVMValueRef known = atomicLoad(ir.i64, threads, LLVMAtomicOrderingMonotonic);
    LLVMBasicBlockRef ask = ir.block("ask");
    LLVMBasicBlockRef decide = ir.block("decide");
    ir.condBr(ir.icmp(LLVMIntEQ, known, ir.i64(0)), ask, decide);
    ir.at(ask);
    LLVMValueRef fresh = ir.call(ir.fnType(ir.i64), numThreads());  // once per process: sysconf costs ~8 µs
    atomicStore(fresh, threads, LLVMAtomicOrderingMonotonic);
    ir.br(decide);
    ir.at(decide);
    LLVMValueRef asked = ir.phi(ir.i64);
    ir.incoming(asked, known, owned);
    ir.incoming(asked, fresh, ask);
    LLVMValueRef t = umin(umin(asked, useful), units);
    LLVMBasicBlockRef serial = ir.block("serial");
    LLVMBasicBlockRef grow = ir.block("grow");
    LLVMBasicBlockRef ready = ir.block("ready");
    LLVMValueRef want = ir.sub(t, ir.i64(1));
    ir.condBr(ir.icmp(LLVMIntULE, t, ir.i64(1)), serial, grow);

    ir.at(serial);
    atomicStore(ir.i32(0), busy, LLVMAtomicOrderingRelease);
    ir.call(bodyType(), body, ctx, ir.i64(0), n);
    LLVMBuildRetVoid(ir.b);

    // Start workers up to t - 1 (once per count: a failed start is not retried for it).
    ir.at(grow);
    LLVMValueRef triedBefore = ir.load(ir.i64, tried, 8);
    LLVMBasicBlockRef start = ir.block("start");
    ir.condBr(ir.icmp(LLVMIntUGT, want, triedBefore), start, ready);
    ir.at(start);
    ir.store(want, tried, 8);
    LLVMValueRef epochNow = ir.lshr(atomicLoad(ir.i64, word, LLVMAtomicOrderingMonotonic), ir.i64(32));
    LLVMBasicBlockRef head = ir.block("start.head");
    LLVMBasicBlockRef create = ir.block("start.create");
    LLVMBasicBlockRef created = ir.block("start.ok");
    LLVMValueRef started = ir.load(ir.i64, workers, 8);
    LLVMBasicBlockRef pre = ir.currentBlock();
    ir.br(head);
    ir.at(head);
    LLVMValueRef w = ir.phi(ir.i64);
    ir.incoming(w, started, pre);
    ir.condBr(ir.icmp(LLVMIntULT, w, want), create, ready);
    ir.at(create);
    LLVMValueRef rc = Libc.pthreadCreate(ir, ir.gep(ir.i64, handles, w), LLVMConstPointerNull(ir.ptr), worker(),
        LLVMBuildIntToPtr(ir.b, epochNow, ir.ptr, ""));
    ir.condBr(ir.icmp(LLVMIntEQ, rc, ir.i32(0)), created, ready);
    ir.at(created);
    LLVMValueRef w1 = ir.add(w, ir.i64(1));
    ir.store(w1, workers, 8);
    ir.incoming(w, w1, created);
    ir.br(head);

    ir.at(ready);
    LLVMValueRef have = ir.load(ir.i64, workers, 8);
    LLVMBasicBlockRef publish = ir.block("publish");
    ir.condBr(ir.icmp(LLVMIntEQ, have, ir.i64(0)), serial, publish);

    ir.at(publish);
    LLVMValueRef chunks = umin(units, ir.mul(t, ir.i64(CHUNKS_PER_THREAD)));
    LLVMValueRef[] fields = {body, ctx, n, grain, units, chunks};
    for (int k = 0; k < fields.length; k++) atomicStore(fields[k], field(k), LLVMAtomicOrderingMonotonic);
    atomicStore(ir.i64(0), done, LLVMAtomicOrderingMonotonic);
    LLVMValueRef epoch = ir.add(ir.lshr(atomicLoad(ir.i64, word, LLVMAtomicOrderingMonotonic), ir.i64(32)), ir.i64(1));
    atomicStore(ir.shl(epoch, ir.i64(32)), word, LLVMAtomicOrderingRelease);
    rmw(LLVMAtomicRMWBinOpAdd, seq, ir.i32(1), LLVMAtomicOrderingSequentiallyConsistent);
    LLVMBasicBlockRef wake = ir.block("wake");
    LLVMBasicBlockRef run = ir.block("run");
    LLVMValueRef parked = atomicLoad(ir.i32, sleepers, LLVMAtomicOrderingSequentiallyConsistent);
    ir.condBr(ir.icmp(LLVMIntNE, parked, ir.i32(0)), wake, run);
    ir.at(wake);
    futex(seq, FUTEX_WAKE_PRIVATE, ir.i32(Integer.MAX_VALUE));
    ir.br(run);
    ir.at(run);
    ir.call(ir.fnType(ir.voidType, ir.i64), runChunks(), epoch);
    // Wait for the chunks workers still run.
    LLVMBasicBlockRef waitHead = ir.block("wait");
    LLVMBasicBlockRef waitBody = ir.block("wait.pause");
    LLVMBasicBlockRef finished = ir.block("finished");
    LLVMBasicBlockRef before = ir.currentBlock();
    ir.br(waitHead);
    ir.at(waitHead);
    LLVMValueRef spins = ir.phi(ir.i64);
    ir.incoming(spins, ir.i64(0), before);
    LLVMValueRef all = ir.icmp(LLVMIntUGE, atomicLoad(ir.i64, done, LLVMAtomicOrderingAcquire), chunks);
    ir.condBr(all, finished, waitBody);
    ir.at(waitBody);
    pauseOrYield(spins);
    ir.incoming(spins, ir.add(spins, ir.i64(1)), ir.currentBlock());
    ir.br(waitHead);
    ir.at(finished);
    atomicStore(ir.i32(0), busy, LLVMAtomicOrderingRelease);
    LLVMBuildRetVoid(ir.b);
  }

  /**
   * {@code void jaxc_run_chunks(i64 epoch)}: chunk c of C covers units [c·q + min(c, m), (c+1)·q +
   * min(c+1, m)) with q = units / C, m = units % C, scaled by grain and cut at n. A chunk is
   * claimed by a compare-and-swap of (epoch, c) to (epoch, c + 1); the region's fields read
   * before it are the epoch's whenever it succeeds (the owner rewrites them only after all the
   * epoch's chunks are claimed and done).
   */
  private LLVMValueRef runChunks() {
    return ir.outlined("jaxc_run_chunks", ir.fnType(ir.voidType, ir.i64), fn -> {
      LLVMValueRef epoch = LLVMGetParam(fn, 0);
      LLVMBasicBlockRef claim = ir.block("claim");
      LLVMBasicBlockRef look = ir.block("look");
      LLVMBasicBlockRef take = ir.block("take");
      LLVMBasicBlockRef run = ir.block("run");
      LLVMBasicBlockRef out = ir.block("out");
      ir.br(claim);
      ir.at(claim);
      LLVMValueRef w = atomicLoad(ir.i64, word, LLVMAtomicOrderingAcquire);
      ir.condBr(ir.icmp(LLVMIntEQ, ir.lshr(w, ir.i64(32)), epoch), look, out);
      ir.at(look);
      LLVMValueRef body = atomicLoad(ir.ptr, field(0), LLVMAtomicOrderingMonotonic);
      LLVMValueRef ctx = atomicLoad(ir.ptr, field(1), LLVMAtomicOrderingMonotonic);
      LLVMValueRef n = atomicLoad(ir.i64, field(2), LLVMAtomicOrderingMonotonic);
      LLVMValueRef grain = atomicLoad(ir.i64, field(3), LLVMAtomicOrderingMonotonic);
      LLVMValueRef units = atomicLoad(ir.i64, field(4), LLVMAtomicOrderingMonotonic);
      LLVMValueRef chunks = atomicLoad(ir.i64, field(5), LLVMAtomicOrderingMonotonic);
      LLVMValueRef c = ir.and(w, ir.i64(0xFFFFFFFFL));
      ir.condBr(ir.icmp(LLVMIntULT, c, chunks), take, out);
      ir.at(take);
      ir.condBr(cmpxchg(word, w, ir.add(w, ir.i64(1))), run, claim);
      ir.at(run);
      LLVMValueRef safeChunks = ir.select(ir.icmp(LLVMIntEQ, chunks, ir.i64(0)), ir.i64(1), chunks);
      LLVMValueRef q = ir.udiv(units, safeChunks);
      LLVMValueRef m = ir.urem(units, safeChunks);
      Function<LLVMValueRef, LLVMValueRef> bound =
          k -> umin(ir.mul(ir.add(ir.mul(k, q), umin(k, m)), grain), n);
      ir.call(bodyType(), body, ctx, bound.apply(c), bound.apply(ir.add(c, ir.i64(1))));
      rmw(LLVMAtomicRMWBinOpAdd, done, ir.i64(1), LLVMAtomicOrderingRelease);
      ir.br(claim);
      ir.at(out);
      LLVMBuildRetVoid(ir.b);
    });
  }

  /**
   * {@code void *jaxc_pool_worker(void *epoch)}: sets the float mode, then forever: wait for an
   * epoch other than the last one seen (spin, then park), run its chunks; exit when stopped.
   */
  private LLVMValueRef worker() {
    return ir.outlined("jaxc_pool_worker", ir.fnType(ir.ptr, ir.ptr), fn -> {
      if (ir.numerics().flushesInHardware()) FloatMode.set(ir, arch);
      LLVMValueRef first = LLVMBuildPtrToInt(ir.b, LLVMGetParam(fn, 0), ir.i64, "");
      LLVMBasicBlockRef entry = ir.currentBlock();
      LLVMBasicBlockRef waitTop = ir.block("wait");
      LLVMBasicBlockRef spin = ir.block("spin");
      LLVMBasicBlockRef check = ir.block("check");
      LLVMBasicBlockRef pause = ir.block("pause");
      LLVMBasicBlockRef park = ir.block("park");
      LLVMBasicBlockRef sleep = ir.block("sleep");
      LLVMBasicBlockRef woke = ir.block("woke");
      LLVMBasicBlockRef work = ir.block("work");
      LLVMBasicBlockRef exit = ir.block("exit");
      ir.br(waitTop);
      ir.at(waitTop);
      LLVMValueRef last = ir.phi(ir.i64);
      ir.incoming(last, first, entry);
      ir.br(spin);
      ir.at(spin);
      LLVMValueRef k = ir.phi(ir.i64);
      ir.incoming(k, ir.i64(0), waitTop);
      ir.condBr(ir.icmp(LLVMIntNE, atomicLoad(ir.i32, stop, LLVMAtomicOrderingAcquire), ir.i32(0)), exit, check);
      ir.at(check);
      LLVMValueRef e = ir.lshr(atomicLoad(ir.i64, word, LLVMAtomicOrderingAcquire), ir.i64(32));
      LLVMBasicBlockRef notNew = ir.block("same");
      ir.condBr(ir.icmp(LLVMIntNE, e, last), work, notNew);
      ir.at(notNew);
      ir.condBr(ir.icmp(LLVMIntULT, k, ir.i64(SPIN)), pause, park);
      ir.at(pause);
      pause();
      ir.incoming(k, ir.add(k, ir.i64(1)), pause);
      ir.br(spin);
      // Park: count ourselves, then sleep only if neither epoch nor seq moved meanwhile.
      ir.at(park);
      rmw(LLVMAtomicRMWBinOpAdd, sleepers, ir.i32(1), LLVMAtomicOrderingSequentiallyConsistent);
      LLVMValueRef s = atomicLoad(ir.i32, seq, LLVMAtomicOrderingSequentiallyConsistent);
      LLVMValueRef e2 = ir.lshr(atomicLoad(ir.i64, word, LLVMAtomicOrderingAcquire), ir.i64(32));
      LLVMValueRef stopped = ir.icmp(LLVMIntNE, atomicLoad(ir.i32, stop, LLVMAtomicOrderingAcquire), ir.i32(0));
      ir.condBr(ir.or(stopped, ir.icmp(LLVMIntNE, e2, last)), woke, sleep);
      ir.at(sleep);
      futex(seq, FUTEX_WAIT_PRIVATE, s);
      ir.br(woke);
      ir.at(woke);
      rmw(LLVMAtomicRMWBinOpSub, sleepers, ir.i32(1), LLVMAtomicOrderingSequentiallyConsistent);
      ir.incoming(k, ir.i64(0), woke);
      ir.br(spin);
      ir.at(work);
      ir.call(ir.fnType(ir.voidType, ir.i64), runChunks(), e);
      ir.incoming(last, e, work);
      ir.br(waitTop);
      ir.at(exit);
      ir.ret(LLVMConstPointerNull(ir.ptr));
    });
  }

  /**
   * {@code void jaxc_pool_stop(void)}: waits until no call owns the pool, tells the workers to
   * exit, wakes and joins them; a later region starts a new pool.
   */
  private LLVMValueRef stopFunction() {
    return ir.outlined("jaxc_pool_stop", ir.fnType(ir.voidType), fn -> {
      LLVMBasicBlockRef lock = ir.block("lock");
      LLVMBasicBlockRef locked = ir.block("locked");
      LLVMBasicBlockRef entry = ir.currentBlock();
      ir.br(lock);
      ir.at(lock);
      LLVMValueRef spins = ir.phi(ir.i64);
      ir.incoming(spins, ir.i64(0), entry);
      LLVMBasicBlockRef again = ir.block("lock.pause");
      ir.condBr(cmpxchg(busy, ir.i32(0), ir.i32(1)), locked, again);
      ir.at(again);
      pauseOrYield(spins);
      ir.incoming(spins, ir.add(spins, ir.i64(1)), ir.currentBlock());
      ir.br(lock);
      ir.at(locked);
      atomicStore(ir.i32(1), stop, LLVMAtomicOrderingSequentiallyConsistent);
      rmw(LLVMAtomicRMWBinOpAdd, seq, ir.i32(1), LLVMAtomicOrderingSequentiallyConsistent);
      futex(seq, FUTEX_WAKE_PRIVATE, ir.i32(Integer.MAX_VALUE));
      LLVMValueRef count = ir.load(ir.i64, workers, 8);
      LLVMBasicBlockRef head = ir.block("join");
      LLVMBasicBlockRef joinOne = ir.block("join.one");
      LLVMBasicBlockRef joined = ir.block("joined");
      LLVMBasicBlockRef pre = ir.currentBlock();
      ir.br(head);
      ir.at(head);
      LLVMValueRef i = ir.phi(ir.i64);
      ir.incoming(i, ir.i64(0), pre);
      ir.condBr(ir.icmp(LLVMIntULT, i, count), joinOne, joined);
      ir.at(joinOne);
      Libc.pthreadJoin(ir, ir.load(ir.i64, ir.gep(ir.i64, handles, i), 8), LLVMConstPointerNull(ir.ptr));
      ir.incoming(i, ir.add(i, ir.i64(1)), joinOne);
      ir.br(head);
      ir.at(joined);
      ir.store(ir.i64(0), workers, 8);
      ir.store(ir.i64(0), tried, 8);
      atomicStore(ir.i32(0), stop, LLVMAtomicOrderingSequentiallyConsistent);
      atomicStore(ir.i32(0), busy, LLVMAtomicOrderingRelease);
      LLVMBuildRetVoid(ir.b);
    });
  }

  /**
   * {@code int32_t NAME_set_num_threads(int32_t n)}: n ≥ 1 sets the thread count of later
   * regions (at most 64), n ≤ 0 goes back to the default (JAXC_NUM_THREADS or the online CPUs, or
   * the count compiled in); returns the count now in effect. Without a split region: 1.
   */
  void emitSetter(String name) {
    LLVMValueRef fn = LLVMAddFunction(ir.module, name + "_set_num_threads", ir.fnType(ir.i32, ir.i32));
    ir.addFunctionAttribute(fn, "nounwind");
    ir.beginFunction(fn);
    if (region == null) {
      ir.ret(ir.i32(1));
      return;
    }
    LLVMValueRef n = LLVMBuildSExt(ir.b, LLVMGetParam(fn, 0), ir.i64, "");
    LLVMBasicBlockRef given = ir.block("given");
    LLVMBasicBlockRef dflt = ir.block("default");
    ir.condBr(ir.icmp(LLVMIntSGT, n, ir.i64(0)), given, dflt);
    ir.at(given);
    LLVMValueRef v = umin(n, ir.i64(Threading.MAX_THREADS));
    atomicStore(v, threads, LLVMAtomicOrderingMonotonic);
    ir.ret(ir.trunc(v, ir.i32));
    ir.at(dflt);
    LLVMValueRef d = ir.call(ir.fnType(ir.i64), numThreads());
    atomicStore(d, threads, LLVMAtomicOrderingMonotonic);
    ir.ret(ir.trunc(d, ir.i32));
  }

  /** {@code i64 jaxc_num_threads(void)}: the baked count, or JAXC_NUM_THREADS, or the online CPUs. */
  private LLVMValueRef numThreads() {
    return ir.outlined("jaxc_num_threads", ir.fnType(ir.i64), fn -> {
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

  /** {@code syscall(SYS_futex, addr, op, val, NULL)}; Linux's numbers for the target. */
  private void futex(LLVMValueRef addr, int op, LLVMValueRef val) {
    long sys = switch (arch) {
      case X86_64 -> 202;
      case AARCH64 -> 98;
      case NVPTX -> throw new IllegalArgumentException("no futex on " + arch);
    };
    Libc.syscall(ir, ir.i64(sys), addr, ir.i32(op), val, LLVMConstPointerNull(ir.ptr));
  }

  /** A spin-wait step: a pause, and every 1024th time the rest of the time slice given up. */
  private void pauseOrYield(LLVMValueRef spins) {
    LLVMBasicBlockRef yield = ir.block("yield");
    LLVMBasicBlockRef next = ir.block("yield.done");
    pause();
    ir.condBr(ir.icmp(LLVMIntEQ, ir.and(spins, ir.i64(1023)), ir.i64(1023)), yield, next);
    ir.at(yield);
    long sys = switch (arch) {
      case X86_64 -> 24;
      case AARCH64 -> 124;
      case NVPTX -> throw new IllegalArgumentException("no sched_yield on " + arch);
    };
    Libc.syscall(ir, ir.i64(sys));
    ir.br(next);
    ir.at(next);
  }

  private void pause() {
    switch (arch) {
      case X86_64 -> ir.intrinsic("llvm.x86.sse2.pause", new LLVMTypeRef[0]);
      case AARCH64 -> ir.intrinsic("llvm.aarch64.hint", new LLVMTypeRef[0], ir.i32(1));  // yield
      case NVPTX -> throw new IllegalArgumentException("no pause on " + arch);
    }
  }

  private LLVMValueRef field(int k) {
    return LLVMBuildStructGEP2(ir.b, regionType, region, k, "");
  }

  private LLVMValueRef atomicLoad(LLVMTypeRef t, LLVMValueRef p, int ordering) {
    LLVMValueRef v = LLVMBuildLoad2(ir.b, t, p, "");
    LLVMSetAlignment(v, 8);
    LLVMSetOrdering(v, ordering);
    if (t.equals(ir.i32)) LLVMSetAlignment(v, 4);
    return v;
  }

  private void atomicStore(LLVMValueRef v, LLVMValueRef p, int ordering) {
    LLVMValueRef s = LLVMBuildStore(ir.b, v, p);
    LLVMSetAlignment(s, ir.typeOf(v).equals(ir.i32) ? 4 : 8);
    LLVMSetOrdering(s, ordering);
  }

  private LLVMValueRef rmw(int op, LLVMValueRef p, LLVMValueRef v, int ordering) {
    return LLVMBuildAtomicRMW(ir.b, op, p, v, ordering, 0);
  }

  /** Compare-and-swap (acquire-release); true if it swapped. */
  private LLVMValueRef cmpxchg(LLVMValueRef p, LLVMValueRef expected, LLVMValueRef replacement) {
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(ir.b, p, expected, replacement,
        LLVMAtomicOrderingAcquireRelease, LLVMAtomicOrderingAcquire, 0);
    return LLVMBuildExtractValue(ir.b, pair, 1, "");
  }

  private LLVMValueRef umin(LLVMValueRef x, LLVMValueRef y) {
    return ir.select(ir.icmp(LLVMIntULT, x, y), x, y);
  }
}
