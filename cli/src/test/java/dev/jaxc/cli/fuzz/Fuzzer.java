package dev.jaxc.cli.fuzz;

import dev.jaxc.cli.FuzzPipeline;
import dev.jaxc.frontend.DiagnosticRenderer;
import dev.jaxc.frontend.Source;
import dev.jaxc.ir.diag.JaxcException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Feeds generated and mutated jaxprs through {@link FuzzPipeline} in this process and sorts the
 * outcomes: accepted, or rejected with a located {@code name:line:col: error: …} diagnostic. Any
 * other exception, an input over the time limit, a diagnostic without a location and running out
 * of memory (or allocating over 1 GiB for one input) are failures; each failing input is written
 * to a directory to reproduce it.
 */
public final class Fuzzer {
  /** What became of one input. */
  public enum Outcome { ACCEPTED, REJECTED, INTERNAL_ERROR, UNLOCATED, SLOW, OUT_OF_MEMORY }

  /** A failing input and why. */
  public record Failure(Outcome outcome, String name, String input, String detail, Path savedAs) {}

  /** The counts of a run. */
  public static final class Report {
    public final long[] counts = new long[Outcome.values().length];
    public final List<Failure> failures = new ArrayList<>();
    public long inputs;
    public long nanos;
    public long slowestNanos;
    /** The most bytes one input's pipeline allocated. */
    public long maxAllocated;
    public String slowestName = "";
    public String slowestInput = "";

    public long count(Outcome o) {
      return counts[o.ordinal()];
    }

    public String summary() {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format("%d inputs in %.1f s (%.0f inputs/s)%n", inputs, nanos / 1e9, inputs / (nanos / 1e9)));
      for (Outcome o : Outcome.values()) sb.append(String.format("  %-15s %d%n", o.name().toLowerCase(), count(o)));
      sb.append(String.format("slowest: %s, %.1f ms of CPU (%d chars)%n", slowestName, slowestNanos / 1e6,
          slowestInput.length()));
      sb.append(String.format("most memory allocated for one input: %.1f MiB%n", maxAllocated / 1048576.0));
      return sb.toString();
    }
  }

  /** How many times the limit, in wall time, an input may run before it is abandoned as a hang. */
  private static final int HANG_FACTOR = 15;

  private static final Pattern LOCATED = Pattern.compile("[^\\n]+:\\d+:\\d+: error: [^\\n]+");

  private final long limitNanos;
  private final boolean emitIr;
  private final Path failureDir;
  private ExecutorService worker = newWorker();

  /**
   * @param limitMillis an input that takes more CPU time fails (SLOW)
   * @param emitIr also emit and verify LLVM IR for accepted inputs
   * @param failureDir where failing inputs are written, or null
   */
  public Fuzzer(long limitMillis, boolean emitIr, Path failureDir) {
    this.limitNanos = limitMillis * 1_000_000L;
    this.emitIr = emitIr;
    this.failureDir = failureDir;
  }

  /**
   * {@code count} inputs from {@code seed}: a third generated, a sixth generated and then mutated,
   * half mutated from the corpus.
   */
  public Report run(long seed, long count, List<String> corpus) {
    Random r = new Random(seed);
    JaxprGenerator gen = new JaxprGenerator(r);
    JaxprMutator mut = new JaxprMutator(r, corpus);
    Report rep = new Report();
    warmUp(corpus);
    long t0 = System.nanoTime();
    for (long i = 0; i < count; i++) {
      int kind = (int) (i % 6);
      String text = kind < 2 ? gen.program() : kind == 2 ? mut.mutated(gen.program()) : mut.next();
      check(rep, (kind < 2 ? "gen-" : kind == 2 ? "genmut-" : "mut-") + seed + "-" + i + ".jaxpr", text);
    }
    rep.nanos = System.nanoTime() - t0;
    return rep;
  }

  /**
   * Runs the first corpus texts once, untimed: the first inputs of a fresh JVM take up to a
   * second (class loading, LLVM's initialisation), which is not the pipeline's speed.
   */
  public void warmUp(List<String> corpus) {
    for (int i = 0; i < Math.min(40, corpus.size()); i++) {
      try {
        FuzzPipeline.run("warm-up.jaxpr", corpus.get(i), emitIr);
      } catch (RuntimeException e) {
        // outcomes are checked when these texts come up as inputs
      }
    }
  }

  /** What the worker thread reports: the rejection (or null), the CPU time and the bytes allocated. */
  private record Result(JaxcException rejected, long cpuNanos, long allocated) {}

  /** An input whose pipeline allocates more than this (its memory is not bounded by its size) fails. */
  private static final long MAX_ALLOCATED = 1L << 30;

  /**
   * Runs one input and records its outcome in {@code rep}. The time limit is on the CPU time of
   * the thread that runs the pipeline, so that a loaded machine does not make inputs slow; an
   * input still running after {@link #HANG_FACTOR} times the limit in wall time is abandoned.
   */
  public Outcome check(Report rep, String name, String text) {
    long t0 = System.nanoTime();
    Future<Result> f = worker.submit(() -> {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long c0 = mx.getCurrentThreadCpuTime();
      long a0 = allocated();
      try {
        FuzzPipeline.run(name, text, emitIr);
        return new Result(null, mx.getCurrentThreadCpuTime() - c0, allocated() - a0);
      } catch (JaxcException e) {
        return new Result(e, mx.getCurrentThreadCpuTime() - c0, allocated() - a0);
      }
    });
    Outcome o;
    String detail = "";
    long dt = 0;
    long alloc = 0;
    try {
      Result res = f.get(HANG_FACTOR * limitNanos, TimeUnit.NANOSECONDS);
      dt = res.cpuNanos();
      alloc = res.allocated();
      rep.maxAllocated = Math.max(rep.maxAllocated, alloc);
      if (res.rejected() == null) {
        o = Outcome.ACCEPTED;
      } else {
        JaxcException e = res.rejected();
        String first = DiagnosticRenderer.render(Source.of(name, text), e.diagnostic()).lines().findFirst().orElse("");
        boolean located = e.span() != null && e.span().isKnown() && LOCATED.matcher(first).matches()
            && first.startsWith(name + ":");
        o = located ? Outcome.REJECTED : Outcome.UNLOCATED;
        detail = first;
      }
    } catch (TimeoutException e) {
      f.cancel(true);
      worker.shutdownNow();
      worker = newWorker(); // the stuck thread is abandoned (a daemon); the run goes on
      o = Outcome.SLOW;
      dt = System.nanoTime() - t0;
      detail = "still running after " + HANG_FACTOR * limitNanos / 1_000_000 + " ms";
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      o = c instanceof OutOfMemoryError ? Outcome.OUT_OF_MEMORY : Outcome.INTERNAL_ERROR;
      detail = stackTrace(c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    if (o == Outcome.ACCEPTED || o == Outcome.REJECTED) {
      if (dt > limitNanos) {
        o = Outcome.SLOW;
        detail = String.format("took %.0f ms of CPU", dt / 1e6);
      } else if (alloc > MAX_ALLOCATED) {
        o = Outcome.OUT_OF_MEMORY;
        detail = "allocated more than " + (MAX_ALLOCATED >> 20) + " MiB";
      }
    }
    rep.inputs++;
    rep.counts[o.ordinal()]++;
    if (dt > rep.slowestNanos) {
      rep.slowestNanos = dt;
      rep.slowestName = name;
      rep.slowestInput = text;
    }
    if (o != Outcome.ACCEPTED && o != Outcome.REJECTED) rep.failures.add(new Failure(o, name, text, detail, save(name, text, detail)));
    return o;
  }

  private Path save(String name, String text, String detail) {
    if (failureDir == null) return null;
    try {
      Files.createDirectories(failureDir);
      Path p = failureDir.resolve(name);
      Files.writeString(p, text, StandardCharsets.UTF_8);
      Files.writeString(failureDir.resolve(name + ".txt"), detail, StandardCharsets.UTF_8);
      return p;
    } catch (IOException e) {
      return null;
    }
  }

  /** Bytes this thread has allocated so far (HotSpot's count), or 0 where it is not available. */
  private static long allocated() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx) {
      return mx.getCurrentThreadAllocatedBytes();
    }
    return 0;
  }

  private static String stackTrace(Throwable t) {
    StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    String s = sw.toString();
    return s.length() > 4000 ? s.substring(0, 4000) : s;
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      // The JVM's default stack size, as the CLI's main thread has: deep nesting must be
      // rejected by the parser's limits, not survive on a larger stack here.
      Thread t = new Thread(null, r, "fuzz-worker", 0);
      t.setDaemon(true);
      return t;
    });
  }
}
