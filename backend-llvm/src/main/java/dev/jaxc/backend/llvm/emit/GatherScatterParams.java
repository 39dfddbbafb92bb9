package dev.jaxc.backend.llvm.emit;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.prim.params.GatherParams;
import dev.jaxc.ir.prim.params.GatherScatterMode;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.ScatterParams;
import java.util.Arrays;

/**
 * The params of gather and the scatters as this backend reads them: ir's records ({@link
 * GatherParams}, {@link ScatterParams}), decoded with errors located at the equation, and the mode,
 * which lowering needs (the type rules do not).
 */
public final class GatherScatterParams {
  private GatherScatterParams() {}

  public static GatherParams gather(Eqn e) {
    return ParamDecoding.at(e, GatherParams::of);
  }

  public static ScatterParams scatter(Eqn e) {
    return ParamDecoding.at(e, ScatterParams::of);
  }

  /** The mode; ONE_HOT never reaches a primitive (jnp rewrites it), so it is not lowered. */
  public static GatherScatterMode mode(Eqn e) {
    GatherScatterMode m = ParamDecoding.at(e, GatherScatterMode::required);
    if (m == GatherScatterMode.ONE_HOT) throw error(e, "mode " + m);
    return m;
  }

  public static boolean contains(long[] xs, long x) {
    return Arrays.stream(xs).anyMatch(v -> v == x);
  }

  static JaxcException error(Eqn e, String what) {
    return new JaxcException("unsupported primitive " + e.primitive() + ": " + what, e.span());
  }
}
