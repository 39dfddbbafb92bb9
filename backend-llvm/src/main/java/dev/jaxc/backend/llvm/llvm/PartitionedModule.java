package dev.jaxc.backend.llvm.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;

/**
 * The partitions of a {@link ModulePartitions}, each optimised in its own LLVM context with its own
 * target machine, so that optimisation and code generation run on as many threads as there are
 * cores (at most one per partition). Objects come back in partition order: the same bytes
 * whatever the number of threads.
 */
public final class PartitionedModule implements AutoCloseable {
  private record Part(LLVMContextRef ctx, LLVMModuleRef module, TargetMachine tm) {}

  private final List<Part> parts;
  /** CPU time that threads other than the caller's spent in the last call (for --time-passes). */
  private static final ThreadLocal<long[]> OTHER_CPU = ThreadLocal.withInitial(() -> new long[1]);

  private PartitionedModule(List<Part> parts) {
    this.parts = parts;
  }

  /** Builds and optimises every partition (without loop unrolling, as the whole module would be). */
  public static PartitionedModule optimise(ModulePartitions split, TargetSpec spec) {
    Llvm.init();
    List<Part> parts = onThreads(split.count(), p -> {
      LLVMContextRef ctx = LLVMContextCreate();
      TargetMachine tm = null;
      LLVMModuleRef m = null;
      try {
        m = split.build(p, ctx);
        tm = new TargetMachine(spec);
        tm.optimize(m, false);
        return new Part(ctx, m, tm);
      } catch (RuntimeException | Error e) {
        if (tm != null) tm.close();
        if (m != null) LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        throw e;
      }
    }, PartitionedModule::dispose);
    return new PartitionedModule(parts);
  }

  /** One object per partition, in order. */
  public List<byte[]> objects() {
    return onThreads(parts.size(), p -> parts.get(p).tm().emit(parts.get(p).module(), false), o -> { });
  }

  /**
   * Runs {@code work} for 0..n-1 on min(n, cores) threads and returns the results in order; on a
   * failure, {@code undo} gets every result that was made and the first failure is thrown.
   */
  private static <T> List<T> onThreads(int n, IntFunction<T> work, java.util.function.Consumer<T> undo) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    AtomicLong cpu = new AtomicLong();
    IntFunction<T> timed = k -> {
      long t0 = mx.getCurrentThreadCpuTime();
      try {
        return work.apply(k);
      } finally {
        cpu.addAndGet(mx.getCurrentThreadCpuTime() - t0);
      }
    };
    OTHER_CPU.get()[0] = 0;
    try {
      return onThreads(n, timed, undo, mx);
    } finally {
      OTHER_CPU.get()[0] = cpu.get();
    }
  }

  /**
   * The CPU time that the worker threads of this thread's last {@link #optimise} or
   * {@link #objects} call spent.
   */
  public static long workerCpuNanos() {
    return OTHER_CPU.get()[0];
  }

  private static <T> List<T> onThreads(int n, IntFunction<T> work, java.util.function.Consumer<T> undo, ThreadMXBean mx) {
    int threads = Math.max(1, Math.min(n, Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "jaxc-llvm");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int p = 0; p < n; p++) {
        int k = p;
        futures.add(pool.submit(() -> work.apply(k)));
      }
      List<T> out = new ArrayList<>();
      Throwable failure = null;
      for (Future<T> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          if (failure == null) failure = e.getCause();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          if (failure == null) failure = new LlvmException("interrupted while compiling");
        }
      }
      if (failure != null) {
        out.forEach(undo);
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error err) throw err;
        throw new LlvmException("compiling a partition failed: " + failure);
      }
      return out;
    } finally {
      pool.shutdown();
    }
  }

  private static void dispose(Part p) {
    p.tm().close();
    LLVMDisposeModule(p.module());
    LLVMContextDispose(p.ctx());
  }

  @Override
  public void close() {
    parts.forEach(PartitionedModule::dispose);
  }
}
