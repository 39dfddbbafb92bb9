package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;
import java.util.Optional;

/**
 * dot_general's params: {@code dimension_numbers=((lhs_contract, rhs_contract), (lhs_batch,
 * rhs_batch))} (tuples or lists), the algorithm preset that {@code precision} names when it names
 * one rather than a pair of {@code Precision} members or None, and {@code preferred_element_type}.
 */
public record DotDimensionNumbers(
    long[] lhsContract,
    long[] rhsContract,
    long[] lhsBatch,
    long[] rhsBatch,
    Optional<String> algorithm,
    Optional<DType> preferredElementType) {
  public static DotDimensionNumbers of(Params p) {
    String key = "dimension_numbers";
    ParamValue v =
        p.get(key).orElseThrow(() -> new ParamException("missing parameter '" + key + "'"));
    if (v instanceof ParamValue.Tuple outer
        && outer.items().size() == 2
        && outer.items().get(0) instanceof ParamValue.Tuple c
        && c.items().size() == 2
        && outer.items().get(1) instanceof ParamValue.Tuple b
        && b.items().size() == 2)
      return new DotDimensionNumbers(
          Params.asLongs(key, c.items().get(0)),
          Params.asLongs(key, c.items().get(1)),
          Params.asLongs(key, b.items().get(0)),
          Params.asLongs(key, b.items().get(1)),
          algorithm(p),
          p.getDTypeOpt("preferred_element_type"));
    throw new ParamException(
        "parameter 'dimension_numbers' must be ((lhs_contract, rhs_contract), (lhs_batch,"
            + " rhs_batch)), not "
            + v);
  }

  private static Optional<String> algorithm(Params p) {
    if (p.isNone("precision") || p.get("precision").get() instanceof ParamValue.Tuple)
      return Optional.empty();
    return p.getWord("precision");
  }
}
