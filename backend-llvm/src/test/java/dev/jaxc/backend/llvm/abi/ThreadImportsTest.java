package dev.jaxc.backend.llvm.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only models with work worth a second thread get the thread runtime: a 512³ f32 matmul and a
 * 4M-element fusion import pthread_create, pthread_join, getenv and sysconf on both targets (and
 * their shared libraries list pthread_create as undefined, per {@code nm -D}); a tiny add, a
 * 100000-element add (below the threshold) and the matmul compiled single-threaded import none.
 */
class ThreadImportsTest {
  @TempDir Path dir;

  private static final String MATMUL = """
      { lambda ; a:f32[512,512] b:f32[512,512]. let
          c:f32[512,512] = dot_general[dimension_numbers=(([1], [0]), ([], [])) preferred_element_type=float32] a b
        in (c,) }
      """;

  private static String add(int n) {
    return "{ lambda ; a:f32[" + n + "] b:f32[" + n + "]. let c:f32[" + n + "] = add a b in (c,) }";
  }

  private static final String FUSION = """
      { lambda ; a:f32[4194304] b:f32[4194304]. let
          c:f32[4194304] = mul a b
          d:f32[4194304] = add c 1.0:f32[]
          e:f32[4194304] = max d 0.0:f32[]
        in (e,) }
      """;

  private static Set<String> threadImports(String jaxpr, TargetSpec spec, Threading t) {
    try (CompiledModule m = Compiler.compile(Compile.program(jaxpr), spec, "f", Consts.NONE, t)) {
      Set<String> r = new TreeSet<>(ElfSymbols.of(m.objectCode()).undefined());
      r.retainAll(Libc.THREAD_SYMBOLS);
      return r;
    }
  }

  @Test
  void bigWorkImportsTheThreadRuntimeAndSmallWorkDoesNot() {
    Set<String> all = new TreeSet<>(Libc.THREAD_SYMBOLS);
    for (TargetSpec spec : new TargetSpec[] {TargetSpec.x86_64(), TargetSpec.aarch64()}) {
      assertEquals(all, threadImports(MATMUL, spec, Threading.DEFAULT), "matmul " + spec.arch());
      assertEquals(all, threadImports(FUSION, spec, Threading.DEFAULT), "fusion " + spec.arch());
      assertEquals(Set.of(), threadImports(MATMUL, spec, Threading.SERIAL), "serial matmul " + spec.arch());
      assertEquals(Set.of(), threadImports(add(8), spec, Threading.DEFAULT), "tiny add " + spec.arch());
      assertEquals(Set.of(), threadImports(add(100000), spec, Threading.DEFAULT), "100000 adds " + spec.arch());
    }
  }

  @Test
  void sharedLibrariesShowIt() throws Exception {
    TargetSpec spec = TargetSpec.x86_64();
    assumeTrue(Linker.command(spec).isPresent() && Linker.onPath("nm").isPresent(), "no linker or nm (binutils)");
    assertTrue(undefined(MATMUL, spec).contains("pthread_create"));
    assertTrue(!undefined(add(8), spec).contains("pthread_create"));
  }

  private List<String> undefined(String jaxpr, TargetSpec spec) throws Exception {
    Path lib = dir.resolve("lib.so");
    try (CompiledModule m = Compiler.compile(Compile.program(jaxpr), spec, "f")) {
      Linker.linkShared(m.objectCode(), lib, spec);
    }
    Process p = new ProcessBuilder("nm", "-D", "--undefined-only", lib.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out.lines().map(l -> l.strip().replaceFirst("^U\\s+", "").replaceFirst("@.*", "")).toList();
  }
}
