package dev.jaxc.frontend;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.pass.random.Emitter;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expands the special functions JAX lowers with {@code mlir.lower_fun} — igamma, igammac,
 * igamma_grad_a, random_gamma_grad, regularized_incomplete_beta and bessel_i0e — into the very
 * equations JAX's lowering traces and XLA compiles, so jaxc computes what XLA computes, series,
 * continued fractions and loop counts included; and bessel_i1e, zeta and polygamma, which JAX hands
 * to XLA as CHLO ops, into XLA's decompositions of them, written in JAX and recorded once checked
 * bit for bit.
 *
 * <p>The equations are JAX's own, recorded by {@code testdata/generate_expansions.py} as jaxprs
 * traced on f32 and f64 operands of shape [9973] (resources {@code expansions/NAME_f32.jaxpr},
 * {@code NAME_f64.jaxpr}); the script proves the operand size a free parameter of the trace. Each
 * equation {@code r = P a b …} of shape S becomes what {@code _up_and_broadcast} does around the
 * trace: operands broadcast to S, f16 and bf16 computed in f32, flattened to [n] (n the size of
 * S), a call of the recorded jaxpr with 9973 read as n, and the result reshaped and converted
 * back. The call is inlined by the canonical pipeline like any other {@code jit}. Nested jaxprs
 * are rewritten too.
 *
 * <p>Run it on a typed program (after the type pass); its result type-checks again.
 */
public final class LowerFunExpansion extends EqnRewriter {
  /** The primitives expanded here. */
  public static final Set<String> PRIMITIVES = Set.of("igamma", "igammac", "igamma_grad_a", "random_gamma_grad",
      "regularized_incomplete_beta", "bessel_i0e", "bessel_i1e", "zeta", "polygamma");
  /** The operand size the recorded jaxprs were traced at. */
  private static final String TRACED = "9973";
  private static final Map<String, String> TEXTS = new HashMap<>();

  private final FreshNames names;
  /** Typed instances by primitive, dtype and size: a model's repeated uses share one. */
  private final Map<String, Jaxpr> instances = new HashMap<>();

  private LowerFunExpansion(FreshNames names) {
    this.names = names;
  }

  public static Program run(Program p) {
    return p.withMain(new LowerFunExpansion(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!PRIMITIVES.contains(e.primitive())) keep(e, ins, out);
    else scope.put(e.outs().get(0), expand(e, ins, new Emitter(names, out, e)));
  }

  /** What {@code _up_and_broadcast} and the lowering's trace compute for {@code e}. */
  private Atom expand(Eqn e, List<Atom> ins, Emitter em) {
    ArrayType t = (ArrayType) e.outs().get(0).type();
    DType d = t.dtype();
    DType c = switch (d) {
      case F16, BF16, F32 -> DType.F32;
      case F64 -> DType.F64;
      default -> throw new JaxcException(e.primitive() + " of " + d.shortName() + " (JAX takes floats only)", e.primSpan());
    };
    if (!t.shape().isStatic())
      throw new JaxcException(e.primitive() + " of the symbolic shape " + t.shape().text() + " is not supported", e.primSpan());
    Shape s = t.shape();
    long n = s.elementCount();
    Shape flat = Shape.of(n);
    List<Atom> args = new ArrayList<>();
    for (Atom a : ins) {
      ArrayType at = (ArrayType) a.type();
      Atom x = a;
      if (!at.shape().equals(s)) x = em.broadcastInDim(x, s, leading(at.rank()));
      if (at.dtype() != c) x = em.convert(x, c);
      if (!s.equals(flat)) x = em.reshape(x, flat);
      args.add(x);
    }
    Jaxpr body = instance(e.primitive(), c, n);
    Params call = Emitter.params("name", new ParamValue.Str(e.primitive()), "jaxpr", new ParamValue.JaxprValue(body));
    Atom r = em.emit("jit", call, new ArrayType(c, flat), args.toArray(new Atom[0]));
    if (!s.equals(flat)) r = em.reshape(r, s);
    if (c != d) r = em.convert(r, d);
    return r;
  }

  private static long[] leading(int rank) {
    long[] r = new long[rank];
    for (int i = 0; i < rank; i++) r[i] = i;
    return r;
  }

  /** The recorded jaxpr of {@code prim} for dtype {@code c}, typed, with operands of size n. */
  private Jaxpr instance(String prim, DType c, long n) {
    String tag = c == DType.F64 ? "f64" : "f32";
    return instances.computeIfAbsent(prim + "_" + tag + "_" + n, k -> {
      String text = text(prim + "_" + tag).replace(TRACED, Long.toString(n));
      Program p = JaxprParser.parse("expansions/" + prim + "_" + tag + ".jaxpr", text);
      return TypePass.run(p, new TypeConfig(c == DType.F64, PromotionMode.STANDARD), new Diagnostics()).main();
    });
  }

  private static synchronized String text(String name) {
    return TEXTS.computeIfAbsent(name, k -> {
      try (InputStream in = LowerFunExpansion.class.getResourceAsStream("expansions/" + k + ".jaxpr")) {
        if (in == null) throw new IllegalStateException("missing resource expansions/" + k + ".jaxpr");
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    });
  }
}
