package dev.jaxc.backend.ptx;

import java.util.ArrayList;
import java.util.List;

/**
 * What a PTX compile hands to the host library: the module text, its kernels ({@code launches}:
 * one entry per kernel, with its grid) and the program that runs them on one stream: kernel
 * launches, and control flow the host drives ({@link Node}). Every kernel takes the same
 * parameters, so the host side needs no per-kernel table: one pointer per input (constvars not
 * baked in, then invars), one per output, the workspace pointer (null when {@code workspaceBytes}
 * is 0), then an i64: the iteration of the host-driven loop the launch is in (0 outside loops).
 *
 * @param name the C ABI entry point's name
 * @param sm the PTX target, e.g. {@code sm_80}
 * @param ptx the module as PTX text
 * @param launches the kernels, each with its launch shape; {@link Node.Run} names them by index
 * @param program what a call runs, in order
 * @param workspaceBytes device work memory a call needs (kept across calls by the host library)
 * @param zeroedOffset where in the workspace the bytes start that must be zero when the host
 *     library allocates a work block (kernels' counters, which every launch leaves zero again)
 * @param zeroedBytes how many (0: none)
 * @param inputBytes size in bytes of each input buffer, in C ABI order
 * @param outputBytes size in bytes of each output buffer, in C ABI order
 */
public record DeviceProgram(
    String name, String sm, String ptx, List<Launch> launches, List<Node> program, long workspaceBytes,
    long zeroedOffset, long zeroedBytes, List<Long> inputBytes, List<Long> outputBytes) {
  public DeviceProgram {
    if (zeroedOffset < 0 || zeroedBytes < 0 || zeroedOffset + zeroedBytes > workspaceBytes)
      throw new IllegalArgumentException("zeroed bytes outside the workspace");
    launches = List.copyOf(launches);
    program = List.copyOf(program);
    inputBytes = List.copyOf(inputBytes);
    outputBytes = List.copyOf(outputBytes);
    for (Node n : program) n.check(launches.size());
  }

  /** A straight-line program: each launch once, in order, no zeroed bytes. */
  public DeviceProgram(String name, String sm, String ptx, List<Launch> launches, long workspaceBytes,
      List<Long> inputBytes, List<Long> outputBytes) {
    this(name, sm, ptx, launches, straight(launches.size()), workspaceBytes, 0, 0, inputBytes, outputBytes);
  }

  /** {@code Run(0) … Run(n-1)}. */
  public static List<Node> straight(int n) {
    List<Node> r = new ArrayList<>();
    for (int k = 0; k < n; k++) r.add(new Node.Run(k));
    return r;
  }

  /** One kernel launch: a 1-D grid of {@code gridX} blocks of {@code blockX} threads. */
  public record Launch(String kernel, int gridX, int blockX, int sharedBytes) {
    public Launch {
      if (gridX < 1 || blockX < 1 || blockX > 1024 || sharedBytes < 0)
        throw new IllegalArgumentException("launch " + kernel + ": grid " + gridX + ", block " + blockX);
    }
  }

  /**
   * One item of the program. Offsets are byte offsets into the workspace, where kernels leave
   * what the host reads back (one synchronising device-to-host copy per read). A launch's
   * iteration parameter is the innermost enclosing loop's counter (kernels of a nested loop find
   * an outer loop's counter in the workspace, where a kernel of the outer loop stored it).
   */
  public sealed interface Node {
    /** Launch kernel {@code launches().get(launch)}. */
    record Run(int launch) implements Node {}

    /**
     * {@code lax.while_loop}: for i = 0, 1, …: run {@code cond} (which stores the predicate, a
     * byte, at {@code predicate}), read it back, stop if it is 0, else run {@code body}. Carries
     * alternate between two buffers by i's parity; if the loop stops at an odd i, {@code oddExit}
     * copies them to the results.
     */
    record While(List<Node> cond, long predicate, List<Node> body, List<Node> oddExit) implements Node {
      public While {
        cond = List.copyOf(cond);
        body = List.copyOf(body);
        oddExit = List.copyOf(oddExit);
      }
    }

    /** {@code scan}/fori: {@code body} run {@code trips} times, i = 0 … trips-1. */
    record Repeat(long trips, List<Node> body) implements Node {
      public Repeat {
        if (trips < 0) throw new IllegalArgumentException("negative trip count");
        body = List.copyOf(body);
      }
    }

    /**
     * {@code cond}/switch: read back the i32 branch number at {@code index} (a kernel clamped it
     * to a branch already) and run that branch.
     */
    record Switch(long index, List<List<Node>> branches) implements Node {
      public Switch {
        branches = branches.stream().map(List::copyOf).toList();
        if (branches.isEmpty()) throw new IllegalArgumentException("a switch needs a branch");
      }
    }

    private void check(int kernels) {
      if (this instanceof Run r) {
        if (r.launch() < 0 || r.launch() >= kernels) throw new IllegalArgumentException("no kernel " + r.launch());
      } else if (this instanceof While w) {
        for (List<Node> l : List.of(w.cond(), w.body(), w.oddExit())) for (Node n : l) n.check(kernels);
      } else if (this instanceof Repeat p) {
        for (Node n : p.body()) n.check(kernels);
      } else if (this instanceof Switch s) {
        for (List<Node> b : s.branches()) for (Node n : b) n.check(kernels);
      } else {
        throw new AssertionError(this);
      }
    }
  }
}
