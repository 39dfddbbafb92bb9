package dev.jaxc.cli.fuzz;

import java.nio.file.Path;
import java.util.List;

/**
 * The fuzz benchmark: {@code FuzzMain SEED COUNT [--plan-only] [--root REPO]} prints the counts of
 * each outcome, the throughput and the slowest input, writes failing inputs to
 * {@code target/fuzz-failures/} and exits 1 if there were any. Run by {@code bench/fuzz/run.sh}.
 */
public final class FuzzMain {
  private FuzzMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: FuzzMain SEED COUNT [--plan-only] [--root REPO]");
      System.exit(2);
    }
    long seed = Long.parseLong(args[0]);
    long count = Long.parseLong(args[1]);
    boolean emitIr = true;
    Path root = Path.of("");
    for (int i = 2; i < args.length; i++) {
      if (args[i].equals("--plan-only")) emitIr = false;
      else if (args[i].equals("--root")) root = Path.of(args[++i]);
      else throw new IllegalArgumentException("unknown argument " + args[i]);
    }
    List<String> corpus = FuzzCorpus.load(root);
    Fuzzer f = new Fuzzer(2000, emitIr, root.resolve("target/fuzz-failures"));
    long every = Math.max(1, count / 20);
    Fuzzer.Report total = new Fuzzer.Report();
    long done = 0;
    while (done < count) {
      long n = Math.min(every, count - done);
      Fuzzer.Report part = f.run(seed + done, n, corpus);
      merge(total, part);
      done += n;
      System.err.printf("  %d/%d, %d failures so far%n", done, count, total.failures.size());
    }
    System.out.print(total.summary());
    for (Fuzzer.Failure x : total.failures) {
      System.out.println(x.outcome() + " " + x.savedAs() + ": " + x.detail().lines().findFirst().orElse(""));
    }
    System.exit(total.failures.isEmpty() ? 0 : 1);
  }

  private static void merge(Fuzzer.Report into, Fuzzer.Report part) {
    into.inputs += part.inputs;
    into.nanos += part.nanos;
    for (int i = 0; i < into.counts.length; i++) into.counts[i] += part.counts[i];
    into.failures.addAll(part.failures);
    into.maxAllocated = Math.max(into.maxAllocated, part.maxAllocated);
    if (part.slowestNanos > into.slowestNanos) {
      into.slowestNanos = part.slowestNanos;
      into.slowestName = part.slowestName;
      into.slowestInput = part.slowestInput;
    }
  }
}
