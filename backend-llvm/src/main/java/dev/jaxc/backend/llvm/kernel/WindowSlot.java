package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A value carried across the iterations of a window loop: a stack slot (two for a complex value)
 * allocated in the function's entry block, which LLVM's SROA turns into registers and phis.
 */
final class WindowSlot {
  private final Ir ir;
  private final LLVMTypeRef type;
  private final int align;
  private final LLVMValueRef re;
  private final LLVMValueRef im;

  private WindowSlot(Ir ir, LLVMTypeRef type, boolean complex) {
    this.ir = ir;
    this.type = type;
    this.align = naturalAlignment(type);
    this.re = ir.entryAlloca(type, 0);
    this.im = complex ? ir.entryAlloca(type, 0) : null;
  }

  /** A slot for values shaped like {@code like}, holding it. */
  static WindowSlot holding(Ir ir, Value like) {
    WindowSlot s = new WindowSlot(ir, ir.typeOf(like.re()), like.isComplex());
    s.set(like);
    return s;
  }

  /** A slot for one scalar LLVM value, holding it. */
  static WindowSlot holding(Ir ir, LLVMValueRef like) {
    return holding(ir, Value.of(like));
  }

  Value get() {
    LLVMValueRef r = ir.load(type, re, align);
    return im == null ? Value.of(r) : Value.complex(r, ir.load(type, im, align));
  }

  LLVMValueRef scalar() {
    return get().v();
  }

  void set(Value v) {
    ir.store(v.re(), re, align);
    if (im != null) ir.store(v.im(), im, align);
  }

  void set(LLVMValueRef v) {
    set(Value.of(v));
  }

  /** i1..i64, float, double: their size (an alloca's alignment on every target jaxc emits for). */
  private static int naturalAlignment(LLVMTypeRef t) {
    return switch (LLVMGetTypeKind(t)) {
      case LLVMIntegerTypeKind -> Math.max(1, Ir.intWidth(t) / 8);
      case LLVMFloatTypeKind -> 4;
      case LLVMDoubleTypeKind -> 8;
      default -> throw new IllegalArgumentException("no slot for LLVM type kind " + LLVMGetTypeKind(t));
    };
  }
}
