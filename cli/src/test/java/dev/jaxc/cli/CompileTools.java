package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.artifact.Linker;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** External tools for the compile tests: finding them, running them, reading ELF headers. */
final class CompileTools {
  /** ELF e_machine values. */
  static final int EM_X86_64 = 62;
  static final int EM_AARCH64 = 183;
  /** ELF e_type values. */
  static final int ET_REL = 1;
  static final int ET_DYN = 3;

  private CompileTools() {}

  static boolean has(String tool) {
    return Linker.onPath(tool).isPresent();
  }

  static boolean canRunAarch64() {
    return has("qemu-aarch64") && has("aarch64-linux-gnu-gcc")
        && Files.exists(Path.of("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1"));
  }

  static boolean isX86Host() {
    return System.getProperty("os.arch").matches("amd64|x86_64");
  }

  /** Runs the command in {@code dir}; asserts it succeeds; returns its output (stdout and stderr). */
  static String run(Path dir, String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + String.join(" ", cmd));
    assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
    return out;
  }

  /** The command prefixed with qemu-aarch64 and its sysroot when {@code arm}. */
  static String[] onTarget(boolean arm, String... cmd) {
    List<String> r = new ArrayList<>();
    if (arm) r.addAll(List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"));
    r.addAll(List.of(cmd));
    return r.toArray(String[]::new);
  }

  /** {e_type, e_machine} of a little-endian ELF64 file. */
  static int[] elfKind(Path file) throws Exception {
    byte[] b = Files.readAllBytes(file);
    ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    assertTrue(b.length > 64 && h.getInt(0) == 0x464C457F && b[4] == 2 && b[5] == 1, file + " is not ELF64 LE");
    return new int[] {h.getShort(16) & 0xFFFF, h.getShort(18) & 0xFFFF};
  }

  /** A jaxc executable that runs this test's build of the CLI (the launcher would run Maven). */
  static Path jaxcScript(Path dir) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String script = "#!/bin/sh\nexec '" + java + "' -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' dev.jaxc.cli.Main \"$@\"\n";
    Path p = Files.writeString(dir.resolve("jaxc"), script);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }
}
