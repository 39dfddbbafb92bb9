package dev.jaxc.backend.llvm;

import java.util.function.Supplier;

/**
 * Times the compiler's phases for {@code --time-passes}. The backend reports its own phases
 * (plan, emit IR, verify, optimise, codegen) through the one its caller passes in; {@link #NONE}
 * records nothing.
 */
public interface PhaseTimer {
  PhaseTimer NONE = (phase, nanos) -> { };

  /** Records that {@code phase} took {@code nanos} of wall time (it has just ended). */
  void record(String phase, long nanos);

  /**
   * Adds {@code nanos} of CPU time that other threads spent on the phase being timed (LLVM's, on
   * partitions compiled in parallel) to the row recorded next.
   */
  default void otherThreads(long nanos) { }

  /** Runs {@code work} as the phase {@code phase} (recorded even if it throws) and returns its result. */
  default <T> T time(String phase, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      record(phase, System.nanoTime() - t0);
    }
  }

  default void run(String phase, Runnable work) {
    time(phase, () -> {
      work.run();
      return null;
    });
  }
}
