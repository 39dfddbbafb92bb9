package dev.jaxc.backend.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.backend.llvm.Support;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/primitive-status.md (linked from the README's status table) is exactly what the support
 * tables of both backends say, so the README cannot drift from the code. Regenerate with
 * -Djaxc.update=true. (Here, in backend-ptx, because it sees both backends.)
 */
class SupportDocTest {
  static final String HEADER = """
      # Primitive status of the CPU and PTX backends

      Generated from `backend-llvm/.../Support.java` and `backend-ptx/.../PtxSupport.java` by
      `SupportDocTest` (run the tests with `-Djaxc.update=true` to rewrite it). "lowered" means the
      planner accepts the primitive and the same code is emitted for x86-64 and AArch64; the golden
      cases that prove each family run on the host (`jaxc check`) and under qemu-aarch64 (`jaxc
      check --target aarch64`). The PTX backend plans and lowers with the CPU backend's code, so it
      compiles the same primitives; its column says how each runs on the GPU (every golden case
      passes the emulated launch, `jaxc check -target ptx`, and on an NVIDIA H200 through the host
      library; "one thread" marks the forms still left to a single GPU thread).

      """;

  @Test
  void committedTableMatchesTheCode() throws Exception {
    Path doc = Path.of(System.getProperty("jaxc.root", ".."), "docs", "primitive-status.md");
    String expected = HEADER + Support.describe("PTX backend (GPU)", PtxSupport::of);
    if (Boolean.getBoolean("jaxc.update")) Files.writeString(doc, expected);
    assertEquals(expected, Files.readString(doc), "docs/primitive-status.md is stale: run with -Djaxc.update=true");
  }
}
