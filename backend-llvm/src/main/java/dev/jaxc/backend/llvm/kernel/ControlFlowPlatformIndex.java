package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.diag.JaxcException;
import java.util.List;

/**
 * {@code platform_index[platforms]}: which branch {@code lax.platform_dependent}'s cond takes on
 * the target's platform, a constant. As JAX's lowering (conditionals.py, {@code
 * _platform_index_lowering}) picks it: the last entry that names the platform ("cpu"; "cuda" for
 * PTX, which JAX also spells "gpu"), else the last {@code None} (default) entry.
 */
final class ControlFlowPlatformIndex {
  private ControlFlowPlatformIndex() {}

  static void emit(KernelContext cx) {
    boolean gpu = cx.ir().target() != null && cx.ir().target().arch() == TargetSpec.Arch.NVPTX;
    Value v = Value.of(cx.ir().i32(index(cx.eqn(), gpu ? List.of("cuda", "gpu") : List.of("cpu"))));
    cx.access().store(cx.results().get(0), cx.resultTypes().get(0), Index.SCALAR, v);
  }

  /** The branch for a platform named by any of {@code platform}. */
  static int index(Eqn e, List<String> platform) {
    List<ParamValue> entries = e.params().get("platforms").orElse(null) instanceof ParamValue.Tuple t ? t.items() : List.of();
    int mine = -1;
    int dflt = -1;
    for (int i = 0; i < entries.size(); i++) {
      ParamValue entry = entries.get(i);
      if (entry instanceof ParamValue.None) dflt = i;
      else if (entry instanceof ParamValue.Tuple names && platform.stream().anyMatch(p -> names.items().contains(new ParamValue.Str(p)))) mine = i;
    }
    if (mine < 0 && dflt < 0) throw new JaxcException("unsupported platform_index: no branch for " + platform.get(0), e.span());
    return mine >= 0 ? mine : dflt;
  }
}
