#!/usr/bin/env python3
"""Golden cases for the GPU reduction kernels (testdata/gpu-reductions/), by real JAX on XLA:CPU.

The shapes are chosen against the kernels' geometry (backend-ptx: a warp per row, a grid of
256-thread blocks, 32-lane shuffles): rows not a multiple of the 8 rows a block takes, row
lengths not a multiple of the 32 or 64 lanes, fewer lanes than a warp, 8 slots per thread
(int8/bool), 64-bit and complex values shuffled in halves, full reductions over a few blocks
with a ragged last round, a single block with fewer elements than threads, column reductions
whose kept width is not a multiple of a block. Large enough (>= 4096 elements) that float sums
take the vectorised forms. Written with testdata/generate.py's machinery (same file formats);
usage: /work/main/.venv/bin/python testdata/generate_gpu.py
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402
from generate import jnp, lax, jax  # noqa: E402
from generate import f16, bf16, f32, f64, c64, i8, i16, i32, u8, b1, N, U, I, B, CN  # noqa: E402
from generate import T32M, T32L, T64, TC64, EXACT, EXACTF  # noqa: E402

OUT = HERE / "gpu-reductions"
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


def main():
    OUT.mkdir(exist_ok=True)
    failed = 0
    for name, c in g.REGISTRY.items():
        try:
            g.generate_case(c, OUT / name)
            print("ok", name)
        except Exception as e:  # report and continue
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
