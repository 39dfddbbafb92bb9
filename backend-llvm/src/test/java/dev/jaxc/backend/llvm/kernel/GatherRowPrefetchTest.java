package dev.jaxc.backend.llvm.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.runtime.Threading;
import org.junit.jupiter.api.Test;

/**
 * Which gathers prefetch their operand's next row ({@link GatherRowPrefetch}): a column gather
 * from rows of 1–32 KiB does, one from short rows or a row gather does not. The values are the
 * golden case {@code index_take_columns_long_rows}'s to check (JAX's outputs); this checks the code.
 */
class GatherRowPrefetchTest {
  private static String ir(String model) {
    try (CompiledModule m = Compiler.compile(Compile.program(model), TargetSpec.host(), "f", Consts.NONE,
        Threading.SERIAL)) {
      return m.llvmIr();
    }
  }

  private static String takeColumns(int rows, int cols) {
    return """
        { lambda ; a:f32[%1$d,%2$d] b:i32[64]. let
            c:i32[64,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b
            d:f32[%1$d,64] = gather[
              dimension_numbers=GatherDimensionNumbers(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(), start_indices_batching_dims=())
              fill_value=nan
              indices_are_sorted=False
              mode=GatherScatterMode.FILL_OR_DROP
              slice_sizes=(%1$d, 1)
              unique_indices=False
            ] a c
          in (d,) }
        """.formatted(rows, cols);
  }

  @Test
  void columnGatherFromLongRowsPrefetchesTheNextRow() {
    assertTrue(ir(takeColumns(32, 1024)).contains("llvm.prefetch"));
  }

  @Test
  void shortRowsAreLeftToTheHardware() {
    assertFalse(ir(takeColumns(32, 64)).contains("llvm.prefetch"), "rows of 256 bytes");
  }

  @Test
  void rowsPastTheL1AreNotPrefetched() {
    assertFalse(ir(takeColumns(4, 16384)).contains("llvm.prefetch"), "rows of 64 KiB");
  }
}
