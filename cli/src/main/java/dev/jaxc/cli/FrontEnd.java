package dev.jaxc.cli;

import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.frontend.Source;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
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

  Program run(Path file, TypeConfig config, Phase stopAfter) throws IOException {
    return run(file, config, stopAfter, PhaseTimer.NONE);
  }

  /** As above, timing the phases read, parse and type with {@code timer}. */
  Program run(Path file, TypeConfig config, Phase stopAfter, PhaseTimer timer) throws IOException {
    long t0 = System.nanoTime();
    source = JaxprParser.read(file);
    timer.record("read", System.nanoTime() - t0);
    Program parsed = timer.time("parse", () -> JaxprParser.parse(source));
    if (stopAfter.compareTo(Phase.TYPE) < 0) return parsed;
    return timer.time("type", () -> TypePass.run(parsed, config, warnings));
  }

  /** The text read so far, or an empty one when reading itself failed. */
  Source source(Path file) {
    return source != null ? source : Source.of(file.toString(), "");
  }

  Diagnostics warnings() {
    return warnings;
  }
}
