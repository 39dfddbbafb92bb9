package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Var;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jaxc compile --max-workspace BYTES}: the work memory one call of the compiled entry point
 * takes ({@code NAME_workspace_size()}, the planner's workspace) must not exceed a limit. Checked
 * on the plan before any code is generated, so an over-large model fails fast, naming the
 * buffers that make it large.
 */
final class WorkspaceLimit {
  /** How many of the largest buffers the error names. */
  static final int NAMED = 3;
  private static final Pattern SIZE = Pattern.compile("([0-9]+)([KMG]i?B?|B)?", Pattern.CASE_INSENSITIVE);

  private WorkspaceLimit() {}

  /** BYTES as given: a count of bytes, or with a K, M or G suffix (powers of 1024), e.g. 64M. */
  static long parse(String text) throws CompileTarget.BadOption {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) throw new CompileTarget.BadOption("--max-workspace: expected a byte count such as 1048576 or 64M, got '" + text + "'");
    String unit = m.group(2) == null ? "" : m.group(2).toUpperCase(java.util.Locale.ROOT);
    int shift = unit.startsWith("K") ? 10 : unit.startsWith("M") ? 20 : unit.startsWith("G") ? 30 : 0;
    try {
      long n = Long.parseLong(m.group(1));
      if (n > (Long.MAX_VALUE >> shift)) throw new NumberFormatException();
      return n << shift;
    } catch (NumberFormatException e) {
      throw new CompileTarget.BadOption("--max-workspace: '" + text + "' is too large");
    }
  }

  /** Empty when {@code lowered}'s workspace fits {@code max} bytes, else the one-line error. */
  static Optional<String> check(Program lowered, long max, String source) {
    Plan plan = Planner.plan(lowered.main(), CpuBackendRules.CPU);
    long need = plan.workspaceBytes();
    if (need <= max) return Optional.empty();
    return Optional.of(source + ": error: the model needs " + bytes(need) + " of work memory, more than --max-workspace "
        + bytes(max) + "; largest buffers: " + String.join(", ", largest(plan)));
  }

  /** The {@link #NAMED} largest workspace buffers, largest first: the value, its type and size, and its line. */
  static List<String> largest(Plan plan) {
    record Named(String text, long bytes) {}
    List<Named> all = new ArrayList<>();
    for (Var v : plan.temporaries()) {
      Buffer b = plan.buffer(v);
      if (!(b instanceof Buffer.Temp t)) continue;
      long n = HostRun.bytes(t.type());
      String at = v.span().isKnown() ? ", line " + v.span().line() : "";
      all.add(new Named(v.name() + ":" + t.type().text() + " (" + shortBytes(n) + at + ")", n));
    }
    if (all.isEmpty()) {
      // Only scratch and control-flow regions: name them by size.
      for (Buffer.Temp t : plan.workspaceBuffers()) {
        long n = HostRun.bytes(t.type());
        all.add(new Named("scratch " + t.type().text() + " (" + shortBytes(n) + ")", n));
      }
    }
    return all.stream().sorted(Comparator.comparingLong(Named::bytes).reversed()).limit(NAMED).map(Named::text).toList();
  }

  /** A byte count exactly, and in a binary unit from 1 KiB on: "67108864 bytes (64.0 MiB)". */
  static String bytes(long n) {
    String s = shortBytes(n);
    return s.endsWith(" bytes") ? s : n + " bytes (" + s + ")";
  }

  /** A byte count in a binary unit from 1 KiB on, e.g. "64.0 MiB". */
  static String shortBytes(long n) {
    String[] units = {"KiB", "MiB", "GiB"};
    for (int k = units.length - 1; k >= 0; k--) {
      long unit = 1L << (10 * (k + 1));
      if (n >= unit) return String.format(java.util.Locale.ROOT, "%.1f %s", (double) n / unit, units[k]);
    }
    return n + " bytes";
  }
}
