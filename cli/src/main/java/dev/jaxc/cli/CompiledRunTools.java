package dev.jaxc.cli;

import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The external tools a {@link CompiledRun} needs for a target: the target's C compiler (for the
 * runner), a linker (for the shared library) and, for a foreign architecture, qemu-user with the
 * target's C library. Each missing tool is named with the Debian/Ubuntu package that has it.
 */
record CompiledRunTools(Path cc, List<String> launcher, Optional<Path> valgrind) {
  /** Tools found for {@code spec}, or why a case cannot run here (one line). */
  static Result find(TargetSpec spec) {
    return find(spec, false);
  }

  /** As above; {@code valgrind}: the runner is to run under valgrind (native targets only). */
  static Result find(TargetSpec spec, boolean valgrind) {
    Result r = find(spec, TargetSpec.host().arch(), Linker::onPath, Files::exists);
    if (!valgrind || r.tools().isEmpty()) return r;
    if (spec.arch() != TargetSpec.host().arch()) return missing("valgrind runs only this machine's architecture");
    Optional<Path> v = Linker.onPath("valgrind");
    if (v.isEmpty()) return missing("no valgrind (install valgrind)");
    CompiledRunTools t = r.tools().get();
    return new Result(Optional.of(new CompiledRunTools(t.cc(), t.launcher(), v)), "");
  }

  /**
   * As {@link #find(TargetSpec)} on a machine of architecture {@code host} where {@code which}
   * finds executables and {@code exists} files.
   */
  static Result find(TargetSpec spec, TargetSpec.Arch host, Function<String, Optional<Path>> which,
      Predicate<Path> exists) {
    boolean foreign = spec.arch() != host;
    String arch = CompileTarget.arch(spec);
    String gnu = arch + "-linux-gnu";
    List<String> launcher = List.of();
    if (foreign) {
      String qemu = "qemu-" + arch;
      Optional<Path> q = which.apply(qemu);
      if (q.isEmpty()) return missing("no " + qemu + " (install qemu-user)");
      Path sysroot = Path.of("/usr", gnu);
      String loader = spec.arch() == TargetSpec.Arch.AARCH64 ? "lib/ld-linux-aarch64.so.1" : "lib64/ld-linux-x86-64.so.2";
      if (!exists.test(sysroot.resolve(loader)))
        return missing("no " + arch + " C library in " + sysroot + " (install " + libcPackage(spec) + ")");
      launcher = List.of(q.get().toString(), "-L", sysroot.toString());
    }
    String ccName = foreign ? gnu + "-gcc" : "cc";
    Optional<Path> cc = which.apply(ccName);
    if (cc.isEmpty()) {
      return missing("no " + ccName + " for the runner (install "
          + (foreign ? "gcc-" + arch.replace('_', '-') + "-linux-gnu" : "gcc") + ")");
    }
    if (Linker.command(spec, which).isEmpty()) return missing("no linker for " + arch + ": " + Linker.installHint(spec));
    return new Result(Optional.of(new CompiledRunTools(cc.get(), launcher, Optional.empty())), "");
  }

  /** Debian's package with the target's C library and headers for cross builds. */
  static String libcPackage(TargetSpec spec) {
    return spec.arch() == TargetSpec.Arch.AARCH64 ? "libc6-dev-arm64-cross" : "libc6-dev-amd64-cross";
  }

  /** The tools, or empty and the reason. */
  record Result(Optional<CompiledRunTools> tools, String missing) {}

  private static Result missing(String why) {
    return new Result(Optional.empty(), why);
  }
}
