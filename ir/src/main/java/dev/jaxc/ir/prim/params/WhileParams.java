package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;

/**
 * {@code while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts] *cond_consts *body_consts
 * *carry}: cond takes its consts and the carry; body its consts and the carry.
 */
public record WhileParams(Jaxpr condJaxpr, int condNconsts, Jaxpr bodyJaxpr, int bodyNconsts) {
  public static WhileParams of(Params p) {
    return new WhileParams(
        p.getJaxpr("cond_jaxpr"),
        p.getInt("cond_nconsts"),
        p.getJaxpr("body_jaxpr"),
        p.getInt("body_nconsts"));
  }

  /** The carries of a while with {@code operands} operands. */
  public int carries(int operands) {
    return operands - condNconsts - bodyNconsts;
  }
}
