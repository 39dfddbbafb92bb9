package dev.jaxc.backend.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The kernel's fragment register forms ({@link Mma#aRow}, {@link Mma#aCol}, {@link Mma#bRow},
 * {@link Mma#cRow}, {@link Mma#cCol}) against cells worked out by hand from the PTX ISA's fragment
 * layouts (section 9.7.14.5.7/8, "Matrix Fragments for mma.m16n8k8 / mma.m16n8k16": .tf32 and
 * .f16/.bf16 A and B, f32 C/D), for lanes other than 0 so that groupID and threadID_in_group both
 * count. The
 * emulation states the layout apart (element by element, {@link Mma#emulation}); the golden
 * cases catch a disagreement between the two, this test one that both would share.
 */
class MmaLayoutTest {
  /** Row and column of a register's element for a lane, as the kernel computes them. */
  private static int[] a(Mma kind, int lane, int reg, int elem) {
    return new int[] {lane / 4 + Mma.aRow(reg), (lane % 4) * kind.perReg + kind.aCol(reg, elem)};
  }

  private static int[] b(Mma kind, int lane, int reg, int elem) {
    return new int[] {(lane % 4) * kind.perReg + kind.bRow(reg, elem), lane / 4};
  }

  private static int[] c(int lane, int reg) {
    return new int[] {lane / 4 + Mma.cRow(reg), (lane % 4) * 2 + Mma.cCol(reg)};
  }

  private static void cell(int row, int col, int[] got) {
    assertEquals(row + "," + col, got[0] + "," + got[1]);
  }

  @Test
  void f16AndBf16M16n8k16() {
    for (Mma kind : new Mma[] {Mma.F16, Mma.BF16}) {
      // Lane 5 (T5: groupID 1, threadID_in_group 1): a0,a1 at row 1, cols 2,3; a2,a3 at row 9;
      // a4,a5 at row 1, cols 10,11; a6,a7 at row 9, cols 10,11.
      cell(1, 2, a(kind, 5, 0, 0));
      cell(1, 3, a(kind, 5, 0, 1));
      cell(9, 2, a(kind, 5, 1, 0));
      cell(1, 10, a(kind, 5, 2, 0));
      cell(9, 11, a(kind, 5, 3, 1));
      // Lane 30 (groupID 7, threadID_in_group 2): b0,b1 rows 4,5 of col 7; b2,b3 rows 12,13.
      cell(4, 7, b(kind, 30, 0, 0));
      cell(5, 7, b(kind, 30, 0, 1));
      cell(12, 7, b(kind, 30, 1, 0));
      cell(13, 7, b(kind, 30, 1, 1));
    }
  }

  @Test
  void tf32M16n8k8() {
    // Lane 6 (groupID 1, threadID_in_group 2): a0 (1, 2), a1 (9, 2), a2 (1, 6), a3 (9, 6).
    cell(1, 2, a(Mma.TF32, 6, 0, 0));
    cell(9, 2, a(Mma.TF32, 6, 1, 0));
    cell(1, 6, a(Mma.TF32, 6, 2, 0));
    cell(9, 6, a(Mma.TF32, 6, 3, 0));
    // Lane 31 (groupID 7, threadID_in_group 3): b0 row 3, b1 row 7, both col 7.
    cell(3, 7, b(Mma.TF32, 31, 0, 0));
    cell(7, 7, b(Mma.TF32, 31, 1, 0));
  }

  @Test
  void f32Accumulators() {
    // Lane 13 (groupID 3, threadID_in_group 1): c0 (3, 2), c1 (3, 3), c2 (11, 2), c3 (11, 3).
    cell(3, 2, c(13, 0));
    cell(3, 3, c(13, 1));
    cell(11, 2, c(13, 2));
    cell(11, 3, c(13, 3));
  }
}
