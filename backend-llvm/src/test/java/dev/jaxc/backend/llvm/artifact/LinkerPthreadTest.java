package dev.jaxc.backend.llvm.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a threaded object is linked with so it also loads on glibc before 2.34 (pthread functions in
 * libpthread.so.0): {@code -lpthread}, which a compiler driver resolves itself and ld.lld in the
 * first of the target's library directories that has libpthread.so or libpthread.a (cross sysroot
 * first); nothing when there is none (the C library's own symbols are used at load time).
 */
class LinkerPthreadTest {
  private static final List<String> LLD = List.of("/usr/bin/ld.lld", "-shared");

  @Test
  void compilerDriversGetMinusLpthread() {
    assertEquals(List.of("-lpthread"), Linker.pthread(List.of("/usr/bin/aarch64-linux-gnu-gcc", "-shared"),
        TargetSpec.aarch64(), p -> false));
  }

  @Test
  void lldGetsTheTargetsLibraryDirectory() {
    assertEquals(List.of("-L/usr/aarch64-linux-gnu/lib", "-lpthread"), Linker.pthread(LLD, TargetSpec.aarch64(),
        p -> p.equals(Path.of("/usr/aarch64-linux-gnu/lib/libpthread.a")) || p.startsWith("/usr/lib")));
    assertEquals(List.of("-L/usr/lib/x86_64-linux-gnu", "-lpthread"), Linker.pthread(LLD, TargetSpec.x86_64(),
        p -> p.equals(Path.of("/usr/lib/x86_64-linux-gnu/libpthread.so"))));
    assertEquals(List.of(), Linker.pthread(LLD, TargetSpec.x86_64(), p -> false));
  }

  @Test
  void anObjectThatLoadsLibrariesGetsLibdlTheSameWay() {
    assertEquals(List.of("-ldl"), Linker.library("dl", List.of("/usr/bin/cc", "-shared"), TargetSpec.x86_64(), p -> false));
    assertEquals(List.of("-L/usr/aarch64-linux-gnu/lib", "-ldl"), Linker.library("dl", LLD, TargetSpec.aarch64(),
        p -> p.equals(Path.of("/usr/aarch64-linux-gnu/lib/libdl.so"))));
    assertEquals(List.of(), Linker.library("dl", LLD, TargetSpec.x86_64(), p -> false));
  }
}
