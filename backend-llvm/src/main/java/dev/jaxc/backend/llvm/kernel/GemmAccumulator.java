package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.Conversions;
import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Ftz;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The arithmetic of a contraction: accumulator slots, their zero, one multiply-add of an lhs and
 * an rhs element (given in their operand dtypes), and the finished value in the result dtype.
 */
public sealed interface GemmAccumulator permits GemmAccumulator.Plain, GemmAccumulator.Gauss {
  List<LLVMTypeRef> slots();

  List<LLVMValueRef> zero();

  List<LLVMValueRef> step(List<LLVMValueRef> acc, Value a, Value b);

  /**
   * The sum of a single term: XLA simplifies such a contraction to a multiply, so the product's
   * sign of zero survives (no {@code 0 +}).
   */
  List<LLVMValueRef> single(Value a, Value b);

  /** The result's compute value. */
  Value finish(List<LLVMValueRef> acc);

  /**
   * acc + a·b in {@code acc}'s dtype: operands converted to it (denormals read as zero where XLA
   * flushes), the sum flushed and converted to {@code result} at the end.
   */
  static GemmAccumulator plain(Ir ir, DType lhs, DType rhs, DType acc, DType result) {
    return new Plain(ir, lhs, rhs, acc, result);
  }

  /**
   * XLA:CPU's complex convolution, as JAX lowers it (Gauss's trick): three real contractions k1 =
   * (a.re + a.im)·b.re, k2 = a.re·(b.im − b.re), k3 = a.im·(b.re + b.im), whose operand sums are
   * elementwise operations in the operands' part dtype; the result is (k1 − k3) + (k1 + k2)i.
   */
  static GemmAccumulator gauss(Ir ir, DType operand, DType result) {
    return new Gauss(ir, operand, result);
  }

  final class Plain implements GemmAccumulator {
    private final Ir ir;
    private final DType lhs;
    private final DType rhs;
    private final DType acc;
    private final DType result;
    private final LLVMTypeRef t;

    Plain(Ir ir, DType lhs, DType rhs, DType acc, DType result) {
      this.ir = ir;
      this.lhs = lhs;
      this.rhs = rhs;
      this.acc = acc;
      this.result = result;
      this.t = ElementTypes.compute(ir, acc);
    }

    @Override
    public List<LLVMTypeRef> slots() {
      return acc.isComplex() ? List.of(t, t) : List.of(t);
    }

    /** The accumulation dtype. */
    public DType acc() {
      return acc;
    }

    /** The lhs operand's dtype as the sum reads it. */
    public DType lhs() {
      return lhs;
    }

    /** The same arithmetic with the operands' roles exchanged (their dtypes swap). */
    Plain swapped() {
      return new Plain(ir, rhs, lhs, acc, result);
    }

    /** The rhs operand's dtype as the sum reads it. */
    public DType rhs() {
      return rhs;
    }

    /** An lhs element as a term of the sum: converted to the accumulation dtype, read as XLA does. */
    public LLVMValueRef lhsTerm(Value a) {
      return Ftz.daz(ir, acc, Conversions.convert(ir, a, lhs, acc)).v();
    }

    /** An rhs element as a term of the sum. */
    public LLVMValueRef rhsTerm(Value b) {
      return Ftz.daz(ir, acc, Conversions.convert(ir, b, rhs, acc)).v();
    }

    @Override
    public List<LLVMValueRef> zero() {
      return switch (acc.kind()) {
        case BOOL, INT, UINT -> List.of(ir.constInt(t, 0));
        case FLOAT -> List.of(ir.constReal(t, 0.0));
        case COMPLEX -> List.of(ir.constReal(t, 0.0), ir.constReal(t, 0.0));
        case OTHER -> throw new IllegalArgumentException("accumulation in " + acc);
      };
    }

    @Override
    public List<LLVMValueRef> step(List<LLVMValueRef> cur, Value a, Value b) {
      Value x = Ftz.daz(ir, acc, Conversions.convert(ir, a, lhs, acc));
      Value y = Ftz.daz(ir, acc, Conversions.convert(ir, b, rhs, acc));
      return switch (acc.kind()) {
        case BOOL -> List.of(ir.or(cur.get(0), ir.and(x.v(), y.v())));
        case INT, UINT -> List.of(ir.add(cur.get(0), ir.mul(x.v(), y.v())));
        case FLOAT -> List.of(ir.fadd(cur.get(0), ir.fmul(x.v(), y.v())));
        case COMPLEX -> List.of(
            ir.fsub(ir.fadd(cur.get(0), ir.fmul(x.re(), y.re())), ir.fmul(x.im(), y.im())),
            ir.fadd(ir.fadd(cur.get(1), ir.fmul(x.re(), y.im())), ir.fmul(x.im(), y.re())));
        case OTHER -> throw new IllegalArgumentException("accumulation in " + acc);
      };
    }

    @Override
    public List<LLVMValueRef> single(Value a, Value b) {
      Value x = Ftz.daz(ir, acc, Conversions.convert(ir, a, lhs, acc));
      Value y = Ftz.daz(ir, acc, Conversions.convert(ir, b, rhs, acc));
      return switch (acc.kind()) {
        case FLOAT -> List.of(ir.fmul(x.v(), y.v()));
        // XLA's complex multiply: the first product of each part fused.
        case COMPLEX -> List.of(
            ir.intrinsic("llvm.fmuladd", x.re(), y.re(), ir.fneg(ir.fmul(x.im(), y.im()))),
            ir.intrinsic("llvm.fmuladd", x.re(), y.im(), ir.fmul(x.im(), y.re())));
        case BOOL, INT, UINT, OTHER -> step(zero(), a, b);
      };
    }

    @Override
    public Value finish(List<LLVMValueRef> s) {
      Value v = acc.isComplex()
          ? Value.complex(Ftz.flush(ir, acc, s.get(0)), Ftz.flush(ir, acc, s.get(1)))
          : Value.of(Ftz.flush(ir, acc, s.get(0)));
      return Conversions.convert(ir, v, acc, result);
    }
  }

  final class Gauss implements GemmAccumulator {
    private final Ir ir;
    private final DType part;
    private final DType acc;
    private final DType resultPart;
    private final LLVMTypeRef t;

    Gauss(Ir ir, DType operand, DType result) {
      this.ir = ir;
      this.part = operand.realPart();
      this.resultPart = result.realPart();
      this.acc = ir.numerics().dotAccumulation(part, resultPart);
      this.t = ElementTypes.compute(ir, acc);
    }

    @Override
    public List<LLVMTypeRef> slots() {
      return List.of(t, t, t);
    }

    @Override
    public List<LLVMValueRef> zero() {
      LLVMValueRef z = ir.constReal(t, 0.0);
      return List.of(z, z, z);
    }

    @Override
    public List<LLVMValueRef> step(List<LLVMValueRef> cur, Value a, Value b) {
      List<LLVMValueRef> k = single(a, b);
      return List.of(ir.fadd(cur.get(0), k.get(0)), ir.fadd(cur.get(1), k.get(1)), ir.fadd(cur.get(2), k.get(2)));
    }

    /** The three products; a single one is each real contraction's whole value. */
    @Override
    public List<LLVMValueRef> single(Value a, Value b) {
      return List.of(ir.fmul(in(add(a.re(), a.im())), in(b.re())),
          ir.fmul(in(a.re()), in(sub(b.im(), b.re()))),
          ir.fmul(in(a.im()), in(add(b.re(), b.im()))));
    }

    @Override
    public Value finish(List<LLVMValueRef> s) {
      LLVMValueRef k1 = out(s.get(0));
      LLVMValueRef k2 = out(s.get(1));
      LLVMValueRef k3 = out(s.get(2));
      // The real contractions end in the result's part dtype; the final sums are in it too.
      return Value.complex(flush(ir.fsub(k1, k3)), flush(ir.fadd(k1, k2)));
    }

    /** An elementwise operation of the operands' part dtype: exact inputs, flushed result. */
    private LLVMValueRef add(LLVMValueRef x, LLVMValueRef y) {
      return Ftz.flush(ir, part, ir.fadd(Ftz.daz(ir, part, x), Ftz.daz(ir, part, y)));
    }

    private LLVMValueRef sub(LLVMValueRef x, LLVMValueRef y) {
      return Ftz.flush(ir, part, ir.fsub(Ftz.daz(ir, part, x), Ftz.daz(ir, part, y)));
    }

    private LLVMValueRef in(LLVMValueRef x) {
      return Ftz.daz(ir, acc, Conversions.convert(ir, Value.of(x), part, acc).v());
    }

    private LLVMValueRef out(LLVMValueRef x) {
      return Conversions.convert(ir, Value.of(Ftz.flush(ir, acc, x)), acc, resultPart).v();
    }

    private LLVMValueRef flush(LLVMValueRef x) {
      return Ftz.flush(ir, resultPart, x);
    }
  }
}
