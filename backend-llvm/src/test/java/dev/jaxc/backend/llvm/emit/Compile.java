package dev.jaxc.backend.llvm.emit;

import dev.jaxc.frontend.LowerFunExpansion;
import dev.jaxc.ir.pass.ApproxTopK;
import dev.jaxc.ir.pass.random.RngBitGeneratorExpansion;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.pass.canon.CanonicalPipeline;
import dev.jaxc.ir.pass.random.RandomExpansion;
import dev.jaxc.ir.pass.random.RngUniformKeys;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;

/** Test helper: jaxpr text to the program the backend compiles. */
public final class Compile {
  private Compile() {}

  public static Program program(String text) {
    Program typed = TypePass.run(JaxprParser.parse("test.jaxpr", text), new TypeConfig(true, PromotionMode.STANDARD), new Diagnostics());
    return RandomExpansion.run(CanonicalPipeline.run(RngBitGeneratorExpansion.run(ApproxTopK.run(LowerFunExpansion.run(RngUniformKeys.run(typed))))));
  }
}
