package dev.jaxc.backend.llvm.kernel;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementGenerator;
import dev.jaxc.backend.llvm.emit.Index;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ScalarJaxprEmitter;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.backend.llvm.emit.WindowScalars;
import dev.jaxc.backend.llvm.emit.WindowScalars.Monoid;
import dev.jaxc.backend.llvm.emit.WindowScalars.Select;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.diag.JaxcException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The derivatives of max/min pooling. A window's pick starts at its first element and moves to
 * each later element for which {@code select_prim(pick, element)} fails, so ge keeps the first
 * maximum, and a NaN is picked and then left for the next element (XLA's SelectAndScatter and JAX's
 * variadic-reduce_window select_and_gather_add, checked on JAX 0.10.2). "First" and "later" are
 * XLA's window order ({@link WindowOrder}): row-major unless a padded dimension is peeled.
 */
final class WindowSelect {
  private WindowSelect() {}

  /**
   * {@code select_and_scatter_add source operand}: zeros of the operand's shape, and each source
   * element added (in source order, rounding each step) at its window's pick. On CPU JAX pads
   * the operand with the select's identity (-inf, the integer minimum, false for ge) and slices
   * afterwards, so padding takes part in the selection and what lands there is dropped; the
   * padded windows have no constraint, so their order is row-major.
   */
  static void scatterAdd(KernelContext cx) {
    Ir ir = cx.ir();
    Eqn e = cx.eqn();
    ArrayType src = cx.operandType(0);
    ArrayType op = cx.operandType(1);
    ArrayType out = cx.resultTypes().get(0);
    Select sel = select(e);
    DType d = op.dtype();
    if (!WindowScalars.supports(sel, d)) throw unsupported(e, d);
    WindowScalars s = new WindowScalars(ir);
    WindowGeometry g = WindowGeometry.of(e, op.shape().sizes(), src.shape().sizes());
    ElementGenerator source = cx.operands().get(0);
    LLVMValueRef base = cx.results().get(0);
    Value zero = s.identity(Monoid.SUM, out.dtype());
    // A GPU grid wants one writer per result element; a CPU thread scatters in source order.
    if (cx.loops().parallel().flatIndex()) {
      scatterAddPerElement(cx, g, s, sel, d, zero);
      return;
    }
    cx.loops().forEach(out.shape().sizes(), i -> cx.access().store(base, out, i, zero));
    if (g.operandEmpty()) return;  // every window is padding only: nothing lands
    cx.loops().forEach(src.shape().sizes(), w -> {
      Pick p = pick(cx, g, s, sel, d, w);
      Runnable add = () -> cx.access().store(base, out, p.at(),
          s.combine(Monoid.SUM, out.dtype(), cx.access().load(base, out, p.at()), source.at(w)));
      if (p.real() == null) add.run();
      else ifThen(ir, p.real(), add);
    });
  }

  /** A window's pick: its operand index, and whether it is a real element (null: always). */
  private record Pick(Index at, LLVMValueRef real) {}

  /** The pick of the window at {@code w}: the first element, moved while the select fails. */
  private static Pick pick(KernelContext cx, WindowGeometry g, WindowScalars s, Select sel, DType d, Index w) {
    Ir ir = cx.ir();
    ElementGenerator operand = cx.operands().get(1);
    WindowGeometry.Tap first = g.tap(ir, w, zeros(ir, g.rank()));
    WindowSlot pick = WindowSlot.holding(ir, element(s, sel, d, operand, first));
    WindowSlot[] at = new WindowSlot[g.rank()];
    for (int k = 0; k < at.length; k++) at[k] = WindowSlot.holding(ir, first.index().get(k));
    WindowSlot real = first.valid() == null ? null : WindowSlot.holding(ir, first.valid());
    cx.loops().forEach(g.window(), k -> {
      WindowGeometry.Tap t = g.tap(ir, w, k);
      Value cur = pick.get();
      Value v = element(s, sel, d, operand, t);
      LLVMValueRef keep = s.keeps(sel, d, cur, v);
      pick.set(s.select(keep, cur, v));
      for (int j = 0; j < at.length; j++) at[j].set(ir.select(keep, at[j].scalar(), t.index().get(j)));
      if (real != null) real.set(ir.select(keep, real.scalar(), t.valid()));
    });
    LLVMValueRef[] idx = new LLVMValueRef[at.length];
    for (int j = 0; j < idx.length; j++) idx[j] = at[j].scalar();
    return new Pick(Index.of(idx), real == null ? null : real.scalar());
  }

  /**
   * select_and_scatter_add with one writer per result element (a GPU thread each): element i
   * visits the windows that may contain it in source order, recomputes each one's pick, and adds
   * the window's source value where the pick is i — the same additions in the same order as the
   * serial scatter, so the same bits, without two threads adding to one element.
   */
  private static void scatterAddPerElement(KernelContext cx, WindowGeometry g, WindowScalars s, Select sel, DType d,
      Value zero) {
    Ir ir = cx.ir();
    ArrayType out = cx.resultTypes().get(0);
    long[] windows = g.windows();
    long perWindow = 1;
    for (long k : g.window()) perWindow *= k;
    long work = out.shape().elementCount() * Math.max(1, perWindow) * 4;
    ElementGenerator source = cx.operands().get(0);
    cx.loops().forEachParallel(out.shape().sizes(), work, 1, i -> {
      WindowSlot sum = WindowSlot.holding(ir, zero);
      if (!g.operandEmpty()) candidates(cx, g, i, 0, new LLVMValueRef[g.rank()], w -> {
        Pick p = pick(cx, g, s, sel, d, w);
        LLVMValueRef hit = p.real() == null ? ir.bool(true) : p.real();
        for (int j = 0; j < g.rank(); j++) hit = ir.and(hit, ir.icmp(LLVMIntEQ, p.at().get(j), i.get(j)));
        ifThen(ir, hit, () -> sum.set(s.combine(Monoid.SUM, out.dtype(), sum.get(), source.at(w))));
      });
      cx.access().store(cx.results().get(0), out, i, sum.get());
    });
  }

  /**
   * The windows that may contain operand element i, in row-major order: per dimension those whose
   * span [w·stride − pad_lo, w·stride − pad_lo + (window − 1)·dilation] holds i (all windows where
   * a dilation or a negative padding makes that bound loose; the pick test decides anyway).
   */
  private static void candidates(KernelContext cx, WindowGeometry g, Index i, int dim, LLVMValueRef[] w,
      java.util.function.Consumer<Index> body) {
    if (dim == g.rank()) {
      body.accept(Index.of(w.clone()));
      return;
    }
    Ir ir = cx.ir();
    long stride = g.strides()[dim];
    long pad = g.padLo()[dim];
    LLVMValueRef lo = ir.i64(0);
    LLVMValueRef hi = ir.i64(g.windows()[dim]);
    if (g.baseDilation()[dim] == 1 && g.windowDilation()[dim] == 1 && pad >= 0) {
      LLVMValueRef pos = ir.add(i.get(dim), ir.i64(pad));
      long reach = g.window()[dim] - 1;
      // First window: ceil(max(0, pos - reach) / stride); last: min(windows - 1, pos / stride).
      LLVMValueRef from = ir.sub(pos, ir.i64(reach));
      from = ir.select(ir.icmp(LLVMIntSLT, from, ir.i64(0)), ir.i64(0), from);
      lo = ir.udiv(ir.add(from, ir.i64(stride - 1)), ir.i64(stride));
      LLVMValueRef last = ir.add(ir.udiv(pos, ir.i64(stride)), ir.i64(1));
      hi = ir.select(ir.icmp(LLVMIntULT, last, hi), last, hi);
    }
    cx.loops().forRange(lo, hi, k -> {
      w[dim] = k;
      candidates(cx, g, i, dim + 1, w, body);
    });
  }

  /**
   * {@code select_and_scatter operand source init} with select and scatter jaxprs, as XLA:CPU runs
   * it (JAX 0.10.2): the result starts as init everywhere; a window's pick is its first real
   * element and moves to each later real element for which {@code select(pick, element)} is
   * false; padding is never picked (a window of padding only scatters nothing); then {@code
   * result[pick] = scatter(result[pick], source)} in source order.
   */
  static void scatterGeneric(KernelContext cx) {
    Ir ir = cx.ir();
    Eqn e = cx.eqn();
    for (String key : List.of("select_consts", "scatter_consts"))
      if (e.params().get(key).orElse(null) instanceof ParamValue.Tuple t && !t.items().isEmpty())
        throw new JaxcException("unsupported primitive select_and_scatter with " + key, e.span());
    Jaxpr select = e.params().getJaxpr("select_jaxpr");
    Jaxpr scatter = e.params().getJaxpr("scatter_jaxpr");
    ArrayType op = cx.operandType(0);
    ArrayType src = cx.operandType(1);
    ArrayType out = cx.resultTypes().get(0);
    WindowGeometry g = WindowGeometry.of(e, op.shape().sizes(), src.shape().sizes());
    WindowOrder order = new WindowOrder(g);
    ScalarJaxprEmitter f = new ScalarJaxprEmitter(ir, cx.lowering());
    WindowScalars s = new WindowScalars(ir);
    ElementGenerator operand = cx.operands().get(0);
    ElementGenerator source = cx.operands().get(1);
    LLVMValueRef base = cx.results().get(0);
    ElementGenerator init = cx.operands().get(2);
    cx.loops().forEach(out.shape().sizes(), i -> cx.access().store(base, out, i, init.at(Index.SCALAR)));
    if (g.operandEmpty()) return;
    cx.loops().forEach(src.shape().sizes(), w -> {
      Index origin = zeros(ir, g.rank());
      WindowSlot pick = WindowSlot.holding(ir, operand.at(origin));
      WindowSlot[] at = new WindowSlot[g.rank()];
      for (int j = 0; j < at.length; j++) at[j] = WindowSlot.holding(ir, origin.get(j));
      WindowSlot found = WindowSlot.holding(ir, ir.bool(false));
      order.forEach(ir, cx.loops(), k -> {
        WindowGeometry.Tap t = g.tap(ir, w, k);
        Value cur = pick.get();
        Value v = operand.at(t.index());
        LLVMValueRef has = found.scalar();
        LLVMValueRef keep = f.emit(select, List.of(cur, v)).get(0).v();
        LLVMValueRef take = ir.or(ir.not(has), ir.not(keep));
        if (t.valid() != null) take = ir.and(take, t.valid());
        pick.set(s.select(take, v, cur));
        for (int j = 0; j < at.length; j++) at[j].set(ir.select(take, t.index().get(j), at[j].scalar()));
        found.set(ir.or(has, take));
      });
      LLVMValueRef[] idx = new LLVMValueRef[at.length];
      for (int j = 0; j < idx.length; j++) idx[j] = at[j].scalar();
      Index p = Index.of(idx);
      ifThen(ir, found.scalar(), () -> cx.access().store(base, out, p,
          f.emit(scatter, List.of(cx.access().load(base, out, p), source.at(w))).get(0)));
    });
  }

  /**
   * {@code select_and_gather_add tangents operand} (the JVP of max pooling): for each window the
   * tangent at its pick. JAX lowers it on CPU to a two-operand reduce_window with init
   * (-inf for ge / +inf for le, 0), so a window whose real elements all equal the init (or that
   * has none) gives 0; padding and dilation holes are skipped as in {@link WindowReduce}.
   */
  static void gatherAdd(KernelContext cx) {
    Ir ir = cx.ir();
    Eqn e = cx.eqn();
    ArrayType tangents = cx.operandType(0);
    ArrayType op = cx.operandType(1);
    ArrayType out = cx.resultTypes().get(0);
    Select sel = select(e);
    DType d = op.dtype();
    // JAX makes the init value with np.array(±inf, dtype): only real floats lower.
    if (!d.isFloating() || sel == Select.GT || sel == Select.LT) throw unsupported(e, d);
    WindowScalars s = new WindowScalars(ir);
    WindowGeometry g = WindowGeometry.of(e, op.shape().sizes(), out.shape().sizes());
    WindowOrder order = new WindowOrder(g);
    ElementGenerator tangent = cx.operands().get(0);
    ElementGenerator operand = cx.operands().get(1);
    // Each window's tangent is found alone: the loop may be split across workers.
    cx.loops().forEachParallel(out.shape().sizes(), WindowReduce.work(g, out) * 2, 1, o -> {
      Value zero = s.identity(Monoid.SUM, tangents.dtype());
      Value r = zero;
      if (!g.operandEmpty()) {
        WindowSlot key = WindowSlot.holding(ir, s.padding(sel, d));
        WindowSlot val = WindowSlot.holding(ir, zero);
        order.forEach(ir, cx.loops(), k -> {
          WindowGeometry.Tap t = g.tap(ir, o, k);
          Value cur = key.get();
          Value kv = operand.at(t.index());
          LLVMValueRef take = ir.not(s.keeps(sel, d, cur, kv));
          if (t.valid() != null) take = ir.and(take, t.valid());
          key.set(s.select(take, kv, cur));
          val.set(s.select(take, tangent.at(t.index()), val.get()));
        });
        r = val.get();
      }
      cx.access().store(cx.results().get(0), out, o, r);
    });
  }

  /** The operand at a window element, or the select's padding value there. */
  private static Value element(WindowScalars s, Select sel, DType d, ElementGenerator operand, WindowGeometry.Tap t) {
    Value v = operand.at(t.index());
    return t.valid() == null ? v : s.select(t.valid(), v, s.padding(sel, d));
  }

  private static Select select(Eqn e) {
    String w = e.params().getWord("select_prim").orElse("");
    try {
      return Select.valueOf(w.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException x) {
      throw new JaxcException("unsupported primitive " + e.primitive() + " with select_prim=" + w, e.span());
    }
  }

  /** Emits {@code body} where {@code cond} (i1) holds. */
  private static void ifThen(Ir ir, LLVMValueRef cond, Runnable body) {
    LLVMBasicBlockRef then = ir.block("scatter");
    LLVMBasicBlockRef done = ir.block("scatter.end");
    ir.condBr(cond, then, done);
    ir.at(then);
    body.run();
    ir.br(done);
    ir.at(done);
  }

  private static Index zeros(Ir ir, int rank) {
    LLVMValueRef[] z = new LLVMValueRef[rank];
    Arrays.fill(z, ir.i64(0));
    return Index.of(z);
  }

  private static JaxcException unsupported(Eqn e, DType d) {
    return new JaxcException("unsupported primitive " + e.primitive() + " of " + d, e.span());
  }
}
