package dev.jaxc.backend.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.plan.EqnKind;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The support table covers every primitive, and the planner obeys it. */
class SupportTest {
  @Test
  void everyPrimitiveIsLoweredOrHasAReason() {
    for (Primitive p : Primitive.values()) {
      Support.Status s = Support.of(p);
      assertFalse(s.detail().isBlank(), p.printedName());
      if (s.lowered()) {
        // A lowered primitive is an element generator or names its kernel.
        String by = EqnKind.of(p) == EqnKind.FUSIBLE ? "fused: " : "kernel: ";
        assertTrue(s.detail().startsWith(by), p.printedName() + ": " + s.detail());
      }
    }
  }

  @Test
  void theCoreElementwiseAndShapeFamiliesAreLowered() {
    for (Primitive p : List.of(Primitive.ADD, Primitive.NEXTAFTER, Primitive.ROUND, Primitive.CLZ,
        Primitive.SELECT_N, Primitive.CONVERT_ELEMENT_TYPE, Primitive.BITCAST_CONVERT_TYPE, Primitive.PAD,
        Primitive.DYNAMIC_SLICE, Primitive.CONCATENATE, Primitive.TILE, Primitive.SPLIT, Primitive.COMPLEX)) {
      assertTrue(Support.isLowered(p), p.printedName());
    }
    for (Primitive p : List.of(Primitive.EXP, Primitive.POW, Primitive.ATAN2, Primitive.ERF_INV, Primitive.RSQRT)) {
      assertTrue(Support.isLowered(p), p.printedName());
    }
    assertTrue(Support.isLowered(Primitive.REDUCE_SUM));
    assertFalse(Support.isLowered(Primitive.JIT));
  }

  @Test
  void thePlannerRejectsEveryPrimitiveThatIsNotLowered() {
    Type t = new Type.ArrayType(DType.F32, Shape.of(2));
    for (Primitive p : Primitive.values()) {
      if (Support.isLowered(p)) continue;
      Var a = new Var("a", t);
      Var b = new Var("b", t);
      Jaxpr j = new Jaxpr(List.of(), List.of(a), List.of(new Eqn(List.of(b), p.printedName(), Params.EMPTY, List.of(a))), List.of(b));
      JaxcException e = assertThrows(JaxcException.class, () -> Planner.plan(j, CpuBackendRules.DEFAULT), p.printedName());
      assertEquals("unsupported primitive " + p.printedName() + " (" + Support.of(p).detail() + ")", e.getMessage());
    }
  }

  @Test
  void describeHasOneRowPerPrimitive() {
    String md = Support.describe();
    assertTrue(md.startsWith("| primitive | CPU backend |\n| --- | --- |\n"), md);
    assertEquals(Primitive.values().length + 2, md.lines().count());
    assertTrue(md.contains("| `roll` | not yet — Pallas TPU primitive: not compiled for CPU |"), md);
    assertTrue(md.contains("| `add` | lowered — fused: elementwise (emit/ElementwiseLowering) |"), md);
  }
}
