package dev.jaxc.backend.llvm.plan;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.prim.PrimGroup;
import dev.jaxc.ir.prim.Primitive;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Epilogue fusion: a kernel whose result the backend stores through a callback ({@link
 * BackendRules#fusesResult}: the CPU's GEMMs) evaluates the elementwise chain that alone reads its
 * result on each finished element, and stores the chain's root; the kernel's result is never
 * materialised, which saves a pass over it (bias, relu, gelu, residual add, convert after a dot).
 *
 * <p>The rule, over the values computed from the kernel result {@code d}: an equation of the chain
 * is fusible, elementwise ({@link #ELEMENTWISE} groups), has one result of d's shape, and reads its
 * chain operands at that shape, so at the same index (its other operands are anything a generator
 * composes: a broadcast bias, a residual input). A chain value {@code r} that is materialised
 * anyway can be the root when every value on a path from d to r other than r is read only by
 * equations of those paths and is not a jaxpr output; the latest such r in equation order is
 * taken. The chain's other values are then computed inside the kernel's store (recomputed per
 * use, at most {@link #MAX_COMPOSED} equations in all) and r is the kernel step's result. Chains
 * of two kernels that meet go to the first (in equation order); the second keeps its result.
 *
 * <p>The chain may hold one transpose, where the backend stores the kernel's result transposed
 * ({@link BackendRules#transposesResult}): one that alone reads a chain value (or the kernel result
 * itself), followed by an elementwise chain at its own shape that alone reads its result, up to a
 * materialised root (the transpose itself where nothing after it is), or to a plain reshape of
 * that chain's end (the same bytes in memory). The kernel then runs its
 * loops in the transposed order and the transpose's pass over memory is gone, as XLA's layout
 * assignment gives a dot the layout its transpose wants ({@code jax.image.resize}'s second dot,
 * whose result only a transpose reads; an MLP-Mixer block's {@code x + (h @ w).swapaxes(1, 2)}).
 *
 * <p>Results stay bit-identical: the kernel rounds to its dtype as before and the same generators
 * follow. The one decision that reads materialisation, FMA contraction of a fused f32/f64 product
 * into an add (emit/XlaRewrites), is kept by refusing a chain that would unmaterialise a product
 * that was materialised.
 */
final class Epilogues {
  /** The primitive groups whose generators read each operand at the result's own index. */
  private static final Set<PrimGroup> ELEMENTWISE = Set.of(PrimGroup.ELEMENTWISE_UNARY,
      PrimGroup.ELEMENTWISE_BINARY, PrimGroup.COMPARISON, PrimGroup.SELECT, PrimGroup.CONVERSION,
      PrimGroup.IDENTITY, PrimGroup.SPECIAL_FUNCTION);

  /** The most equations the chain's values are followed through. */
  private static final int MAX_CHAIN = 32;

  /** The most equations the root's generator composes, counting each recomputation. */
  private static final int MAX_COMPOSED = 48;

  /** A kernel's epilogue: its root and the chain values (not the root) left unmaterialised. */
  record Chain(Var root, List<Var> inner) {}

  private final Map<Eqn, Primitive> primitives;
  private final Map<Var, Producer> producers;
  private final Map<Var, List<Eqn>> consumers;
  private final Map<Var, Integer> outputs;
  private final Map<Var, Boolean> materialised;
  private final BackendRules rules;
  private final Map<Eqn, Integer> positions = new IdentityHashMap<>();
  /**
   * The values of the chains taken so far: two kernels whose chains meet (x@Wx + h@Wh) give the
   * common part to the first; the second keeps its result, which the first's chain reads.
   */
  private final Map<Var, Boolean> taken = new IdentityHashMap<>();

  Epilogues(List<Eqn> eqns, Map<Eqn, Primitive> primitives, Map<Var, Producer> producers, Map<Var, List<Eqn>> consumers,
      Map<Var, Integer> outputs, Map<Var, Boolean> materialised, BackendRules rules) {
    this.rules = rules;
    this.primitives = primitives;
    this.producers = producers;
    this.consumers = consumers;
    this.outputs = outputs;
    this.materialised = materialised;
    for (Eqn e : eqns) positions.put(e, positions.size());
  }

  /** The epilogue of kernel {@code e} (then taken), or null where none applies. */
  Chain take(Eqn e) {
    Chain c = of(e);
    if (c == null) return null;
    taken.put(c.root(), true);
    for (Var v : c.inner()) taken.put(v, true);
    return c;
  }

  private Chain of(Eqn e) {
    if (e.outs().size() != 1) return null;
    Var d = e.outs().get(0);
    List<Var> reach = reach(d);
    Map<Var, Boolean> inChain = new IdentityHashMap<>();
    inChain.put(d, true);
    for (Var v : reach) inChain.put(v, true);
    for (int k = reach.size() - 1; k >= -1; k--) {
      Chain t = transposed(e, d, k < 0 ? d : reach.get(k), inChain);
      if (t != null) return t;
    }
    for (int k = reach.size() - 1; k >= 0; k--) {
      Chain c = chain(d, reach.get(k), inChain);
      if (c != null) return c;
    }
    return null;
  }

  /** The values computed elementwise from d at d's shape, in equation order (consumers come later). */
  private List<Var> reach(Var d) {
    long[] shape = shape(d);
    List<Var> reach = new ArrayList<>();
    Map<Var, Boolean> inChain = new IdentityHashMap<>();
    inChain.put(d, true);
    ArrayDeque<Var> todo = new ArrayDeque<>(List.of(d));
    while (!todo.isEmpty() && reach.size() < MAX_CHAIN) {
      for (Eqn use : consumers.getOrDefault(todo.pop(), List.of())) {
        if (!elementwise(use, shape, inChain)) continue;
        Var out = use.outs().get(0);
        if (inChain.put(out, true) == null) {
          reach.add(out);
          todo.add(out);
        }
      }
    }
    reach.sort((x, y) -> Integer.compare(position(x), position(y)));
    return reach;
  }

  /**
   * The chain from d to {@code end} (d itself or a chain value), the transpose that alone reads
   * end, and the elementwise chain after it up to a materialised value, where the kernel can
   * store its result so transposed; null otherwise.
   */
  private Chain transposed(Eqn e, Var d, Var end, Map<Var, Boolean> reachable) {
    List<Eqn> uses = consumers.getOrDefault(end, List.of());
    if (uses.size() != 1 || outputs.containsKey(end)) return null;
    Eqn t = uses.get(0);
    if (primitives.get(t) != Primitive.TRANSPOSE || t.outs().size() != 1) return null;
    if (!rules.transposesResult(primitives.get(e), e, t.params().getLongs("permutation"))) return null;
    Chain before = end == d ? new Chain(end, List.of()) : paths(d, end, reachable);
    Chain after = elementwiseFrom(t.outs().get(0));
    if (before == null || after == null) return null;
    List<Var> inner = new ArrayList<>(before.inner());
    inner.add(end);
    inner.addAll(after.inner());
    return new Chain(after.root(), inner);
  }

  /**
   * The transpose's result {@code x} with the elementwise chain that alone reads it, to its latest
   * materialised value (x itself where that is materialised and nothing later is), or null.
   */
  private Chain elementwiseFrom(Var x) {
    if (taken.containsKey(x)) return null;
    List<Var> reach = reach(x);
    Map<Var, Boolean> inChain = new IdentityHashMap<>();
    inChain.put(x, true);
    for (Var v : reach) inChain.put(v, true);
    for (int k = reach.size() - 1; k >= 0; k--) {
      Chain c = chain(x, reach.get(k), inChain);
      if (c != null) return c;
    }
    if (materialised.containsKey(x)) return new Chain(x, List.of());
    for (int k = reach.size() - 1; k >= -1; k--) {
      Chain c = reshaped(x, k < 0 ? x : reach.get(k), inChain);
      if (c != null) return c;
    }
    return null;
  }

  /**
   * The chain from x to {@code end} ended by the plain (row-major) reshape that alone reads end and
   * is materialised, or null: its buffer holds end's elements in end's own row-major order, so
   * the kernel stores end's values there (attention's {@code (a @ v).transpose(0, 2, 1,
   * 3).reshape(b, s, h·d)}, which the next dot reads).
   */
  private Chain reshaped(Var x, Var end, Map<Var, Boolean> reachable) {
    List<Eqn> uses = consumers.getOrDefault(end, List.of());
    if (uses.size() != 1 || outputs.containsKey(end)) return null;
    Eqn r = uses.get(0);
    if (primitives.get(r) != Primitive.RESHAPE || r.outs().size() != 1 || !r.params().isNone("dimensions")) return null;
    Var root = r.outs().get(0);
    if (!materialised.containsKey(root) || taken.containsKey(root)) return null;
    Chain c = end == x ? new Chain(x, List.of()) : paths(x, end, reachable);
    if (c == null) return null;
    List<Var> inner = new ArrayList<>(c.inner());
    inner.add(end);
    return new Chain(root, inner);
  }

  /** The chain from d to {@code root}, if root can end it. */
  private Chain chain(Var d, Var root, Map<Var, Boolean> reachable) {
    return materialised.containsKey(root) ? paths(d, root, reachable) : null;
  }

  /** The chain from d to {@code root} (materialised or not), if its values are read only on its paths. */
  private Chain paths(Var d, Var root, Map<Var, Boolean> reachable) {
    Map<Var, Boolean> paths = new IdentityHashMap<>();
    ancestors(root, d, reachable, paths);
    if (!paths.containsKey(d)) return null;
    List<Var> inner = new ArrayList<>();
    for (Var u : paths.keySet()) {
      if (taken.containsKey(u)) return null;
      if (u == root) continue;
      if (outputs.containsKey(u)) return null;
      for (Eqn use : consumers.getOrDefault(u, List.of())) if (!paths.containsKey(use.outs().get(0))) return null;
      if (u != d && materialised.containsKey(u) && product(producers.get(u))) return null;
      inner.add(u);
    }
    if (composed(root, d, paths) > MAX_COMPOSED) return null;
    inner.sort((x, y) -> Integer.compare(position(x), position(y)));
    return new Chain(root, inner);
  }

  /** The chain values {@code v} is computed from (itself included), back to d. */
  private void ancestors(Var v, Var d, Map<Var, Boolean> reachable, Map<Var, Boolean> into) {
    if (into.put(v, true) != null || v == d) return;
    for (Atom a : producers.get(v).eqn().ins()) if (a instanceof Var u && reachable.containsKey(u)) ancestors(u, d, reachable, into);
  }

  /** Equations the root's generator evaluates, each chain value recomputed at every use. */
  private int composed(Var v, Var d, Map<Var, Boolean> paths) {
    if (v == d || !paths.containsKey(v)) return 0;
    int n = 1;
    for (Atom a : producers.get(v).eqn().ins()) if (a instanceof Var u) n += composed(u, d, paths);
    return n;
  }

  /** An equation that maps each chain operand's element at an index to its result's there. */
  private boolean elementwise(Eqn e, long[] shape, Map<Var, Boolean> chain) {
    Primitive p = primitives.get(e);
    if (EqnKind.of(p) != EqnKind.FUSIBLE || !ELEMENTWISE.contains(p.group()) || e.outs().size() != 1) return false;
    if (!Arrays.equals(shape(e.outs().get(0)), shape)) return false;
    for (Atom a : e.ins()) if (a instanceof Var v && chain.containsKey(v) && !Arrays.equals(shape(v), shape)) return false;
    return true;
  }

  /** An f32/f64 multiply: XLA's FMA contraction depends on whether it is materialised. */
  private static boolean product(Producer p) {
    if (p.primitive() != Primitive.MUL) return false;
    DType t = ((ArrayType) p.eqn().outs().get(0).type()).dtype();
    return t == DType.F32 || t == DType.F64;
  }

  private int position(Var v) {
    return positions.get(producers.get(v).eqn());
  }

  private static long[] shape(Var v) {
    return ((ArrayType) v.type()).shape().sizes();
  }
}
