package dev.jaxc.cli.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 20,000 generated and mutated jaxprs (fixed seed) through parse, type pass, lowering passes,
 * planner and LLVM IR emission: each is accepted or rejected with a located diagnostic, within
 * 2 s of CPU time. Failing inputs are written to target/fuzz-failures/ (see bench/fuzz/run.sh for the
 * 1,000,000-input run). {@code -Djaxc.fuzz.count=N} changes the count.
 */
class FuzzTest {
  private static final long SEED = 20261126L;

  @Test
  void everyInputIsAcceptedOrRejectedWithALocatedError() {
    Path root = FuzzRoot.root();
    List<String> corpus = FuzzCorpus.load(root);
    long count = Long.getLong("jaxc.fuzz.count", 20_000L);
    Fuzzer fuzzer = new Fuzzer(2000, true, root.resolve("target/fuzz-failures"));
    Fuzzer.Report rep = fuzzer.run(SEED, count, corpus);
    System.out.print("FuzzTest: " + rep.summary());
    StringBuilder why = new StringBuilder();
    for (Fuzzer.Failure f : rep.failures.subList(0, Math.min(5, rep.failures.size()))) {
      why.append('\n').append(f.outcome()).append(' ').append(f.savedAs()).append(": ")
          .append(f.detail().lines().findFirst().orElse(""));
    }
    assertEquals(List.of(), rep.failures.stream().map(Fuzzer.Failure::name).toList(), why.toString());
    assertEquals(count, rep.inputs);
    // A generator that stopped producing valid programs would leave the backend unexercised.
    assertTrue(rep.count(Fuzzer.Outcome.ACCEPTED) > count / 10, rep.summary());
    assertTrue(rep.count(Fuzzer.Outcome.REJECTED) > count / 10, rep.summary());
  }
}
