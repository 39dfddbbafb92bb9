package dev.jaxc.cli;

import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.plan.PlanGraph;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.cli.npy.AtomicWrite;
import dev.jaxc.ir.Program;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** {@code jaxc inspect --graph}: the plan as DOT text, or as SVG drawn by Graphviz's {@code dot}. */
final class PlanDrawing {
  private PlanDrawing() {}

  /** The DOT text of the plan the host (or, {@code ptx}, the PTX) backend makes of {@code lowered}. */
  static String dot(Program lowered, boolean ptx, String title) {
    return PlanGraph.dot(ptx ? PtxCompiler.plan(lowered) : Compiler.plan(lowered), title);
  }

  /**
   * Writes {@code dot} (or, {@code svg}, its drawing) to {@code output}, whole or not at all, or
   * to {@code out} when there is no output path; returns the exit status, with a one-line error
   * on {@code err} when it fails.
   */
  static int write(String dot, boolean svg, Path output, PrintWriter out, PrintWriter err) {
    byte[] bytes;
    if (svg) {
      try {
        bytes = render(dot);
      } catch (RenderException e) {
        err.println("jaxc: error: " + e.getMessage());
        err.flush();
        return ExitCode.BAD_INPUT;
      }
    } else {
      bytes = dot.getBytes(StandardCharsets.UTF_8);
    }
    if (output == null) {
      out.print(new String(bytes, StandardCharsets.UTF_8));
      out.flush();
      return ExitCode.OK;
    }
    try {
      AtomicWrite.write(output, o -> o.write(bytes));
      return ExitCode.OK;
    } catch (NoSuchFileException e) {
      err.println(output + ": error: cannot write: no such directory");
    } catch (IOException e) {
      err.println(output + ": error: cannot write: " + e.getMessage());
    }
    err.flush();
    return ExitCode.BAD_INPUT;
  }

  static final class RenderException extends Exception {
    RenderException(String message) {
      super(message);
    }
  }

  /** SVG from Graphviz's {@code dot -Tsvg}. */
  static byte[] render(String dot) throws RenderException {
    return render(dot, "dot");
  }

  /** SVG from {@code command -Tsvg} (a test names a command that does not exist). */
  static byte[] render(String dot, String command) throws RenderException {
    Process p;
    try {
      p = new ProcessBuilder(command, "-Tsvg").start();
    } catch (IOException e) {
      throw new RenderException("--graph svg needs Graphviz's 'dot' on PATH (for example: apt-get install graphviz); "
          + "--graph dot writes the graph's text without it");
    }
    // Standard output and error are drained while the text is written, so neither pipe fills.
    CompletableFuture<byte[]> svg = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    CompletableFuture<byte[]> errors = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    try (OutputStream in = p.getOutputStream()) {
      in.write(dot.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // dot exited early: its status and message say why
    }
    try {
      int status = p.waitFor();
      byte[] result = svg.join();
      if (status != 0) {
        String msg = new String(errors.join(), StandardCharsets.UTF_8).strip().lines().findFirst().orElse("");
        throw new RenderException("Graphviz's dot failed (exit " + status + ")" + (msg.isEmpty() ? "" : ": " + msg));
      }
      return result;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new RenderException("interrupted while Graphviz's dot ran");
    }
  }

  private static byte[] readAll(InputStream s) {
    try (s) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      s.transferTo(b);
      return b.toByteArray();
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
