"""Writes the jaxprs JAX's own lowerings trace for the special functions it lowers with
`mlir.lower_fun` (jax/_src/lax/special.py): igamma, igammac, igamma_grad_a, random_gamma_grad,
regularized_incomplete_beta and bessel_i0e. XLA compiles exactly these equations, so jaxc expands
each such primitive into them (frontend LowerFunExpansion) instead of writing its own algorithm.

Primitives JAX hands to XLA as CHLO ops (bessel_i1e, zeta, polygamma) are written here as JAX
code that follows XLA's decomposition (stablehlo's ChloDecompositionPatterns, as the optimised HLO
of jax.jit shows it), and recorded the same way only after this script has checked, on 100,000 to
400,000 inputs per dtype and the edge values, that JAX runs them to XLA's results bit for bit.

Each function is traced for f32 and f64 operands of shape [N] with N = 9973, a prime no
coefficient or parameter of these functions contains; jaxc substitutes the flattened operand size
for N. This script proves that substitution sound: tracing at N' = 9967 must give the same text
with N' for N.

Run with JAX 0.10.2: .venv/bin/python testdata/generate_expansions.py
"""
import pathlib
from functools import partial

import jax
import numpy as np
from jax._src.lax import special as sp

jax.config.update("jax_enable_x64", True)

OUT = pathlib.Path(__file__).resolve().parent.parent / "frontend/src/main/resources/dev/jaxc/frontend/expansions"
N, CHECK = 9973, 9967

# primitive name -> (function JAX's lowering traces for dtype dt, operand count)
FUNCTIONS = {
    "igamma": (lambda dt: partial(sp.igamma_impl, dtype=dt), 2),
    "igammac": (lambda dt: partial(sp.igammac_impl, dtype=dt), 2),
    "igamma_grad_a": (lambda dt: partial(sp.igamma_grad_a_impl, dtype=dt), 2),
    "random_gamma_grad": (lambda dt: partial(sp.random_gamma_grad_impl, dtype=dt), 2),
    "regularized_incomplete_beta": (lambda dt: partial(sp.regularized_incomplete_beta_impl, dtype=dt), 3),
    "bessel_i0e": (lambda dt: sp.bessel_i0e_impl, 1),
}


# Cephes' i1 coefficients (i1.c; the f32 decomposition uses the last 17 and 7, as i1f.c).
_I1E_A = [2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
          -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
          3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
          -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
          9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1]
_I1E_B = [7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
          -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
          -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
          4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
          -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
          3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
          -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
          -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
          7.78576235018280120474E-1]


def bessel_i1e(x):
    """XLA's decomposition of chlo.bessel_i1e: Cephes' Chebyshev series on [0, 8] and beyond,
    evaluated as JAX evaluates i0e's, times sign(x) (so i1e(-0) = -0)."""
    from jax import lax
    from jax._src.lax.special import evaluate_chebyshev_polynomial as cheb
    a, b = (_I1E_A[12:], _I1E_B[18:]) if x.dtype == np.float32 else (_I1E_A, _I1E_B)
    z = lax.abs(x)
    half, two, t32 = [lax.full_like(z, c) for c in (0.5, 2.0, 32.0)]
    le8 = cheb(half * z - two, np.array(a)) * z
    gt8 = lax.div(cheb(t32 / z - two, np.array(b)), lax.sqrt(z))
    r = lax.select(z <= 8.0, le8, gt8)
    return r * lax.sign(x)


_ZETA_K = [-7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15,
           1.1646782814350067249e14, -2.950130727918164224e12, 7.47242496e10, -1.8924375803183791606e9,
           47900160.0, -1209600.0, 30240.0, -720.0, 12.0]


def zeta(x, q):
    """XLA's decomposition of chlo.zeta (Hurwitz zeta): ten terms of the series, then a 12-term
    Euler-Maclaurin tail by Horner's rule, and its poles and domain errors."""
    from jax import lax
    dt = np.dtype(x.dtype).type
    c = lambda v: lax.full_like(x, v)
    neg_x = -x
    initial_sum = lax.pow(q, neg_x)
    for k in range(1, 10):
        initial_sum = initial_sum + lax.pow(q + c(k), neg_x)
    a = q + c(10.0)
    neg_power = lax.pow(a, neg_x)
    s = initial_sum + (neg_power * a) / (x + c(-1.0))
    a_inverse_square = c(1.0) / (a * a)
    horner_sum = c(0.0)
    for i in range(11):
        factor = (x + c(22.0 - 2 * i)) * (x + c(21.0 - 2 * i))
        horner_sum = factor * (a_inverse_square * (horner_sum + c(1.0 / _ZETA_K[i])))
    s = s + neg_power * ((x / a) * (horner_sum + c(1.0 / _ZETA_K[11])) + c(0.5))
    out = lax.select(lax.abs(neg_power) < lax.abs(initial_sum) * c(np.finfo(dt).smallest_subnormal), initial_sum, s)
    out = lax.select(x < c(1.0), c(np.nan), out)
    q_le_zero = q <= c(0.0)
    out = lax.select(q_le_zero & (x != lax.floor(x)), c(np.nan), out)
    x_even_int = (x == lax.floor(x)) & (lax.rem(x, c(2.0)) == c(0.0))
    out = lax.select(q_le_zero & (q == lax.floor(q)), lax.select(x_even_int, c(np.inf), c(np.nan)), out)
    return lax.select(x == c(1.0), c(np.inf), out)


def polygamma(n, x):
    """XLA's decomposition of chlo.polygamma: (-1)^(n+1) n! zeta(n+1, x), digamma at n = 0, NaN
    unless n is a natural number (n! as exp(lgamma(n + 1)), lgamma and digamma as primitives)."""
    from jax import lax
    c = lambda v: lax.full_like(x, v)
    sign = c(2.0) * lax.rem(n, c(2.0)) - c(1.0)
    n1 = n + c(1.0)
    result = (sign * lax.exp(lax.lgamma(n1))) * zeta(n1, x)
    result = lax.select(n == c(0.0), lax.digamma(x), result)
    return lax.select((n != lax.floor(n)) | (n < c(0.0)), c(np.nan), result)


def _unary_inputs(r, dt):
    return [np.concatenate([r.uniform(-40, 40, 200000), r.uniform(-9, 9, 200000),
                            [0.0, -0.0, 8.0, -8.0, 1e-30, 700.0, np.inf, -np.inf, np.nan]]).astype(dt)]


def _zeta_inputs(r, dt):
    x = np.concatenate([r.uniform(1, 12, 200000), r.uniform(-3, 1, 2000), [1, 1, 2, 2, 3, 2.5, np.nan, 2, np.inf, 4]])
    q = np.concatenate([r.uniform(0.01, 30, 200000), r.uniform(-3, 3, 2000), [1, -2, -2.5, 0, -1, -1, 1, np.nan, 2, 1e-3]])
    return [x.astype(dt), q.astype(dt)]


def _polygamma_inputs(r, dt):
    n = np.concatenate([r.integers(0, 7, 100000).astype(float), [0, 1, 2.5, -1, 3, np.nan, 0, 1]])
    x = np.concatenate([r.uniform(0.05, 20, 100000), [1, 0, 1, 1, -2, 1, -0.5, np.inf]])
    return [n.astype(dt), x.astype(dt)]


# primitive -> (XLA's decomposition written in JAX, JAX's own function to check it against, inputs)
PORTS = {
    "bessel_i1e": (bessel_i1e, jax.scipy.special.i1e, _unary_inputs),
    "zeta": (zeta, jax.lax.zeta, _zeta_inputs),
    "polygamma": (polygamma, jax.lax.polygamma, _polygamma_inputs),
}


def check_port(name, port, reference, inputs, dt):
    args = inputs(np.random.default_rng(1), dt)
    want = np.asarray(jax.jit(reference)(*args))
    got = np.asarray(jax.jit(port)(*args))
    same = (want.view(np.uint8) == got.view(np.uint8)).reshape(len(want), -1).all(axis=1) | (np.isnan(want) & np.isnan(got))
    if not same.all():
        raise SystemExit(f"{name} {np.dtype(dt).name}: the port differs from XLA at {[a[~same][:5] for a in args]}")
    return len(want)


def trace(fn, n, dt, arity):
    return str(jax.make_jaxpr(fn)(*[np.ones(n, dt) for _ in range(arity)]))


# random_gamma: key<fry>[K] and alphas [K, S] (each key split S ways), traced at K = 9967 and
# S = 9973; jaxc substitutes K·S, then K, then S.
GAMMA_K, GAMMA_S = 9967, 9973
GAMMA_CHECK = (9949, 9941)


def write_random_gamma():
    """random_gamma as its lowering traces it: `_gamma_impl` with use_vmap=True (every platform,
    threefry keys), for each dtype and both log_space values."""
    from jax._src.random.core import _gamma_impl
    import ml_dtypes

    def trace_gamma(k, s_, dt, log_space):
        key = jax.ShapeDtypeStruct((k,), jax.random.key(0).dtype)
        fn = partial(_gamma_impl, log_space=log_space, use_vmap=True)
        return str(jax.make_jaxpr(fn)(key, jax.ShapeDtypeStruct((k, s_), dt)))

    def symbolic(text, k, s_):
        return text.replace(str(k * s_), "<KS>").replace(str(k), "<K>").replace(str(s_), "<S>")

    for dt, tag in ((np.float32, "f32"), (np.float64, "f64"), (np.float16, "f16"), (ml_dtypes.bfloat16, "bf16")):
        for log_space in (False, True):
            text = trace_gamma(GAMMA_K, GAMMA_S, dt, log_space)
            other = trace_gamma(*GAMMA_CHECK, dt, log_space)
            if "<" in text.replace("key<fry>", "") or symbolic(text, GAMMA_K, GAMMA_S) != symbolic(other, *GAMMA_CHECK):
                raise SystemExit(f"random_gamma {tag}: the key count and split count are not free parameters of the trace")
            name = f"random_gamma_{'log' if log_space else 'linear'}_{tag}"
            (OUT / f"{name}.jaxpr").write_text(text + "\n")
            print(f"{name}.jaxpr: {len(text.splitlines())} lines")


# Linear algebra: jaxc's own algorithms, written in JAX and traced like the others (LAPACK, which
# XLA:CPU calls, is not JAX code), for a batch of B matrices: B = 9967, m = 9973 (the matrix
# size), k = 9949 (triangular_solve's right-hand sides); jaxc substitutes the products first.
LA_B, LA_M, LA_K = 9967, 9973, 9949
LA_CHECK = (9941, 9931, 9929)


def cholesky(a):
    """The lower Cholesky factor (L·Lᴴ) of the lower triangle of a [m, m], column by column (each column
    one masked matrix-vector product), zero above the diagonal; NaN below it where a pivot is not
    positive, as JAX's LAPACK lowering gives."""
    import jax.numpy as jnp
    from jax import lax
    m = a.shape[-1]
    idx = jnp.arange(m)

    def column(j, carry):
        l, ok = carry
        row = jnp.conj(jnp.where(idx < j, l[j], 0))  # conj is the identity on reals
        pivot = jnp.real(l[j, j] - jnp.dot(jnp.conj(row), row, precision=lax.Precision.HIGHEST))
        d = jnp.sqrt(pivot).astype(l.dtype)
        col = (l[:, j] - jnp.dot(jnp.where(idx[None, :] < j, l, 0), row, precision=lax.Precision.HIGHEST)) / d
        col = jnp.where(idx > j, col, jnp.where(idx == j, d, l[:, j]))
        return l.at[:, j].set(col), ok & (pivot > 0)

    l, ok = lax.fori_loop(0, m, column, (a, jnp.bool_(True)))
    return jnp.where(idx[:, None] >= idx[None, :], jnp.where(ok, l, jnp.nan), 0)


def triangular_solve(a, b, *, left_side, lower, transpose_a, unit_diagonal):
    """op(a) x = b (left) or x op(a) = b (right), op(a) = a or aᵀ, a triangular [m, m]: reduced
    to a lower, left, untransposed solve by transposes and reversals, then forward substitution
    row by row (each row one masked vector-matrix product)."""
    import jax.numpy as jnp
    from jax import lax
    m = a.shape[-1]
    if not left_side:  # x op(a) = b  <=>  op(a)ᵀ xᵀ = bᵀ
        return triangular_solve(a, b.T, left_side=True, lower=lower, transpose_a=not transpose_a,
                                unit_diagonal=unit_diagonal).T
    if transpose_a:  # aᵀ is triangular the other way
        a, lower = a.T, not lower
    if not lower:  # reversing rows and columns turns upper into lower
        return triangular_solve(a[::-1, ::-1], b[::-1], left_side=True, lower=True, transpose_a=False,
                                unit_diagonal=unit_diagonal)[::-1]
    idx = jnp.arange(m)

    def row(i, x):
        s = jnp.dot(jnp.where(idx < i, a[i], 0), x, precision=lax.Precision.HIGHEST)
        xi = b[i] - s if unit_diagonal else (b[i] - s) / a[i, i]
        return x.at[i].set(xi)

    return lax.fori_loop(0, m, row, b)


def lu(a):
    """LU with partial pivoting of a [m, n], LAPACK's getrf: at step j the row of the largest
    |a[i, j]| (|re| + |im| for complex, as i?amax; the first of equals) for i ≥ j is swapped up, the
    column below is divided by the pivot (not when it is zero) and the trailing block updated.
    Returns (lu, pivots [min(m, n)], permutation [m]), indices 0-based as JAX gives them."""
    import jax.numpy as jnp
    from jax import lax
    m, n = a.shape
    k = min(m, n)
    rows = jnp.arange(m)
    cols = jnp.arange(n)

    def step(j, carry):
        x, piv, perm = carry
        col = x[:, j]
        mag = jnp.abs(jnp.real(col)) + jnp.abs(jnp.imag(col)) if jnp.iscomplexobj(col) else jnp.abs(col)
        p = jnp.argmax(jnp.where(rows >= j, mag, -1))
        rj, rp = x[j], x[p]
        x = x.at[j].set(rp).at[p].set(rj)
        perm = perm.at[j].set(perm[p]).at[p].set(perm[j])
        pivot = x[j, j]
        below = rows > j
        mult = jnp.where(below, jnp.where(pivot != 0, x[:, j] / pivot, x[:, j]), x[:, j])
        update = jnp.where(below[:, None] & (cols > j)[None, :], mult[:, None] * x[j][None, :], 0)
        x = (x - update).at[:, j].set(mult)
        return x, piv.at[j].set(p.astype(jnp.int32)), perm

    x, piv, perm = lax.fori_loop(0, k, step, (a, jnp.zeros(k, jnp.int32), jnp.arange(m, dtype=jnp.int32)))
    return x, piv, perm


def _norm2(x, real_dt):
    """‖x‖₂ scaled by max|x| (as LAPACK's dnrm2 avoids it): no overflow for entries near the
    dtype's largest, no underflow to zero for tiny ones."""
    import jax.numpy as jnp
    sc = jnp.max(jnp.abs(x)).astype(real_dt)
    scs = jnp.where(sc > 0, sc, 1)
    xs = x / scs.astype(x.dtype)
    return (scs * jnp.sqrt(jnp.sum(jnp.real(xs * jnp.conj(xs))))).astype(real_dt)


def _lapy3(x, y, z):
    """√(x² + y² + z²) without overflow or underflow (LAPACK's dlapy3)."""
    import jax.numpy as jnp
    w = jnp.maximum(jnp.maximum(jnp.abs(x), jnp.abs(y)), jnp.abs(z))
    ws = jnp.where(w > 0, w, 1)
    return w * jnp.sqrt((x / ws) ** 2 + (y / ws) ** 2 + (z / ws) ** 2)


def _larfg(col, p, rows, dtype):
    """LAPACK's dlarfg/zlarfg on col[p:] (α = col[p], x below it): β = −sign(Re α)·‖(α, x)‖,
    τ = (β − α)/β, v = (1, x/(α − β)); τ = 0 (H = I) when x = 0 and α is real. Returns α, β
    (real), τ, v (zero above p) and whether the reflector is trivial."""
    import jax.numpy as jnp
    from jax import lax
    cplx = jnp.iscomplexobj(col)
    real_dt = jnp.real(col).dtype
    alpha = col[p]
    below = jnp.where(rows > p, col, 0)
    xnorm = _norm2(below, real_dt)
    ar = jnp.real(alpha)
    ai = jnp.imag(alpha) if cplx else jnp.zeros((), real_dt)
    norm = _lapy3(ar, ai, xnorm)
    beta = -jnp.where(ar >= 0, 1, -1).astype(real_dt) * norm
    trivial = (xnorm == 0) & (ai == 0)
    tau = jnp.where(trivial, 0, lax.complex((beta - ar) / beta, -ai / beta) if cplx else (beta - ar) / beta)
    scale = jnp.where(trivial, 1, 1 / (alpha - beta))
    v = jnp.where(rows > p, below * scale, jnp.where(rows == p, 1, 0)).astype(dtype)
    return alpha, beta, tau.astype(dtype), v, trivial


def _reflect_left(x, v, tau, columns):
    """Hᴴ·x = x − conj(τ)·v·(vᴴx) on the columns where `columns` holds."""
    import jax.numpy as jnp
    from jax import lax
    w = jnp.dot(jnp.conj(v), x, precision=lax.Precision.HIGHEST)
    return jnp.where(columns[None, :], x - jnp.conj(tau) * v[:, None] * w[None, :], x)


def _reflectors_applied(a, taus, q):
    """H₁H₂…H_k·q for H_j = I − τ_j v_j v_jᴴ, v_j column j of a below the diagonal (v_j[j] = 1):
    orgqr/ungqr's product, applied from the last reflector."""
    import jax.numpy as jnp
    from jax import lax
    k = taus.shape[0]
    rows = jnp.arange(a.shape[0])

    def apply(i, q):
        j = k - (i + 1)  # not k − 1 − i: k − 1 would be a constant of its own in the trace
        v = jnp.where(rows > j, a[:, j], jnp.where(rows == j, 1, 0)).astype(a.dtype)
        return q - taus[j] * v[:, None] * jnp.dot(jnp.conj(v), q, precision=lax.Precision.HIGHEST)[None, :]

    return lax.fori_loop(0, k, apply, q)


def qr(a, full_matrices):
    """Householder QR of a [m, n] as LAPACK's geqrf and orgqr/ungqr: geqrf's reflectors, Q =
    H₁H₂…H_k applied to the identity's first m (full) or k columns, R the upper triangle of the
    first m or k rows."""
    import jax.numpy as jnp
    m, n = a.shape
    k = min(m, n)
    x, taus = geqrf(a)
    qcols = m if full_matrices else k
    q = _reflectors_applied(x, taus, jnp.eye(m, qcols, dtype=a.dtype))
    rrows = m if full_matrices else k
    r = jnp.where(jnp.arange(m)[:rrows, None] <= jnp.arange(n)[None, :], x[:rrows], 0)
    return q, r


def geqrf(a):
    """geqrf of a [m, n]: LAPACK's packed QR, R on and above the diagonal, reflector j's v below
    it in column j (v[j] = 1 implied), and the τs; step j is dlarfg/zlarfg on column j, its
    adjoint applied to the trailing columns with conj(τ)."""
    import jax.numpy as jnp
    from jax import lax
    m, n = a.shape
    k = min(m, n)
    rows = jnp.arange(m)
    cols = jnp.arange(n)

    def step(j, carry):
        x, taus = carry
        col = x[:, j]
        alpha, beta, tau, v, trivial = _larfg(col, j, rows, a.dtype)
        x = _reflect_left(x, v, tau, cols > j)
        # The packed column: β on the diagonal, v below it.
        newcol = jnp.where(rows == j, jnp.where(trivial, alpha, beta.astype(a.dtype)), jnp.where(rows > j, v, col))
        return x.at[:, j].set(newcol), taus.at[j].set(tau)

    return lax.fori_loop(0, k, step, (a, jnp.zeros(k, a.dtype)))


def householder_product(a, taus):
    """orgqr/ungqr: Q = H₁H₂…H_k applied to the identity's first n columns, H_j = I − τ_j v_j v_jᴴ
    with v_j column j of a below the diagonal (v_j[j] = 1). Traced with k = n; a shorter τ is
    padded with zeros by jaxc (τ = 0 is the identity)."""
    import jax.numpy as jnp
    m, n = a.shape
    return _reflectors_applied(a, taus, jnp.eye(m, n, dtype=a.dtype))


def larft(a, taus):
    """dlarft (forward, columnwise) of the k reflectors packed below the diagonal of a [m, k]
    (m ≥ k): V (unit lower trapezoidal) and the upper triangular T with H₁H₂…H_k = I − V·T·Vᴴ,
    column i of T being −τ_i·T[:i, :i]·(V[:, :i]ᴴ·v_i) above τ_i. The blocked QR applies a panel's
    reflectors to the trailing matrix through V and T as matrix products."""
    import jax.numpy as jnp
    from jax import lax
    m, k = a.shape
    rows = jnp.arange(m)[:, None]
    cols = jnp.arange(k)
    v = jnp.where(rows > cols[None, :], a, jnp.where(rows == cols[None, :], 1, 0)).astype(a.dtype)
    s = jnp.dot(jnp.conj(v).T, v, precision=lax.Precision.HIGHEST)

    def column(i, t):
        before = cols < i
        col = -taus[i] * jnp.dot(t, jnp.where(before, s[:, i], 0), precision=lax.Precision.HIGHEST)
        return t.at[:, i].set(jnp.where(before, col, jnp.where(cols == i, taus[i], 0)))

    return v, lax.fori_loop(0, k, column, jnp.zeros((k, k), a.dtype))


def hessenberg(a):
    """gehrd of a [n, n] as LAPACK's gehd2: reflector j (dlarfg/zlarfg on column j from row j + 1)
    applied from the right to all rows, then its adjoint from the left to the columns after j;
    packed as LAPACK: the Hessenberg matrix on and above the first subdiagonal, v_j below it in
    column j (v_j[j + 1] = 1 implied), and the n − 1 τs."""
    import jax.numpy as jnp
    from jax import lax
    n = a.shape[0]
    rows = jnp.arange(n)
    cols = jnp.arange(n)

    def step(j, carry):
        x, taus = carry
        col = x[:, j]
        p = j + 1
        alpha, beta, tau, v, trivial = _larfg(col, p, rows, a.dtype)
        # A·H = A − τ (A v) vᴴ (column j untouched: v is zero there), then Hᴴ·A on the columns after j.
        xv = jnp.dot(x, v, precision=lax.Precision.HIGHEST)
        x = x - tau * xv[:, None] * jnp.conj(v)[None, :]
        x = _reflect_left(x, v, tau, cols > j)
        newcol = jnp.where(rows == p, jnp.where(trivial, alpha, beta.astype(a.dtype)), jnp.where(rows > p, v, col))
        return x.at[:, j].set(newcol), taus.at[j].set(tau)

    return lax.fori_loop(0, n - 1, step, (a, jnp.zeros(n - 1, a.dtype)))


def _adjoint_times(f, v):
    """Fᴴ·v for F [r, c] stored row-major, without transposing F: conj(conj(v)·F) (v·F if real)."""
    import jax.numpy as jnp
    from jax import lax
    if jnp.iscomplexobj(f):
        return jnp.conj(jnp.dot(jnp.conj(v), f, precision=lax.Precision.HIGHEST))
    return jnp.dot(v, f, precision=lax.Precision.HIGHEST)


def gehrd_panel(b, w0):
    """lahr2 on a trailing [M, M] block b: the first K = w0.shape[1] reflectors of gehd2 with the
    rest of the block left as it was, as LAPACK's blocked gehrd runs its panels. Column i is first
    brought up to date by the panel's earlier reflectors from the right (A − Y·Vᴴ, Y = A·V·T) and
    from the left (I − V·Tᴴ·Vᴴ), its reflector generated, and y_i = τ(A·v_i − Y(Vᴴv_i)) and T's
    column i (larft) formed, so that jaxc then applies the panel to the trailing columns and to
    the rows above by products on the GEMM kernel. One read of the block per reflector instead of
    gehd2's two masked passes over the whole matrix. Returns the packed columns (the Hessenberg
    entries on and above the subdiagonal, v_i below it), V, Y, T [K, K] and the τs."""
    import jax.numpy as jnp
    from jax import lax
    m, k = w0.shape
    dt = b.dtype
    rows = jnp.arange(m)
    hi = lax.Precision.HIGHEST
    adj = _adjoint_times

    def step(i, carry):
        packed, vs, ys, t, taus = carry
        col = b[:, i] - jnp.dot(ys, jnp.conj(vs[i]), precision=hi)
        col = col - jnp.dot(vs, adj(t, adj(vs, col)), precision=hi)
        p = i + 1
        alpha, beta, tau, v, trivial = _larfg(col, p, rows, dt)
        packed = packed.at[:, i].set(jnp.where(rows == p, jnp.where(trivial, alpha, beta.astype(dt)),
                                               jnp.where(rows > p, v, col)))
        u = adj(vs, v)
        y = tau * (jnp.dot(b, v, precision=hi) - jnp.dot(ys, u, precision=hi))
        tcol = (-tau * jnp.dot(t, u, precision=hi)).at[i].set(tau)
        return packed, vs.at[:, i].set(v), ys.at[:, i].set(y), t.at[:, i].set(tcol), taus.at[i].set(tau)

    return lax.fori_loop(0, k, step, (w0, w0, w0, jnp.zeros((k, k), dt), jnp.zeros(k, dt)))


def write_linalg_jax():
    """tridiagonal_solve and lu_pivots_to_permutation as JAX's own generic lowerings trace them
    (the Thomas algorithm in scans; swaps in a loop), vmapped over B: tridiagonal systems of size
    M with K right-hand sides; K pivots of permutations of size M."""
    from jax._src.lax import linalg as la

    def symbolic(text, sizes):
        b, m, k = sizes
        for v, tag in ((b * m * k, "<BMK>"), (b * (m - 1) * k, "<BM1K>"), (m * k, "<MK>"), ((m - 1) * k, "<M1K>"),
                       (b * m, "<BM>"), (b * (m - 1), "<BM1>"), (b * k, "<BK>"), (b, "<B>"), (m, "<M>"),
                       (m - 1, "<M1>"), (k, "<K>")):
            text = text.replace(str(v), tag)
        return text

    def trisolve(dl, d, du, b):
        return la._tridiagonal_solve_jax(dl, d, du, b, perturb_singular=False)

    for dt, tag in ((np.float32, "f32"), (np.float64, "f64"), (np.complex64, "c64"), (np.complex128, "c128")):
        texts = [str(jax.make_jaxpr(jax.vmap(trisolve))(*[jax.ShapeDtypeStruct(sh, dt) for sh in
                                                          ((b, m), (b, m), (b, m), (b, m, k))]))
                 for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"tridiagonal_solve {tag}: the sizes are not free parameters of the trace")
        (OUT / f"tridiagonal_solve_{tag}.jaxpr").write_text(texts[0] + "\n")
    texts = [str(jax.make_jaxpr(jax.vmap(partial(la._generic_lu_pivots_to_permutation, permutation_size=m)))(
        jax.ShapeDtypeStruct((b, k), np.int32))) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
    if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
        raise SystemExit("lu_pivots_to_permutation: the sizes are not free parameters of the trace")
    (OUT / "lu_pivots_to_permutation_i32.jaxpr").write_text(texts[0] + "\n")
    print("tridiagonal_solve_*.jaxpr, lu_pivots_to_permutation_i32.jaxpr")


def write_linalg():
    import itertools

    def symbolic(text, sizes):
        b, m, k = sizes
        for v, tag in ((b * m * m, "<BMM>"), (b * m * k, "<BMK>"), (b * k * k, "<BKK>"), (m * m, "<MM>"), (m * k, "<MK>"),
                       (k * k, "<KK>"), (b * m, "<BM>"), (b * k, "<BK>"), (b, "<B>"), (m + 2, "<M2>"), (m + 32, "<M32>"), (m, "<M>"),
                       (k, "<K>"), (k - 1, "<K1>"), (m - 1, "<M1>")):
            text = text.replace(str(v), tag)
        # Whitespace aside: the printer wraps lines by width, and LA_M + 32 has a digit more than
        # LA_CHECK's.
        return " ".join(text.split())

    def traced(fn, shapes, dt):
        return str(jax.make_jaxpr(jax.vmap(fn))(*[jax.ShapeDtypeStruct(sh, dt) for sh in shapes]))

    def mapped(fn):
        """fn over the leading axis one matrix at a time (lax.map: a scan), for the iterative
        algorithms: under vmap every loop runs until the slowest matrix converges and a
        lax.switch or cond becomes a select of all its branches, each copying the matrices; mapped,
        each matrix runs its own loops and branches, which update it in place."""
        from jax import lax
        return lambda *xs: lax.map(lambda x: fn(*x), xs)

    for dt, tag in ((np.float32, "f32"), (np.float64, "f64"), (np.complex64, "c64"), (np.complex128, "c128")):
        texts = [traced(cholesky, [(b, m, m)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"cholesky {tag}: the sizes are not free parameters of the trace")
        (OUT / f"cholesky_{tag}.jaxpr").write_text(texts[0] + "\n")
        # qr of [B, rows, cols], tall and wide, reduced and full.
        for form, shape in (("tall", lambda b, m, k: (b, m, k)), ("wide", lambda b, m, k: (b, k, m))):
            for full in (False, True):
                fn = partial(qr, full_matrices=full)
                texts = [traced(fn, [shape(b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
                if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                    raise SystemExit(f"qr {tag}: the sizes are not free parameters of the trace")
                (OUT / f"qr_{form}_{'full' if full else 'reduced'}_{tag}.jaxpr").write_text(texts[0] + "\n")
        # geqrf of [B, rows, cols], tall and wide; householder_product of [B, M, K] with K τs;
        # hessenberg of [B, M, M].
        for form, shape in (("tall", lambda b, m, k: (b, m, k)), ("wide", lambda b, m, k: (b, k, m))):
            texts = [traced(geqrf, [shape(b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"geqrf {tag}: the sizes are not free parameters of the trace")
            (OUT / f"geqrf_{form}_{tag}.jaxpr").write_text(texts[0] + "\n")
        texts = [traced(householder_product, [(b, m, k), (b, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"householder_product {tag}: the sizes are not free parameters of the trace")
        (OUT / f"householder_product_{tag}.jaxpr").write_text(texts[0] + "\n")
        texts = [traced(larft, [(b, m, k), (b, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"larft {tag}: the sizes are not free parameters of the trace")
        (OUT / f"larft_{tag}.jaxpr").write_text(texts[0] + "\n")
        texts = [traced(hessenberg, [(b, m, m)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"hessenberg {tag}: the sizes are not free parameters of the trace")
        (OUT / f"hessenberg_{tag}.jaxpr").write_text(texts[0] + "\n")
        # Above 2·64 rows jaxc reduces by panels (gehrd's lahr2 on a trailing [M, M] block, K reflectors).
        texts = [traced(gehrd_panel, [(b, m, m), (b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
        if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
            raise SystemExit(f"gehrd_panel {tag}: the sizes are not free parameters of the trace")
        (OUT / f"gehrd_panel_{tag}.jaxpr").write_text(texts[0] + "\n")
        # eig (values only, or with both eigenvector sets) and schur (with or without its vectors) of [B, M, M].
        import expansions_eig as ee
        cplx_dt = tag in ("c64", "c128")
        for form, fn in (("values", partial(ee.eig_complex if cplx_dt else ee.eig_real, left=False, right=False)),
                         ("vectors", partial(ee.eig_complex if cplx_dt else ee.eig_real, left=True, right=True)),
                         ("schur", partial(ee.schur_complex if cplx_dt else ee.schur_real, vectors=True)),
                         ("schur_values", partial(ee.schur_complex if cplx_dt else ee.schur_real, vectors=False))):
            texts = [str(jax.make_jaxpr(mapped(fn))(jax.ShapeDtypeStruct((b, m, m), dt)))
                     for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"eig/schur {form} {tag}: the sizes are not free parameters of the trace")
            name = f"{form}_{tag}" if form.startswith("schur") else f"eig_{form}_{tag}"
            (OUT / f"{name}.jaxpr").write_text(texts[0] + "\n")
        # eigh of [B, m, m], lower or upper, in two halves: tridiagonal reduction (d, e, the packed
        # reflectors and τs), then, once jaxc has formed Q, implicit QL with Q's rotations.
        if True:
            for lower in (True, False):
                fn = partial(ee.eigh_reduce, lower=lower)
                texts = [traced(fn, [(b, m, m)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
                if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                    raise SystemExit(f"eigh {tag}: the sizes are not free parameters of the trace")
                (OUT / f"eigh_reduce_{'lower' if lower else 'upper'}_{tag}.jaxpr").write_text(texts[0] + "\n")
                # Above 2·64 rows jaxc reduces by panels: the whole Hermitian matrix, then each
                # panel of K reflectors (hetrd's latrd) on a trailing [M, M] block.
                texts = [traced(partial(ee.hermitian, lower=lower), [(b, m, m)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
                if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                    raise SystemExit(f"hermitian {tag}: the sizes are not free parameters of the trace")
                (OUT / f"hermitian_{'lower' if lower else 'upper'}_{tag}.jaxpr").write_text(texts[0] + "\n")
            texts = [traced(ee.sytrd_panel, [(b, m, m), (b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"sytrd_panel {tag}: the sizes are not free parameters of the trace")
            (OUT / f"sytrd_panel_{tag}.jaxpr").write_text(texts[0] + "\n")
            real_dt = np.float64 if tag in ("f64", "c128") else np.float32
            texts = [str(jax.make_jaxpr(mapped(ee.eigh_ql))(jax.ShapeDtypeStruct((b, m), real_dt),
                                                               jax.ShapeDtypeStruct((b, m), real_dt),
                                                               jax.ShapeDtypeStruct((b, m, m), dt)))
                     for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"eigh_ql {tag}: the sizes are not free parameters of the trace")
            (OUT / f"eigh_ql_{tag}.jaxpr").write_text(texts[0] + "\n")
            # Above 2·64 rows: the rotations recorded and applied to K column blocks of Zᵀ.
            texts = [str(jax.make_jaxpr(mapped(ee.eigh_ql_blocked))(jax.ShapeDtypeStruct((b, m), real_dt),
                                                                       jax.ShapeDtypeStruct((b, m), real_dt),
                                                                       jax.ShapeDtypeStruct((b, k, m, ee.QL_WIDTH), dt)))
                     for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"eigh_ql_blocked {tag}: the sizes are not free parameters of the trace")
            (OUT / f"eigh_ql_blocked_{tag}.jaxpr").write_text(texts[0] + "\n")
        # svd of a tall [B, M, K] (a wide one is conjugate-transposed by jaxc), with and without U and Vᴴ:
        # bidiagonalisation and Golub–Reinsch QR sweeps (expansions_svd.py).
        # Values only in one recording; with vectors in two halves, jaxc forming U and V between them.
        import expansions_svd as es
        if True:
            real_dt = np.float64 if tag in ("f64", "c128") else np.float32
            shapes = {
                "s": (es.svd_values, lambda b, m, k: [((b, m, k), dt)]),
                "reduce": (es.svd_reduce, lambda b, m, k: [((b, m, k), dt)]),
                "vectors": (es.svd_vectors, lambda b, m, k: [((b, k), real_dt), ((b, k), real_dt), ((b, m, k), dt), ((b, k, k), dt)]),
                "vectors_full": (es.svd_vectors, lambda b, m, k: [((b, k), real_dt), ((b, k), real_dt), ((b, m, m), dt),
                                                                  ((b, k, k), dt)]),
            }
            for form, (fn, args) in shapes.items():
                wrap = jax.vmap if form == "reduce" else mapped
                texts = [str(jax.make_jaxpr(wrap(fn))(*[jax.ShapeDtypeStruct(sh, t) for sh, t in args(b, m, k)]))
                         for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
                if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                    raise SystemExit(f"svd {form} {tag}: the sizes are not free parameters of the trace")
                (OUT / f"svd_{form}_{tag}.jaxpr").write_text(texts[0] + "\n")
            # Above 2·64 columns jaxc bidiagonalises by panels (gebrd's labrd on a trailing [M, K]
            # block), then runs the sweeps on (d, e) alone when only values are asked for.
            texts = [traced(es.gebrd_panel, [(b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"gebrd_panel {tag}: the sizes are not free parameters of the trace")
            (OUT / f"gebrd_panel_{tag}.jaxpr").write_text(texts[0] + "\n")
            if tag in ("f32", "f64"):
                texts = [str(jax.make_jaxpr(mapped(es.svd_values_bidiagonal))(jax.ShapeDtypeStruct((b, m), dt),
                                                                                jax.ShapeDtypeStruct((b, m), dt)))
                         for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
                if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                    raise SystemExit(f"svd_values_bidiagonal {tag}: the sizes are not free parameters of the trace")
                (OUT / f"svd_values_bidiagonal_{tag}.jaxpr").write_text(texts[0] + "\n")
        # lu of [B, rows, cols]: tall (M rows ≥ K columns) and wide (K rows < M columns).
        for form, shape in (("tall", lambda b, m, k: (b, m, k)), ("wide", lambda b, m, k: (b, k, m))):
            texts = [traced(lu, [shape(b, m, k)], dt) for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK)]
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"lu {tag}: the sizes are not free parameters of the trace")
            (OUT / f"lu_{form}_{tag}.jaxpr").write_text(texts[0] + "\n")
        for left, low, trans, unit in itertools.product((True, False), repeat=4):
            fn = partial(triangular_solve, left_side=left, lower=low, transpose_a=trans, unit_diagonal=unit)
            texts = []
            for b, m, k in ((LA_B, LA_M, LA_K), LA_CHECK):
                texts.append(traced(fn, [(b, m, m), (b, m, k) if left else (b, k, m)], dt))
            if symbolic(texts[0], (LA_B, LA_M, LA_K)) != symbolic(texts[1], LA_CHECK):
                raise SystemExit(f"triangular_solve {tag}: the sizes are not free parameters of the trace")
            name = f"triangular_solve_{'l' if left else 'r'}{'lo' if low else 'up'}{'t' if trans else 'n'}{'u' if unit else 'd'}_{tag}"
            (OUT / f"{name}.jaxpr").write_text(texts[0] + "\n")
        print(f"cholesky_{tag}.jaxpr and 16 triangular_solve_*_{tag}.jaxpr")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (make, arity) in FUNCTIONS.items():
        for dt, tag in ((np.float32, "f32"), (np.float64, "f64")):
            text = trace(make(dt), N, dt, arity)
            other = trace(make(dt), CHECK, dt, arity)
            if str(CHECK) in text or str(N) in other or other.replace(str(CHECK), str(N)) != text:
                raise SystemExit(f"{name} {tag}: the operand size is not a free parameter of the trace")
            path = OUT / f"{name}_{tag}.jaxpr"
            path.write_text(text + "\n")
            print(f"{path.relative_to(OUT.parent.parent.parent.parent.parent.parent.parent)}: {len(text.splitlines())} lines")
    for name, (port, reference, inputs) in PORTS.items():
        for dt, tag in ((np.float32, "f32"), (np.float64, "f64")):
            count = check_port(name, port, reference, inputs, dt)
            arity = len(inputs(np.random.default_rng(0), dt))
            text = trace(port, N, dt, arity)
            other = trace(port, CHECK, dt, arity)
            if str(CHECK) in text or str(N) in other or other.replace(str(CHECK), str(N)) != text:
                raise SystemExit(f"{name} {tag}: the operand size is not a free parameter of the trace")
            (OUT / f"{name}_{tag}.jaxpr").write_text(text + "\n")
            print(f"{name}_{tag}.jaxpr: {len(text.splitlines())} lines, bit for bit with XLA on {count:,} inputs")
    write_random_gamma()
    write_linalg()
    write_linalg_jax()
    # A recorded jaxpr must not close over constants: their values are not in the text.
    import re
    for f in sorted(OUT.glob("*.jaxpr")):
        if re.search(r"\{ lambda [^;]", f.read_text()):
            raise SystemExit(f"{f.name}: a jaxpr with constvars (closed-over constants) cannot be recorded")
    (OUT / "VERSION").write_text(f"jax {jax.__version__}\n")


if __name__ == "__main__":
    main()
