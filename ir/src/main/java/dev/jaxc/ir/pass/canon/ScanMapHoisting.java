package dev.jaxc.ir.pass.canon;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Literal;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.prim.Primitive;
import dev.jaxc.ir.prim.params.DotDimensionNumbers;
import dev.jaxc.ir.prim.params.ScanParams;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves a scan body's matrix products of a scanned slice by a loop const out of the loop, as one
 * product over all iterations: {@code l = dot_general(x_t, W)} with {@code x_t} the body's slice
 * of an xs operand {@code X} (shape [T, …]) and {@code W} a const becomes {@code L =
 * dot_general(X, W)} before the scan (the contracting dimensions of x shifted by one, T the first
 * free dimension, so L is [T, …] with L[t] = x_t·W) and L enters the body as a new xs whose slice
 * is l. An RNN's input projection {@code x_t @ W_x} then runs as one large GEMM (threads, full
 * register tiles) instead of T small ones on one thread, and each step keeps only the work that
 * depends on the carry. Each element is the same sum of the same products in the same order, so
 * results do not change.
 *
 * <p>Only products without batch dimensions whose lhs is the slice (the rhs a const or a
 * literal) move, and only where L is no larger than {@link #MAX_BYTES}: L stays live across the
 * loop. Runs after {@link LoopInvariantHoisting}, so work computed from consts inside the body is
 * a const by then. Inner scans are treated first. A program with nothing to move is returned as
 * the same object.
 */
public final class ScanMapHoisting implements IrPass {
  /** The largest stacked product moved out of a loop. */
  static final long MAX_BYTES = 256L << 20;

  public static Program run(Program program) {
    return new ScanMapHoisting().apply(program);
  }

  @Override
  public Program apply(Program program) {
    Jaxpr main = new Rewriter(FreshNames.after(program)).jaxpr(program.main());
    return main == program.main() ? program : new DeadCodeElimination().apply(program.withMain(main));
  }

  private static final class Rewriter extends HoistingWalk {
    private final FreshNames names;

    Rewriter(FreshNames names) {
      this.names = names;
    }

    @Override
    Eqn rewrite(Eqn e, List<Eqn> before) {
      return Primitive.byName(e.primitive()).orElse(null) == Primitive.SCAN ? scan(e, before) : e;
    }

    /** {@code scan[…] *consts *carry *xs} with its movable products moved into {@code before}. */
    private Eqn scan(Eqn e, List<Eqn> before) {
      try {
        ScanParams sp = ScanParams.of(e.params());
        Jaxpr body = sp.jaxpr();
        int nc = sp.numConsts();
        int nx = body.invars().size() - nc - sp.numCarry();
        // Body variable → outer operand, for consts and xs slices.
        Map<Var, Atom> consts = new IdentityHashMap<>();
        Map<Var, Atom> xs = new IdentityHashMap<>();
        for (int i = 0; i < nc; i++) consts.put(body.invars().get(i), e.ins().get(i));
        for (int i = 0; i < nx; i++) {
          int k = nc + sp.numCarry() + i;
          xs.put(body.invars().get(k), e.ins().get(k));
        }
        List<Eqn> stays = new ArrayList<>();
        List<Var> newXs = new ArrayList<>();
        List<Atom> newOperands = new ArrayList<>();
        for (Eqn b : body.eqns()) {
          Var stacked = product(b, consts, xs, sp.length(), before);
          if (stacked == null) {
            stays.add(b);
            continue;
          }
          newXs.add(b.outs().get(0));
          newOperands.add(stacked);
        }
        if (newXs.isEmpty()) return e;
        List<Var> invars = new ArrayList<>(body.invars());
        invars.addAll(newXs);
        Jaxpr loop = new Jaxpr(body.constvars(), invars, stays, body.outs(), body.span());
        Params params = e.params().with("jaxpr", new ParamValue.JaxprValue(loop));
        // linear=(…) has one flag per operand (≤ 0.9.2).
        if (params.get("linear").orElse(null) instanceof ParamValue.Tuple t)
          params = params.with("linear",
              new ParamValue.Tuple(Lists.insert(t.items(), t.items().size(),
                  Lists.repeat(new ParamValue.Bool(false), newXs.size())), t.list()));
        List<Atom> ins = Lists.insert(e.ins(), e.ins().size(), newOperands);
        List<Span> spans = e.inSpans().isEmpty() ? e.inSpans()
            : Lists.insert(e.inSpans(), e.inSpans().size(), Lists.repeat(Span.NONE, newOperands.size()));
        return new Eqn(e.outs(), e.primitive(), params, ins, e.span(), e.primSpan(), spans);
      } catch (Params.ParamException x) {
        throw new JaxcException(e.primitive() + ": " + x.getMessage(), e.primSpan());
      }
    }

    /**
     * If {@code b} is {@code dot_general(x_t, W)} that may move: adds the stacked product to
     * {@code before} and returns its variable; else null.
     */
    private Var product(Eqn b, Map<Var, Atom> consts, Map<Var, Atom> xs, long length, List<Eqn> before) {
      if (Primitive.byName(b.primitive()).orElse(null) != Primitive.DOT_GENERAL) return null;
      if (b.ins().size() != 2 || b.outs().size() != 1 || b.outs().get(0).isDropped()) return null;
      if (!(b.ins().get(0) instanceof Var x) || !xs.containsKey(x)) return null;
      Atom w = b.ins().get(1);
      Atom outerW = w instanceof Literal ? w : consts.get((Var) w);
      if (outerW == null) return null;
      Atom outerX = xs.get(x);
      DotDimensionNumbers dn = DotDimensionNumbers.of(b.params());
      if (dn.lhsBatch().length != 0) return null;
      Var l = b.outs().get(0);
      if (!(l.type() instanceof Type.ArrayType lt) || !lt.shape().isStatic()) return null;
      long bytes = length * lt.shape().elementCount() * Math.max(1, lt.dtype().byteSize());
      if (bytes > MAX_BYTES) return null;
      long[] lc = dn.lhsContract().clone();
      for (int i = 0; i < lc.length; i++) lc[i]++;
      Params params = b.params().with("dimension_numbers", new ParamValue.Tuple(List.of(
          new ParamValue.Tuple(List.of(Lists.ints(lc), Lists.ints(dn.rhsContract()))),
          new ParamValue.Tuple(List.of(Lists.ints(new long[0]), Lists.ints(new long[0]))))));
      List<Dim> dims = new ArrayList<>();
      dims.add(Dim.of(length));
      dims.addAll(lt.shape().dims());
      Var stacked = names.fresh(l).withType(lt.withShape(new Shape(dims)));
      before.add(new Eqn(List.of(stacked), b.primitive(), params, List.of(outerX, outerW), b.span(), b.primSpan(),
          b.inSpans()));
      return stacked;
    }
  }
}
