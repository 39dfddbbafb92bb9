package dev.jaxc.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code jaxc compile --emit KIND} writes, and the file name it gets by default. */
enum EmitKind {
  OBJ("obj"),
  SHARED("shared"),
  ASM("asm"),
  LLVM_IR("llvm-ir"),
  HEADER("header"),
  PTX("ptx");

  private final String option;

  EmitKind(String option) {
    this.option = option;
  }

  String option() {
    return option;
  }

  /** The default file name for entry point {@code name}. */
  String fileName(String name) {
    return switch (this) {
      case OBJ -> name + ".o";
      case SHARED -> "lib" + name + ".so";
      case ASM -> name + ".s";
      case LLVM_IR -> name + ".ll";
      case HEADER -> name + ".h";
      case PTX -> name + ".ptx";
    };
  }

  /** The option values, for shell completion. */
  static final class Candidates extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Candidates() {
      for (EmitKind k : values()) add(k.option);
    }
  }

  static final class Converter implements ITypeConverter<EmitKind> {
    @Override
    public EmitKind convert(String s) {
      for (EmitKind k : values()) if (k.option.equals(s.toLowerCase(Locale.ROOT))) return k;
      throw new TypeConversionException("expected obj, shared, asm, llvm-ir, header or ptx, got '" + s + "'");
    }
  }
}
