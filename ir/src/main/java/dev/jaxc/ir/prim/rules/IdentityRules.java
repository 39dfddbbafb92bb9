package dev.jaxc.ir.prim.rules;

import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.prim.RuleContext;
import dev.jaxc.ir.prim.TypeRuleException;
import java.util.ArrayList;
import java.util.List;

/**
 * Type rules of the primitives that pass values through: copy, stop_gradient, name,
 * sharding_constraint, reshard, zeros_like (one operand); device_put, optimization_barrier, pvary
 * (any number, one result each); from_edtype, to_edtype (types only the text gives).
 *
 * <p>Some of them exist to change an annotation of the type, not the value: reshard the dims' mesh
 * axes ({@code f32[8@x]}), pvary the varying axes ({@code {V:x}}), device_put the memory space
 * ({@code f32<host>[3]}). So where the text declares a result of the operand's dtype and sizes, the
 * result takes the declared annotations.
 */
public final class IdentityRules {
  private IdentityRules() {}

  /** from_edtype / to_edtype: the extended dtype is not in the operands, only in the text. */
  public static List<Type> declared(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    if (ctx.declaredOut().isEmpty())
      throw new TypeRuleException(ctx.primitive() + " needs its result type written in the text");
    return ctx.declaredOut();
  }

  /** One result per operand, of the operand's type. */
  public static List<Type> nary(RuleContext ctx) {
    List<Type> results = new ArrayList<>();
    for (int i = 0; i < ctx.arity(); i++) results.add(passedThrough(ctx, i));
    return results;
  }

  /** One operand, one result of its type. */
  public static List<Type> unary(RuleContext ctx) {
    RuleOperands.arity(ctx, 1);
    return List.of(passedThrough(ctx, 0));
  }

  /** Operand {@code i}'s type, with the annotations of declared result {@code i} if it matches. */
  private static Type passedThrough(RuleContext ctx, int i) {
    Type t = ctx.in(i);
    if (ctx.declaredOut().size() == ctx.arity()
        && t instanceof ArrayType a
        && ctx.declaredOut().get(i) instanceof ArrayType d
        && a.dtype() == d.dtype()
        && a.shape().sameSizes(d.shape()))
      return new ArrayType(a.dtype(), d.shape(), a.weak(), d.memorySpace(), d.vma());
    return t;
  }
}
