package dev.jaxc.cli;

import dev.jaxc.frontend.LowerFunExpansion;
import dev.jaxc.ir.pass.ApproxTopK;
import dev.jaxc.ir.pass.random.RngBitGeneratorExpansion;
import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.Compiler;
import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.backend.llvm.abi.Consts;
import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.ptx.EmulatedLaunch;
import dev.jaxc.cli.npy.DTypeMismatchException;
import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.pass.canon.CanonicalPipeline;
import dev.jaxc.ir.pass.canon.LoopInvariantHoisting;
import dev.jaxc.ir.pass.canon.ScanMapHoisting;
import dev.jaxc.ir.pass.random.RandomExpansion;
import dev.jaxc.ir.pass.random.RngUniformKeys;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What {@code jaxc run} and {@code jaxc check} share: the passes between the type pass and the
 * backend, host compilation, and running the compiled entry point in this process on arrays.
 */
final class HostRun {
  /** The inputs do not fit the jaxpr's binders. */
  static final class InputMismatch extends Exception {
    private static final long serialVersionUID = 1L;

    InputMismatch(String message) {
      super(message, null, false, false);
    }
  }

  private HostRun() {}

  /**
   * Special functions JAX lowers with lower_fun expanded into its equations, then canonical
   * (calls inlined, dead code gone), key-free, with loop-invariant work out of loops
   * (and a scan's products of its slices by consts computed for all iterations before it):
   * what the backend takes. XLA's rng_uniform keys are assigned first, while calls are still calls;
   * hoisting runs last, on the expanded random bits too.
   */
  static Program lower(Program typed) {
    return lower(typed, PhaseTimer.NONE);
  }

  /** As above, timed as the phase "canon". */
  static Program lower(Program typed, PhaseTimer timer) {
    return timer.time("canon", () -> ScanMapHoisting.run(LoopInvariantHoisting.run(
        RandomExpansion.run(CanonicalPipeline.run(RngBitGeneratorExpansion.run(ApproxTopK.run(LowerFunExpansion.run(RngUniformKeys.run(typed)))))))));
  }

  /** The C symbol for a model file: its stem with non-identifier characters replaced by '_'. */
  static String entryName(String fileName) {
    String stem = fileName.endsWith(".jaxpr") ? fileName.substring(0, fileName.length() - 6) : fileName;
    String s = stem.replaceAll("[^A-Za-z0-9_]", "_");
    return s.isEmpty() || Character.isDigit(s.charAt(0)) ? "_" + s : s;
  }

  /** Compiles {@code typed} for the host and runs it once on {@code inputs} (constvars, then invars). */
  static List<NpyArray> run(Program typed, String name, List<NpyArray> inputs) throws InputMismatch {
    return runLowered(lower(typed), name, Consts.NONE, inputs);
  }

  /**
   * Compiles a lowered program for the host with {@code consts} baked in and runs it once on
   * {@code inputs} (the constvars not baked in, then the invars).
   */
  static List<NpyArray> runLowered(Program lowered, String name, Consts consts, List<NpyArray> inputs)
      throws InputMismatch {
    try (CompiledModule m = Compiler.compile(lowered, TargetSpec.host(), name, consts)) {
      return run(m, inputs, consts.count() > 0);
    }
  }

  /**
   * Runs a lowered program's PTX kernels once on {@code inputs} (constvars, then invars),
   * emulated on this machine's CPU ({@link EmulatedLaunch}): no GPU is used.
   */
  static List<NpyArray> runEmulated(Program lowered, String name, String sm, List<NpyArray> inputs)
      throws InputMismatch {
    return runEmulated(lowered, name, sm, inputs, dev.jaxc.backend.ptx.HostControl.Policy.fromEnvironment());
  }

  /** As above, with cond, while and scan driven from the host by {@code policy}. */
  static List<NpyArray> runEmulated(Program lowered, String name, String sm, List<NpyArray> inputs,
      dev.jaxc.backend.ptx.HostControl.Policy policy) throws InputMismatch {
    try (CompiledModule m = EmulatedLaunch.compile(lowered, sm, name, policy)) {
      return run(m, inputs, false);
    }
  }

  /** As above, with the leading constvars baked in ({@code --consts}). */
  static List<NpyArray> runEmulated(Program lowered, String name, String sm, Consts baked, List<NpyArray> inputs)
      throws InputMismatch {
    try (CompiledModule m = EmulatedLaunch.compile(lowered, sm, name,
        dev.jaxc.backend.ptx.HostControl.Policy.fromEnvironment(), baked)) {
      return run(m, inputs, baked.count() > 0);
    }
  }

  /** Runs a host module once on {@code inputs}; {@code baked}: its constvars come from --consts. */
  static List<NpyArray> run(CompiledModule m, List<NpyArray> inputs, boolean baked) throws InputMismatch {
    List<ArrayType> inTypes = m.inputTypes();
    List<NpyArray> in = conform(inputs, inTypes, baked);
    ByteBuffer[] inBufs = new ByteBuffer[in.size()];
    for (int k = 0; k < inBufs.length; k++) inBufs[k] = buffer(in.get(k).data());
    List<ArrayType> outTypes = m.outputTypes();
    ByteBuffer[] out = new ByteBuffer[outTypes.size()];
    for (int k = 0; k < out.length; k++) out[k] = poisoned(outTypes.get(k));
    ErrorCode rc = m.run(inBufs, out);
    if (rc != ErrorCode.OK) throw new IllegalStateException("the compiled entry point returned " + rc);
    List<NpyArray> r = new ArrayList<>();
    for (int k = 0; k < out.length; k++) {
      byte[] data = new byte[(int) bytes(outTypes.get(k))];
      out[k].get(0, data);
      r.add(NpyArray.of(outTypes.get(k).dtype(), outTypes.get(k).shape().sizes(), data));
    }
    return r;
  }

  /** The inputs as the entry point's binders take them; {@code baked}: constvars come from --consts. */
  static List<NpyArray> conform(List<NpyArray> inputs, List<ArrayType> types, boolean baked) throws InputMismatch {
    if (inputs.size() != types.size()) {
      throw new InputMismatch("the model takes " + types.size() + " inputs ("
          + (baked ? "invars; the constvars come from --consts" : "constvars, then invars") + "), got " + inputs.size());
    }
    List<NpyArray> r = new ArrayList<>();
    for (int k = 0; k < inputs.size(); k++) {
      Optional<NpyArray> a = as(inputs.get(k), types.get(k));
      if (a.isEmpty())
        throw new InputMismatch("input " + k + " is " + inputs.get(k).describe() + " but the model takes " + types.get(k).text());
      r.add(a.get());
    }
    return r;
  }

  /** {@code a} as a binder of type {@code t} takes it (bf16 read from raw '<V2' data), if it fits. */
  static Optional<NpyArray> as(NpyArray a, ArrayType t) {
    NpyArray r;
    try {
      r = a.as(t.dtype());
    } catch (DTypeMismatchException e) {
      return Optional.empty();
    }
    return Arrays.equals(r.shape(), t.shape().sizes()) ? Optional.of(r) : Optional.empty();
  }

  static long bytes(ArrayType t) {
    return t.shape().elementCount() * t.dtype().byteSize();
  }

  /**
   * An output buffer filled with what no correct run leaves there unwritten: all-ones bytes for
   * floats (NaN in every float dtype), 0xA5 bytes for integers and booleans (no bool's value, an
   * unlikely integer), so an element the code never stores cannot match JAX's output by chance.
   */
  static ByteBuffer poisoned(ArrayType t) {
    ByteBuffer b = direct(bytes(t));
    byte fill = t.dtype().isFloating() || t.dtype().isComplex() ? (byte) 0xFF : (byte) 0xA5;
    for (int i = 0; i < b.capacity(); i++) b.put(i, fill);
    return b;
  }

  private static ByteBuffer direct(long bytes) {
    // At least one byte: a zero-capacity direct buffer may have no address.
    return ByteBuffer.allocateDirect((int) Math.max(1, bytes)).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static ByteBuffer buffer(byte[] data) {
    ByteBuffer b = direct(data.length);
    b.put(0, data);
    return b;
  }
}
