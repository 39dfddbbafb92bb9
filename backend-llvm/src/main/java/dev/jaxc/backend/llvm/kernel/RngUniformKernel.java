package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ftz;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.random.RngUniformKeys;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Kernel for {@code rng_uniform[shape] lo hi} as XLA:CPU runs it for JAX 0.10.2: RngExpander's
 * expansion (xla/service/rng_expander.cc) into a 128-bit state, Philox bits ({@code
 * PhiloxBitGenerator}) and the conversion of {@code UniformFloatingPointDistribution} or {@code
 * UniformIntDistribution} (xla/hlo/builder/lib/prng.cc).
 *
 * <p>State: XLA:CPU keeps a 128-bit state per rng instruction and executable, 0x7012395 at first
 * and advanced by {@code delta}, the result's number of 32-bit words, at each execution
 * (xla/backends/cpu/runtime/rng_state_thunk.cc). Here a module global counts the equation's
 * executions; an atomic add hands each one its own count, so concurrent calls of the entry point
 * are safe, and the state is {@code 0x7012395 + count·delta} (the count would wrap after 2^64
 * executions). A freshly loaded artifact starts at the state a freshly compiled jit starts at.
 *
 * <p>Bits: block j of Philox hashes the 128-bit counter {@code state + j} with XLA's key ({@link
 * RngUniformKeys}); 32-bit results take its word w as element 4j+w, 64-bit ones join words 0,1 and
 * 2,3 (low first) into elements 2j and 2j+1.
 *
 * <p>Values: a float is {@code (bits >> (width - m))} converted, times {@code (hi - lo)·2^-m},
 * plus {@code lo}, with m mantissa bits: XLA's algebraic simplifier folds 2^-m into
 * {@code hi - lo} and its CPU backend contracts the multiply-add into an FMA ({@code
 * llvm.fmuladd}), denormals flushed as everywhere on XLA:CPU. f16 and bf16 go through f32: XLA
 * widens a narrow rng to f32 and rounds its result. An integer is {@code lo + (d >> 1) + (d - (d
 * >> 1))}, d = bits mod (hi - lo) in unsigned arithmetic, where x mod 0 = x (XLA's remainder).
 */
final class RngUniformKernel {
  private static final long INITIAL_STATE = 0x7012395L;

  private RngUniformKernel() {}

  static void emit(KernelContext cx) {
    Blocks b = new Blocks(cx);
    Blocks.Execution x = b.prepare(b.execution());
    cx.loops().forEach(new long[] {b.full}, idx -> b.block(x, idx.get(0)));
    if (b.tail > 0) b.block(x, cx.ir().i64(b.full));
  }

  /** One rng_uniform's Philox blocks: the execution count, then any block, in any order. */
  static final class Blocks {
    private final KernelContext cx;
    private final Ir ir;
    private final long key;
    private final long delta;
    private final int perBlock;
    private final ArrayType flat;
    final long full;
    final int tail;

    Blocks(KernelContext cx) {
      this.cx = cx;
      this.ir = cx.ir();
      Eqn e = cx.eqn();
      ArrayType out = cx.resultTypes().get(0);
      DType d = out.dtype();
      int width = bitWidth(d, e);
      long n = out.shape().elementCount();
      // Elements per Philox block: four 32-bit words, or two 64-bit ones.
      this.perBlock = width == 64 ? 2 : 4;
      this.delta = width == 64 ? Math.multiplyExact(n, 2) : n;
      this.key = RngUniformKeys.key(e);
      this.flat = new ArrayType(d, Shape.of(n));
      this.full = n / perBlock;
      this.tail = (int) (n % perBlock);
    }

    /** Counts this execution (an atomic add on the equation's module global): its number, i64. */
    LLVMValueRef execution() {
      return executions(ir);
    }

    /** An execution's state and value conversion (lo and hi read), made once before its blocks. */
    record Execution(LLVMValueRef[] state, Converter convert) {}

    Execution prepare(LLVMValueRef count) {
      return new Execution(state(ir, count, delta), converter(cx, flat.dtype()));
    }

    /** Stores block {@code j}'s elements (the last block's {@code tail} only). */
    void block(Execution x, LLVMValueRef j) {
      LLVMValueRef[] state = x.state();
      Converter convert = x.convert();
      if (tail == 0) {
        store(cx, flat, j, perBlock, perBlock, RngUniformKernel.block(ir, state, j, key), convert);
        return;
      }
      ir.ifElse(ir.icmp(LLVMIntEQ, j, ir.i64(full)), "rng",
          () -> store(cx, flat, j, perBlock, tail, RngUniformKernel.block(ir, state, j, key), convert),
          () -> store(cx, flat, j, perBlock, perBlock, RngUniformKernel.block(ir, state, j, key), convert));
    }
  }

  /** XLA:CPU's rng on {@code d}: 32 or 64 bits per element. */
  private static int bitWidth(DType d, Eqn e) {
    return switch (d) {
      case F16, BF16, F32, I32, U32 -> 32;
      case F64, I64, U64 -> 64;
      default -> throw new JaxcException("rng_uniform of " + d.numpyName() + " is not supported: "
          + (d.isComplex() ? "JAX cannot lower it" : "XLA:CPU aborts on it (a CHECK in RngExpander)"), e.span());
    };
  }

  /** The equation's execution count before this one (an atomic add on its own module global). */
  private static LLVMValueRef executions(Ir ir) {
    LLVMValueRef counter = LLVMAddGlobal(ir.module, ir.i64, "jaxc_rng_executions");
    LLVMSetInitializer(counter, ir.i64(0));
    LLVMSetLinkage(counter, LLVMInternalLinkage);
    LLVMSetAlignment(counter, 8);
    return LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpAdd, counter, ir.i64(1), LLVMAtomicOrderingMonotonic, 0);
  }

  /** Execution {@code count}'s state {@code (low, high)}, two {@code i64}. */
  private static LLVMValueRef[] state(Ir ir, LLVMValueRef count, long delta) {
    LLVMTypeRef i128 = ir.intType(128);
    LLVMValueRef s = ir.add(ir.mul(ir.zext(count, i128), ir.constInt(i128, delta)), ir.constInt(i128, INITIAL_STATE));
    return new LLVMValueRef[] {ir.trunc(s, ir.i64), ir.trunc(ir.lshr(s, ir.constInt(i128, 64)), ir.i64)};
  }

  /** Philox's four words for block {@code j}: the counter is the 128-bit {@code state + j}. */
  private static LLVMValueRef[] block(Ir ir, LLVMValueRef[] state, LLVMValueRef j, long key) {
    LLVMValueRef low = ir.add(state[0], j);
    LLVMValueRef carry = ir.zext(ir.icmp(LLVMIntULT, low, state[0]), ir.i64);
    LLVMValueRef high = ir.add(state[1], carry);
    LLVMValueRef[] words = {ir.trunc(low, ir.i32), ir.trunc(ir.lshr(low, ir.i64(32)), ir.i32),
        ir.trunc(high, ir.i32), ir.trunc(ir.lshr(high, ir.i64(32)), ir.i32)};
    return Philox.block(ir, words, key);
  }

  /** Stores the first {@code count} elements of block {@code j}. */
  private static void store(KernelContext cx, ArrayType flat, LLVMValueRef j, int perBlock, int count,
      LLVMValueRef[] words, Converter convert) {
    Ir ir = cx.ir();
    LLVMValueRef first = ir.mul(j, ir.i64(perBlock));
    for (int w = 0; w < count; w++) {
      LLVMValueRef bits = perBlock == 4 ? words[w]
          : ir.or(ir.zext(words[2 * w], ir.i64), ir.shl(ir.zext(words[2 * w + 1], ir.i64), ir.i64(32)));
      Index at = Index.of(ir.add(first, ir.i64(w)));
      cx.access().store(cx.results().get(0), flat, at, Value.of(convert.apply(bits)));
    }
  }

  private interface Converter {
    LLVMValueRef apply(LLVMValueRef bits);
  }

  /** The bits-to-value conversion of {@code d}, with {@code lo} and {@code hi} read once. */
  private static Converter converter(KernelContext cx, DType d) {
    Ir ir = cx.ir();
    LLVMValueRef lo = cx.operands().get(0).at(Index.SCALAR).v();
    LLVMValueRef hi = cx.operands().get(1).at(Index.SCALAR).v();
    if (d.isFloating()) {
      // f16 and bf16 values are f32 already; the arithmetic is f32's, as after XLA's widening.
      DType c = d == DType.F64 ? DType.F64 : DType.F32;
      LLVMTypeRef t = c == DType.F64 ? ir.f64 : ir.f32;
      int mantissa = c == DType.F64 ? 52 : 23;
      int shift = (c == DType.F64 ? 64 : 32) - mantissa;
      LLVMValueRef a = Ftz.daz(ir, c, lo);
      LLVMValueRef range = Ftz.flush(ir, c, ir.fsub(Ftz.daz(ir, c, hi), a));
      LLVMValueRef scale = Ftz.flush(ir, c, ir.fmul(range, ir.constReal(t, Math.scalb(1.0, -mantissa))));
      return bits -> {
        LLVMValueRef x = ir.uitofp(ir.lshr(bits, ir.constInt(ir.typeOf(bits), shift)), t);
        return Ftz.flush(ir, c, ir.intrinsic("llvm.fmuladd", x, scale, a));
      };
    }
    LLVMValueRef range = ir.sub(hi, lo);
    LLVMValueRef zero = ir.icmp(LLVMIntEQ, range, ir.constInt(ir.typeOf(range), 0));
    LLVMValueRef divisor = ir.select(zero, ir.constInt(ir.typeOf(range), 1), range);
    return bits -> {
      LLVMValueRef dist = ir.select(zero, bits, ir.urem(bits, divisor));
      LLVMValueRef half = ir.lshr(dist, ir.constInt(ir.typeOf(dist), 1));
      return ir.add(ir.add(lo, half), ir.sub(dist, half));
    };
  }
}
