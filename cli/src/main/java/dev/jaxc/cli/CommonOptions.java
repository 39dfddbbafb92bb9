package dev.jaxc.cli;

import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import picocli.CommandLine.Option;

/** Options every command that reads a jaxpr shares. */
public final class CommonOptions {
  @Option(names = "--x64", description = "Lone weak values default to 64-bit dtypes, as with jax_enable_x64.")
  boolean x64;

  @Option(
      names = "--promotion",
      paramLabel = "MODE",
      description = "standard (default): insert the conversions the promotion lattice implies; "
          + "strict: reject implicit promotion except of weak scalars.",
      converter = PromotionConverter.class)
  PromotionMode promotion = PromotionMode.STANDARD;

  @Option(
      names = "--diagnostics",
      paramLabel = "FORMAT",
      description = "text (default): file:line:col: error: message, with the line and a caret; "
          + "json: one JSON object per diagnostic per line, for CI annotations (docs/diagnostics.md).",
      converter = DiagnosticsConverter.class)
  Reporter.Format diagnostics = Reporter.Format.TEXT;

  TypeConfig typeConfig() {
    return new TypeConfig(x64, promotion);
  }

  static final class PromotionConverter implements picocli.CommandLine.ITypeConverter<PromotionMode> {
    @Override
    public PromotionMode convert(String s) {
      return switch (s) {
        case "standard" -> PromotionMode.STANDARD;
        case "strict" -> PromotionMode.STRICT;
        default -> throw new picocli.CommandLine.TypeConversionException(
            "expected 'standard' or 'strict', got '" + s + "'");
      };
    }
  }

  static final class DiagnosticsConverter implements picocli.CommandLine.ITypeConverter<Reporter.Format> {
    @Override
    public Reporter.Format convert(String s) {
      return switch (s) {
        case "text" -> Reporter.Format.TEXT;
        case "json" -> Reporter.Format.JSON;
        default -> throw new picocli.CommandLine.TypeConversionException(
            "expected 'text' or 'json', got '" + s + "'");
      };
    }
  }
}
