package dev.jaxc.ir.prim.params;

import dev.jaxc.ir.Params;
import dev.jaxc.ir.Params.ParamException;
import java.util.Optional;

/**
 * What an out-of-bounds start index of gather or a scatter does ({@code mode=GatherScatterMode.…}).
 * ONE_HOT never reaches a primitive (jnp rewrites it), so no backend lowers it.
 */
public enum GatherScatterMode {
  CLIP,
  FILL_OR_DROP,
  PROMISE_IN_BOUNDS,
  ONE_HOT;

  /** The {@code mode} param; empty when absent or None (the type rules do not need it). */
  public static Optional<GatherScatterMode> of(Params p) {
    if (p.isNone("mode")) return Optional.empty();
    String w =
        p.getWord("mode").orElseThrow(() -> new ParamException("unreadable parameter 'mode'"));
    String name = w.substring(w.lastIndexOf('.') + 1);
    for (GatherScatterMode m : values()) if (m.name().equals(name)) return Optional.of(m);
    throw new ParamException("unknown mode " + w);
  }

  /** The {@code mode} param, which a backend needs. */
  public static GatherScatterMode required(Params p) {
    return of(p).orElseThrow(() -> new ParamException("missing parameter 'mode'"));
  }
}
