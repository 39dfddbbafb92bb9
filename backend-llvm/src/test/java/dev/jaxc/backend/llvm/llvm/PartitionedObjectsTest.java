package dev.jaxc.backend.llvm.llvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.ir.Program;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A large golden model (a flax transformer block) is compiled in partitions (whose linked library
 * `jaxc check` compares with JAX's outputs in the golden corpus); its one object for {@code --emit
 * obj} defines the entry points alone and is the same bytes in two compilations; a small model is
 * compiled whole.
 */
class PartitionedObjectsTest {
  private static final String NAME = "tb";

  private static Program program(String name) throws Exception {
    Path cases = null;
    for (Path q = Path.of("").toAbsolutePath(); q != null && cases == null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve("testdata/cases"))) cases = q.resolve("testdata/cases");
    }
    assumeTrue(cases != null, "no testdata/cases");
    return Compile.program(Files.readString(cases.resolve(name).resolve("model.jaxpr")));
  }

  @Test
  void aLargeModelIsCompiledInPartitionsJoinedIntoOneCleanDeterministicObject() throws Exception {
    assumeTrue(Linker.canJoin(), "ld.lld and objcopy are needed to join partitions");
    Program p = program("model_transformer_block_flax");
    for (TargetSpec spec : new TargetSpec[] {TargetSpec.x86_64(), TargetSpec.aarch64()}) {
      byte[] obj;
      try (CompiledModule m = Compiler.compile(p, spec, NAME)) {
        int parts = m.objects().size();
        assertTrue(parts >= 2 && parts <= ModulePartitions.MAX_PARTITIONS, spec + ": " + parts + " partitions");
        obj = m.objectCode();
      }
      assertEquals(new TreeSet<>(List.of(NAME, NAME + "_num_inputs", NAME + "_num_outputs", NAME + "_workspace_size",
          NAME + "_with_workspace", NAME + "_set_num_threads")), new TreeSet<>(ElfSymbols.of(obj).defined()), spec.toString());
      try (CompiledModule again = Compiler.compile(p, spec, NAME)) {
        assertArrayEquals(obj, again.objectCode(), spec + ": not deterministic");
      }
    }
  }

  @Test
  void aSmallModelIsCompiledWhole() throws Exception {
    try (CompiledModule m = Compiler.compile(program("misc_polyval"), TargetSpec.x86_64(), NAME)) {
      assertEquals(1, m.objects().size());
    }
  }
}
