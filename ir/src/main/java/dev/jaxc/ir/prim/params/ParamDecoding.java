package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.diag.JaxcException;
import java.util.function.Function;

/** Runs a decoder on an equation's params, reporting malformed params at the equation. */
public final class ParamDecoding {
  private ParamDecoding() {}

  /** {@code decode(e.params())}, or a one-line error "prim: what is wrong" at the primitive. */
  public static <T> T at(Eqn e, Function<Params, T> decode) {
    try {
      return decode.apply(e.params());
    } catch (Params.ParamException x) {
      throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
    }
  }
}
