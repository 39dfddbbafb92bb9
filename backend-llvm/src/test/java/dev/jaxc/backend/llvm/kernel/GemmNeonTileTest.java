package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NEON's f32 tile is 13 × 8 ({@link GemmBlocking#NEON_MAX_ROWS}): with 14 rows LLVM rotated the
 * accumulators through 12 moves and a stack spill every K step; with 13 the loop is its loads,
 * FMAs and loop control. Assembly only (no AArch64 hardware here to time it); the values are the
 * golden dot cases', run under qemu-aarch64.
 */
class GemmNeonTileTest {
  private static final String MATMUL = GemmJaxprs.matmul(512, 770, 512);

  @Test
  void aarch64KernelLoopHasNoMovesOrSpills() {
    List<String> loop = MicroKernelLoop.of(MATMUL, TargetSpec.aarch64(), "fmla");
    String text = String.join("\n", loop);
    assertEquals(26, loop.stream().filter(s -> s.startsWith("fmla")).count(), text);
    // K = 770 in slices of 257, 257 and 256: A's row stride stays an argument (post-indexed loads).
    assertEquals(0, loop.stream().filter(s -> s.matches("mov\\s+v.*")).count(), text);
    assertEquals(0, loop.stream().filter(s -> s.contains("sp")).count(), text);
  }
}
