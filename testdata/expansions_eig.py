"""jaxc's eig, schur and eigh, written in JAX and recorded by generate_expansions.py like the other
linear algebra templates: Hessenberg reduction (generate_expansions.hessenberg, gehd2's
reflectors), then the QR algorithm on the Hessenberg matrix with the Schur vectors accumulated
(complex: single shifts, as LAPACK's zlahqr; real: Francis double shifts with 2×2 blocks
standardised as dlanv2 does, as dlahqr), eigenvectors by back substitution on the triangular
factor (as ztrevc) normalised as geev does: unit 2-norm, largest component real. For a real
matrix the real Schur form is turned complex (scipy's rsf2csf) for the eigenvectors, and the
results keep geev's exact structure: real eigenvalues with a zero imaginary part and real
vectors, conjugate pairs (positive imaginary part first) with conjugate vectors. eigh reduces
the Hermitian matrix to a real symmetric tridiagonal one the same way and runs EISPACK's implicit
QL (tql2) on it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HI = lax.Precision.HIGHEST


def _cabs1(x):
    return jnp.abs(jnp.real(x)) + jnp.abs(jnp.imag(x))


def _accumulated_q(h_packed, taus):
    """The Q of a packed Hessenberg reduction: the reflectors below the first subdiagonal."""
    import generate_expansions as g
    n = h_packed.shape[0]
    if n <= 1:
        return jnp.eye(n, dtype=h_packed.dtype)
    sub = g.householder_product(h_packed[1:, :n - 1], taus)
    q = jnp.zeros((n, n), h_packed.dtype).at[0, 0].set(1)
    return q.at[1:, 1:].set(sub)


def _hessenberg_with_q(a, vectors=True):
    """H and Q; without vectors Q is an empty [0, n] matrix: the QR sweeps then update no Schur
    vectors (a third of their work) and Q is never formed."""
    import generate_expansions as g
    n = a.shape[0]
    packed, taus = g.hessenberg(a)
    rows = jnp.arange(n)
    h = jnp.where(rows[:, None] <= rows[None, :] + 1, packed, 0)
    return h, _accumulated_q(packed, taus) if vectors else jnp.zeros((0, n), a.dtype)


def _deflating_qr(h, z, magnitude, step, n=None):
    """The QR algorithm's outer loop, as dlahqr/zlahqr: the active block ends at row hi; each pass
    finds the last negligible subdiagonal entry h[l, l−1] (|·| ≤ eps·(|h[l−1, l−1]| + |h[l, l]|)
    in `magnitude`), sets it to zero, and step(h, z, hi, its, l) deflates a converged block or
    sweeps, returning (h, z, hi, its). At most 30·max(10, n) sweeps, counted from a carried size:
    a constant derived from n would not be a free parameter of the recorded trace. h may be
    padded beyond its n×n top-left block (`n` given), which is all the loop looks at."""
    n = h.shape[0] if n is None else n
    eps = jnp.finfo(jnp.real(h).dtype).eps
    ks = jnp.arange(n, dtype=jnp.int32)

    def cond(state):
        h, z, hi, its, total, size = state
        return (hi > 0) & (total < 30 * jnp.maximum(size, 10))

    def body(state):
        h, z, hi, its, total, size = state
        zero = jnp.zeros(1, h.dtype)
        sub = jnp.concatenate([zero, jnp.diagonal(h[:n, :n], -1)])  # sub[k] = h[k, k-1]
        d = jnp.diagonal(h[:n, :n])
        dprev = jnp.concatenate([zero, d[:-1]])
        small = (magnitude(sub) <= eps * (magnitude(dprev) + magnitude(d))) & (ks >= 1) & (ks <= hi)
        l = jnp.max(jnp.where(small, ks, 0))
        lm = jnp.maximum(l - 1, 0)
        h = h.at[l, lm].set(jnp.where(l > 0, 0, h[l, lm]))
        h, z, new_hi, its = step(h, z, hi, its, l)
        # A pass that deflated nothing was a sweep.
        return h, z, new_hi, its, total + (new_hi == hi).astype(jnp.int32), size

    h, z, _, _, _, _ = lax.while_loop(cond, body, (h, z, jnp.int32(n - 1), jnp.int32(0), jnp.int32(0), jnp.int32(n)))
    return h, z


# The QR sweeps update rows and columns in chunks of this many, only where dlahqr/zlahqr update
# them (rows from the reflector's column on, columns down to the bulge; with wantt false only the
# active block), so about half of the matrix per step (strided column chunks were most of the
# time); the matrix is padded by CHUNK rows and columns.
CHUNK = 32


def _chunked(h, lo, hi, update):
    """update(h, start, mask) for start = lo, lo + CHUNK, … below hi; mask: the chunk's
    positions below hi."""
    chunk = jnp.arange(CHUNK, dtype=jnp.int32)

    def body(j, h):
        start = lo + j * CHUNK
        return update(h, start, start + chunk < hi)
    return lax.fori_loop(0, (hi - lo + CHUNK - 1) // CHUNK, body, h)


def complex_schur(h, z, wantt=True):
    """T = Zᴴ A Z upper triangular from the upper Hessenberg h = Z₀ᴴ A Z₀ (z = Z₀): single-shift
    QR sweeps of Givens rotations on the active block, Wilkinson shifts (an exceptional shift
    every tenth sweep without deflation), deflation where |h[k, k−1]| ≤ eps·(|h[k−1, k−1]| +
    |h[k, k]|) in zlahqr's 1-norm of re and im."""
    n = h.shape[0]
    real_dt = jnp.real(h).dtype

    def rotate(h, z, k, c, s, l, hi):
        # Rows k, k+1 by G = [[c, s], [−s̄, c]] (columns from k−1 on, to hi without wantt);
        # columns k, k+1 of h (rows from the top, or l, to min(k+2, hi)) and z by Gᴴ.
        g = jnp.stack([jnp.stack([c, s]), jnp.stack([-jnp.conj(s), c])])

        def rows(h, start, mask):
            r = lax.dynamic_slice(h, (k, start), (2, CHUNK))
            return lax.dynamic_update_slice(h, jnp.where(mask[None, :], jnp.dot(g, r, precision=HI), r), (k, start))

        def cols(h, start, mask):
            x = lax.dynamic_slice(h, (start, k), (CHUNK, 2))
            return lax.dynamic_update_slice(h, jnp.where(mask[:, None], jnp.dot(x, jnp.conj(g).T, precision=HI), x),
                                            (start, k))

        h = _chunked(h, jnp.maximum(k - 1, 0), n if wantt else hi + 1, rows)
        h = _chunked(h, 0 if wantt else l, jnp.minimum(k + 2, hi) + 1, cols)
        # z holds Zᵀ (Schur vectors as rows): the rotation combines two contiguous rows, as one
        # dynamic slice and update (two row scatters, the second reading the row the first
        # overwrote, made the matrix lose its in-place buffer: a copy of it per rotation).
        o = jnp.zeros_like(k)
        zr = lax.dynamic_slice(z, (k, o), (2, z.shape[1]))
        return h, lax.dynamic_update_slice(z, jnp.dot(jnp.conj(g), zr, precision=HI), (k, o))

    def givens(x, y):
        ax = jnp.abs(x)
        norm = jnp.hypot(ax, jnp.abs(y))
        phase = jnp.where(ax > 0, x / jnp.where(ax > 0, ax, 1).astype(x.dtype), 1)
        nz = norm > 0
        c = jnp.where(nz, ax / jnp.where(nz, norm, 1), 1).astype(real_dt)
        s = jnp.where(nz, phase * jnp.conj(y) / jnp.where(nz, norm, 1).astype(x.dtype), 0)
        return c.astype(x.dtype), s.astype(x.dtype)

    def step(h, z, hi, its, l):
        def deflate(args):
            h, z, hi, its = args
            return h, z, hi - 1, jnp.int32(0)

        def sweep(args):
            h, z, hi, its = args
            a, b = h[hi - 1, hi - 1], h[hi - 1, hi]
            c, d = h[hi, hi - 1], h[hi, hi]
            half = (a - d) / 2
            disc = jnp.sqrt(half * half + b * c)
            mu1, mu2 = (a + d) / 2 + disc, (a + d) / 2 - disc
            mu = jnp.where(jnp.abs(mu1 - d) <= jnp.abs(mu2 - d), mu1, mu2)
            exceptional = (its % 10) == 9
            mu = jnp.where(exceptional, d + 0.75 * _cabs1(c), mu)

            def chase(k, hz):
                h, z = hz
                first = k == l
                x = jnp.where(first, h[l, l] - mu, h[k, jnp.maximum(k - 1, 0)])
                y = jnp.where(first, h[l + 1, l], h[k + 1, jnp.maximum(k - 1, 0)])
                cc, ss = givens(x, y)
                h, z = rotate(h, z, k, cc, ss, l, hi)
                # The bulge below the subdiagonal is zero by construction (an element update, not
                # a select over the matrix: the loop then updates its carry in place).
                km = jnp.maximum(k - 1, 0)
                h = h.at[k + 1, km].set(jnp.where(first, h[k + 1, km], 0))
                return h, z

            h, z = lax.fori_loop(l, hi, chase, (h, z))
            return h, z, hi, its + 1

        return lax.cond(l == hi, deflate, sweep, (h, z, hi, its))

    h, zt = _deflating_qr(jnp.pad(h, ((0, CHUNK), (0, CHUNK))), z.T, _cabs1, step, n)
    return jnp.triu(h[:n, :n]), zt.T


def _triangular_eigenvectors(t, w):
    """X upper triangular with X[k, k] = 1 and (T − w_k I) X[:, k] = 0 (ztrevc's back
    substitution, all columns at once, row by row from the bottom; a near-zero pivot replaced by
    smin as ztrevc does)."""
    n = t.shape[0]
    real_dt = jnp.real(t).dtype
    eps = jnp.finfo(real_dt).eps
    ks = jnp.arange(n, dtype=jnp.int32)
    smin = jnp.maximum(eps * jnp.max(_cabs1(t)), jnp.finfo(real_dt).tiny)
    x0 = jnp.eye(n, dtype=t.dtype)

    def row(j, x):
        i = n - 1 - j
        # x[i, k] for k > i: −(T[i, i+1:] · X[i+1:, k]) / (T[i, i] − w_k).
        ti = jnp.where(ks > i, t[i], 0)
        num = -jnp.dot(ti, x, precision=HI)
        den = t[i, i] - w
        den = jnp.where(_cabs1(den) < smin, smin.astype(t.dtype), den)
        return x.at[i].set(jnp.where(ks > i, num / den, x[i]))

    return lax.fori_loop(0, n, row, x0)


def _normalise(v):
    """geev's normalisation of each column: unit 2-norm, then the component of largest modulus
    made real (and positive)."""
    norm = jnp.sqrt(jnp.sum(jnp.real(v * jnp.conj(v)), axis=0))
    v = v / jnp.where(norm > 0, norm, 1).astype(v.dtype)[None, :]
    mag = jnp.real(v * jnp.conj(v))
    k = jnp.argmax(mag, axis=0)
    big = jnp.take_along_axis(v, k[None, :], axis=0)[0]
    ab = jnp.abs(big)
    phase = jnp.where(ab > 0, jnp.conj(big) / jnp.where(ab > 0, ab, 1).astype(v.dtype), 1)
    v = v * phase[None, :]
    rows = jnp.arange(v.shape[0])
    return jnp.where(rows[:, None] == k[None, :], jnp.real(v).astype(v.dtype), v)


def eig_complex(a, left, right):
    """eig of a complex matrix: w (the diagonal of the Schur form, in its order), then the left
    eigenvectors (uᴴA = w·uᴴ) and the right ones (Av = w·v) that are asked for."""
    h, q = _hessenberg_with_q(a, left or right)
    t, z = complex_schur(h, q, wantt=left or right)
    w = jnp.diagonal(t)
    out = [w]
    if left:
        # Left eigenvectors of T are the right ones of Tᴴ (lower triangular): reversed, it is upper.
        tr = jnp.conj(t.T)[::-1, ::-1]
        y = _triangular_eigenvectors(tr, jnp.conj(w)[::-1])[::-1, ::-1]
        out.append(_normalise(jnp.dot(z, y, precision=HI)))
    if right:
        x = _triangular_eigenvectors(t, w)
        out.append(_normalise(jnp.dot(z, x, precision=HI)))
    return tuple(out)


def schur_complex(a, vectors):
    h, q = _hessenberg_with_q(a, vectors)
    t, z = complex_schur(h, q)
    return (t, z) if vectors else (t,)


def _sign(a, b):
    """Fortran's SIGN(a, b): |a| with b's sign (+ for b = 0)."""
    return jnp.where(b >= 0, jnp.abs(a), -jnp.abs(a))


def _lanv2(a, b, c, d):
    """LAPACK's dlanv2: the Schur factorisation of a real 2×2 block, [a b; c d] = [cs −sn; sn cs]
    [aa bb; cc dd] [cs sn; −sn cs], with cc = 0 (real eigenvalues) or aa = dd and bb·cc < 0 (a
    complex pair). Returns (aa, bb, cc, dd, cs, sn)."""
    dt = a.dtype
    eps = jnp.finfo(dt).eps
    one, zero = jnp.ones((), dt), jnp.zeros((), dt)

    def general(a, b, c, d):
        temp = a - d
        p = 0.5 * temp
        bcmax = jnp.maximum(jnp.abs(b), jnp.abs(c))
        bcmis = jnp.minimum(jnp.abs(b), jnp.abs(c)) * _sign(one, b) * _sign(one, c)
        scale = jnp.maximum(jnp.abs(p), bcmax)
        scale_s = jnp.where(scale > 0, scale, 1)
        zz = (p / scale_s) * p + (bcmax / scale_s) * bcmis
        realev = zz >= 4 * eps
        # Real eigenvalues.
        z1 = p + _sign(jnp.sqrt(scale) * jnp.sqrt(jnp.maximum(zz, 0)), p)
        z1s = jnp.where(z1 != 0, z1, 1)
        ra = d + z1
        rd = d - (bcmax / z1s) * bcmis
        tau1 = jnp.hypot(c, z1)
        tau1s = jnp.where(tau1 != 0, tau1, 1)
        rcs, rsn = z1 / tau1s, c / tau1s
        rb, rc = b - c, zero
        # Complex or nearly equal real eigenvalues: equal diagonal.
        sigma = b + c
        tau2 = jnp.hypot(sigma, temp)
        tau2s = jnp.where(tau2 != 0, tau2, 1)
        cs = jnp.sqrt(0.5 * (1 + jnp.abs(sigma) / tau2s))
        sn = -(p / (tau2s * cs)) * _sign(one, sigma)
        aa, bb = a * cs + b * sn, -a * sn + b * cs
        cc, dd = c * cs + d * sn, -c * sn + d * cs
        ca, cb = aa * cs + cc * sn, bb * cs + dd * sn
        cc2, cd = -aa * sn + cc * cs, -bb * sn + dd * cs
        mid = 0.5 * (ca + cd)
        # cc2 ≠ 0 and bb ≠ 0 of one sign: real after all, made upper triangular.
        same = (cc2 != 0) & (cb != 0) & (jnp.sign(cb) == jnp.sign(cc2))
        sab, sac = jnp.sqrt(jnp.abs(cb)), jnp.sqrt(jnp.abs(cc2))
        pp = _sign(sab * sac, cc2)
        tau3 = 1 / jnp.sqrt(jnp.where(same, jnp.abs(cb + cc2), 1))
        s_a, s_d, s_b = mid + pp, mid - pp, cb - cc2
        cs1, sn1 = sab * tau3, sac * tau3
        s_cs, s_sn = cs * cs1 - sn * sn1, cs * sn1 + sn * cs1
        # cc2 ≠ 0 and bb = 0: swap.
        swap = (cc2 != 0) & (cb == 0)
        w_a = jnp.where(same, s_a, mid)
        w_d = jnp.where(same, s_d, mid)
        w_b = jnp.where(same, s_b, jnp.where(swap, -cc2, cb))
        w_c = jnp.where(same | swap, zero, cc2)
        w_cs = jnp.where(same, s_cs, jnp.where(swap, -sn, cs))
        w_sn = jnp.where(same, s_sn, jnp.where(swap, cs, sn))
        pick = lambda r, w: jnp.where(realev, r, w)
        return pick(ra, w_a), pick(rb, w_b), pick(rc, w_c), pick(rd, w_d), pick(rcs, w_cs), pick(rsn, w_sn)

    ga, gb, gc, gd, gcs, gsn = general(a, b, c, d)
    c0 = c == 0
    b0 = (~c0) & (b == 0)
    std = (~c0) & (~b0) & ((a - d) == 0) & (jnp.sign(b) != jnp.sign(c))
    sel = lambda x0, xb, xs, xg: jnp.where(c0, x0, jnp.where(b0, xb, jnp.where(std, xs, xg)))
    return (sel(a, d, a, ga), sel(b, -c, b, gb), sel(c, zero, c, gc), sel(d, a, d, gd),
            sel(one, zero, one, gcs), sel(zero, one, zero, gsn))


def real_schur(h, z, wantt=True):
    """The real Schur form T = Zᵀ A Z (quasi-triangular, 2×2 blocks standardised by dlanv2) from
    the upper Hessenberg h = Z₀ᵀ A Z₀ (z = Z₀): Francis double-shift sweeps of 3×3 Householder
    reflectors on the active block, as dlahqr (exceptional shifts after 10 and 20 sweeps without
    deflation); a converged 1×1 or 2×2 block deflates. z may be an empty [0, n] matrix (no Schur
    vectors). Without wantt only the active block is kept up to date, as dlahqr does: the
    eigenvalues (T's diagonal blocks) are right, the rest of T is not."""
    n = h.shape[0]
    ks = jnp.arange(n, dtype=jnp.int32)

    def reflect(h, z, k, x, size, l, hi):
        """The Householder reflector P = I − 2vvᵀ/vᵀv with P·x = (β, 0, …) applied to rows and
        columns k … k+size−1 of h where dlahqr applies it (rows: columns from k−1 to the end, or
        to hi without wantt; columns: rows from the top, or from l, down to min(k+3, hi)) and to
        those columns of z."""
        # P does not change when x is scaled: by its 1-norm, as dlahqr does, so no square overflows.
        sx = jnp.sum(jnp.abs(x))
        x = x / jnp.where(sx > 0, sx, 1)
        norm = jnp.sqrt(jnp.sum(x * x))
        beta = -_sign(norm, x[0])
        v = x.at[0].add(-beta)
        vv = jnp.sum(v * v)
        f = jnp.where(vv > 0, 2 / jnp.where(vv > 0, vv, 1), 0)
        # Three rows and columns as dynamic slices of the padded h (a gather and scatter per update
        # took three times as long); a 2-element reflector is the 3-element one with v[2] = 0,
        # which leaves its third row and column as they are.
        v = jnp.concatenate([v, jnp.zeros(3 - size, v.dtype)]) if size < 3 else v

        def rows(h, start, mask):
            r = lax.dynamic_slice(h, (k, start), (3, CHUNK))
            new = r - f * v[:, None] * jnp.dot(v, r, precision=HI)[None, :]
            return lax.dynamic_update_slice(h, jnp.where(mask[None, :], new, r), (k, start))

        def cols(h, start, mask):
            c = lax.dynamic_slice(h, (start, k), (CHUNK, 3))
            new = c - f * jnp.dot(c, v, precision=HI)[:, None] * v[None, :]
            return lax.dynamic_update_slice(h, jnp.where(mask[:, None], new, c), (start, k))

        h = _chunked(h, jnp.maximum(k - 1, 0), n if wantt else hi + 1, rows)
        h = _chunked(h, 0 if wantt else l, jnp.minimum(k + 3, hi) + 1, cols)
        # z holds Zᵀ: the reflector combines three contiguous rows.
        o = jnp.zeros_like(k)
        zr = lax.dynamic_slice(z, (k, o), (3, z.shape[1]))
        zr = zr - f * v[:, None] * jnp.dot(v, zr, precision=HI)[None, :]
        return h, lax.dynamic_update_slice(z, zr, (k, o))

    def step(h, z, hi, its, l):
        def one(args):
            h, z, hi, its = args
            return h, z, hi - 1, jnp.int32(0)

        def two(args):
            h, z, hi, its = args
            i = hi
            aa, bb, cc, dd, cs, sn = _lanv2(h[i - 1, i - 1], h[i - 1, i], h[i, i - 1], h[i, i])
            # The rotation on rows and columns i−1, i of h and rows of z (Zᵀ) as dynamic slices and
            # updates (two row scatters, the second reading the row the first overwrote, copied
            # the matrix).
            o = jnp.zeros_like(i)
            g = jnp.stack([jnp.stack([cs, sn]), jnp.stack([-sn, cs])])
            rows = lax.dynamic_slice(h, (i - 1, o), (2, h.shape[1]))
            h = lax.dynamic_update_slice(h, jnp.dot(g, rows, precision=HI), (i - 1, o))
            cols = lax.dynamic_slice(h, (o, i - 1), (h.shape[0], 2))
            h = lax.dynamic_update_slice(h, jnp.dot(cols, g.T, precision=HI), (o, i - 1))
            h = h.at[i - 1, i - 1].set(aa).at[i - 1, i].set(bb).at[i, i - 1].set(cc).at[i, i].set(dd)
            zr = lax.dynamic_slice(z, (i - 1, o), (2, z.shape[1]))
            z = lax.dynamic_update_slice(z, jnp.dot(g, zr, precision=HI), (i - 1, o))
            return h, z, hi - 2, jnp.int32(0)

        def sweep(args):
            h, z, hi, its = args
            h11, h12 = h[hi - 1, hi - 1], h[hi - 1, hi]
            h21, h22 = h[hi, hi - 1], h[hi, hi]
            exceptional = (its == 10) | (its == 20)
            ex = jnp.abs(h[hi, hi - 1]) + jnp.abs(h[hi - 1, jnp.maximum(hi - 2, 0)])
            e11 = 0.75 * ex + h[hi, hi]
            s = jnp.where(exceptional, 2 * e11, h11 + h22)
            t = jnp.where(exceptional, e11 * e11 + 0.4375 * ex * ex, h11 * h22 - h12 * h21)
            x = h[l, l] * h[l, l] + h[l, l + 1] * h[l + 1, l] - s * h[l, l] + t
            y = h[l + 1, l] * (h[l, l] + h[l + 1, l + 1] - s)
            w = h[l + 1, l] * h[l + 2, l + 1]

            def chase(k, hz):
                h, z = hz
                first = k == l
                km = jnp.maximum(k - 1, 0)
                vec = jnp.where(first, jnp.stack([x, y, w]), jnp.stack([h[k, km], h[k + 1, km], h[k + 2, km]]))
                h, z = reflect(h, z, k, vec, 3, l, hi)
                # The bulge below the subdiagonal is zero by construction.
                h = h.at[k + 1, km].set(jnp.where(first, h[k + 1, km], 0))
                h = h.at[k + 2, km].set(jnp.where(first, h[k + 2, km], 0))
                return h, z

            h, z = lax.fori_loop(l, hi - 1, chase, (h, z))
            k = hi - 1
            h, z = reflect(h, z, k, jnp.stack([h[k, k - 1], h[k + 1, k - 1]]), 2, l, hi)
            h = h.at[k + 1, k - 1].set(0)
            return h, z, hi, its + 1

        branch = jnp.where(l == hi, 0, jnp.where(l == hi - 1, 1, 2))
        return lax.switch(branch, (one, two, sweep), (h, z, hi, its))

    pad = ((0, CHUNK), (0, CHUNK))
    h, zt = _deflating_qr(jnp.pad(h, pad), jnp.pad(z.T, ((0, 2), (0, 0))), jnp.abs, step, n)
    h, z = h[:n, :n], zt[:n].T
    # Below the quasi-triangle: zeros (the subdiagonal holds only the 2×2 blocks' entries).
    rows = ks[:, None]
    cols = ks[None, :]
    return jnp.where(rows <= cols + 1, h, 0), z


def _real_eigenvalues(t):
    """The eigenvalues of a real Schur form in its order: a 1×1 block's entry; for a 2×2 block
    [a b; c a] (b·c < 0), a ± i·√|b|·√|c|, the positive imaginary part first (as dhseqr)."""
    n = t.shape[0]
    d = jnp.diagonal(t)
    sub = jnp.concatenate([jnp.diagonal(t, -1), jnp.zeros(1, t.dtype)])   # sub[k] = t[k+1, k]
    sup = jnp.concatenate([jnp.diagonal(t, 1), jnp.zeros(1, t.dtype)])    # sup[k] = t[k, k+1]
    prev_sub = jnp.concatenate([jnp.zeros(1, t.dtype), sub[:-1]])          # t[k, k-1]
    prev_sup = jnp.concatenate([jnp.zeros(1, t.dtype), sup[:-1]])          # t[k-1, k]
    first = sub != 0
    second = prev_sub != 0
    im = jnp.where(first, jnp.sqrt(jnp.abs(sup)) * jnp.sqrt(jnp.abs(sub)),
                   jnp.where(second, -jnp.sqrt(jnp.abs(prev_sup)) * jnp.sqrt(jnp.abs(prev_sub)), 0))
    return lax.complex(d, im), first, second


def _rsf2csf(t, z, w, first):
    """scipy's rsf2csf: each 2×2 block of the real Schur form turned upper triangular by a complex
    rotation (T and Z complex), its diagonal then w's pair."""
    n = t.shape[0]
    ct = t.astype(w.dtype)
    cz = z.astype(w.dtype)
    ks = jnp.arange(n, dtype=jnp.int32)

    def block(j, tz):
        t, z = tz
        m = n - 1 - j
        on = first[jnp.maximum(m - 1, 0)] & (m >= 1)
        mm = jnp.maximum(m, 1)
        mu = w[mm - 1] - t[mm, mm]
        t21 = t[mm, mm - 1]
        r = jnp.sqrt(jnp.abs(mu) ** 2 + jnp.abs(t21) ** 2)
        rs = jnp.where(r > 0, r, 1).astype(t.dtype)
        c = jnp.where(on, mu / rs, 1)
        s = jnp.where(on, t21 / rs, 0)
        # Rows mm−1, mm of t and z (z holds Zᵀ) and columns mm−1, mm of t as dynamic slices and
        # updates: two row scatters, the second reading the row the first overwrote, copied the
        # whole matrix per block.
        o = jnp.zeros_like(mm)
        rows = lax.dynamic_slice(t, (mm - 1, o), (2, n))
        g = jnp.stack([jnp.stack([jnp.conj(c), s]), jnp.stack([-s, c])])
        t = lax.dynamic_update_slice(t, jnp.dot(g, rows, precision=HI), (mm - 1, o))
        cols = lax.dynamic_slice(t, (o, mm - 1), (n, 2))
        g = jnp.stack([jnp.stack([c, -s]), jnp.stack([jnp.conj(s), jnp.conj(c)])])
        t = lax.dynamic_update_slice(t, jnp.dot(cols, g, precision=HI), (o, mm - 1))
        zr = lax.dynamic_slice(z, (mm - 1, o), (2, z.shape[1]))
        g = jnp.stack([jnp.stack([c, jnp.conj(s)]), jnp.stack([-s, jnp.conj(c)])])
        z = lax.dynamic_update_slice(z, jnp.dot(g, zr, precision=HI), (mm - 1, o))
        t = t.at[mm, mm - 1].set(jnp.where(on, 0, t[mm, mm - 1]))
        return t, z

    ct, czt = lax.fori_loop(0, n, block, (ct, cz.T))
    cz = czt.T
    rows = ks[:, None]
    cols = ks[None, :]
    ct = jnp.where(rows == cols, w[None, :], jnp.where(rows < cols, ct, 0))
    return ct, cz


def eig_real(a, left, right):
    """eig of a real matrix through its real Schur form, with geev's exact structure."""
    h, q = _hessenberg_with_q(a, left or right)
    t, z = real_schur(h, q, wantt=left or right)
    w, first, second = _real_eigenvalues(t)
    out = [w]
    if left or right:
        ct, cz = _rsf2csf(t, z, w, first)
        realw = jnp.imag(w) == 0
        n = a.shape[0]
        ks = jnp.arange(n, dtype=jnp.int32)

        def structure(v):
            # Real eigenvalue: a real vector; the second of a pair: the first one's conjugate.
            v = jnp.where(realw[None, :], jnp.real(v).astype(v.dtype), v)
            shifted = jnp.roll(v, 1, axis=1)
            return jnp.where(second[None, :], jnp.conj(shifted), v)

        if left:
            tr = jnp.conj(ct.T)[::-1, ::-1]
            y = _triangular_eigenvectors(tr, jnp.conj(w)[::-1])[::-1, ::-1]
            out.append(structure(_normalise(jnp.dot(cz, y, precision=HI))))
        if right:
            x = _triangular_eigenvectors(ct, w)
            out.append(structure(_normalise(jnp.dot(cz, x, precision=HI))))
    return tuple(out)


def schur_real(a, vectors):
    h, q = _hessenberg_with_q(a, vectors)
    t, z = real_schur(h, q)
    return (t, z) if vectors else (t,)


def _tridiagonalise(a):
    """hetd2 (lower) of the Hermitian a [n, n] (n ≥ 2): T = Qᴴ A Q real symmetric tridiagonal,
    returned as its diagonal d and subdiagonal e (e[n − 1] = 0), with Q's reflectors packed below
    the subdiagonal as gehrd leaves them and their n − 1 τs. Reflector i (dlarfg/zlarfg on column
    i from row i + 1) updates the trailing block by one product x = τ·A·v and one rank-2 update
    A − v·wᴴ − w·vᴴ (w = x − ½τ(xᴴv)·v): half the passes of the general Hessenberg reduction,
    which applies H from the left and from the right separately."""
    import generate_expansions as g
    n = a.shape[0]
    real_dt = jnp.real(a).dtype
    rows = jnp.arange(n)

    def step(i, carry):
        x, d, e, taus = carry
        col = x[:, i]
        alpha, beta, tau, v, trivial = g._larfg(col, i + 1, rows, a.dtype)
        xv = tau * jnp.dot(x, v, precision=HI)
        w = xv - 0.5 * tau * jnp.vdot(xv, v, precision=HI) * v
        trailing = (rows > i)[:, None] & (rows > i)[None, :]
        x = jnp.where(trailing, x - v[:, None] * jnp.conj(w)[None, :] - w[:, None] * jnp.conj(v)[None, :], x)
        d = d.at[i].set(jnp.real(x[i, i]).astype(real_dt))
        e = e.at[i].set(jnp.where(trivial, jnp.real(alpha), beta).astype(real_dt))
        # The packed reflector below the subdiagonal, as gehrd leaves it (for Q).
        x = x.at[:, i].set(jnp.where(rows > i + 1, v, col))
        return x, d, e, taus.at[i].set(tau)

    zeros = jnp.zeros(n, real_dt)
    x, d, e, taus = lax.fori_loop(0, n - 1, step, (a, zeros, zeros, jnp.zeros(n - 1, a.dtype)))
    d = d.at[n - 1].set(jnp.real(x[n - 1, n - 1]).astype(real_dt))
    return d, e.at[n - 1].set(0), x, taus


def sytrd_panel(a, w0):
    """dlatrd/zlatrd (lower) on the Hermitian a [M, M] (whole, as its lower triangle mirrored): the
    first K = w0.shape[1] reflectors of the tridiagonal reduction with the trailing update left
    undone, as LAPACK's blocked hetrd runs its panels: column i is first brought up to date by the
    panel's earlier reflectors (A − V·Wᴴ − W·Vᴴ, column i only), its reflector v_i generated, and
    w_i = τ(A·v_i − V(Wᴴv_i) − W(Vᴴv_i)) − ½τ²(…ᴴv_i)·v_i, so that jaxc then applies
    A − V·Wᴴ − W·Vᴴ to the trailing block as one product on the GEMM kernel. One read of A per
    reflector instead of the unblocked algorithm's masked rank-2 pass over the whole matrix.
    Returns the packed columns (reflectors below the subdiagonal), V, W (zero on rows ≤ i), d, e
    and the τs of the K columns."""
    import generate_expansions as g
    m, k = w0.shape
    dt = a.dtype
    cplx = jnp.iscomplexobj(a)
    real_dt = jnp.real(a).dtype
    rows = jnp.arange(m)
    if cplx:  # zhemv reads the diagonal as real
        a = jnp.where(rows[:, None] == rows[None, :], jnp.real(a).astype(dt), a)

    def step(i, carry):
        packed, vs, w, d, e, taus = carry
        col = (a[:, i] - jnp.dot(vs, jnp.conj(w[i]), precision=HI)
               - jnp.dot(w, jnp.conj(vs[i]), precision=HI))
        if cplx:
            col = col.at[i].set(jnp.real(col[i]).astype(dt))
        alpha, beta, tau, v, trivial = g._larfg(col, i + 1, rows, dt)
        d = d.at[i].set(jnp.real(col[i]).astype(real_dt))
        e = e.at[i].set(jnp.where(trivial, jnp.real(alpha), beta).astype(real_dt))
        y = jnp.dot(a, v, precision=HI)
        # Wᴴv as v·conj(W): a row-major W read along its rows, not transposed.
        y = y - jnp.dot(vs, jnp.dot(v, jnp.conj(w), precision=HI), precision=HI)
        y = y - jnp.dot(w, jnp.dot(v, jnp.conj(vs), precision=HI), precision=HI)
        y = jnp.where(rows > i, tau * y, 0)
        y = y - 0.5 * tau * jnp.vdot(y, v, precision=HI) * v
        packed = packed.at[:, i].set(jnp.where(rows > i + 1, v, col))
        return packed, vs.at[:, i].set(v), w.at[:, i].set(y), d, e, taus.at[i].set(tau)

    zeros = jnp.zeros(k, real_dt)
    return lax.fori_loop(0, k, step, (w0, w0, w0, zeros, zeros, jnp.zeros(k, dt)))


def hermitian(a, lower):
    """The Hermitian matrix whose lower (or upper) triangle a holds, whole (heev reads one triangle)."""
    n = a.shape[0]
    cplx = jnp.iscomplexobj(a)
    idx = jnp.arange(n, dtype=jnp.int32)
    tri = idx[:, None] >= idx[None, :] if lower else idx[:, None] <= idx[None, :]
    half = jnp.where(tri, a, 0)
    return half + jnp.where(idx[:, None] == idx[None, :], 0, jnp.conj(half.T) if cplx else half.T)


def eigh_reduce(a, lower):
    """eigh's first half, as LAPACK's heev: the Hermitian matrix in a's lower (or upper) triangle
    reduced to a real symmetric tridiagonal T = Qᴴ A Q (hetd2): d, e, the packed reflectors and
    τs. jaxc forms Q from them (by panels on the GEMM kernel for large n) and passes it to
    eigh_ql."""
    return _tridiagonalise(hermitian(a, lower))


def _find_m(d, e, l):
    """tql2's m: the first index from l on whose subdiagonal entry is negligible (n − 1 at most)."""
    n = d.shape[0]
    eps = jnp.finfo(d.dtype).eps
    idx = jnp.arange(n, dtype=jnp.int32)
    dn = jnp.concatenate([d[1:], jnp.zeros(1, d.dtype)])
    small = jnp.abs(e) <= eps * (jnp.abs(d) + jnp.abs(dn))
    return jnp.min(jnp.where((idx >= l) & ((idx == n - 1) | small), idx, n - 1))


def _ql_sweep(d, e, l, m, extra, start, rotate, finish):
    """One sweep l…m (m > l) of the implicit QL algorithm with a Wilkinson shift on the
    tridiagonal (d, e) (EISPACK's tql2). It calls start(extra, l, m), then rotate(extra, i, c, s)
    for its rotations of rows (i, i + 1), i = m − 1 down to l (identities c = 1, s = 0 once the
    sweep breaks off), then finish(extra, l): the eigenvector accumulation is the caller's.
    Returns d, e and extra."""
    real_dt = d.dtype
    g = (d[l + 1] - d[l]) / (2 * e[l])
    r = jnp.hypot(g, jnp.ones((), real_dt))
    g = d[m] - d[l] + e[l] / (g + _sign(r, g))

    def rotation(j, c2):
        d, e, extra, s, cc, p, g, broken = c2
        i = m - 1 - (j - l)
        f = s * e[i]
        b = cc * e[i]
        r = jnp.hypot(f, g)
        zero = (r == 0) & ~broken
        e = e.at[i + 1].set(jnp.where(broken, e[i + 1], r))
        # r = 0 (underflow): d[i+1] −= p, e[m] = 0, and the sweep stops (tql2's exit).
        d = d.at[i + 1].set(jnp.where(zero, d[i + 1] - p, d[i + 1]))
        e = e.at[m].set(jnp.where(zero, 0, e[m]))
        go = ~broken & ~zero
        rs = jnp.where(r != 0, r, 1)
        s2, c3 = f / rs, g / rs
        g2 = d[i + 1] - p
        r2 = (d[i] - g2) * s2 + 2 * c3 * b
        p2 = s2 * r2
        d = d.at[i + 1].set(jnp.where(go, g2 + p2, d[i + 1]))
        g3 = c3 * r2 - b
        extra = rotate(extra, i, jnp.where(go, c3, 1), jnp.where(go, s2, 0))
        return (d, e, extra, jnp.where(go, s2, s), jnp.where(go, c3, cc), jnp.where(go, p2, p),
                jnp.where(go, g3, g), broken | zero)

    one = jnp.ones((), real_dt)
    zero = jnp.zeros((), real_dt)
    d, e, extra, s, cc, p, g, broken = lax.fori_loop(l, m, rotation,
                                                     (d, e, start(extra, l, m), one, one, zero, g, jnp.bool_(False)))
    extra = finish(extra, l)
    d = d.at[l].set(jnp.where(broken, d[l], d[l] - p))
    e = e.at[l].set(jnp.where(broken, e[l], g))
    e = e.at[m].set(jnp.where(broken, e[m], 0))
    return d, e, extra


def _rotate_rows(z, cur, i, c, s):
    """One rotation of a sweep down the rows of z (the eigenvectors as rows, Zᵀ): row i + 1 (carried
    as cur) is final once rotated with row i, which is read once and carried on. One row read and
    one written per rotation. Returns z and the new cur."""
    zi = z[i]
    c, s = c.astype(z.dtype), s.astype(z.dtype)
    new_cur = c * zi - s * cur
    return z.at[i + 1].set(s * zi + c * cur), new_cur


def eigh_ql(d, e, z):
    """eigh's second half: tql2 on the tridiagonal (d, e) (at most 30 sweeps per eigenvalue), its
    rotations accumulated into z = Q as they come; eigenvalues ascending, eigenvectors the columns
    of Q·Z (signs or phases the algorithm's)."""
    n = d.shape[0]

    def eigenvalue(l, carry):
        def cond(c):
            d, e, z, cur, its = c
            return (_find_m(d, e, l) != l) & (its < 30)

        def sweep(c):
            d, e, z, cur, its = c
            d, e, (z, cur) = _ql_sweep(d, e, l, _find_m(d, e, l), (z, cur),
                                       lambda x, l, m: (x[0], x[0][m]),
                                       lambda x, i, c, s: _rotate_rows(x[0], x[1], i, c, s),
                                       lambda x, l: (x[0].at[l].set(x[1]), x[1]))
            return d, e, z, cur, its + 1

        d, e, z, cur = carry
        d, e, z, cur, _ = lax.while_loop(cond, sweep, (d, e, z, cur, jnp.int32(0)))
        return d, e, z, cur

    d, e, z, _ = lax.fori_loop(0, n, eigenvalue, (d, e, z.T, z[0]))
    order = jnp.argsort(d)
    return z[order].T, d[order]


QL_WIDTH = 128  # columns of Zᵀ per block: a 1024-row block is 512 KiB (f32), within a core's L2
QL_SWEEPS = 32  # sweeps recorded before they are applied


def eigh_ql_blocked(d, e, zb):
    """eigh's second half for large matrices: tql2 as eigh_ql, but its rotations recorded
    (QL_SWEEPS sweeps at a time) and applied block by block to Zᵀ's column blocks zb
    [K, M, QL_WIDTH] (jaxc pads Q's rows to a multiple of QL_WIDTH and blocks them), each block
    taking every recorded sweep while it stays in cache: the unblocked accumulation streamed the
    whole of Z through the cache on every sweep (1024×1024: 0.2 s of eigh's 0.3). The blocks run
    on threads (lax.map). Returns the blocks with their rows in ascending order of the eigenvalues,
    and the eigenvalues."""
    n = d.shape[0]
    real_dt = d.dtype

    def apply(zb, cs, ss, ls, ms, count):
        def block(x):
            def sweep(j, x):
                l, m = ls[j], ms[j]

                def rotation(t, c2):
                    i = m - 1 - (t - l)
                    return _rotate_rows(c2[0], c2[1], i, cs[j, i], ss[j, i])

                x, cur = lax.fori_loop(l, m, rotation, (x, x[m]))
                return x.at[l].set(cur)
            return lax.fori_loop(0, count, sweep, x)
        return lax.map(block, zb)

    def step(c):
        # One sweep of eigenvalue l, or on to l + 1 once it has converged (or had its 30 sweeps).
        d, e, l, its, x = c
        m = _find_m(d, e, l)
        go = (m != l) & (its < 30)
        d, e, x = lax.cond(go, lambda: _ql_sweep(d, e, l, m, x, record_start, record, record_finish),
                           lambda: (d, e, x))
        return d, e, jnp.where(go, l, l + 1), jnp.where(go, its + 1, 0), x

    def chunk(c):
        # Up to QL_SWEEPS sweeps recorded, then applied to every block.
        d, e, l, its, zb, (cs, ss, ls, ms, _) = c
        d, e, l, its, x = lax.while_loop(lambda c: (c[2] < n) & (c[4][4] < QL_SWEEPS), step,
                                         (d, e, l, its, (cs, ss, ls, ms, jnp.int32(0))))
        return d, e, l, its, apply(zb, *x), x

    def record_start(x, l, m):
        cs, ss, ls, ms, count = x
        return cs, ss, ls.at[count].set(l), ms.at[count].set(m), count

    def record(x, i, c, s):
        cs, ss, ls, ms, count = x
        return cs.at[count, i].set(c), ss.at[count, i].set(s), ls, ms, count

    def record_finish(x, l):
        cs, ss, ls, ms, count = x
        return cs, ss, ls, ms, count + 1

    buf = jnp.zeros((QL_SWEEPS, n), real_dt)
    lm = jnp.zeros(QL_SWEEPS, jnp.int32)
    d, e, _, _, zb, _ = lax.while_loop(lambda c: c[2] < n, chunk,
                                       (d, e, jnp.int32(0), jnp.int32(0), zb, (buf, buf, lm, lm, jnp.int32(0))))
    order = jnp.argsort(d)
    return zb[:, order, :], d[order]
