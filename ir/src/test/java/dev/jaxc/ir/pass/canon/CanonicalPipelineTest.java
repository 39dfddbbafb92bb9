package dev.jaxc.ir.pass.canon;

import static dev.jaxc.ir.pass.canon.Checks.assertCanonical;
import static dev.jaxc.ir.pass.canon.Checks.assertIrEqual;
import static dev.jaxc.ir.pass.canon.Checks.assertWellScoped;
import static dev.jaxc.ir.pass.canon.Checks.typeChecks;
import static dev.jaxc.ir.testkit.Printout.f32;
import static dev.jaxc.ir.testkit.Printout.program;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.testkit.Printout;
import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalPipelineTest {
  private static Program canon(Program p) {
    Program r = CanonicalPipeline.run(p);
    assertWellScoped(r.main());
    assertCanonical(r.main());
    typeChecks(r);
    return r;
  }

  @Test
  void passesRunInliningFirst() {
    assertEquals(
        List.of(Inliner.class, TransposeFolding.class, ScatterSelects.class, DeadCodeElimination.class),
        CanonicalPipeline.PASSES.stream().map(Object::getClass).toList());
  }

  @Test
  void nestedJitBecomesTheFlatJaxprWithoutItsDeadValue() {
    // InlinerTest.nestedJit, after the type pass as jaxc runs it; the disable_jit printout has
    // one dead equation (`_:f32[3] = mul c 2.0:f32[]`), which DCE removes.
    Program typed = typeChecks(program(InlinerTest.nestedJit()));
    Jaxpr r = canon(typed).main();
    Jaxpr expected =
        new Printout()
            .in("a:f32[3]")
            .eq("b:f32[3]", "sin", "a")
            .eq("c:f32[3]", "add", "b", "a")
            .eq("d:f32[3]", "mul", "a", f32(2.0))
            .eq("e:f32[3]", "sin", "c")
            .eq("f:f32[3]", "add", "e", "c")
            .out("f", "d", "a", f32(3.0));
    assertIrEqual(expected, r);
    assertEquals(typed.main().inputs(), r.inputs());
    assertEquals(typed.sourceName(), "test.jaxpr");
  }

  @Test
  void underscoreValuesOfAnInlinedJitAreDead() {
    Jaxpr r = canon(program(InlinerTest.underscores())).main();
    Jaxpr expected = new Printout().in("a:f32[]").eq("b:f32[]", "mul", "a", f32(2.0)).out("b");
    assertIrEqual(expected, r);
  }
}
