package dev.jaxc.backend.llvm.emit;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Mutable storage for compute values that loops carry: an accumulator, or a short array of them.
 * The memory is a stack slot in the function's entry block, so LLVM promotes a scalar slot to
 * registers (phis) and the loops stay in SSA form after optimisation. Complex values take one
 * slot per part. A slot is live from where it is made to its {@link #release()}, so the slots of
 * different kernels share stack memory.
 */
public final class ReduceSlot {
  private final Ir ir;
  private final LLVMTypeRef type;
  /**
   * The type in memory: the compute type, but bytes for bools. LLVM's loop vectoriser scalarises
   * i1 loads and stores (not byte-sized) where AVX-512 holds the compares in mask registers: a
   * row's any() folded one element at a time, 1.4× XLA's time on a Cascade Lake.
   */
  private final LLVMTypeRef mem;
  private final LLVMValueRef re;
  private final LLVMValueRef im;
  private final int align;
  private final long bytes;

  private ReduceSlot(Ir ir, DType d, int length) {
    this.ir = ir;
    this.type = ElementTypes.compute(ir, d);
    this.mem = d == DType.BOOL ? ElementTypes.storage(ir, d) : type;
    // The compute type's size: f16 and bf16 are held as f32.
    this.align = d == DType.F16 || d == DType.BF16 ? 4 : ElementTypes.partBytes(d);
    this.bytes = (long) length * align;
    this.re = ir.entryAlloca(length == 1 ? mem : LLVMArrayType2(mem, length), align);
    this.im = d.isComplex() ? ir.entryAlloca(length == 1 ? mem : LLVMArrayType2(mem, length), align) : null;
    lifetime("llvm.lifetime.start");
  }

  /** Ends the slot's life: it must not be read or written after this point. */
  public void release() {
    lifetime("llvm.lifetime.end");
  }

  private void lifetime(String intrinsic) {
    ir.intrinsic(intrinsic, new LLVMTypeRef[] {ir.ptr}, ir.i64(bytes), re);
    if (im != null) ir.intrinsic(intrinsic, new LLVMTypeRef[] {ir.ptr}, ir.i64(bytes), im);
  }

  /** One value of dtype {@code d}. */
  public static ReduceSlot of(Ir ir, DType d) {
    return new ReduceSlot(ir, d, 1);
  }

  /** {@code length} values of dtype {@code d}, addressed by an {@code i64} position. */
  public static ReduceSlot array(Ir ir, DType d, int length) {
    return new ReduceSlot(ir, d, length);
  }

  public Value load() {
    return load(ir.i64(0));
  }

  public void store(Value v) {
    store(ir.i64(0), v);
  }

  public Value load(LLVMValueRef i) {
    LLVMValueRef r = ir.load(mem, ir.gep(mem, re, i), align);
    if (mem != type) return Value.of(LLVMBuildTrunc(ir.b, r, type, ""));
    return im == null ? Value.of(r) : Value.complex(r, ir.load(type, ir.gep(type, im, i), align));
  }

  public void store(LLVMValueRef i, Value v) {
    if (mem != type) {
      ir.store(LLVMBuildZExt(ir.b, v.v(), mem, ""), ir.gep(mem, re, i), align);
      return;
    }
    ir.store(im == null ? v.v() : v.re(), ir.gep(type, re, i), align);
    if (im != null) ir.store(v.im(), ir.gep(type, im, i), align);
  }
}
