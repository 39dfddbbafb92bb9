package dev.jaxc.cli;

import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.frontend.Source;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.KnownPrimitives;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a jaxpr file and runs the phases up to {@code stopAfter}. Keeps the source text so
 * diagnostics can quote it even when a later phase fails.
 */
final class FrontEnd {
  private Source source;
  private final Diagnostics warnings = new Diagnostics();
  private boolean trustUnknownPrimitives;
  /** The code of a failure that names none: the phase under way. */
  private DiagnosticCode phaseCode = DiagnosticCode.INPUT;

  /**
   * Lets unknown primitives through with a warning (their declared types trusted), as {@code
   * inspect} wants; otherwise the first is an error at its name, before the type pass.
   */
  FrontEnd trustUnknownPrimitives() {
    trustUnknownPrimitives = true;
    return this;
  }

  Program run(Path file, TypeConfig config, Phase stopAfter) throws IOException {
    return run(file, config, stopAfter, PhaseTimer.NONE);
  }

  /** As above, timing the phases read, parse and type with {@code timer}. */
  Program run(Path file, TypeConfig config, Phase stopAfter, PhaseTimer timer) throws IOException {
    long t0 = System.nanoTime();
    phaseCode = DiagnosticCode.INPUT;
    source = JaxprParser.read(file);
    timer.record("read", System.nanoTime() - t0);
    phaseCode = DiagnosticCode.SYNTAX;
    Program parsed = timer.time("parse", () -> JaxprParser.parse(source));
    if (stopAfter.compareTo(Phase.TYPE) < 0) return parsed;
    if (!trustUnknownPrimitives) KnownPrimitives.check(parsed);
    phaseCode = DiagnosticCode.TYPE;
    Program typed = timer.time("type", () -> TypePass.run(parsed, config, warnings));
    phaseCode = DiagnosticCode.UNSUPPORTED;
    return typed;
  }

  /**
   * The code for a diagnostic {@code d} raised while this front end's file was processed: its
   * own, else by the phase that failed (after the type pass, the backend's: unsupported).
   */
  DiagnosticCode code(Diagnostic d) {
    if (d.code() != null) return d.code();
    if (phaseCode == DiagnosticCode.UNSUPPORTED && d.message().startsWith("unsupported primitive"))
      return DiagnosticCode.UNSUPPORTED_PRIMITIVE;
    return phaseCode;
  }

  /** The text read so far, or an empty one when reading itself failed. */
  Source source(Path file) {
    return source != null ? source : Source.of(file.toString(), "");
  }

  Diagnostics warnings() {
    return warnings;
  }
}
