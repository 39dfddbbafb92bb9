package dev.jaxc.frontend;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The jaxprs {@code testdata/generate_expansions.py} recorded (resources {@code expansions/}), each
 * traced at sizes the script proves free, and their typed instances with those sizes replaced by
 * the ones at hand: one per name and sizes, shared by a model's repeated uses.
 */
final class RecordedJaxprs {
  private static final Map<String, String> TEXTS = new HashMap<>();

  /** Typed instances by name and sizes. */
  private final Map<String, Jaxpr> instances = new HashMap<>();

  static String[] pair(long traced, long value) {
    return new String[] {Long.toString(traced), Long.toString(value)};
  }

  static ParamValue.Tuple ints(long... xs) {
    List<ParamValue> items = new ArrayList<>();
    for (long x : xs) items.add(ParamValue.Int.of(x));
    return new ParamValue.Tuple(items);
  }

  /**
   * The recorded jaxpr {@code name}, typed, with each traced number replaced by its value here
   * ({@code replacements}: pairs, in order).
   */
  Jaxpr instance(String name, boolean x64, List<String[]> replacements) {
    StringBuilder key = new StringBuilder(name);
    for (String[] r : replacements) key.append('_').append(r[1]);
    return instances.computeIfAbsent(key.toString(), k -> {
      // Through placeholders, so that no value written in can be taken for a traced number.
      String text = text(name);
      for (int i = 0; i < replacements.size(); i++) text = text.replace(replacements.get(i)[0], "\u0000" + i + "\u0000");
      for (int i = 0; i < replacements.size(); i++) text = text.replace("\u0000" + i + "\u0000", replacements.get(i)[1]);
      Program p = JaxprParser.parse("expansions/" + name + ".jaxpr", text);
      Jaxpr j = TypePass.run(p, new TypeConfig(x64, PromotionMode.STANDARD), new Diagnostics()).main();
      if (!j.constvars().isEmpty()) throw new IllegalStateException("expansions/" + name + ".jaxpr closes over constants");
      return j;
    });
  }

  private static synchronized String text(String name) {
    return TEXTS.computeIfAbsent(name, k -> {
      try (InputStream in = LowerFunExpansion.class.getResourceAsStream("expansions/" + k + ".jaxpr")) {
        if (in == null) throw new IllegalStateException("missing resource expansions/" + k + ".jaxpr");
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    });
  }
}
