package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Constants;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Scalar;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.prim.Primitive;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The combiners and initial values JAX lowers the built-in reductions to, written as scalar
 * jaxprs so they go through the same {@code ScalarJaxprEmitter} as a user's {@code reduce}.
 */
final class ReduceCombiners {
  private ReduceCombiners() {}

  /** The binary combiner of a reduce_* or cumulative primitive (not cumlogsumexp). */
  static Jaxpr monoid(Primitive p, DType d) {
    String op = switch (p) {
      case REDUCE_SUM, CUMSUM -> "add";
      case REDUCE_PROD, CUMPROD -> "mul";
      case REDUCE_MAX, CUMMAX -> "max";
      case REDUCE_MIN, CUMMIN -> "min";
      case REDUCE_AND -> "and";
      case REDUCE_OR -> "or";
      case REDUCE_XOR -> "xor";
      default -> throw new IllegalArgumentException(p.printedName());
    };
    Builder b = new Builder();
    Var acc = b.in(d);
    Var x = b.in(d);
    // XLA's code for a complex product fuses one real product into an FMA per part, and in a
    // reduction loop LLVM picks, for the imaginary part, the product our emitter fuses when the
    // operands come the other way round: x * acc rounds as XLA's acc * x. (Real products commute.)
    if (op.equals("mul")) return b.out(b.eqn(op, d, x, acc));
    return b.out(b.eqn(op, d, acc, x));
  }

  /**
   * True if folding in any order gives the same bits: wrapping integer arithmetic and bitwise
   * operations, and max/min of reals (NaN-propagating, +0 above -0, denormals read as zero).
   * Float sums and products round differently, complex max/min compare NaNs order-dependently.
   */
  static boolean orderFree(Primitive p, DType d) {
    return switch (d.kind()) {
      case BOOL, INT, UINT -> true;
      case FLOAT -> p == Primitive.REDUCE_MAX || p == Primitive.REDUCE_MIN;
      case COMPLEX, OTHER -> false;
    };
  }

  /**
   * The init value JAX gives a reduce_*, argmax/argmin or cumulative primitive: the identity of
   * its combiner (±inf for floats, the extreme integers, all ones for and).
   */
  static Value identity(Ir ir, Primitive p, DType d) {
    Scalar s = switch (p) {
      case REDUCE_SUM, CUMSUM, REDUCE_OR, REDUCE_XOR -> zero(d);
      case REDUCE_PROD, CUMPROD -> d.isInexact() ? new Scalar.Float(1) : Scalar.Int.of(1);
      case REDUCE_MAX, CUMMAX, ARGMAX -> extreme(d, false);
      case REDUCE_MIN, CUMMIN, ARGMIN -> extreme(d, true);
      case REDUCE_AND -> d == DType.BOOL ? new Scalar.Bool(true) : Scalar.Int.of(-1);
      case CUMLOGSUMEXP -> new Scalar.Float(Double.NEGATIVE_INFINITY);
      default -> throw new IllegalArgumentException(p.printedName());
    };
    return Constants.literal(ir, literal(s, d));
  }

  static Value zeroOf(Ir ir, DType d) {
    return Constants.literal(ir, literal(zero(d), d));
  }

  private static Scalar zero(DType d) {
    if (d == DType.BOOL) return new Scalar.Bool(false);
    return d.isInexact() ? new Scalar.Float(0) : Scalar.Int.of(0);
  }

  /** The largest ({@code high}) or lowest value of {@code d}; complex: (±inf, 0). */
  private static Scalar extreme(DType d, boolean high) {
    if (d == DType.BOOL) return new Scalar.Bool(high);
    if (d.isInexact()) return new Scalar.Float(high ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
    int bits = d.bits();
    if (d.isUnsigned())
      return new Scalar.Int(high ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE) : BigInteger.ZERO);
    BigInteger half = BigInteger.ONE.shiftLeft(bits - 1);
    return new Scalar.Int(high ? half.subtract(BigInteger.ONE) : half.negate());
  }

  /**
   * argmax/argmin as JAX lowers them: a reduce over (value, index) pairs that keeps the
   * accumulator when it is greater (less), or NaN, or equal with a smaller index. So the first
   * maximum wins, and the first NaN.
   */
  static Jaxpr argMinMax(boolean max, DType value, DType index) {
    Builder b = new Builder();
    Var accV = b.in(value);
    Var accI = b.in(index);
    Var xV = b.in(value);
    Var xI = b.in(index);
    Var nan = b.eqn("ne", DType.BOOL, accV, accV);
    Var better = b.eqn(max ? "gt" : "lt", DType.BOOL, accV, xV);
    Var same = b.eqn("eq", DType.BOOL, accV, xV);
    Var earlier = b.eqn("lt", DType.BOOL, accI, xI);
    Var keep = b.eqn("or", DType.BOOL, better, nan);
    Var tie = b.eqn("and", DType.BOOL, same, earlier);
    Var v = b.eqn("select_n", value, keep, xV, accV);
    Var keepIndex = b.eqn("or", DType.BOOL, keep, tie);
    Var i = b.eqn("select_n", index, keepIndex, xI, accI);
    return b.out(v, i);
  }

  /**
   * argmax/argmin's merge of two partial results (value, index) of disjoint sets of elements, in
   * either order: a NaN before a number, then the better value, then the smaller index. Each
   * partial, folded in index order from the init by {@link #argMinMax}, is its set's first NaN,
   * else its best value at its first index (or the init's index 0 where every value equals the
   * init, as the whole row's fold gives when all of it does); so merging partials in any order
   * gives what the sequential fold gives: the row's first NaN, else its first best.
   */
  static Jaxpr argMerge(boolean max, DType value, DType index) {
    Builder b = new Builder();
    Var aV = b.in(value);
    Var aI = b.in(index);
    Var xV = b.in(value);
    Var xI = b.in(index);
    Var aNan = b.eqn("ne", DType.BOOL, aV, aV);
    Var xNumber = b.eqn("eq", DType.BOOL, xV, xV);
    Var better = b.eqn(max ? "gt" : "lt", DType.BOOL, aV, xV);
    Var same = b.eqn("eq", DType.BOOL, aV, xV);
    Var earlier = b.eqn("lt", DType.BOOL, aI, xI);
    Var keepNumber = b.eqn("and", DType.BOOL, xNumber, b.eqn("or", DType.BOOL, better, b.eqn("and", DType.BOOL, same, earlier)));
    Var keepNan = b.eqn("or", DType.BOOL, xNumber, earlier);
    Var keep = b.eqn("select_n", DType.BOOL, aNan, keepNumber, keepNan);
    return b.out(b.eqn("select_n", value, keep, xV, aV), b.eqn("select_n", index, keep, xI, aI));
  }

  /**
   * cumlogsumexp's combiner, JAX's logaddexp: max(a, b) + log1p(exp(-|a - b|)), or a + b when
   * a - b is NaN (a NaN, or infinities of the same sign).
   */
  static Jaxpr logAddExp(DType d) {
    if (d.isComplex()) return complexLogAddExp(d);
    Builder b = new Builder();
    Var x = b.in(d);
    Var y = b.in(d);
    Var delta = b.eqn("sub", d, x, y);
    Var sum = b.eqn("add", d, x, y);
    Var big = b.eqn("max", d, x, y);
    Var undefined = b.eqn("ne", DType.BOOL, delta, delta);
    Var mag = b.eqn("abs", d, delta);
    Var negMag = b.eqn("neg", d, mag);
    Var e = b.eqn("exp", d, negMag);
    Var l = b.eqn("log1p", d, e);
    Var r = b.eqn("add", d, big, l);
    return b.out(b.eqn("select_n", d, undefined, r, sum));
  }

  /**
   * JAX's logaddexp of complex numbers: with m the operand of larger real part (then larger
   * imaginary part), m + log1p(exp(a + b - 2m)), its imaginary part wrapped into [-pi, pi).
   */
  private static Jaxpr complexLogAddExp(DType d) {
    DType part = d.realPart();
    Builder b = new Builder();
    Var x = b.in(d);
    Var y = b.in(d);
    Var xr = b.eqn("real", part, x);
    Var yr = b.eqn("real", part, y);
    Var sameRe = b.eqn("eq", DType.BOOL, xr, yr);
    Var largerRe = b.eqn("gt", DType.BOOL, xr, yr);
    Var largerIm = b.eqn("gt", DType.BOOL, b.eqn("imag", part, x), b.eqn("imag", part, y));
    Var firstIsMax = b.eqn("select_n", DType.BOOL, sameRe, largerRe, largerIm);
    Var max = b.eqn("select_n", d, firstIsMax, y, x);
    Var rest = b.eqn("sub", d, b.eqn("add", d, x, y), b.eqn("mul", d, max, literal(new Scalar.Complex(2, 0), d)));
    Var sum = b.eqn("add", d, max, b.eqn("log1p", d, b.eqn("exp", d, rest)));
    Literal pi = literal(new Scalar.Float(Math.PI), part);
    Literal twoPi = literal(new Scalar.Float(2 * Math.PI), part);
    Var turned = b.eqn("rem", part, b.eqn("add", part, b.eqn("imag", part, sum), pi), twoPi);
    Var negative = b.eqn("lt", DType.BOOL, turned, literal(new Scalar.Float(0), part));
    Var wrapped = b.eqn("select_n", part, negative, turned, b.eqn("add", part, turned, twoPi));
    return b.out(b.eqn("complex", d, b.eqn("real", part, sum), b.eqn("sub", part, wrapped, pi)));
  }

  private static Literal literal(Scalar s, DType d) {
    return new Literal(s, ArrayType.scalar(d), true, Span.NONE);
  }

  /** Builds a combiner jaxpr on scalars; variable names only matter for messages. */
  private static final class Builder {
    private final List<Var> invars = new ArrayList<>();
    private final List<Eqn> eqns = new ArrayList<>();
    private int names;

    Var in(DType d) {
      Var v = fresh(d);
      invars.add(v);
      return v;
    }

    Var eqn(String primitive, DType out, Atom... ins) {
      Var v = fresh(out);
      eqns.add(new Eqn(List.of(v), primitive, Params.EMPTY, Arrays.asList(ins)));
      return v;
    }

    Jaxpr out(Atom... outs) {
      return new Jaxpr(List.of(), invars, eqns, Arrays.asList(outs));
    }

    private Var fresh(DType d) {
      return new Var("c" + names++, ArrayType.scalar(d));
    }
  }
}
