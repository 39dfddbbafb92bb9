package dev.jaxc.ir.pass.random;

import static dev.jaxc.ir.pass.random.Emitter.array;
import static dev.jaxc.ir.pass.random.Emitter.literal;

import dev.jaxc.ir.Atom;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Eqn;
import dev.jaxc.ir.Params;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.Shape;
import dev.jaxc.ir.Type.ArrayType;
import dev.jaxc.ir.Var;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.pass.EqnRewriter;
import dev.jaxc.ir.pass.FreshNames;
import java.util.List;
import java.util.Map;

/**
 * {@code rng_bit_generator} as XLA expands it (RngBitGeneratorExpander and the Philox and
 * ThreeFry bit generators of its prng library), so the bits and the new state are XLA's, bit for
 * bit. JAX's key u32[4] is XLA's state u64[2]: the key word {@code (k0, k1)} and a counter
 * {@code (k2, k3)}. RNG_DEFAULT is Philox on CPU and GPU.
 *
 * <ul>
 *   <li>Philox-4x32-10: ⌈n/4⌉ blocks (n the 32-bit words wanted, twice the elements for u64) on
 *       the 128-bit counters {@code (counter + i, key)} (the key word is the counter's high half,
 *       carry included) under the key {@code (k0, k1)}; the block's four words laid out in turn;
 *       the counter advances by the block count.
 *   <li>ThreeFry-2x32 (20 rounds, the threefry2x32 primitive): for 32-bit words the shape is cut
 *       in halves along its first even dimension (else its longest), each element of the half
 *       shape counting {@code counter + its row-major index} and giving two words, the halves
 *       interleaved along that dimension; for u64, one counter per element, the two words its
 *       low and high halves; the counter advances by the counters used.
 * </ul>
 *
 * u8 and u16 are the low bits of the 32-bit words of the same shape, as XLA truncates them.
 */
public final class RngBitGeneratorExpansion extends EqnRewriter {
  private static final long W32A = 0x9E3779B9L;
  private static final long W32B = 0xBB67AE85L;
  private static final long M4X32A = 0xD2511F53L;
  private static final long M4X32B = 0xCD9E8D57L;

  private final FreshNames names;

  private RngBitGeneratorExpansion(FreshNames names) {
    this.names = names;
  }

  public static Program run(Program p) {
    return p.withMain(new RngBitGeneratorExpansion(FreshNames.after(p)).jaxpr(p.main()));
  }

  @Override
  protected void equation(Eqn e, List<Atom> ins, Map<Var, Atom> scope, List<Eqn> out) {
    if (!e.primitive().equals("rng_bit_generator")) {
      keep(e, ins, out);
      return;
    }
    Emitter em = new Emitter(names, out, e);
    ArrayType keyType = array(ins.get(0));
    ArrayType bitsType = (ArrayType) e.outs().get(1).type();
    if (keyType.dtype() != DType.U32 || !keyType.shape().equals(Shape.of(4)))
      throw new JaxcException("rng_bit_generator: the key must be u32[4] (got " + keyType.text() + ")", e.primSpan());
    DType d = bitsType.dtype();
    if (d != DType.U8 && d != DType.U16 && d != DType.U32 && d != DType.U64)
      throw new JaxcException("rng_bit_generator: " + d.shortName() + " bits are not supported (unsigned integers only)",
          e.primSpan());
    long[] shape = em.sizes(bitsType.shape());
    String algorithm = e.params().getWord("algorithm").orElse("RNG_DEFAULT");
    Atom[] k = new Atom[4];
    for (int i = 0; i < 4; i++) k[i] = em.reshape(em.slice(ins.get(0), new long[] {i}, new long[] {i + 1}), Shape.of());
    Atom[] result = algorithm.contains("THREE_FRY") ? threeFry(em, k, shape, d) : philox(em, k, shape, d);
    scope.put(e.outs().get(0), result[0]);
    scope.put(e.outs().get(1), result[1]);
  }

  // ---- Philox ----

  private Atom[] philox(Emitter em, Atom[] k, long[] shape, DType d) {
    long n = product(shape);
    long words = d == DType.U64 ? 2 * n : n;
    long blocks = (words + 3) / 4;
    Shape b = Shape.of(blocks);
    Atom counter = u64(em, k[2], k[3]);
    Atom keyWord = u64(em, k[0], k[1]);
    // The 128-bit counters (counter + i, key word), with the carry into the high half.
    Atom iota = em.iota(DType.U64, b, 0);
    Atom lo = em.binary("add", em.broadcastInDim(counter, b), iota);
    Atom lt = em.emit("lt", Params.EMPTY, new ArrayType(DType.BOOL, b), lo, em.broadcastInDim(counter, b));
    Atom hi = em.emit("select_n", Params.EMPTY, new ArrayType(DType.U64, b), lt,
        em.broadcastInDim(keyWord, b), em.broadcastInDim(em.binary("add", keyWord, literal(DType.U64, 1)), b));
    Atom[] x = {low(em, lo), high(em, lo), low(em, hi), high(em, hi)};
    Atom k0 = k[0];
    Atom k1 = k[1];
    for (int round = 0; round < 10; round++) {
      Atom[] p0 = mulHiLo(em, x[0], M4X32A);
      Atom[] p1 = mulHiLo(em, x[2], M4X32B);
      x = new Atom[] {xor3(em, p1[0], x[1], k0, b), p1[1], xor3(em, p0[0], x[3], k1, b), p0[1]};
      k0 = em.binary("add", k0, literal(DType.U32, W32A));
      k1 = em.binary("add", k1, literal(DType.U32, W32B));
    }
    Atom bits;
    if (d == DType.U64) {
      Atom[] pairs = {u64(em, x[0], x[1]), u64(em, x[2], x[3])};
      bits = interleave(em, pairs, blocks, n);
    } else {
      bits = interleave(em, x, blocks, n);
      if (d != DType.U32) bits = em.convert(bits, d);
    }
    Atom next = em.binary("add", counter, literal(DType.U64, blocks));
    return new Atom[] {state(em, k, next), em.reshape(bits, Shape.of(shape))};
  }

  /** The high and low words of x·m (x u32, m a 32-bit constant). */
  private static Atom[] mulHiLo(Emitter em, Atom x, long m) {
    Atom p = em.binary("mul", em.convert(x, DType.U64), literal(DType.U64, m));
    return new Atom[] {high(em, p), low(em, p)};
  }

  private static Atom xor3(Emitter em, Atom a, Atom b, Atom key, Shape s) {
    return em.binary("xor", em.binary("xor", a, b), em.broadcastInDim(key, s));
  }

  /** words[0][i], words[1][i], … for each i in turn, the first n of them. */
  private static Atom interleave(Emitter em, Atom[] words, long len, long n) {
    ArrayType t = array(words[0]);
    Atom[] columns = new Atom[words.length];
    for (int i = 0; i < words.length; i++) columns[i] = em.reshape(words[i], Shape.of(len, 1));
    Atom all = em.reshape(em.concatenate(1, columns), Shape.of(len * words.length));
    return len * words.length == n ? all : em.slice(all, new long[] {0}, new long[] {n});
  }

  // ---- ThreeFry ----

  private Atom[] threeFry(Emitter em, Atom[] k, long[] shape, DType d) {
    Atom counter = u64(em, k[2], k[3]);
    if (d == DType.U64) {
      long n = product(shape);
      Atom[] y = threefryOn(em, k, counter, n);
      Atom bits = em.reshape(u64(em, y[0], y[1]), Shape.of(shape));
      return new Atom[] {state(em, k, em.binary("add", counter, literal(DType.U64, n))), bits};
    }
    // Halves: the first even dimension (else the longest, the first of equals) split in two.
    int r = shape.length;
    long[] half;
    int split = -1;
    if (r == 0) {
      half = new long[] {1};
    } else {
      for (int i = 0; i < r && split < 0; i++) if (shape[i] % 2 == 0) split = i;
      if (split < 0) for (int i = 0; i < r; i++) if (split < 0 || shape[i] > shape[split]) split = i;
      half = new long[r + 1];
      for (int i = 0, j = 0; i < r; i++) {
        half[j++] = i == split ? (shape[i] + 1) / 2 : shape[i];
        if (i == split) half[j++] = 1;
      }
    }
    long n = product(half);
    Atom[] y = threefryOn(em, k, counter, n);
    Atom bits;
    if (r == 0) {
      bits = em.reshape(y[0], Shape.of());
    } else {
      Atom both = em.concatenate(split + 1, em.reshape(y[0], Shape.of(half)), em.reshape(y[1], Shape.of(half)));
      long[] even = shape.clone();
      even[split] = (shape[split] + 1) / 2 * 2;
      bits = em.reshape(both, Shape.of(even));
      if (even[split] != shape[split]) bits = em.slice(bits, new long[r], shape);
    }
    if (d != DType.U32) bits = em.convert(bits, d);
    return new Atom[] {state(em, k, em.binary("add", counter, literal(DType.U64, n))), bits};
  }

  /** threefry2x32 under the key (k0, k1) of the n counters counter + i, as (low, high) words. */
  private static Atom[] threefryOn(Emitter em, Atom[] k, Atom counter, long n) {
    Shape s = Shape.of(n);
    Atom c = em.binary("add", em.broadcastInDim(counter, s), em.iota(DType.U64, s, 0));
    ArrayType t = new ArrayType(DType.U32, s);
    Var[] y = {em.fresh(t), em.fresh(t)};
    em.add(List.of(y), "threefry2x32", Params.EMPTY,
        List.of(em.broadcastInDim(k[0], s), em.broadcastInDim(k[1], s), low(em, c), high(em, c)));
    return y;
  }

  // ---- words ----

  /** The state u32[4]: the key words, then the new counter's low and high words. */
  private static Atom state(Emitter em, Atom[] k, Atom counter) {
    Atom[] w = {k[0], k[1], low(em, counter), high(em, counter)};
    for (int i = 0; i < 4; i++) w[i] = em.reshape(w[i], Shape.of(1));
    return em.concatenate(0, w);
  }

  /** lo | hi << 32 (u32 words, same shape). */
  private static Atom u64(Emitter em, Atom lo, Atom hi) {
    return em.binary("or", em.convert(lo, DType.U64),
        em.binary("shift_left", em.convert(hi, DType.U64), literal(DType.U64, 32)));
  }

  private static Atom low(Emitter em, Atom x) {
    return em.convert(x, DType.U32);
  }

  private static Atom high(Emitter em, Atom x) {
    return em.convert(em.binary("shift_right_logical", x, literal(DType.U64, 32)), DType.U32);
  }

  private static long product(long[] xs) {
    long p = 1;
    for (long x : xs) p *= x;
    return p;
  }
}
