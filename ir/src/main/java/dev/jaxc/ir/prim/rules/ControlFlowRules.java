package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.DType;
import dev.jaxc.ir.Dim;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import dev.jaxc.ir.prim.params.ScanParams;
import dev.jaxc.ir.prim.params.WhileParams;
import java.util.ArrayList;
import java.util.List;

/**
 * Type rules of cond, while, scan and platform_index. Operand layouts are the format doc's §9; the
 * checks are JAX's {@code _cond_typecheck}, {@code _scan_typecheck} and the while-loop contract
 * (cond returns {@code bool[]}, the body returns the carry it takes).
 */
public final class ControlFlowRules {
  private ControlFlowRules() {}

  /**
   * {@code cond[branches=(…)] index *args}: index is an {@code i32[]} (a boolean predicate is
   * converted first, in every version); every branch takes the args and all branches return the
   * same types, branch 0's being the results.
   */
  public static List<Type> cond(RuleContext ctx) {
    String prim = ctx.primitive();
    if (ctx.arity() < 1) throw new TypeRuleException(prim + " needs an index operand");
    ArrayType index = RuleOperands.array(ctx, 0);
    if (index.dtype() != DType.I32 || index.rank() != 0)
      throw new TypeRuleException(prim + " index must be i32[], got " + index.text(), 0);
    List<Jaxpr> branches = ctx.params().getJaxprs("branches");
    if (branches.isEmpty()) throw new TypeRuleException(prim + " needs at least one branch");
    int nArgs = ctx.arity() - 1;
    List<Type> in0 = NestedJaxprs.inputs(branches.get(0), nArgs);
    List<Type> out0 = branches.get(0).outTypes();
    for (int k = 1; k < branches.size(); k++) {
      List<Type> in = NestedJaxprs.inputs(branches.get(k), nArgs);
      if (!RuleOperands.sameTypes(in0, in))
        throw new TypeRuleException(
            prim
                + " branches 0 and "
                + k
                + " take different inputs: "
                + RuleOperands.text(in0)
                + " vs "
                + RuleOperands.text(in));
      List<Type> out = branches.get(k).outTypes();
      if (!RuleOperands.sameTypes(out0, out))
        throw new TypeRuleException(
            prim
                + " branches 0 and "
                + k
                + " return different types: "
                + RuleOperands.text(out0)
                + " vs "
                + RuleOperands.text(out));
    }
    if (in0.size() != nArgs)
      throw new TypeRuleException(
          prim
              + " has "
              + nArgs
              + " operands after the index, but its branches take "
              + in0.size());
    RuleOperands.matchOperands(ctx, 1, in0, "branches take");
    return out0;
  }

  /** {@code platform_index[platforms=…]}: no operands, the index of the matching platform. */
  public static List<Type> platformIndex(RuleContext ctx) {
    RuleOperands.arity(ctx, 0);
    return List.of(RuleOperands.strong(DType.I32, Shape.SCALAR));
  }

  /**
   * {@code scan[jaxpr length num_consts num_carry …] *consts *init *xs}: the body takes {@code
   * consts, carry, x slices} and returns {@code carry, y slices}; each xs has a leading axis of
   * size {@code length} that the body does not see; results are the final carry and the ys stacked
   * along a new leading axis of that size.
   */
  public static List<Type> scan(RuleContext ctx) {
    String prim = ctx.primitive();
    Params p = ctx.params();
    ScanParams sp = ScanParams.of(p);
    int nConsts = sp.numConsts();
    int nCarry = sp.numCarry();
    long length = sp.length();
    Jaxpr body = sp.jaxpr();
    if (nConsts < 0 || nCarry < 0 || length < 0 || nConsts + nCarry > ctx.arity())
      throw new TypeRuleException(
          prim
              + " with num_consts="
              + nConsts
              + ", num_carry="
              + nCarry
              + " and length="
              + length
              + " does not fit "
              + ctx.arity()
              + " operands");
    List<Type> bodyIn = NestedJaxprs.inputs(body, ctx.arity());
    if (bodyIn.size() != ctx.arity())
      throw new TypeRuleException(
          prim + " has " + ctx.arity() + " operands, but its body takes " + bodyIn.size());
    int xsFrom = nConsts + nCarry;
    RuleOperands.matchOperands(ctx, 0, bodyIn.subList(0, xsFrom), "body takes");
    for (int i = xsFrom; i < ctx.arity(); i++) {
      Type slice = mapped(ctx, i, length);
      if (!RuleOperands.sameType(bodyIn.get(i), slice))
        throw new TypeRuleException(
            prim
                + " body takes x slices of type "
                + bodyIn.get(i).text()
                + " at operand "
                + i
                + ", but the slices of "
                + ctx.in(i).text()
                + " are "
                + slice.text(),
            i);
    }
    List<Type> bodyOut = body.outTypes();
    List<Type> carryIn = bodyIn.subList(nConsts, xsFrom);
    if (bodyOut.size() < nCarry || !RuleOperands.sameTypes(carryIn, bodyOut.subList(0, nCarry)))
      throw new TypeRuleException(
          prim
              + " body carry input and output types differ: "
              + RuleOperands.text(carryIn)
              + " vs "
              + RuleOperands.text(bodyOut.subList(0, Math.min(nCarry, bodyOut.size()))));
    List<Type> results = new ArrayList<>(bodyOut.subList(0, nCarry));
    for (Type y : bodyOut.subList(nCarry, bodyOut.size()))
      results.add(NestedJaxprs.stacked(y, length));
    return results;
  }

  /**
   * {@code while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts] *cond_consts *body_consts
   * *carry}: cond takes {@code cond_consts, carry} and returns one {@code bool[]}; body takes
   * {@code body_consts, carry} and returns the carry; the results are the final carry.
   */
  public static List<Type> whileLoop(RuleContext ctx) {
    String prim = ctx.primitive();
    Params p = ctx.params();
    WhileParams wp = WhileParams.of(p);
    int cn = wp.condNconsts();
    int bn = wp.bodyNconsts();
    Jaxpr condJ = wp.condJaxpr();
    Jaxpr bodyJ = wp.bodyJaxpr();
    if (cn < 0 || bn < 0 || cn + bn > ctx.arity())
      throw new TypeRuleException(
          prim
              + " with cond_nconsts="
              + cn
              + " and body_nconsts="
              + bn
              + " does not fit "
              + ctx.arity()
              + " operands");
    int nCarry = ctx.arity() - cn - bn;
    List<Type> condIn = NestedJaxprs.inputs(condJ, cn + nCarry);
    List<Type> bodyIn = NestedJaxprs.inputs(bodyJ, bn + nCarry);
    if (condIn.size() != cn + nCarry)
      throw new TypeRuleException(
          prim
              + " cond_jaxpr takes "
              + condIn.size()
              + " inputs, but gets "
              + cn
              + " consts and "
              + nCarry
              + " carry values");
    if (bodyIn.size() != bn + nCarry)
      throw new TypeRuleException(
          prim
              + " body_jaxpr takes "
              + bodyIn.size()
              + " inputs, but gets "
              + bn
              + " consts and "
              + nCarry
              + " carry values");
    RuleOperands.matchOperands(ctx, 0, condIn.subList(0, cn), "cond_jaxpr takes");
    RuleOperands.matchOperands(ctx, cn, bodyIn, "body_jaxpr takes");
    List<Type> carry = bodyIn.subList(bn, bodyIn.size());
    if (!RuleOperands.sameTypes(condIn.subList(cn, condIn.size()), carry))
      throw new TypeRuleException(
          prim
              + " cond_jaxpr and body_jaxpr take different carry types: "
              + RuleOperands.text(condIn.subList(cn, condIn.size()))
              + " vs "
              + RuleOperands.text(carry));
    List<Type> condOut = condJ.outTypes();
    // vmap of a while loop with a batched predicate keeps a bool[B...] predicate: the loop runs
    // while any element is true and only the carries of true elements advance (JAX's
    // _while_lowering), so carries then lead with the predicate's dims.
    if (condOut.size() != 1 || !(condOut.get(0) instanceof ArrayType b && b.dtype() == DType.BOOL))
      throw new TypeRuleException(
          prim + " cond_jaxpr must return one bool predicate, got " + RuleOperands.text(condOut));
    List<Type> bodyOut = bodyJ.outTypes();
    if (!RuleOperands.sameTypes(carry, bodyOut))
      throw new TypeRuleException(
          prim
              + " body_jaxpr must return the carry it takes, "
              + RuleOperands.text(carry)
              + ", but returns "
              + RuleOperands.text(bodyOut));
    return bodyOut;
  }

  /** The type of one slice of scanned operand {@code i} along its leading axis. */
  private static Type mapped(RuleContext ctx, int i, long length) {
    Type t = ctx.in(i);
    Shape s = NestedJaxprs.shapeOf(t).orElse(Shape.SCALAR);
    if (s.rank() == 0 || !(s.dims().get(0) instanceof Dim.Known lead && lead.size() == length))
      throw new TypeRuleException(
          ctx.primitive()
              + " scanned operand "
              + i
              + " must have a leading axis of length "
              + length
              + ", got "
              + t.text(),
          i);
    return NestedJaxprs.withShape(t, new Shape(s.dims().subList(1, s.rank())));
  }
}
