package dev.jaxc.cli;

/**
 * Exit statuses of the CLI contract (architecture.md), documented in docs/exit-codes.md: stable,
 * numbered by severity so that the worst of several is the largest.
 */
public final class ExitCode {
  /** Everything asked for was done (check: every case passed). */
  public static final int OK = 0;
  /**
   * The input or the environment is wrong: parse, type or unsupported-feature error, unreadable
   * input, unwritable output, no linker, a failed golden case.
   */
  public static final int BAD_INPUT = 1;
  /** The command line is wrong: unknown command or option, bad option value, missing argument. */
  public static final int USAGE = 2;
  /** A bug in jaxc (an unexpected exception; the message asks for a report). */
  public static final int INTERNAL = 3;

  private ExitCode() {}

  /** The worse of two statuses: the one a pipeline must act on first. */
  public static int worst(int a, int b) {
    return Math.max(a, b);
  }
}
