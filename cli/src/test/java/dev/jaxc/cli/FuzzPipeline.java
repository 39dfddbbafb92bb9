package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.CpuBackendRules;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.frontend.Source;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.KnownPrimitives;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;

/**
 * What {@code jaxc compile} does to a jaxpr before LLVM code generation, in this process: parse,
 * the check for unknown primitives, the type pass, the passes of {@link HostRun#lower}
 * and the CPU planner; optionally LLVM IR emission and verification too (no object code). The
 * fuzzer's subject.
 */
public final class FuzzPipeline {
  private FuzzPipeline() {}

  /**
   * Runs the pipeline on {@code text} named {@code name}.
   *
   * @throws dev.jaxc.ir.diag.JaxcException the input is rejected
   */
  public static void run(String name, String text, boolean emitIr) {
    Source source = Source.of(name, text);
    Program parsed = JaxprParser.parse(source);
    KnownPrimitives.check(parsed);
    Program typed = TypePass.run(parsed, TypeConfig.DEFAULT, new Diagnostics());
    Program lowered = HostRun.lower(typed);
    if (!emitIr) {
      Planner.plan(lowered.main(), CpuBackendRules.CPU);
      return;
    }
    try (CompiledModule m = Compiler.compile(lowered, TargetSpec.host(), "fuzz")) {
      // Planning, IR emission and verification happened in compile; no object is made.
    }
  }
}
