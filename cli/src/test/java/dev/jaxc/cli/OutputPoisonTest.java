package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Output buffers of in-process runs start poisoned, so an element the compiled code never stores
 * cannot match a golden output by chance (issue 9): NaN in every float dtype, 0xA5 bytes (no
 * boolean's value) elsewhere.
 */
class OutputPoisonTest {
  @Test
  void floatsStartAsNanAndOtherDtypesAsA5() {
    ByteBuffer f = HostRun.poisoned(new ArrayType(DType.F32, Shape.of(3)));
    for (int i = 0; i < 3; i++) assertTrue(Float.isNaN(f.getFloat(4 * i)));
    ByteBuffer h = HostRun.poisoned(new ArrayType(DType.F16, Shape.of(2)));
    assertTrue(Double.isNaN(ArrayComparison.halfToDouble(h.getShort(0) & 0xFFFF)));
    ByteBuffer d = HostRun.poisoned(new ArrayType(DType.C128, Shape.of(1)));
    assertTrue(Double.isNaN(d.getDouble(0)) && Double.isNaN(d.getDouble(8)));
    ByteBuffer b = HostRun.poisoned(new ArrayType(DType.BOOL, Shape.of(2)));
    assertEquals((byte) 0xA5, b.get(1));
    ByteBuffer i = HostRun.poisoned(new ArrayType(DType.I32, Shape.of(1)));
    assertEquals(0xA5A5A5A5, i.getInt(0));
  }
}
