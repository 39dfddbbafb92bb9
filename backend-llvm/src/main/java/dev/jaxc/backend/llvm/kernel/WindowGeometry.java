package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.prim.params.ParamDecoding;
import dev.jaxc.ir.prim.params.WindowParams;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Where the windows of a windowed primitive fall on its operand. Window element {@code k} of the
 * window at {@code o} sits at {@code o·stride + k·window_dilation - pad_lo} of the operand dilated
 * by {@code base_dilation}; it is a real element when that lies inside the dilated operand on a
 * multiple of the base dilation, and padding or a dilation hole otherwise.
 */
record WindowGeometry(long[] operand, long[] windows, long[] window, long[] strides, long[] padLo,
    long[] padHi, long[] baseDilation, long[] windowDilation) {

  /**
   * The window of {@code e} (ir's {@link WindowParams}; dilations default to 1, as for
   * select_and_scatter_add) over an operand of these sizes, with {@code windows} windows per dim.
   */
  static WindowGeometry of(Eqn e, long[] operand, long[] windows) {
    WindowParams w = ParamDecoding.at(e, p -> WindowParams.of(p, operand.length, true));
    return new WindowGeometry(operand.clone(), windows.clone(), w.windowDimensions(),
        w.windowStrides(), w.padLo(), w.padHi(), w.baseDilation(), w.windowDilation());
  }

  int rank() {
    return operand.length;
  }

  boolean operandEmpty() {
    for (long n : operand) if (n == 0) return true;
    return false;
  }

  /**
   * One window element: its operand index (every component in range even where {@code valid} is
   * false, so a load there is safe) and whether it is a real element ({@code null}: always).
   */
  record Tap(Index index, LLVMValueRef valid) {}

  Tap tap(Ir ir, Index o, Index k) {
    LLVMValueRef[] idx = new LLVMValueRef[rank()];
    LLVMValueRef valid = null;
    for (int d = 0; d < rank(); d++) {
      LLVMValueRef pos = ir.add(ir.mul(o.get(d), ir.i64(strides[d])), ir.mul(k.get(d), ir.i64(windowDilation[d])));
      if (padLo[d] != 0) pos = ir.sub(pos, ir.i64(padLo[d]));
      if (alwaysReal(d)) {
        idx[d] = pos;
        continue;
      }
      long bd = baseDilation[d];
      long dilated = (operand[d] - 1) * bd + 1;
      // Unsigned: a negative position is past the end too.
      LLVMValueRef in = ir.icmp(LLVMIntULT, pos, ir.i64(dilated));
      LLVMValueRef i = pos;
      if (bd != 1) {
        in = ir.and(in, ir.icmp(LLVMIntEQ, ir.urem(pos, ir.i64(bd)), ir.i64(0)));
        i = ir.udiv(pos, ir.i64(bd));
      }
      idx[d] = ir.select(in, i, ir.i64(0));
      valid = valid == null ? in : ir.and(valid, in);
    }
    return new Tap(Index.of(idx), valid);
  }

  /** No window of dim d reaches padding or a dilation hole (so no run-time test is needed). */
  private boolean alwaysReal(int d) {
    if (baseDilation[d] != 1 && operand[d] > 1) return false;
    long first = -padLo[d];
    long last = (windows[d] - 1) * strides[d] + (window[d] - 1) * windowDilation[d] - padLo[d];
    return first >= 0 && last < operand[d];
  }
}
