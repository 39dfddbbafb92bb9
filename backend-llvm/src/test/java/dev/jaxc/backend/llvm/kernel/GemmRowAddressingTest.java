package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * On x86-64 the micro-kernel's A rows are constant offsets from one register and the k index
 * ({@link GemmMicroKernel#constantStride}): its k loop spends no integer work on row addresses
 * beyond the two induction steps (matmul 2048³ on a Cascade Lake core 0.91× of the time with a
 * runtime stride, whose 13 adds a step pushed the loop past 4 µops a cycle). Assembly only; the
 * values are the golden dot cases'.
 */
class GemmRowAddressingTest {
  private static final String MATMUL = GemmJaxprs.matmul(512, 514, 512);

  @Test
  void avx512RowsAreConstantOffsetsFromOneRegister() {
    List<String> loop = MicroKernelLoop.of(MATMUL, GemmJaxprs.CASCADE_LAKE, "vfmadd");
    // 512 rows in 14-row tiles; K = 514 in three slices of at most 172 (the last 170, so the
    // depth is not a constant LLVM could fold into a runtime stride): rows 688 bytes apart.
    Pattern bcast = Pattern.compile("vbroadcastss\\s+(\\d*)\\((%\\w+),(%\\w+),4\\), %zmm\\d+");
    Set<String> bases = new TreeSet<>();
    Set<Long> offsets = new TreeSet<>();
    int integer = 0;
    for (String s : loop) {
      Matcher b = bcast.matcher(s);
      if (b.matches()) {
        bases.add(b.group(2) + "," + b.group(3));
        offsets.add(b.group(1).isEmpty() ? 0 : Long.parseLong(b.group(1)));
      }
      if (s.matches("(lea|add|sub|inc|dec|imul|shl)q?\\s.*")) integer++;
    }
    assertEquals(1, bases.size(), String.join("\n", loop));
    // (LLVM may move the base: the offsets are the rows' up to one constant.)
    long first = offsets.isEmpty() ? 0 : offsets.iterator().next();
    Set<Long> rows = new TreeSet<>();
    for (long i = 0; i < 14; i++) rows.add(first + i * 688);
    assertEquals(rows, offsets, String.join("\n", loop));
    assertEquals(28, loop.stream().filter(s -> s.startsWith("vfmadd231ps")).count(), String.join("\n", loop));
    // The k index and B's row pointer: nothing else.
    assertEquals(2, integer, String.join("\n", loop));
  }
}
