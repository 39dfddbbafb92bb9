#!/usr/bin/env python3
"""Golden cases for the GPU's tiled GEMM kernel (testdata/gpu-gemm/), by real JAX on XLA:CPU.

The shapes are chosen against the kernel's geometry (backend-ptx GpuGemm: 64 x 64 output tiles
per 256-thread block, K in slices of 16, batch dims on the grid): M, N and K of 1, 17, 65 and
130 (under, over and across tile and slice edges), transposed operands (contracting dims first
or last), batch dims in front and in the middle of an operand, several contracting and free
dims, fused producers on both operands, f16/bf16 operands (f32 accumulation), f64, integers, a
complex product and convolutions (implicit GEMM). The gpugemm_tc_* cases are for the
tensor-core kernel (backend-ptx MmaGemm: 32 x 32 to 128 x 128 tiles of 16 x 8 instructions,
K slices of 32 for f16/bf16 and 16 for f32's 3xTF32): f16/bf16/f32 shapes ragged against
the 16 x 8 x 16 instruction and the slices, transposed layouts, batch dims, convolutions, and
an f32 product of 128^3 (large enough that 3xTF32 is the default). Small enough for the
emulated launch.
Written with testdata/generate.py's machinery (same file formats);
usage: /work/main/.venv/bin/python testdata/generate_gpu_gemm.py
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402
from generate import jnp, lax, jax  # noqa: E402
from generate import f16, bf16, f32, f64, c64, i32, i8, N, I, CN  # noqa: E402
from generate import T32M, T16, TBF, T64, TC64, EXACT  # noqa: E402

OUT = HERE / "gpu-gemm"
g.REGISTRY.clear()
case = g.case


def mm(x, y):
    return (x @ y,)


case("gpugemm_ragged_f32", lambda a, b, c, d: (a @ b, c @ d),
     lambda r: (N(r, (65, 130)), N(r, (130, 17)), N(r, (70, 1)), N(r, (1, 65))),
     "f32 65x130 @ 130x17 (tile, slice edges); 70x1 @ 1x65 (K = 1: a single product)", T32M)
case("gpugemm_vec", lambda a, b, c: (a @ b, b @ c, jnp.dot(c, c)),
     lambda r: (N(r, (17,)), N(r, (17, 65)), N(r, (65,))),
     "vector @ matrix (M of none), matrix @ vector (N of none), vector . vector (scalar)", T32M)
case("gpugemm_transposed", lambda a, b: (a.T @ b, a.T @ b.T.T, lax.dot_general(b, a, (((0,), (0,)), ((), ())))),
     lambda r: (N(r, (130, 65)), N(r, (130, 17))),
     "contracting dim first on lhs (A transposed), rhs free first (B^T A)", T32M)
case("gpugemm_rhs_transposed", lambda a, b: (a @ b.T,),
     lambda r: (N(r, (17, 65)), N(r, (130, 65))), "A @ B^T (contracting dim last on rhs)", T32M)
case("gpugemm_batched", lambda a, b: (jnp.einsum("bmk,bkn->bmn", a, b), jnp.einsum("mbk,bnk->bmn", a[:, :17].transpose(1, 0, 2), b.transpose(0, 2, 1))),
     lambda r: (N(r, (2, 65, 17)), N(r, (2, 17, 65))),
     "batch dim in front (N of 65 over a tile edge); batch dim in the middle of lhs and rhs transposed", T32M)
case("gpugemm_multi", lambda a, b: (jnp.einsum("ijkl,klm->ijm", a, b), jnp.einsum("ijkl,lkm->mji", a, b.transpose(1, 0, 2))),
     lambda r: (N(r, (5, 7, 3, 11)), N(r, (3, 11, 19))),
     "two contracting dims, two lhs free dims; and a permuted result", T32M)
case("gpugemm_fused", lambda a, b, s: (jnp.tanh(a * 2.0) @ (b + s[:, None]).T,),
     lambda r: (N(r, (33, 70)), N(r, (66, 70)), N(r, (66,))),
     "fused producers on both operands (elementwise, broadcast), transposed rhs", T32M)
case("gpugemm_f16", mm, lambda r: (N(r, (65, 40), f16), N(r, (40, 17), f16)), "f16 operands, f32 accumulation", T16)
case("gpugemm_bf16", mm, lambda r: (N(r, (17, 130), bf16), N(r, (130, 65), bf16)), "bf16 operands, f32 accumulation", TBF)
case("gpugemm_f64", mm, lambda r: (N(r, (65, 33), f64), N(r, (33, 66), f64)), "f64", T64, x64=True)
case("gpugemm_int", lambda a, b, c, d: (a @ b, c @ d),
     lambda r: (I(r, (17, 70), i32), I(r, (70, 33), i32), I(r, (65, 20), i8), I(r, (20, 3), i8)),
     "i32 (wrapping) and i8 products", EXACT)
case("gpugemm_c64", mm, lambda r: (CN(r, (17, 20)), CN(r, (20, 33))), "complex64 product", TC64)
case("gpugemm_conv", lambda x, w: (lax.conv_general_dilated(x, w, (2, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                                   lax.conv_general_dilated(x, w[:, :, :1, :].repeat(1, 2), (1, 1), "VALID",
                                                            dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=3)),
     lambda r: (N(r, (2, 9, 11, 3)), N(r, (3, 3, 3, 6))),
     "convolution as implicit GEMM: stride, SAME padding; and 3 feature groups", T32M)

# Tensor-core kernel (MmaGemm).
case("gpugemm_tc_f16", lambda a, b, c, d: (a @ b, jnp.einsum("bkm,bnk->bmn", c, d)),
     lambda r: (N(r, (65, 77), f16), N(r, (77, 40), f16), N(r, (2, 33, 70), f16), N(r, (2, 19, 33), f16)),
     "f16: 65x77 @ 77x40 (M, N, K ragged against 16 x 8 x 16 and slices of 32); batched, lhs "
     "contracting dim first and rhs transposed", T16)
case("gpugemm_tc_bf16", lambda a, b, c, d: (a.T @ b, jnp.einsum("mbk,bkn->bmn", c, d)),
     lambda r: (N(r, (50, 131), bf16), N(r, (50, 9), bf16), N(r, (40, 3, 17), bf16), N(r, (3, 17, 24), bf16)),
     "bf16: A^T @ B with N of 9 (one instruction column and a ragged one); batch dim in the "
     "middle of lhs", TBF)
case("gpugemm_tc_f32", lambda a, b, c, d: (a @ b, jnp.einsum("bmk,bnk->bmn", c, d)),
     lambda r: (N(r, (33, 160)), N(r, (160, 30)), N(r, (2, 40, 45)), N(r, (2, 23, 45))),
     "f32 (3xTF32 where forced): K of 160, M and N over instruction edges; batched with rhs transposed", T32M)
case("gpugemm_tc_f32_large", lambda u, v, w: (jnp.sin(u[:, None] * v[None, :]) @ jnp.cos(v[:, None] * w[None, :]),),
     lambda r: (N(r, (128,)), N(r, (128,)), N(r, (128,))),
     "f32 128^3 with fused producers on both operands: 3xTF32 by default on sm_80 and newer "
     "(M*N*K of 2^21)", T32M)
case("gpugemm_tc_conv", lambda x, w, xh, wh: (
        lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        lax.conv_general_dilated(xh, wh, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))),
     lambda r: (N(r, (2, 10, 12, 8)), N(r, (3, 3, 8, 20)), N(r, (2, 8, 10, 12), f16), N(r, (20, 8, 3, 3), f16)),
     "convolutions as implicit GEMM on tensor cores: f32 NHWC (3xTF32 where forced) and f16 NCHW", T16)

case("gpugemm_tc_split", lambda a, b, c, d, u, v, w: (a @ b, jnp.einsum("bmk,bkn->bmn", c, d),
                                                      jnp.sin(u[:, None] * v[None, :]) @ jnp.cos(v[:, None] * w[None, :])),
     lambda r: (N(r, (16, 200), f16), N(r, (200, 24), f16), N(r, (2, 8, 160), bf16), N(r, (2, 160, 9), bf16),
                N(r, (45,)), N(r, (1100,)), N(r, (70,))),
     "K split across blocks (few output tiles, long K; the tile's last block adds the parts in order): f16 K of 200, "
     "batched bf16 K of 160, f32 45x1100 @ 1100x70 from fused producers (3xTF32 by default; the last part ragged)", T16)

def main():
    return 1 if g.generate_set(g.REGISTRY, OUT) else 0


if __name__ == "__main__":
    sys.exit(main())
