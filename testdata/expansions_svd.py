"""jaxc's svd, written in JAX and recorded by generate_expansions.py like the other linear algebra
templates: Householder bidiagonalisation as LAPACK's gebd2 (a tall A = Q·B·Vᴴ with B real upper
bidiagonal; left reflectors from columns, right ones from rows, dlarfg/zlarfg's β real), then
the Golub–Reinsch QR iteration with implicit shifts on B (EISPACK's svd, the algorithm of
Numerical Recipes' svdcmp), its rotations applied to the rows of Uᵀ and Vᵀ (contiguous rows: each
rotation touches two rows in place). O(mn²) instead of one-sided Jacobi's O(mn²) per sweep with
many sweeps: f32 256×256 went from 1.5 s to the figure in the README."""
import jax
import jax.numpy as jnp
from jax import lax

HI = lax.Precision.HIGHEST


def _bidiagonalise(a):
    """gebd2 of a tall [m, n]: d (n) and e (n; e[i] couples i − 1 and i, e[0] = 0) of the real
    bidiagonal B, the left reflectors packed below the diagonal of the result with their τs, and
    the right ones (v[j + 1] = 1) in the columns of an [n, n] matrix with theirs."""
    import generate_expansions as g
    m, n = a.shape
    real_dt = jnp.real(a).dtype
    cplx = jnp.iscomplexobj(a)
    rows = jnp.arange(m)
    cols = jnp.arange(n)

    def step(j, carry):
        x, d, e, tq, vr, tp = carry
        col = x[:, j]
        alpha, beta, tau, v, trivial = g._larfg(col, j, rows, a.dtype)
        x = g._reflect_left(x, v, tau, cols > j)
        d = d.at[j].set(jnp.where(trivial, jnp.real(alpha), beta).astype(real_dt))
        x = x.at[:, j].set(jnp.where(rows > j, v, col))
        tq = tq.at[j].set(tau)
        # The row's reflector: larfg of the conjugated row from column j + 1, so that row·G = β·e₁ᵀ
        # for G = I − τ·v·vᴴ; then x·G on the rows below j.
        row = jnp.conj(x[j, :]) if cplx else x[j, :]
        alpha, beta, tau, v, trivial = g._larfg(row, j + 1, cols, a.dtype)
        has = j + 1 < n
        tau = jnp.where(has, tau, 0).astype(a.dtype)
        xv = jnp.dot(x, v, precision=HI)
        x = jnp.where((rows > j)[:, None], x - tau * xv[:, None] * jnp.conj(v)[None, :], x)
        e = e.at[j + 1].set(jnp.where(has, jnp.where(trivial, jnp.real(alpha), beta), 0).astype(real_dt), mode="drop")
        vr = vr.at[:, j].set(jnp.where(has, v, 0))
        tp = tp.at[j].set(tau)
        return x, d, e, tq, vr, tp

    zeros = jnp.zeros(n, real_dt)
    init = (a, zeros, zeros, jnp.zeros(n, a.dtype), jnp.zeros((n, n), a.dtype), jnp.zeros(n, a.dtype))
    x, d, e, tq, vr, tp = lax.fori_loop(0, n, step, init)
    # A trivial left reflector leaves α, possibly complex (zlarfg keeps a real α only): B's
    # diagonal is real by construction when α is, which LAPACK guarantees the same way.
    return d, e, x, tq, vr, tp


BRD_BLOCK = 64  # reflector pairs per panel of the blocked bidiagonalisation (jaxc's BlockedBidiagonal.BLOCK)


def gebrd_panel(a):
    """labrd (tall a [M, K], M ≥ K > BRD_BLOCK): the first BRD_BLOCK left and right reflectors of
    gebd2 with the trailing update left undone, as LAPACK's blocked gebrd runs its panels. The
    current matrix is A − V·Yᴴ − X·Uᴴ (V, U the left and right reflectors; y_j = τ·Ãᴴv_j on the
    columns right of j, x_j = τ·Ãu_j on the rows below j): column j and row j are brought up to
    date from the factors when their reflectors are generated, and each reflector reads A once
    (Aᴴv, Au), so that jaxc applies A − [V X]·[Y U]ᴴ to the trailing block as one product on the
    GEMM kernel. The unblocked algorithm made four masked passes over the whole matrix per column.
    Returns the packed columns (left reflectors below the diagonal), the right reflectors as
    columns [K, BRD_BLOCK] (v[j + 1] = 1), Y, X, d, e (e[j] couples j and j + 1), the left and
    right τs, and V."""
    import generate_expansions as g
    m, k = a.shape
    nb = BRD_BLOCK
    dt = a.dtype
    cplx = jnp.iscomplexobj(a)
    real_dt = jnp.real(a).dtype
    rows = jnp.arange(m)
    cols = jnp.arange(k)

    adj = g._adjoint_times

    def dot(f, v):
        return jnp.dot(f, v, precision=HI)

    def step(j, carry):
        vs, ys, xs, us, packed, d, e, tq, tp = carry
        col = a[:, j] - dot(vs, jnp.conj(ys[j])) - dot(xs, jnp.conj(us[j]))
        alpha, beta, tau, v, trivial = g._larfg(col, j, rows, dt)
        d = d.at[j].set(jnp.where(trivial, jnp.real(alpha), beta).astype(real_dt))
        packed = packed.at[:, j].set(jnp.where(rows > j, v, col))
        tq = tq.at[j].set(tau)
        y = adj(a, v) - dot(ys, adj(vs, v)) - dot(us, adj(xs, v))
        y = jnp.where(cols > j, tau * y, 0)
        vs = vs.at[:, j].set(v)
        ys = ys.at[:, j].set(y)
        # Row j after the left reflector; the right one from its conjugate (gebd2's convention).
        row = a[j, :] - dot(jnp.conj(ys), vs[j]) - dot(jnp.conj(us), xs[j])
        row = jnp.conj(row) if cplx else row
        alpha, beta, tau, u, trivial = g._larfg(row, j + 1, cols, dt)
        x = dot(a, u) - dot(vs, adj(ys, u)) - dot(xs, adj(us, u))
        x = jnp.where(rows > j, tau * x, 0)
        e = e.at[j].set(jnp.where(trivial, jnp.real(alpha), beta).astype(real_dt))
        return (vs, ys, xs.at[:, j].set(x), us.at[:, j].set(u), packed, d, e, tq, tp.at[j].set(tau))

    left = jnp.zeros((m, nb), dt)
    right = jnp.zeros((k, nb), dt)
    zeros = jnp.zeros(nb, real_dt)
    taus = jnp.zeros(nb, dt)
    vs, ys, xs, us, packed, d, e, tq, tp = lax.fori_loop(0, nb, step, (left, right, left, right, left, zeros, zeros,
                                                                       taus, taus))
    return packed, us, ys, xs, d, e, tq, tp, vs


def svd_values_bidiagonal(d, e):
    """Singular values (descending) of the real bidiagonal (d, e) (e[i] couples i − 1 and i) that
    jaxc's blocked bidiagonalisation leaves: the sweeps without vectors."""
    s, _, _ = _golub_reinsch(d, e, jnp.zeros((d.shape[0], 1), d.dtype), jnp.zeros((d.shape[0], 1), d.dtype),
                             jnp.finfo(d.dtype).eps)
    return (-jnp.sort(-s),)


def _rotation(f, h):
    """r = ‖(f, h)‖ and the rotation (c, s) = (f, h)/r, renormalised by its own norm: when f comes
    from a cancellation (f = x·c + g·s near zero), a compiler that fuses the multiply-add into one
    consumer (hypot) and not another (the division) would otherwise give c² + s² ≠ 1 (XLA:CPU did:
    0.977), and U would lose its orthogonality. r = 0 gives the identity."""
    r = jnp.hypot(f, h)
    rs = jnp.where(r != 0, r, 1)
    c, s = jnp.where(r != 0, f / rs, 1), h / rs
    inv = lax.rsqrt(c * c + s * s)  # |c|, |s| ≤ 1: no overflow, and near 1 when consistent
    return c * inv, s * inv, r


def _golub_reinsch(d, e, ut, vt, eps):
    """Diagonalises the bidiagonal (d, e) by implicitly shifted QR sweeps, from the last singular
    value up (EISPACK's svd); ut and vt are Uᵀ and Vᵀ, whose rows the rotations combine. Negligible
    means at most eps·‖B‖ (the largest |d[i]| + |e[i]|). Returns d (non-negative, unsorted)."""
    n = d.shape[0]
    real_dt = d.dtype
    idx = jnp.arange(n, dtype=jnp.int32)
    anorm = jnp.max(jnp.abs(d) + jnp.abs(e))
    tiny = eps * anorm

    def rot_rows(x, i, j, c, s):
        """Rows i and j of x become c·x_i + s·x_j and c·x_j − s·x_i."""
        xi, xj = x[i], x[j]
        c, s = c.astype(x.dtype), s.astype(x.dtype)
        return x.at[i].set(xi * c + xj * s).at[j].set(xj * c - xi * s)

    def rot_carried(x, cur, j, i, c, s):
        """rot_rows down a sweep: row j's current value is carried (cur), so each rotation reads
        row i once and writes row j once; returns x and row i's new value, the next carry."""
        xi = x[i]
        c, s = c.astype(x.dtype), s.astype(x.dtype)
        return x.at[j].set(cur * c + xi * s), xi * c - cur * s

    def split(d, e, k):
        """l: the start of the unreduced block ending at k; cancel: d[l − 1] is negligible (e[l]
        is not), so e[l] must first be chased out with rotations."""
        e_small = (jnp.abs(e) <= tiny) | (idx == 0)
        d_prev_small = jnp.concatenate([jnp.zeros(1, bool), jnp.abs(d[:-1]) <= tiny])
        l1 = jnp.max(jnp.where(e_small & (idx <= k), idx, 0))
        l2 = jnp.max(jnp.where(d_prev_small & (idx <= k), idx, -1))
        return jnp.maximum(l1, l2), l2 > l1

    def value(t, carry):
        k = n - 1 - t

        def cond(c):
            d, e, ut, vt, its, done = c
            return ~done & (its < 30)

        def body(c):
            d, e, ut, vt, its, _ = c
            l, cancel = split(d, e, k)
            nm = l - 1

            # e[l] cancelled by rotations of rows nm and i of Uᵀ (only where d[nm] is negligible).
            def chase(i, c2):
                d, e, ut, cc, s, stop = c2
                f = s * e[i]
                e = e.at[i].set(jnp.where(stop, e[i], cc * e[i]))
                stop = stop | (jnp.abs(f) <= tiny)
                g = d[i]
                c3, s3, h = _rotation(g, -f)
                d = d.at[i].set(jnp.where(stop, d[i], h))
                ut = rot_rows(ut, nm, i, jnp.where(stop, 1, c3), jnp.where(stop, 0, s3))
                return d, e, ut, jnp.where(stop, cc, c3), jnp.where(stop, s, s3), stop

            one, zero = jnp.ones((), real_dt), jnp.zeros((), real_dt)
            d, e, ut, _, _, _ = lax.fori_loop(l, jnp.where(cancel, k + 1, l), chase,
                                              (d, e, ut, zero, one, jnp.bool_(False)))
            converged = l == k

            # One implicit-shift QR sweep over rows and columns l … k (a no-op once converged).
            x, y, z = d[l], d[k - 1], d[k]
            g, h = e[k - 1], e[k]
            hy = jnp.where(converged, 1, 2 * h * y)
            f = ((y - z) * (y + z) + (g - h) * (g + h)) / hy
            g = jnp.hypot(f, one)
            xs = jnp.where(converged, 1, x)
            f = ((x - z) * (x + z) + h * ((y / (f + jnp.where(f >= 0, g, -g))) - h)) / xs

            def sweep(j, c2):
                d, e, ut, vt, cu, cv, cc, s, f, x = c2
                i = j + 1
                g, y = e[i], d[i]
                h, g = s * g, cc * g
                cc, s, z = _rotation(f, h)
                e = e.at[j].set(z)
                f, g = x * cc + g * s, g * cc - x * s
                h, y = y * s, y * cc
                vt, cv = rot_carried(vt, cv, j, i, cc, s)
                c2, s2, z = _rotation(f, h)
                d = d.at[j].set(z)
                cc, s = jnp.where(z != 0, c2, cc), jnp.where(z != 0, s2, s)
                f, x = cc * g + s * y, cc * y - s * g
                ut, cu = rot_carried(ut, cu, j, i, cc, s)
                return d, e, ut, vt, cu, cv, cc, s, f, x

            d, e, ut, vt, cu, cv, _, _, f, x = lax.fori_loop(l, jnp.where(converged, l, k), sweep,
                                                             (d, e, ut, vt, ut[l], vt[l], one, one, f, x))
            e = jnp.where(converged, e, e.at[l].set(0).at[k].set(f))
            d = jnp.where(converged, d, d.at[k].set(x))
            # Converged: d[k] made non-negative, V's column with it. Rows k get the carried rows
            # (when converged the sweep ran no rotation: they are rows k as they were); an update
            # whose value read the matrix it updates would copy the whole matrix first.
            flip = converged & (d[k] < 0)
            d = d.at[k].set(jnp.where(flip, -d[k], d[k]))
            ut, vt = ut.at[k].set(cu), vt.at[k].set(jnp.where(flip, -cv, cv))
            return d, e, ut, vt, its + 1, converged

        d, e, ut, vt = carry
        d, e, ut, vt, _, _ = lax.while_loop(cond, body, (d, e, ut, vt, jnp.int32(0), jnp.bool_(False)))
        return d, e, ut, vt

    d, e, ut, vt = lax.fori_loop(0, n, value, (d, e, ut, vt))
    return d, ut, vt


def svd_reduce(a):
    """svd's first half for vectors: the bidiagonal (d, e) of a tall a and its reflectors, the left
    ones packed below the diagonal with their τs, the right ones (v[j + 1] = 1) in the columns of
    an [n, n] matrix with theirs. jaxc forms U and V from them (by panels on the GEMM kernel) and
    passes them to svd_vectors."""
    return _bidiagonalise(a)


def svd_vectors(d, e, u, v):
    """svd's second half: Golub–Reinsch sweeps on the bidiagonal (d, e) with their rotations applied
    to U [m, ucols] (the left reflectors' product: reduced, or full m×m) and V [n, n] (the right
    ones'); singular values descending, U and Vᴴ."""
    eps = jnp.finfo(d.dtype).eps
    s, ut, vt = _golub_reinsch(d, e, u.T, v.T, eps)
    return _sorted(s, ut, vt)


def _sorted(s, ut, vt):
    """Singular values descending, with U (from its rows ut) and Vᴴ (V's columns are vt's rows)."""
    n = s.shape[0]
    order = jnp.argsort(-s)
    # The full U's rows past n (the orthogonal complement) keep their places: no slice of m − n
    # rows, whose size would be a constant of the trace of its own.
    ut = ut[lax.dynamic_update_slice(jnp.arange(ut.shape[0], dtype=order.dtype), order, (0,))]
    return s[order], ut.T, jnp.conj(vt[order])


def svd_values(a):
    """Singular values (descending) of a real or complex tall [m, n] (m ≥ n; jaxc conjugate-
    transposes a wide one): bidiagonalisation and the sweeps without vectors, in one recording."""
    n = a.shape[1]
    d, e, _, _, _, _ = _bidiagonalise(a)
    s, _, _ = _golub_reinsch(d, e, jnp.zeros((n, 1), a.dtype), jnp.zeros((n, 1), a.dtype), jnp.finfo(d.dtype).eps)
    return (-jnp.sort(-s),)
