package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;

/**
 * {@code scan[jaxpr num_consts num_carry length reverse …] *consts *carry *xs}: the body takes
 * consts, carry and one slice of each xs; {@code reverse} walks the slices from the end ({@code
 * unroll} is a hint and {@code linear} a differentiation flag, neither needed here).
 */
public record ScanParams(Jaxpr jaxpr, int numConsts, int numCarry, long length, boolean reverse) {
  public static ScanParams of(Params p) {
    return new ScanParams(
        p.getJaxpr("jaxpr"),
        p.getInt("num_consts"),
        p.getInt("num_carry"),
        p.getLong("length"),
        p.getBool("reverse", false));
  }
}
