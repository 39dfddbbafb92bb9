package dev.jaxc.backend.llvm.artifact;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Links objects into a shared library with the system's linker: {@code ld.lld} for any target,
 * else the target's C compiler driver. The library is written whole or not at all. Also joins a
 * partitioned module's objects into one relocatable object.
 */
public final class Linker {
  private Linker() {}

  /** The linker could not be found or failed; the message says what to do. */
  public static final class LinkException extends Exception {
    private static final long serialVersionUID = 1L;

    public LinkException(String message) {
      super(message);
    }
  }

  /** The command that links for the target, without inputs and outputs; empty if none found. */
  public static Optional<List<String>> command(TargetSpec spec) {
    return command(spec, Linker::onPath);
  }

  /** As {@link #command(TargetSpec)}, finding tools with {@code which} instead of on PATH. */
  public static Optional<List<String>> command(TargetSpec spec, Function<String, Optional<Path>> which) {
    boolean arm = spec.arch() == TargetSpec.Arch.AARCH64;
    Optional<Path> lld = which.apply("ld.lld");
    if (lld.isPresent()) {
      return Optional.of(List.of(lld.get().toString(), "-m", arm ? "aarch64linux" : "elf_x86_64", "-shared",
          "--build-id=none", "-z", "noexecstack"));
    }
    boolean hostArm = System.getProperty("os.arch").matches("aarch64|arm64");
    List<String> drivers = arm == hostArm ? List.of("cc", "gcc", "clang") : List.of();
    if (arm && !hostArm) drivers = List.of("aarch64-linux-gnu-gcc");
    if (!arm && hostArm) drivers = List.of("x86_64-linux-gnu-gcc");
    for (String d : drivers) {
      Optional<Path> p = which.apply(d);
      if (p.isPresent()) return Optional.of(List.of(p.get().toString(), "-shared", "-nostdlib", "-Wl,--build-id=none"));
    }
    return Optional.empty();
  }

  /** What to install when {@link #command} finds nothing. */
  public static String installHint(TargetSpec spec) {
    return spec.arch() == TargetSpec.Arch.AARCH64
        ? "install lld (apt-get install lld) or gcc-aarch64-linux-gnu"
        : "install lld (apt-get install lld) or a C compiler (apt-get install gcc)";
  }

  public static void linkShared(byte[] object, Path output, TargetSpec spec) throws LinkException, IOException {
    linkShared(List.of(object), output, spec);
  }

  /**
   * Links objects (a partitioned module's, in order) into one shared library at {@code output}.
   * The linker writes in a private temporary directory, never next to {@code output}, so a linker
   * that fails or is killed leaves nothing there; the finished library is then renamed into place.
   */
  public static void linkShared(List<byte[]> objects, Path output, TargetSpec spec) throws LinkException, IOException {
    byte[] library = sharedLibrary(objects, spec);
    Path dir = output.toAbsolutePath().getParent();
    Path tmpOut = Files.createTempFile(dir, "." + output.getFileName(), ".tmp");
    try {
      Files.write(tmpOut, library);
      Files.move(tmpOut, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmpOut);
    }
  }

  /** The shared library of the objects (a partitioned module's, in order), linked in a temporary directory. */
  public static byte[] sharedLibrary(List<byte[]> objects, TargetSpec spec) throws LinkException, IOException {
    List<String> base = command(spec).orElseThrow(() -> new LinkException(
        "no linker for " + spec.arch().name().toLowerCase(java.util.Locale.ROOT) + " found: " + installHint(spec)));
    Path dir = Files.createTempDirectory("jaxc-so");
    Path out = dir.resolve("lib.so");
    try {
      List<String> cmd = new ArrayList<>(base);
      cmd.addAll(List.of("-o", out.toString()));
      run(cmd, objects, base, spec);
      return Files.readAllBytes(out);
    } finally {
      // The linker may leave its own temporaries beside a failed output.
      try (var s = Files.list(dir)) {
        for (Path f : s.toList()) Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    }
  }

  /**
   * Whether {@link #relocatable} can join objects here: it needs ld.lld and an objcopy (the
   * system's or LLVM's).
   */
  public static boolean canJoin() {
    return onPath("ld.lld").isPresent() && objcopy().isPresent();
  }

  private static Optional<Path> objcopy() {
    Optional<Path> llvm = onPath("llvm-objcopy");
    return llvm.isPresent() ? llvm : onPath("objcopy");
  }

  /**
   * One relocatable object from several ({@code ld.lld -r}, what {@code --emit obj} of a
   * partitioned module gives), their hidden symbols made local ({@code objcopy --localize-hidden}),
   * so it defines the entry points alone, as an object compiled whole does; empty where
   * {@link #canJoin} is false.
   */
  public static Optional<byte[]> relocatable(List<byte[]> objects, TargetSpec spec) throws LinkException, IOException {
    Optional<Path> lld = onPath("ld.lld");
    Optional<Path> objcopy = objcopy();
    if (lld.isEmpty() || objcopy.isEmpty()) return Optional.empty();
    boolean arm = spec.arch() == TargetSpec.Arch.AARCH64;
    Path out = Files.createTempFile("jaxc-link", ".o");
    try {
      List<String> cmd = new ArrayList<>(List.of(lld.get().toString(), "-m", arm ? "aarch64linux" : "elf_x86_64", "-r",
          "-o", out.toString()));
      run(cmd, objects, List.of(), spec);
      run(new ArrayList<>(List.of(objcopy.get().toString(), "--localize-hidden", out.toString())), List.of(), List.of(),
          spec);
      return Optional.of(Files.readAllBytes(out));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /**
   * Runs the tool command {@code cmd} on the objects (written to a temporary directory) and, for a
   * shared library ({@code base} not empty), the libraries they import.
   */
  private static void run(List<String> cmd, List<byte[]> objects, List<String> base, TargetSpec spec)
      throws LinkException, IOException {
    Path work = Files.createTempDirectory("jaxc-link");
    try {
      for (int k = 0; k < objects.size(); k++) {
        Path obj = work.resolve(objects.size() == 1 ? "module.o" : "module" + k + ".o");
        Files.write(obj, objects.get(k));
        cmd.add(obj.toString());
      }
      if (!base.isEmpty()) {
        if (objects.stream().anyMatch(o -> imports(o, "pthread_create"))) cmd.addAll(pthread(base, spec, Files::isRegularFile));
        if (objects.stream().anyMatch(o -> imports(o, "dlopen"))) cmd.addAll(library("dl", base, spec, Files::isRegularFile));
      }
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      byte[] log = p.getInputStream().readAllBytes();
      boolean done = p.waitFor(120, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly();
        throw new LinkException(cmd.get(0) + " did not finish within 120 s: " + String.join(" ", cmd));
      }
      if (p.exitValue() != 0) {
        throw new LinkException((base.isEmpty() ? "joining objects" : "linking") + " failed (" + String.join(" ", cmd) + "):\n"
            + new String(log, StandardCharsets.UTF_8).strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LinkException("interrupted while linking");
    } finally {
      try (var s = Files.list(work)) {
        for (Path f : s.toList()) Files.deleteIfExists(f);
      }
      Files.deleteIfExists(work);
    }
  }

  private static boolean imports(byte[] object, String symbol) {
    try {
      return ElfSymbols.of(object).undefined().contains(symbol);
    } catch (IllegalArgumentException | IndexOutOfBoundsException notElf) {
      return false;  // the linker will say what is wrong with it
    }
  }

  /**
   * What links a threaded object ({@code pthread_create}) with {@code base} for glibc before 2.34,
   * where the pthread functions are in libpthread.so.0, not libc: {@code -lpthread} (on newer glibc
   * an empty archive, so nothing changes). A compiler driver knows where libraries are; ld.lld
   * gets the first of the target's library directories that has libpthread, if any ({@code exists}
   * tests files); without one the symbols are left to the C library at load time.
   */
  static List<String> pthread(List<String> base, TargetSpec spec, Predicate<Path> exists) {
    return library("pthread", base, spec, exists);
  }

  /**
   * As {@link #pthread} for the C library's part {@code lib}: {@code -ldl} for an object that
   * imports {@code dlopen} (the PTX host library), in libdl.so.2 before glibc 2.34.
   */
  static List<String> library(String lib, List<String> base, TargetSpec spec, Predicate<Path> exists) {
    if (!base.get(0).endsWith("ld.lld")) return List.of("-l" + lib);
    String gnu = spec.arch() == TargetSpec.Arch.AARCH64 ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
    for (String dir : List.of("/usr/" + gnu + "/lib", "/lib/" + gnu, "/usr/lib/" + gnu)) {
      Path d = Path.of(dir);
      if (exists.test(d.resolve("lib" + lib + ".so")) || exists.test(d.resolve("lib" + lib + ".a"))) return List.of("-L" + dir, "-l" + lib);
    }
    return List.of();
  }

  /** The executable {@code tool} in a directory of PATH, if there is one. */
  public static Optional<Path> onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) return Optional.empty();
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) return Optional.of(p);
    }
    return Optional.empty();
  }
}
