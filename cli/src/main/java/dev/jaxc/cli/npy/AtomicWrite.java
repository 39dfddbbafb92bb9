package dev.jaxc.cli.npy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file so that it either appears whole or not at all: the bytes go to a temporary file
 * in the target's directory (same file system, so the rename is atomic), which is forced to disk
 * and then renamed over the target. On any failure the temporary file is removed and an existing
 * target is left as it was.
 *
 * <p>A process stopped while writing leaves nothing either: on SIGTERM, SIGINT or SIGHUP a shutdown
 * hook removes the temporaries in flight, after any {@link #commitAll} under way has renamed all
 * of its files (so a set of outputs appears whole or not at all). SIGKILL runs no code, so a
 * temporary is named after its process ({@code .NAME.PID-RANDOM.tmp}) and the next write to the
 * same target removes those whose process is gone.
 */
public final class AtomicWrite {
  private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();
  private static final long PID = ProcessHandle.current().pid();
  /** Held while files are renamed into place, and by the shutdown hook. */
  private static final Object COMMIT = new Object();
  /** Set by the shutdown hook: no temporary may be created or committed after it. */
  private static volatile boolean closing;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(AtomicWrite::removeInFlight, "jaxc-atomic-write-cleanup"));
  }

  private AtomicWrite() {}

  /** Writes the content; the stream is closed by {@link AtomicWrite}, not by the body. */
  @FunctionalInterface
  public interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  public static void write(Path target, Body body) throws IOException {
    Staged staged = stage(target, body);
    try {
      staged.commit();
    } catch (Throwable t) {
      staged.discard(t);
      throw t;
    }
  }

  /**
   * A file written to its temporary, not yet renamed over its target: {@link #commit} puts it in
   * place, {@link #discard} removes it. Several files staged first and committed after all were
   * written appear together or (should one fail to be written) none does.
   */
  public static final class Staged {
    private final Path tmp;
    private final Path target;

    private Staged(Path tmp, Path target) {
      this.tmp = tmp;
      this.target = target;
    }

    /** One rename(2): ATOMIC_MOVE replaces an existing target on POSIX and Windows alike. */
    public void commit() throws IOException {
      commitAll(List.of(this));
    }

    /** Removes the temporary; a failure to do so is added to {@code cause}. */
    public void discard(Throwable cause) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
      IN_FLIGHT.remove(tmp);
    }
  }

  /**
   * Renames every staged file into place; a shutdown (SIGTERM) lets all of them finish, or, if it
   * came first, none begins. A failure leaves those before it in place.
   */
  public static void commitAll(List<Staged> files) throws IOException {
    synchronized (COMMIT) {
      if (closing) throw new IOException("the process is ending");
      for (Staged f : files) {
        Files.move(f.tmp, f.target, StandardCopyOption.ATOMIC_MOVE);
        IN_FLIGHT.remove(f.tmp);
      }
    }
  }

  /** Writes the content to a temporary beside {@code target}, forced to disk; on failure removes it. */
  public static Staged stage(Path target, Body body) throws IOException {
    sweep(target);
    Path tmp = target.resolveSibling(prefix(target) + PID + "-"
        + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
    IN_FLIGHT.add(tmp);
    Staged staged = new Staged(tmp, target);
    try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16)) {
      // Created after the shutdown hook removed the temporaries in flight: remove it here.
      if (closing) throw new IOException("the process is ending");
      body.writeTo(out);
      out.flush();
      channel.force(true);
    } catch (Throwable t) {
      staged.discard(t);
      throw t;
    }
    return staged;
  }

  /** The name every temporary of {@code target} begins with. */
  private static String prefix(Path target) {
    return "." + target.getFileName() + ".";
  }

  /**
   * The process that wrote a temporary of {@code target} named {@code name}; empty when the name
   * is not one of ours.
   */
  static Optional<Long> owner(Path target, String name) {
    String p = prefix(target);
    if (!name.startsWith(p) || !name.endsWith(".tmp")) return Optional.empty();
    String rest = name.substring(p.length(), name.length() - 4);
    int dash = rest.indexOf('-');
    if (dash <= 0) return Optional.empty();
    try {
      return Optional.of(Long.parseLong(rest.substring(0, dash)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Removes the temporaries of {@code target} that a process killed while writing left behind. */
  private static void sweep(Path target) {
    Path dir = target.toAbsolutePath().getParent();
    if (dir == null) return;
    String glob = prefix(target).replaceAll("([\\\\*?\\[\\]{}])", "\\\\$1") + "*-*.tmp";
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
      for (Path p : s) {
        Optional<Long> pid = owner(target, p.getFileName().toString());
        if (pid.isPresent() && pid.get() != PID && ProcessHandle.of(pid.get()).isEmpty()) Files.deleteIfExists(p);
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: a directory that cannot be listed fails the write itself with a clear error.
    }
  }

  private static void removeInFlight() {
    synchronized (COMMIT) {
      closing = true;
    }
    for (Path p : IN_FLIGHT) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // The process is ending; nothing more can be done.
      }
    }
  }
}
