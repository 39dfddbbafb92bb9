package dev.jaxc.cli;

import dev.jaxc.backend.llvm.PhaseTimer;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --time-passes}: each phase's wall time, the Java heap in use after it, and the process's
 * resident memory after it (which includes LLVM's native memory; Linux only, else "-"), printed
 * to stderr as a table when the command ends. A phase that throws is still recorded.
 */
final class PassTimes implements PhaseTimer {
  private record Row(String phase, long nanos, long cpu, long heap, long rss) {}

  private final List<Row> rows = new ArrayList<>();
  private final long start = System.nanoTime();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  /** The compiling thread's CPU time at the last row (phases run on it, LLVM's included). */
  private long lastCpu = cpuNow();
  /** CPU time of other threads on the phase being timed. */
  private long otherCpu;

  @Override
  public void otherThreads(long nanos) {
    synchronized (rows) {
      otherCpu += nanos;
    }
  }

  @Override
  public void record(String phase, long nanos) {
    Runtime rt = Runtime.getRuntime();
    long heap = rt.totalMemory() - rt.freeMemory();
    long rss = rssBytes("VmRSS:");
    long cpu = cpuNow();
    synchronized (rows) {
      rows.add(new Row(phase, nanos, cpu < 0 ? -1 : cpu - lastCpu + otherCpu, heap, rss));
      lastCpu = cpu;
      otherCpu = 0;
    }
  }

  /** The table: one row per phase, then the total since this timer began and the peak RSS. */
  void print(PrintWriter err) {
    long total = System.nanoTime() - start;
    err.println("jaxc: --time-passes (wall ms, CPU ms since the row before: this thread's and LLVM's worker threads', Java heap in use after,"
        + " process RSS after)");
    long timed = 0;
    List<Row> all;
    synchronized (rows) {
      all = List.copyOf(rows);
    }
    for (Row r : all) {
      timed += r.nanos;
      err.println(String.format(Locale.ROOT, "  %-16s %9.1f ms %9s %8s %8s", r.phase, r.nanos / 1e6,
          r.cpu < 0 ? "-" : String.format(Locale.ROOT, "%.1f cpu", r.cpu / 1e6), mib(r.heap), mib(r.rss)));
    }
    err.println(String.format(Locale.ROOT, "  %-16s %9.1f ms", "other", (total - timed) / 1e6));
    err.println(String.format(Locale.ROOT, "  %-16s %9.1f ms %8s %8s peak RSS", "total (in JVM)", total / 1e6, "",
        mib(rssBytes("VmHWM:"))));
    err.flush();
  }

  private long cpuNow() {
    return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  /** A "kB" line of /proc/self/status, in bytes; -1 where there is none. */
  private static long rssBytes(String key) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(key)) return Long.parseLong(line.substring(key.length()).replace("kB", "").strip()) * 1024;
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
