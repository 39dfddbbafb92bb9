package dev.jaxc.ir;

/**
 * One dimension of a shape: a known size, or a symbolic expression kept as text (shape
 * polymorphism, dynamic shapes). A mesh-axis sharding annotation ({@code 8@x}) is kept so that
 * printing reproduces it; it does not change the meaning for a single device.
 */
public sealed interface Dim {
  /** The printed form, e.g. {@code 8}, {@code 8@x}, {@code 2*b}. */
  String text();

  record Known(long size, String sharding) implements Dim {
    public Known {
      if (size < 0) throw new NegativeSize(size);
    }

    public Known(long size) {
      this(size, null);
    }

    @Override
    public String text() {
      return sharding == null ? Long.toString(size) : size + "@" + sharding;
    }
  }

  record Symbolic(String expr) implements Dim {
    @Override
    public String text() {
      return expr;
    }
  }

  static Dim of(long size) {
    return new Known(size);
  }

  /**
   * A size below zero: what a type rule computes from out-of-range params (a negative slice size
   * or scan length); the type pass reports it at the equation.
   */
  final class NegativeSize extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    NegativeSize(long size) {
      super("negative dimension " + size);
    }
  }
}
