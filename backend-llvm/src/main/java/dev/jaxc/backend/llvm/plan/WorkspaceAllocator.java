package dev.jaxc.backend.llvm.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Places temporaries in one workspace. Each has a live range [first, last] in schedule steps
 * (inclusive at both ends: a step may read a buffer while it writes another, so those must not
 * share memory). Buffers are placed in definition order at the lowest 64-byte aligned offset that
 * does not overlap any already-placed buffer whose live range intersects its own.
 */
final class WorkspaceAllocator {
  record Request(long bytes, int first, int last) {
    Request {
      if (bytes < 0 || first > last) throw new IllegalArgumentException(bytes + " " + first + ".." + last);
    }
  }

  private record Placed(long offset, long end, int first, int last) {}

  /**
   * Placed buffers that may still be live: one whose range ended before the latest request's
   * first step can overlap no later request (they come in order of first step), so it is dropped,
   * which keeps placing a model of thousands of steps linear rather than quadratic.
   */
  private final List<Placed> placed = new ArrayList<>();
  private long size;
  private int lastFirst = Integer.MIN_VALUE;

  /** The offset for {@code r}; requests must come in order of {@code first}. */
  long place(Request r) {
    if (r.first() < lastFirst) throw new IllegalArgumentException("requests out of order: " + r);
    if (r.first() > lastFirst) {
      lastFirst = r.first();
      placed.removeIf(p -> p.last < r.first());
    }
    long bytes = align(r.bytes());
    if (bytes == 0) return 0;
    List<Placed> live = new ArrayList<>();
    for (Placed p : placed) if (p.first <= r.last() && r.first() <= p.last) live.add(p);
    live.sort(Comparator.comparingLong(Placed::offset));
    long offset = 0;
    for (Placed p : live) {
      if (offset + bytes <= p.offset) break;
      offset = Math.max(offset, p.end);
    }
    placed.add(new Placed(offset, offset + bytes, r.first(), r.last()));
    size = Math.max(size, offset + bytes);
    return offset;
  }

  long size() {
    return size;
  }

  static long align(long bytes) {
    return Math.addExact(bytes, Plan.ALIGNMENT - 1) & -Plan.ALIGNMENT;
  }
}
