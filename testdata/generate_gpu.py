#!/usr/bin/env python3
"""Golden cases for the GPU kernels, by real JAX on XLA:CPU: the reduction kernels
(testdata/gpu-reductions/) and the grid kernels of the other primitives (testdata/gpu-grid/).

The shapes are chosen against the kernels' geometry (backend-ptx: a warp per row, a grid of
256-thread blocks, 32-lane shuffles): rows not a multiple of the 8 rows a block takes, row
lengths not a multiple of the 32 or 64 lanes, fewer lanes than a warp, 8 slots per thread
(int8/bool), 64-bit and complex values shuffled in halves, full reductions over a few blocks
with a ragged last round, a single block with fewer elements than threads, column reductions
whose kept width is not a multiple of a block. Large enough (>= 4096 elements) that float sums
take the vectorised forms.

The grid cases (gpu-grid) give the primitives that run a thread per result element, line or
update (reduce_window, pooling derivatives, cumulative ops, dynamic_update_slice, scatter,
argmax to one result, sort) shapes over several 256-thread blocks with a ragged last block,
padding, reversed scans longer than XLA's 16-blocks, clamped update starts.

Written with testdata/generate.py's machinery (same file formats);
usage: /work/main/.venv/bin/python testdata/generate_gpu.py [gpu-reductions|gpu-grid ...]
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402
from generate import jnp, lax, jax  # noqa: E402
from generate import f16, bf16, f32, f64, c64, i8, i16, i32, u8, u32, b1, N, U, I, B, CN  # noqa: E402
from generate import np, arr, T32, T32T, T32M, T32L, T64, TC64, EXACT, EXACTF  # noqa: E402

g.REGISTRY.clear()
case = g.case


def rows_sum(x):
    return (jnp.sum(x, axis=-1),)


case("gpured_rows_f32_ragged", rows_sum, lambda r: (N(r, (37, 333)),),
     "f32 row sums: 37 rows (not a multiple of 8 per block), 333 = 5 chunks of 64 lanes + 13", T32M)
case("gpured_rows_f32_narrow", rows_sum, lambda r: (N(r, (600, 7)),),
     "f32 row sums of 7: 4 lanes, 28 idle threads per warp", T32M)
case("gpured_rows_f32_3d", lambda x: (jnp.sum(x, axis=(1, 2)), jnp.max(x, axis=2)), lambda r: (N(r, (6, 7, 130)),),
     "f32 sum over two trailing axes (an outer reduced loop per lane) and a max over the last", T32M)
case("gpured_rows_i32", lambda x: (jnp.sum(x, axis=1), jnp.max(x, axis=1), jnp.min(x, axis=1)),
     lambda r: (I(r, (5, 1001), i32),), "i32 row sum (wraps), max, min; 1001 = 15 chunks + 41", EXACT)
case("gpured_rows_i8_bool", lambda x, b: (jnp.sum(x, axis=1, dtype=jnp.int8), jnp.max(x, axis=1),
                                          jnp.any(b, axis=1), jnp.all(b, axis=1)),
     lambda r: (I(r, (9, 300), i8), B(r, (9, 300), 0.97)),
     "int8 and bool row reductions: 256 lanes, 8 slots per thread", EXACT)
case("gpured_rows_u8_i16", lambda x, y: (jnp.sum(x, axis=1, dtype=jnp.uint8), jnp.min(y, axis=1)),
     lambda r: (I(r, (3, 77), u8), I(r, (17, 95), i16)), "u8 sum, i16 min (a warp per row of 77, 95)", EXACT)
case("gpured_rows_f64", lambda x: (jnp.sum(x, axis=1), jnp.max(x, axis=1)), lambda r: (N(r, (11, 500), f64),),
     "f64 row sums and max: 64-bit values shuffled in two halves", T64, x64=True)
case("gpured_rows_c64", lambda x: (jnp.sum(x, axis=1),), lambda r: (CN(r, (20, 250)),),
     "complex64 row sums (both parts shuffled)", TC64)
case("gpured_rows_f16_bf16", lambda x, y, z: (jnp.sum(x, axis=1), jnp.max(y, axis=1), jnp.sum(z)),
     lambda r: (N(r, (10, 500), f16), N(r, (10, 450), bf16), N(r, (5000,), f16)),
     "f16 row sums and full sum, bf16 row max: folded in f32, shuffled as f32", (1e-3, 1e-3))
case("gpured_ordered_f32", lambda a, b, c: (jnp.sum(a), jnp.sum(b), jnp.sum(c, axis=0), jnp.prod(c[:3, :])),
     lambda r: (N(r, (1000,)), N(r, (50, 70)), U(r, (40, 7), 0.5, 1.5)),
     "small float sums in XLA's tree order: 32 windows over a warp's lanes, 2 x 3 windows, 40 rows x 7 columns", (1e-6, 1e-6))
case("gpured_ordered_c64", lambda a: (jnp.sum(a), jnp.sum(a.reshape(10, 45), axis=1)), lambda r: (CN(r, (450,)),),
     "complex64 sums in XLA's tree order: 15 windows of one result; 10 results", TC64)
case("gpured_softmax_ragged", lambda x: (jax.nn.softmax(x, axis=-1),), lambda r: (N(r, (19, 517)),),
     "softmax row group: 19 rows of 517", T32L)
case("gpured_layernorm_ragged",
     lambda x: ((x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5),),
     lambda r: (N(r, (13, 401)),), "layernorm row group: 13 rows of 401", T32L)
case("gpured_full_f32", lambda x, y: (jnp.sum(x), jnp.max(y), jnp.sum(y * y)),
     lambda r: (N(r, (12001,)), N(r, (71, 103))),
     "f32 full reductions over 3 and 2 blocks, ragged last round; sum of a fused square", T32M)
case("gpured_full_int", lambda x, y, z: (jnp.sum(x), jnp.max(x), jnp.min(y), jnp.sum(z)),
     lambda r: (I(r, (12345,), i32), I(r, (3,), i32), I(r, (1,), i32)),
     "i32 full reductions: 4 blocks; 3 elements (fewer than a warp); 1 element", EXACT)
case("gpured_full_small_float", lambda x, y: (jnp.max(x), jnp.min(y)),
     lambda r: (N(r, (40,)), g.arr([3.0, float("nan"), -1.0, 2.0, 5.0], f32)),
     "f32 full max of 40 (one block), min with a NaN", EXACTF)
case("gpured_empty", lambda x, y: (jnp.sum(x, axis=1), jnp.sum(y, axis=0), jnp.sum(x)),
     lambda r: (N(r, (4, 0)), I(r, (0, 3), i32)), "reductions of nothing: the identity", EXACT)
case("gpured_cols", lambda x, y: (jnp.sum(x, axis=0), jnp.max(y, axis=0), jnp.sum(x.reshape(20, 15, 17), axis=(0, 1))),
     lambda r: (N(r, (300, 17)), I(r, (30, 133), i32)),
     "column reductions: 17 and 133 kept columns (threads over them), two leading axes", T32M)

SETS = {"gpu-reductions": dict(g.REGISTRY)}
g.REGISTRY.clear()


def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


case("gpugrid_window_pools", lambda x: (max_pool(x),
                                        lax.reduce_window(x, 0.0, lax.add, (1, 2, 3, 1), (1, 1, 2, 1),
                                                          ((0, 0), (1, 1), (2, 0), (0, 0)))),
     lambda r: (N(r, (2, 17, 33, 5)),),
     "max pool 3x3 stride 2 SAME and a padded window sum over 6 and 12 blocks of result elements", T32)
case("gpugrid_window_generic_int", lambda x: (lax.reduce_window(x, 0, lambda a, b: a * 3 + b, (4, 3), (2, 1), "VALID"),
                                              lax.reduce_window(x, 0, lax.max, (5, 5), (1, 1), "SAME", window_dilation=(2, 1))),
     lambda r: (I(r, (301, 17), i32, -50, 50),),
     "reduce_window with a jaxpr combiner (order-sensitive) and a window-dilated max: 149 x 15, 301 x 17 results", EXACT)
case("gpugrid_window_jvp_maxpool", lambda x, t: jax.jvp(max_pool, (x,), (t,)),
     lambda r: (N(r, (2, 24, 24, 3)), N(r, (2, 24, 24, 3))),
     "select_and_gather_add (the JVP of max pooling): a thread per pooled element", T32)
case("gpugrid_cumsum_f32", lambda x: (jnp.cumsum(x, axis=0), lax.cumsum(x, axis=1, reverse=True)),
     lambda r: (N(r, (20, 300)),),
     "cumsum over lines longer than XLA's 16-blocks: 300 lines along axis 0 (2 blocks of threads), "
     "20 reversed lines of 300 along axis 1", T32M)
case("gpugrid_cummax_cumprod", lambda x: (lax.cummax(x, axis=0, reverse=True), jnp.cumprod(1.0 + 0.01 * x, axis=1)),
     lambda r: (N(r, (12, 300)),), "reversed cummax along axis 0 (300 lines), cumprod along axis 1 (12 lines of 300)", T32M)
case("gpugrid_cumulative_int", lambda y: (jnp.cumsum(y, axis=0), lax.cummin(y, axis=1)),
     lambda r: (I(r, (300, 17), i32, -1000, 1000),), "i32 cumsum along axis 0 (17 lines of 300), cummin along axis 1 (300 lines)", EXACT)
case("gpugrid_cumlogsumexp", lambda x: (lax.cumlogsumexp(x, axis=0), lax.cumlogsumexp(x, axis=1, reverse=True)),
     lambda r: (N(r, (20, 270)),), "cumlogsumexp along both axes: 270 and 20 lines", T32T)


def dus(x, u, i, j):
    return (lax.dynamic_update_slice(x, u, (i, j)), lax.dynamic_update_slice(x, u * 2.0, (i + 400, -j)))


case("gpugrid_dynamic_update_slice", dus,
     lambda r: (N(r, (90, 70)), N(r, (20, 30)), np.int32(17), np.int32(23)),
     "dynamic_update_slice of 20 x 30 into 90 x 70 (25 blocks of result elements), starts clamped from above and below",
     EXACTF)



def arg_inputs(r):
    ties = N(r, (3000,))
    ties[[258, 255]] = 9.0  # the first best in a thread after the later one's
    nans = N(r, (3000,))
    nans[[260, 250]] = np.nan
    return (ties, nans, I(r, (4000,), i32, -3, 3), np.full((700,), -np.inf, f32), N(r, (1, 2000), bf16))


case("gpugrid_argmax_one", lambda a, b, c, d, e: (jnp.argmax(a), jnp.argmax(b), jnp.argmin(b), jnp.argmin(c),
                                                 jnp.argmax(d), jnp.argmax(e, axis=1)),
     arg_inputs, "argmax/argmin to one result on a block: a tie and NaNs whose first is in a later thread, "
     "i32 with many ties, all -inf, bf16 [1, 2000]", EXACT)
case("gpugrid_argmin_columns", lambda x: (jnp.argmin(x, axis=0), jnp.argmax(x, axis=0)),
     lambda r: (I(r, (40, 300), i32, -5, 5),), "argmin/argmax along axis 0: a thread per result, 300 results", EXACT)



def scatter_int_inputs(r):
    idx = r.integers(-20, 1020, size=(3000,), dtype=np.int32)  # duplicates, some out of bounds (dropped)
    rows = r.integers(0, 200, size=(300,), dtype=np.int32)
    return (I(r, (1000,), i32, -100, 100), idx, I(r, (3000,), i32, -100, 100), I(r, (200, 8), i32, -100, 100),
            rows, I(r, (300, 8), i32, -1000, 1000), I(r, (1000,), u32, 0, 1000))


case("gpugrid_scatter_int_atomic",
     lambda x, i, u, y, j, v, w: (x.at[i].add(u), x.at[i].subtract(u), y.at[j].max(v), y.at[j].min(v),
                                  w.at[i].min(u.astype(jnp.uint32))),
     scatter_int_inputs, "i32/u32 scatter add, sub, max, min with many duplicate and some dropped indices "
     "(atomics on one block): 3000 and 300 index vectors, rows of 8", EXACT)


def scatter_unique_inputs(r):
    perm = r.permutation(3000)[:1000].astype(np.int32)
    rows = r.permutation(400)[:300].astype(np.int32)
    return (N(r, (3000,)), perm, N(r, (1000,)), N(r, (400, 6)), rows, N(r, (300, 6)))


case("gpugrid_scatter_unique",
     lambda x, i, u, y, j, v: (x.at[i].set(u, unique_indices=True), y.at[j].add(v, unique_indices=True),
                               y.at[j].multiply(v, unique_indices=True)),
     scatter_unique_inputs, "f32 scatters with unique_indices (any order: plain stores on one block): "
     "1000 elements into 3000, 300 rows of 6 into 400", EXACTF)



def pool_grads(x, c1, y, c2):
    g1 = jax.vjp(max_pool, x)[1](c1)[0]
    pool2 = lambda v: lax.reduce_window(v, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID")  # noqa: E731
    g2 = jax.vjp(pool2, y)[1](c2)[0]
    return g1, g2


def pool_grad_inputs(r):
    x = arr(np.round(r.standard_normal((2, 24, 24, 3)) * 2) / 2, f32)  # ties within windows
    y = arr(np.round(r.standard_normal((60, 50)) * 2) / 2, f32)
    return x, N(r, (2, 12, 12, 3)), y, N(r, (59, 49))


case("gpugrid_maxpool_grad", pool_grads, pool_grad_inputs,
     "select_and_scatter_add (max pooling's gradient) with a thread per operand element: 3x3 stride 2 SAME "
     "(padding, overlapping windows), 2x2 stride 1 (each element in up to 4 windows), tied maxima", T32)



def sort_rows_inputs(r):
    x = arr(np.round(r.standard_normal((30, 200)) * 4) / 4, f32)  # many ties
    x[3, [5, 77, 150]] = np.nan
    x[4, [1, 2]] = [0.0, -0.0]
    x[7, 9] = -np.inf
    return (x,)


case("gpugrid_sort_rows", lambda x: (jnp.sort(x, axis=1), jnp.argsort(x, axis=0, stable=True)), sort_rows_inputs,
     "sort of 30 rows of 200 (a block each, padded to 256) with ties, NaNs, signed zeros; stable argsort "
     "of 200 lines of 30", EXACTF)
case("gpugrid_sort_multi", lambda a, b, c: lax.sort((a, b, c), num_keys=2),
     lambda r: (I(r, (1500,), i32, -3, 3), arr(np.round(r.standard_normal(1500)), f32), I(r, (1500,), i32)),
     "lax.sort of one row of 1500 by two keys (i32, f32 with ties: two-word records, 2048 padded) carrying an i32", EXACTF)
case("gpugrid_top_k", lambda x: lax.top_k(x, 7), lambda r: (arr(np.round(r.standard_normal((50, 333)) * 3), f32),),
     "top_k 7 of 50 rows of 333 (a block each) with many ties: the lower position first", EXACTF)


case("gpugrid_scan_lines_f32", lambda x, y: (jnp.cumsum(x), lax.cumsum(x, reverse=True), jnp.cumprod(1.0 + 0.001 * y, axis=1),
                                             lax.cumlogsumexp(y, axis=1, reverse=True)),
     lambda r: (N(r, (3000,)), N(r, (3, 800))),
     "cumulative ops over few long lines (a block each, XLA's tree of 16-blocks: 3 levels for 3000): "
     "forward and reversed cumsum, cumprod and reversed cumlogsumexp of 3 lines of 800", T32M)
case("gpugrid_scan_lines_other", lambda x, y, z: (lax.cummax(x), lax.cummin(x, reverse=True), jnp.cumsum(y), jnp.cumsum(z)),
     lambda r: (I(r, (3000,), i32, -10000, 10000), N(r, (700,), f16), N(r, (2, 300), f64)),
     "cummax/cummin of one i32 line of 3000, an f16 cumsum of 700 (f32 levels), f64 lines of 300 (x64)", (1e-3, 1e-3), x64=True)

case("gpugrid_scatter_rows_add", lambda x, i, u: (x.at[i].add(u),),
     lambda r: (N(r, (100, 48)), r.integers(-3, 103, size=(200,), dtype=np.int32), N(r, (200, 48))),
     "f32 scatter-add of 200 rows of 48 with duplicate and dropped indices (an embedding's gradient): "
     "a thread per window column, index order kept, so XLA's serial sums", T32)
case("gpugrid_scatter_rows_set", lambda x, i, u: (x.at[i].set(u), x.at[i, 3:].multiply(u[:, 3:])),
     lambda r: (N(r, (60, 40)), r.integers(0, 60, size=(150,), dtype=np.int32), N(r, (150, 40))),
     "f32 scatter overwrite of 150 rows of 40 into 60 (duplicates: the last wins) and a scatter-mul of 37-wide windows", EXACTF)
case("gpugrid_rng_uniform", lambda a, b, c, d: (lax.rng_uniform(a, b, (3001, 3)), lax.rng_uniform(c, d, (2501,))),
     (np.float32(-2.0), np.float32(3.0), np.int32(-7), np.int32(1000)),
     "rng_uniform of 9003 f32 (2251 Philox blocks over a block's 256 threads, a partial last block) "
     "and 2501 i32", EXACT)

SETS["gpu-grid"] = dict(g.REGISTRY)


# rng_uniform cases are evaluated in a fresh process running this script, whose registry holds them.
g.FRESH_SCRIPT = Path(__file__).resolve()


def main(argv):
    if argv[:1] == ["--evaluate-fresh"]:
        g.REGISTRY.update({name: c for cases in SETS.values() for name, c in cases.items()})
        g._evaluate_fresh_main(*argv[1:3])
        return 0
    failed = sum(g.generate_set(SETS[set_name], HERE / set_name) for set_name in argv or list(SETS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
