package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.emit.WindowScalars;
import dev.jaxc.backend.llvm.emit.WindowScalars.Monoid;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * reduce_window_sum/max/min and reduce_window as XLA:CPU computes them: each result element starts
 * from the init value (for the fixed reducers JAX's identity) and folds in the window's real
 * elements in XLA's window order ({@link WindowOrder}), {@code acc = acc ⊕ x}; padding and
 * base-dilation holes are skipped, not folded in as init values (JAX 0.10.2 shows this with a
 * non-identity init), so a window of padding only gives the init value. f16/bf16 sums round after
 * every step, as XLA:CPU does. (XLA rewrites a window that spans whole dimensions into a reduce,
 * whose float sums associate differently: those agree within rounding, not bit for bit.)
 * Every result element is folded alone, so the loop over them may be split across workers (on a
 * GPU, a thread per result element).
 */
final class WindowReduce {
  private WindowReduce() {}

  static void monoid(KernelContext cx, Monoid m) {
    Ir ir = cx.ir();
    ArrayType in = cx.operandType(0);
    ArrayType out = cx.resultTypes().get(0);
    DType d = in.dtype();
    if (!WindowScalars.supports(m, d))
      throw new JaxcException("unsupported primitive " + cx.eqn().primitive() + " of " + d, cx.eqn().span());
    WindowScalars s = new WindowScalars(ir);
    WindowGeometry g = WindowGeometry.of(cx.eqn(), in.shape().sizes(), out.shape().sizes());
    WindowOrder order = new WindowOrder(g);
    ElementGenerator x = cx.operands().get(0);
    if (alongRows(g, cx)) {
      rows(cx, m, s, g, order, x);
      return;
    }
    cx.loops().forEachParallel(out.shape().sizes(), work(g, out), 1, o -> {
      Value init = s.identity(m, d);
      Value r = init;
      if (!g.operandEmpty()) {
        WindowSlot acc = WindowSlot.holding(ir, init);
        order.forEach(ir, cx.loops(), k -> {
          WindowGeometry.Tap t = g.tap(ir, o, k);
          Value cur = acc.get();
          Value next = s.combine(m, d, cur, x.at(t.index()));
          acc.set(t.valid() == null ? next : s.select(t.valid(), next, cur));
        });
        r = acc.get();
      }
      cx.access().store(cx.results().get(0), out, o, r);
    });
  }

  /**
   * reduce_window with a jaxpr combiner over n operands ({@code operands…, inits…}): n
   * accumulators start at the init values and take {@code (acc…, x…) → acc…} for each real window
   * element in XLA's order; padding and holes are skipped as for the fixed reducers (JAX 0.10.2: a
   * non-identity init counts once per window, whatever the padding).
   */
  static void generic(KernelContext cx) {
    Ir ir = cx.ir();
    Eqn e = cx.eqn();
    if (e.params().get("consts").orElse(null) instanceof ParamValue.Tuple t && !t.items().isEmpty())
      throw new JaxcException("unsupported primitive reduce_window with consts", e.span());
    Jaxpr combiner = e.params().getJaxpr("jaxpr");
    int n = e.ins().size() / 2;
    ArrayType out0 = cx.resultTypes().get(0);
    WindowGeometry g = WindowGeometry.of(e, cx.operandType(0).shape().sizes(), out0.shape().sizes());
    WindowOrder order = new WindowOrder(g);
    ScalarJaxprEmitter f = new ScalarJaxprEmitter(ir, cx.lowering());
    WindowScalars s = new WindowScalars(ir);
    cx.loops().forEachParallel(out0.shape().sizes(), work(g, out0) * n, 1, o -> {
      List<Value> r = new ArrayList<>();
      for (int i = 0; i < n; i++) r.add(cx.operands().get(n + i).at(Index.SCALAR));
      if (!g.operandEmpty()) {
        List<WindowSlot> acc = new ArrayList<>();
        for (Value v : r) acc.add(WindowSlot.holding(ir, v));
        order.forEach(ir, cx.loops(), k -> {
          WindowGeometry.Tap t = g.tap(ir, o, k);
          List<Value> args = new ArrayList<>();
          for (WindowSlot a : acc) args.add(a.get());
          for (int i = 0; i < n; i++) args.add(cx.operands().get(i).at(t.index()));
          List<Value> next = f.emit(combiner, args);
          for (int i = 0; i < n; i++)
            acc.get(i).set(t.valid() == null ? next.get(i) : s.select(t.valid(), next.get(i), args.get(i)));
        });
        r.clear();
        for (WindowSlot a : acc) r.add(a.get());
      }
      for (int i = 0; i < n; i++) cx.access().store(cx.results().get(i), cx.resultTypes().get(i), o, r.get(i));
    });
  }

  /** Shortest innermost dimension folded a row at a time ({@link #rows}). */
  static final long MIN_ROW = 4;

  /**
   * Whether every window is one element wide along the innermost dimension, with no stride,
   * padding or dilation there (the channels of an NHWC pooling): then a row of results along it
   * folds the same taps with the same validity, a row of operand elements at a time. On the CPU
   * only: a GPU thread per result element reads adjacent elements in adjacent threads already.
   */
  private static boolean alongRows(WindowGeometry g, KernelContext cx) {
    int l = g.rank() - 1;
    return l >= 1 && !cx.loops().parallel().flatIndex() && g.window()[l] == 1 && g.strides()[l] == 1
        && g.padLo()[l] == 0 && g.padHi()[l] == 0 && g.baseDilation()[l] == 1 && g.windows()[l] == g.operand()[l]
        && g.operand()[l] >= MIN_ROW && !g.operandEmpty();
  }

  /**
   * The fold a row of results at a time: the row starts as the init value, then each tap in
   * XLA's order, when it is a real element, folds the operand's row into it ({@code acc = acc ⊕
   * x} per element, in the result buffer, a loop the vectoriser takes). Each element sees the
   * same operations in the same order as alone, so the results are the same bits; 16 × 112² × 64
   * max-pooled by 3 × 3 windows took 3.7× XLA's time one element at a time.
   */
  private static void rows(KernelContext cx, Monoid m, WindowScalars s, WindowGeometry g, WindowOrder order,
      ElementGenerator x) {
    Ir ir = cx.ir();
    ArrayType out = cx.resultTypes().get(0);
    DType d = cx.operandType(0).dtype();
    int l = g.rank() - 1;
    long[] row = {out.shape().sizes()[l]};
    long[] outer = java.util.Arrays.copyOf(out.shape().sizes(), l);
    LLVMValueRef base = cx.results().get(0);
    cx.loops().forEachParallel(outer, work(g, out), 1, p -> {
      cx.loops().forEach(row, c -> cx.access().store(base, out, at(p, c.get(0)), s.identity(m, d)));
      order.forEach(ir, cx.loops(), k -> {
        WindowGeometry.Tap t = g.tap(ir, at(p, ir.i64(0)), k);
        LLVMBasicBlockRef fold = ir.block("window.fold");
        LLVMBasicBlockRef next = ir.block("window.next");
        if (t.valid() == null) ir.br(fold);
        else ir.condBr(t.valid(), fold, next);
        ir.at(fold);
        cx.loops().forEach(row, c -> {
          Index o = at(p, c.get(0));
          List<LLVMValueRef> xi = new ArrayList<>(t.index().dims());
          xi.set(l, c.get(0));
          Value cur = cx.access().load(base, out, o);
          cx.access().store(base, out, o, s.combine(m, d, cur, x.at(new Index(xi))));
        });
        ir.br(next);
        ir.at(next);
      });
    });
  }

  /** Index {@code p} with {@code last} appended. */
  private static Index at(Index p, LLVMValueRef last) {
    List<LLVMValueRef> dims = new ArrayList<>(p.dims());
    dims.add(last);
    return new Index(dims);
  }

  /** The scalar folds of the whole loop: a window's worth per result element. */
  static long work(WindowGeometry g, ArrayType out) {
    long w = 1;
    for (long k : g.window()) w *= k;
    return out.shape().elementCount() * Math.max(1, w);
  }
}
