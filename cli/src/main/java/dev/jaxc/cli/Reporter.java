package dev.jaxc.cli;

import dev.jaxc.frontend.DiagnosticJson;
import dev.jaxc.frontend.DiagnosticRenderer;
import dev.jaxc.ir.diag.Diagnostic;
import dev.jaxc.ir.diag.DiagnosticCode;
import dev.jaxc.ir.diag.JaxcException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Turns what can go wrong with an input file into the CLI's messages and exit statuses: located
 * diagnostics for bad jaxprs, one line for unreadable files; as text, or with {@code
 * --diagnostics json} as one JSON object per line ({@link DiagnosticJson}).
 */
final class Reporter {
  /** A command body that may fail on its input. */
  interface Body {
    int run() throws IOException;
  }

  /** How diagnostics are written: {@code --diagnostics text|json}. */
  enum Format {
    TEXT,
    JSON
  }

  private final PrintWriter err;
  private final Format format;

  Reporter(PrintWriter err) {
    this(err, Format.TEXT);
  }

  Reporter(PrintWriter err, Format format) {
    this.err = err;
    this.format = format;
  }

  /** Runs the body; reports its failure on {@code file} through {@code frontEnd}'s source. */
  int guard(Path file, FrontEnd frontEnd, Body body) {
    try {
      return body.run();
    } catch (JaxcException e) {
      print(file, frontEnd, e.diagnostic());
      err.flush();
      return ExitCode.BAD_INPUT;
    } catch (NoSuchFileException e) {
      return fail(file, "no such file");
    } catch (AccessDeniedException e) {
      return fail(file, "permission denied");
    } catch (IOException e) {
      return fail(file, "cannot read: " + e.getMessage());
    }
  }

  void warnings(Path file, FrontEnd frontEnd) {
    for (Diagnostic d : frontEnd.warnings().all()) print(file, frontEnd, d);
    err.flush();
  }

  private void print(Path file, FrontEnd frontEnd, Diagnostic d) {
    if (format == Format.JSON) err.println(DiagnosticJson.render(frontEnd.source(file), d, frontEnd.code(d)));
    else err.print(DiagnosticRenderer.render(frontEnd.source(file), d));
  }

  private int fail(Path file, String message) {
    if (format == Format.JSON) err.println(DiagnosticJson.fileError(file.toString(), DiagnosticCode.INPUT, message));
    else err.println(file + ": error: " + message);
    err.flush();
    return ExitCode.BAD_INPUT;
  }
}
