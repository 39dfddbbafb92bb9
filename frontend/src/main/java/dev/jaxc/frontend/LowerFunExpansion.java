package dev.jaxc.frontend;

import static dev.jaxc.frontend.RecordedJaxprs.ints;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.ParamValue;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import dev.jaxc.ir.pass.random.Emitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Expands the special functions JAX lowers with {@code mlir.lower_fun} — igamma, igammac,
 * igamma_grad_a, random_gamma_grad, regularized_incomplete_beta and bessel_i0e — into the very
 * equations JAX's lowering traces and XLA compiles, so jaxc computes what XLA computes, series,
 * continued fractions and loop counts included (random_gamma too: {@link #gamma}); bessel_i1e,
 * zeta and polygamma, which JAX hands to XLA as CHLO ops, into XLA's decompositions of them,
 * written in JAX and recorded once checked bit for bit; and fft ({@link FftExpansion}) and linear
 * algebra ({@link LinalgExpansions}) into jaxc's own algorithms written in JAX.
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
      "regularized_incomplete_beta", "bessel_i0e", "bessel_i1e", "zeta", "polygamma", "random_gamma", "fft",
      "cholesky", "triangular_solve", "lu", "tridiagonal_solve", "lu_pivots_to_permutation", "qr", "eigh", "svd", "geqrf",
      "householder_product", "hessenberg", "eig", "schur");

  /** The operand size the recorded jaxprs were traced at. */
  private static final String TRACED = "9973";

  /** random_gamma's trace: 9967 keys, each split 9973 ways (their product first, then each). */
  private static final long GAMMA_KEYS = 9967;

  private static final long GAMMA_SPLIT = 9973;

  private final FreshNames names;

  private final RecordedJaxprs templates = new RecordedJaxprs();
  private final LinalgExpansions linalg = new LinalgExpansions(templates);
  private final FftExpansion fft = new FftExpansion();

  private LowerFunExpansion(FreshNames names) {
    this.names = names;
  }

  public static Program run(Program p) {
    return p.withMain(new LowerFunExpansion(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!PRIMITIVES.contains(e.primitive())) {
      keep(e, ins, out);
      return;
    }
    if (EmptyOperands.any(ins)) {
      Emitter em = new Emitter(names, out, e);
      Optional<List<Atom>> r = EmptyOperands.results(e, em);
      if (r.isPresent()) {
        for (int i = 0; i < r.get().size(); i++) scope.put(e.outs().get(i), r.get().get(i));
        return;
      }
    }
    if (Set.of("lu", "qr", "eigh", "svd", "geqrf", "householder_product", "hessenberg", "eig", "schur").contains(e.primitive())) {
      Emitter em = new Emitter(names, out, e);
      List<Atom> r = switch (e.primitive()) {
        case "lu" -> linalg.lu(e, ins, em);
        case "qr" -> linalg.qr(e, ins, em);
        case "eigh" -> linalg.eigh(e, ins, em);
        case "svd" -> linalg.svd(e, ins, em);
        case "geqrf" -> linalg.geqrf(e, ins, em);
        case "householder_product" -> linalg.householderProduct(e, ins, em);
        case "eig" -> linalg.eig(e, ins, em);
        case "schur" -> linalg.schur(e, ins, em);
        default -> linalg.hessenberg(e, ins, em);
      };
      for (int i = 0; i < r.size(); i++) scope.put(e.outs().get(i), r.get(i));
    } else {
      scope.put(e.outs().get(0), expand(e, ins, new Emitter(names, out, e)));
    }
  }

  /** What {@code _up_and_broadcast} and the lowering's trace compute for {@code e}. */
  private Atom expand(Eqn e, List<Atom> ins, Emitter em) {
    if (e.primitive().equals("random_gamma")) return gamma(e, ins, em);
    if (e.primitive().equals("cholesky") || e.primitive().equals("triangular_solve")) return linalg.linalg(e, ins, em);
    if (e.primitive().equals("fft")) return fft.fft(e, ins, em);
    if (e.primitive().equals("tridiagonal_solve") || e.primitive().equals("lu_pivots_to_permutation"))
      return linalg.generic(e, ins, em);
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
    String tag = c == DType.F64 ? "f64" : "f32";
    Jaxpr body = templates.instance(e.primitive() + "_" + tag, c == DType.F64, List.<String[]>of(new String[] {TRACED, Long.toString(n)}));
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

  /**
   * random_gamma as its lowering traces it ({@code _gamma_impl}, threefry keys): the keys
   * flattened to [K], the shape parameters to [K, S] (each key split S ways), in the dtype of the
   * shape parameters; the result reshaped back.
   */
  private Atom gamma(Eqn e, List<Atom> ins, Emitter em) {
    if (!(ins.get(0).type() instanceof Type.KeyType key) || !key.impl().equals("fry"))
      throw new JaxcException("random_gamma: only threefry keys are supported (got " + ins.get(0).type().text() + ")",
          e.primSpan());
    ArrayType at = (ArrayType) ins.get(1).type();
    if (!at.shape().isStatic() || !key.shape().isStatic())
      throw new JaxcException("random_gamma of a symbolic shape is not supported", e.primSpan());
    long[] dims = at.shape().sizes();
    int kr = key.shape().rank();
    long k = 1;
    long s = 1;
    for (int i = 0; i < dims.length; i++) {
      if (i < kr) k *= dims[i];
      else s *= dims[i];
    }
    DType d = at.dtype();
    String tag = switch (d) {
      case F32 -> "f32";
      case F64 -> "f64";
      case F16 -> "f16";
      case BF16 -> "bf16";
      default -> throw new JaxcException("random_gamma of " + d.shortName() + " (JAX takes floats only)", e.primSpan());
    };
    Atom keys = ins.get(0);
    if (!key.shape().equals(Shape.of(k)))
      keys = em.emit("reshape", Emitter.params("new_sizes", ints(k), "dimensions", new ParamValue.None(), "sharding",
          new ParamValue.None()), new Type.KeyType(key.impl(), Shape.of(k)), keys);
    Shape grid = Shape.of(k, s);
    Atom alphas = at.shape().equals(grid) ? ins.get(1) : em.reshape(ins.get(1), grid);
    boolean log = e.params().getBool("log_space", false);
    Jaxpr body = templates.instance("random_gamma_" + (log ? "log" : "linear") + "_" + tag, d == DType.F64, List.of(
        new String[] {Long.toString(GAMMA_KEYS * GAMMA_SPLIT), Long.toString(k * s)},
        new String[] {Long.toString(GAMMA_KEYS), Long.toString(k)},
        new String[] {Long.toString(GAMMA_SPLIT), Long.toString(s)}));
    Params call = Emitter.params("name", new ParamValue.Str("random_gamma"), "jaxpr", new ParamValue.JaxprValue(body));
    Atom r = em.emit("jit", call, new ArrayType(d, grid), keys, alphas);
    return at.shape().equals(grid) ? r : em.reshape(r, at.shape());
  }
}
