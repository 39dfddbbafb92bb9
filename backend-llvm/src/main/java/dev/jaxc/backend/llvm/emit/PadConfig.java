package dev.jaxc.backend.llvm.emit;

import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import java.util.List;

/** A pad equation's {@code padding_config}, checked by the type rules. */
public final class PadConfig {
  private PadConfig() {}

  /** (low, high, interior) per dimension of a rank-{@code rank} operand. */
  public static long[][] of(Params p, int rank) {
    ParamValue v = p.get("padding_config").orElseThrow();
    long[][] r = new long[rank][];
    List<ParamValue> items = ((ParamValue.Tuple) v).items();
    for (int d = 0; d < rank; d++) r[d] = Params.asLongs("padding_config", items.get(d));
    return r;
  }
}
