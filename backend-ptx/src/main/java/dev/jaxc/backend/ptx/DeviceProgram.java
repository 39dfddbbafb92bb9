package dev.jaxc.backend.ptx;

import java.util.List;

/**
 * What a PTX compile hands to the host library: the module text and the kernel launches that
 * run the model, in order, on one stream. Every kernel takes the same parameters, so the host
 * side needs no per-kernel table: one pointer per input (constvars not baked in, then invars),
 * one per output, then the workspace pointer (null when {@code workspaceBytes} is 0).
 *
 * @param name the C ABI entry point's name
 * @param sm the PTX target, e.g. {@code sm_80}
 * @param ptx the module as PTX text
 * @param launches the kernels to launch, in order
 * @param workspaceBytes device work memory a call needs (kept across calls by the host library)
 * @param inputBytes size in bytes of each input buffer, in C ABI order
 * @param outputBytes size in bytes of each output buffer, in C ABI order
 */
public record DeviceProgram(
    String name, String sm, String ptx, List<Launch> launches, long workspaceBytes,
    List<Long> inputBytes, List<Long> outputBytes) {
  public DeviceProgram {
    launches = List.copyOf(launches);
    inputBytes = List.copyOf(inputBytes);
    outputBytes = List.copyOf(outputBytes);
  }

  /** One kernel launch: a 1-D grid of {@code gridX} blocks of {@code blockX} threads. */
  public record Launch(String kernel, int gridX, int blockX, int sharedBytes) {
    public Launch {
      if (gridX < 1 || blockX < 1 || blockX > 1024 || sharedBytes < 0)
        throw new IllegalArgumentException("launch " + kernel + ": grid " + gridX + ", block " + blockX);
    }
  }
}
