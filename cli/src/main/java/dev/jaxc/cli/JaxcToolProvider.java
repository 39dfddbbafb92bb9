package dev.jaxc.cli;

import java.io.PrintWriter;
import java.util.spi.ToolProvider;

/**
 * The {@code jaxc} tool for {@code ToolProvider.findFirst("jaxc")}: the CLI in the caller's
 * process, with the caller's streams; {@link #run} returns the exit status of docs/exit-codes.md.
 */
public final class JaxcToolProvider implements ToolProvider {
  @Override
  public String name() {
    return "jaxc";
  }

  @Override
  public int run(PrintWriter out, PrintWriter err, String... args) {
    return Main.run(args, out, err);
  }
}
