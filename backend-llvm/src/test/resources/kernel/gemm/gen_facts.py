"""Facts for backend-llvm's GEMM kernel tests (dot_general, conv_general_dilated): each case is a
jaxpr as JAX 0.10.2 prints it, its inputs, and the outputs XLA:CPU computes (jax.jit on CPU).
Regenerate with /work/main/.venv/bin/python gen_facts.py > facts.txt (from this directory).

Format, one case after another:
  case NAME
  tol RTOL ATOL            (0 0: bit for bit; the data of such cases make every partial sum exact,
                            so the summation order XLA picks cannot matter)
  <jaxpr text lines>
  in DTYPE DIMS HEX        (one per input; DIMS comma-separated, '-' for a scalar)
  out DTYPE DIMS HEX       (one per output)
  end
"""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

bf16 = jnp.bfloat16
nan, inf = np.nan, np.inf
rng = np.random.default_rng(7)
cases = []


def case(name, f, *args, tol=(0, 0)):
    args = [np.asarray(a) for a in args]
    text = str(jax.make_jaxpr(f)(*args))
    outs = jax.jit(f)(*args)
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    cases.append((name, tol, text, args, [np.asarray(o) for o in outs]))


def short(dt):
    dt = np.dtype(dt)
    if dt == np.dtype(bf16):
        return "bf16"
    return {"b": "bool", "i": "i", "u": "u", "f": "f", "c": "c"}[dt.kind] + ("" if dt.kind == "b" else str(dt.itemsize * 8))


def line(kind, a):
    dims = ",".join(str(d) for d in a.shape) or "-"
    return f"{kind} {short(a.dtype)} {dims} {np.ascontiguousarray(a).tobytes().hex() or '-'}"


def ints(shape, lo=-4, hi=5, dtype=np.float32):
    """Small integers: every product and partial sum is exact in any order."""
    return rng.integers(lo, hi, size=shape).astype(dtype)


def normal(shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def dot(dn, **kw):
    return lambda a, b: lax.dot_general(a, b, dn, **kw)


MM = (([1], [0]), ([], []))

# ---- dimension numbers: transposed operands, batch dims anywhere, several contracting dims
case("dot_lhs_transposed", dot((([0], [0]), ([], []))), ints((5, 3)), ints((5, 4)))
case("dot_rhs_transposed", dot((([1], [1]), ([], []))), ints((3, 5)), ints((4, 5)))
case("dot_both_transposed", dot((([0], [1]), ([], []))), ints((5, 3)), ints((4, 5)))
case("dot_batch_not_leading", dot((([0], [2]), ([2], [1]))), ints((6, 3, 2)), ints((4, 2, 6)))
case("dot_two_batch_dims_permuted", dot((([1], [3]), ([2, 0], [0, 1]))), ints((2, 5, 3, 4)), ints((3, 2, 6, 5)))
case("dot_contract_out_of_order", dot((([2, 0], [1, 2]), ([], []))), ints((3, 4, 5)), ints((6, 5, 3)))
case("dot_only_batch", dot((([], []), ([1], [0]))), ints((3, 4)), ints((4, 5)))
case("dot_outer_scalar", dot((([], []), ([], []))), np.float32(3), ints((2, 3)))
case("dot_scalar_result", dot((([0, 1], [1, 0]), ([], []))), ints((7, 9)), ints((9, 7)))
case("dot_long_rows", dot(MM), ints((3, 20)), ints((20, 150)))
case("dot_trailing_unit_dims", dot((([1], [0]), ([], []))), ints((70, 6)), ints((6, 1, 1)))
case("dot_empty_contraction", dot(MM), np.zeros((3, 0), np.float32), np.zeros((0, 4), np.float32))
case("dot_empty_result", dot(MM), np.zeros((0, 5), np.int32), np.ones((5, 3), np.int32))

# ---- integers (wrapping), bool, preferred_element_type, mixed operand dtypes
i8a = rng.integers(-128, 128, size=(4, 33)).astype(np.int8)
i8b = rng.integers(-128, 128, size=(33, 5)).astype(np.int8)
case("dot_i8_wraps", dot(MM), i8a, i8b)
case("dot_i8_pref_i32", dot(MM, preferred_element_type=np.int32), i8a, i8b)
case("dot_i8_pref_i16", dot(MM, preferred_element_type=np.int16), i8a, i8b)
case("dot_u8_pref_i32", dot(MM, preferred_element_type=np.int32), i8a.view(np.uint8), i8b.view(np.uint8))
case("dot_i8_pref_f32", dot(MM, preferred_element_type=np.float32), i8a, i8b)
case("dot_i32_pref_f32_rounds_operands", dot(MM, preferred_element_type=np.float32),
     np.array([[16777217, -16777216, 3]], np.int32), np.array([[1], [1], [1]], np.int32))
case("dot_i64_u64_i16_u32", lambda a, b, c, d, e, f, g, h: (lax.dot_general(a, b, MM), lax.dot_general(c, d, MM), lax.dot_general(e, f, MM), lax.dot_general(g, h, MM)),
     rng.integers(-2**62, 2**62, size=(2, 3)), rng.integers(-2**62, 2**62, size=(3, 2)),
     rng.integers(0, 2**64, size=(2, 3), dtype=np.uint64), rng.integers(0, 2**64, size=(3, 2), dtype=np.uint64),
     rng.integers(-2**15, 2**15, size=(2, 3)).astype(np.int16), rng.integers(-2**15, 2**15, size=(3, 2)).astype(np.int16),
     rng.integers(0, 2**32, size=(2, 3)).astype(np.uint32), rng.integers(0, 2**32, size=(3, 2)).astype(np.uint32))
ba = rng.integers(0, 2, size=(3, 4)).astype(bool)
bb = rng.integers(0, 2, size=(4, 5)).astype(bool)
bb[:, 0] = False
case("dot_bool", dot(MM), ba, bb)
case("dot_bool_pref_i32", dot(MM, preferred_element_type=np.int32), ba, bb)
case("dot_bool_x_i32", dot(MM), ba, ints((4, 2), dtype=np.int32))
case("dot_i8_x_u8_converts_to_i8", dot(MM), np.array([[-1, 2, 100]], np.int8), np.array([[200], [3], [255]], np.uint8))
case("dot_f32_x_bf16", dot(MM), np.array([[1.0000001, 3.0]], np.float32), np.array([[3], [0.1]], bf16), tol=(1e-6, 0))
case("dot_f16_x_bf16_rounds_to_bf16", dot(MM), np.array([[1.0009765625, 2.0]], np.float16), np.array([[1.0], [1.0078125]], bf16))
case("dot_c64_x_f32", dot(MM), np.array([[1 + 2j, -3 + 0.5j]], np.complex64), np.array([[3.0], [2.0]], np.float32))

# ---- half precision: f32 accumulation, one rounding at the end; wider float operands
n = 256
acc_a = np.zeros((2, n + 1), np.float32)
acc_a[:, 0] = 1
acc_a[0, 1:] = 2 ** -9
acc_a[1, 1:] = 2 ** -12
case("dot_bf16_accumulates_in_f32", dot(MM), acc_a.astype(bf16), np.ones((n + 1, 3), bf16))
case("dot_f16_accumulates_in_f32", dot(MM), acc_a.astype(np.float16), np.ones((n + 1, 3), np.float16))
case("dot_f16_no_intermediate_overflow", dot(MM), np.array([[60000, 60000, -60000]], np.float16), np.ones((3, 2), np.float16))
case("dot_bf16_pref_f32", dot(MM, preferred_element_type=np.float32), acc_a.astype(bf16), np.ones((n + 1, 2), bf16))
case("dot_f16_pref_f32", dot(MM, preferred_element_type=np.float32), acc_a.astype(np.float16), np.ones((n + 1, 2), np.float16))
# 96 terms of 1 + half an ulp of the result dtype: summed first they round up, rounded first not.
case("dot_f32_pref_bf16_sums_in_f32", dot(MM, preferred_element_type=bf16), np.full((2, 96), 1 + 2 ** -8, np.float32), np.ones((96, 2), np.float32))
case("dot_f32_pref_f16_sums_in_f32", dot(MM, preferred_element_type=np.float16), np.full((2, 96), 1 + 2 ** -11, np.float32), np.ones((96, 2), np.float32))
case("dot_f64_pref_f32_sums_in_f64", dot(MM, preferred_element_type=np.float32), np.full((2, 96), 1 + 2 ** -24), np.ones((96, 2)))
case("dot_bf16_random", dot(MM), normal((8, 40), bf16), normal((40, 70), bf16), tol=(8e-3, 8e-3))
case("dot_f16_random", dot(MM), normal((8, 40), np.float16), normal((40, 70), np.float16), tol=(2e-3, 2e-3))

# ---- f32/f64 with rounding (tolerance), precision params
case("dot_f32_random_batched", dot((([2], [1]), ([0], [0]))), normal((2, 5, 37)), normal((2, 37, 70)), tol=(1e-5, 1e-5))
case("dot_f64_random", dot((([0], [0]), ([], []))), normal((50, 7), np.float64), normal((50, 9), np.float64), tol=(1e-13, 1e-13))
case("dot_precision_tuple", dot(MM, precision=(lax.Precision.HIGHEST, lax.Precision.DEFAULT)), ints((3, 4)), ints((4, 2)))
case("dot_precision_f32_f32_f32", dot(MM, precision="F32_F32_F32"), ints((3, 4), dtype=bf16), ints((4, 2), dtype=bf16))
case("dot_precision_default", dot(MM, precision="DEFAULT"), ints((3, 4)), ints((4, 2)))

# ---- complex
case("dot_c64", dot(MM), (ints((3, 5)) + 1j * ints((3, 5))).astype(np.complex64), (ints((5, 4)) + 1j * ints((5, 4))).astype(np.complex64))
case("dot_c128_batch", dot((([1], [2]), ([0], [0]))), (normal((2, 6), np.float64) + 1j * normal((2, 6), np.float64)),
     (normal((2, 3, 6), np.float64) + 1j * normal((2, 3, 6), np.float64)), tol=(1e-13, 1e-13))
case("dot_c64_pref_c128", dot(MM, preferred_element_type=np.complex128), (ints((2, 3)) + 1j * ints((2, 3))).astype(np.complex64), (ints((3, 2)) - 1j).astype(np.complex64))

# ---- denormals, infinities, NaN
den = np.float32(1e-39)
case("dot_f32_ftz", dot(MM), np.array([[den, 1.0], [1e-20, 0.0], [1e-19, -1e-19]], np.float32),
     np.array([[1e10, 0.0], [1e-20, 1e-19]], np.float32))
case("dot_f64_ftz", dot(MM), np.array([[1e-310, 1.0], [1e-160, 0.0]]), np.array([[1e10, 0.0], [1e-160, 1.0]]))
case("dot_bf16_ftz_f16_keeps", lambda a, b, c, d: (lax.dot_general(a, b, MM, preferred_element_type=np.float32), lax.dot_general(c, d, MM)),
     np.array([[1e-39, 1.0]], bf16), np.array([[1e10], [0.0]], bf16),
     np.array([[6e-8, 1e-4]], np.float16), np.array([[1.0], [1e-3]], np.float16))
# A one-term contraction of real floats is a multiply (-1·0 = -0); longer ones start at +0.
case("dot_zero_signs", lambda a, b, c, d, e, f: (lax.dot_general(a, b, MM), lax.dot_general(c, d, MM), lax.dot_general(e, f, MM)),
     -np.ones((2, 1), np.float32), np.zeros((1, 2), np.float32), -np.ones((2, 2), np.float64), np.zeros((2, 2)),
     -np.ones((2, 1), np.complex64), np.zeros((1, 2), np.complex64))
case("conv_zero_signs", lambda a, b, c, d: (lax.conv_general_dilated(a, b, (1,), "VALID"), lax.conv_general_dilated(c, d, (1,), "VALID")),
     -np.ones((1, 1, 3), np.float32), np.zeros((1, 1, 1), np.float32), -np.ones((1, 1, 3), bf16), np.zeros((1, 1, 2), bf16))
case("dot_inf_nan", dot(MM), np.array([[inf, 0.0, 1.0], [1.0, nan, 2.0], [inf, -inf, 0.0], [1.0, 2.0, 3.0]], np.float32),
     np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32))

# ---- convolutions
def conv(strides, padding, **kw):
    return lambda x, w: lax.conv_general_dilated(x, w, strides, padding, **kw)


case("conv_default_dims_none", lambda x, w: lax.conv_general_dilated(x, w, (1, 1), [(0, 0), (0, 0)], dimension_numbers=None),
     ints((2, 3, 5, 4)), ints((2, 3, 2, 3)))
case("conv_odd_dimension_numbers", conv((2, 1), [(1, 2), (0, 1)], dimension_numbers=("HNWC", "WIHO", "CWNH")),
     ints((6, 2, 5, 3)), ints((3, 3, 2, 4)))
case("conv_1d_nwc_stride_dilations", conv((2,), [(3, 1)], rhs_dilation=(2,), dimension_numbers=("NWC", "WIO", "NWC")),
     ints((2, 11, 3)), ints((3, 3, 4)))
case("conv_3d_ndhwc", conv((1, 2, 1), [(1, 0), (0, 1), (1, 1)], dimension_numbers=("NDHWC", "DHWIO", "NDHWC")),
     ints((1, 3, 5, 4, 2)), ints((2, 2, 3, 2, 3)))
case("conv_negative_padding_both_sides", conv((1, 1), [(-1, -2), (2, -1)]), ints((1, 2, 7, 6)), ints((2, 2, 2, 3)))
case("conv_padding_wider_than_window", conv((1, 3), [(4, 5), (3, 0)]), ints((1, 1, 3, 4)), ints((1, 1, 2, 2)))
case("conv_lhs_dilation_stride_rhs_dilation", conv((2, 1), [(2, 1), (0, 3)], lhs_dilation=(3, 2), rhs_dilation=(1, 2)),
     ints((1, 2, 4, 3)), ints((3, 2, 3, 2)))
case("conv_lhs_dilation_negative_padding", conv((1, 1), [(-2, 1), (1, -1)], lhs_dilation=(2, 3)), ints((1, 1, 5, 4)), ints((1, 1, 2, 2)))
case("conv_transpose_nhwc", lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((2, 3, 3, 2)), ints((3, 3, 2, 3)))
case("conv_feature_groups_3", conv((1, 1), [(1, 0), (0, 1)], feature_group_count=3), ints((2, 6, 4, 4)), ints((9, 2, 2, 2)))
case("conv_depthwise_nhwc_multiplier", conv((1, 1), "SAME", feature_group_count=4, dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((1, 5, 5, 4)), ints((3, 3, 1, 8)))
case("conv_batch_groups_3", conv((1, 1), [(0, 1), (1, 0)], batch_group_count=3), ints((6, 2, 4, 3)), ints((6, 2, 2, 2)))
case("conv_batch_groups_nhwc", conv((1, 1), "VALID", batch_group_count=2, dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((4, 3, 3, 2)), ints((2, 2, 2, 4)))
case("conv_long_feature_rows", conv((1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), ints((1, 2, 2, 3)), ints((2, 2, 3, 140)))
case("conv_empty_input_spatial", conv((1,), [(2, 2)]), np.zeros((1, 1, 0), np.float32), np.ones((1, 1, 2), np.float32))

# dtypes
case("conv_i8_wraps", conv((1, 1), "SAME"), rng.integers(-128, 128, (1, 3, 4, 4)).astype(np.int8), rng.integers(-128, 128, (2, 3, 3, 3)).astype(np.int8))
case("conv_i8_pref_i32", conv((1, 1), "SAME", preferred_element_type=np.int32), rng.integers(-128, 128, (1, 3, 4, 4)).astype(np.int8),
     rng.integers(-128, 128, (2, 3, 3, 3)).astype(np.int8))
case("conv_u8_u16", lambda a, b, c, d: (lax.conv_general_dilated(a, b, (1,), "SAME"), lax.conv_general_dilated(c, d, (1,), "VALID")),
     rng.integers(0, 256, (1, 2, 5)).astype(np.uint8), rng.integers(0, 256, (2, 2, 3)).astype(np.uint8),
     rng.integers(0, 2**16, (1, 2, 5)).astype(np.uint16), rng.integers(0, 2**16, (2, 2, 3)).astype(np.uint16))
case("conv_i32_pref_f32", conv((1,), "VALID", preferred_element_type=np.float32), np.array([[[16777217, -16777216, 5]]], np.int32), np.ones((1, 1, 3), np.int32))
case("conv_bool", conv((1, 1), "SAME"), rng.integers(0, 2, (1, 2, 3, 3)).astype(bool), rng.integers(0, 2, (2, 2, 2, 2)).astype(bool))
cacc = np.zeros((1, 1, 1, n + 1), np.float32)
cacc[..., 0] = 1
cacc[..., 1:] = 2 ** -9
case("conv_bf16_accumulates_in_f32", conv((1, 1), "VALID"), cacc.astype(bf16), np.ones((2, 1, 1, n + 1), bf16))
case("conv_f16_no_intermediate_overflow", conv((1,), "VALID"), np.array([[[60000, 60000, -60000]]], np.float16), np.ones((1, 1, 3), np.float16))
case("conv_f16_pref_f32", conv((1, 1), "SAME", preferred_element_type=np.float32), ints((1, 2, 3, 3), dtype=np.float16), ints((2, 2, 3, 3), dtype=np.float16))
case("conv_f64_random", conv((1, 2), "SAME", rhs_dilation=(2, 1)), normal((2, 3, 6, 7), np.float64), normal((4, 3, 3, 3), np.float64), tol=(1e-13, 1e-13))
case("conv_f32_random_nhwc", conv((2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), normal((2, 9, 9, 8)), normal((3, 3, 8, 16)), tol=(1e-5, 1e-5))
case("conv_c64_gauss", conv((1, 1), "SAME"), (ints((1, 2, 3, 3)) + 1j * ints((1, 2, 3, 3))).astype(np.complex64),
     (ints((2, 2, 2, 2)) + 1j * ints((2, 2, 2, 2))).astype(np.complex64))
case("conv_c128_random_groups", conv((1,), [(1, 1)], feature_group_count=2), normal((1, 4, 6), np.float64) + 1j * normal((1, 4, 6), np.float64),
     normal((4, 2, 3), np.float64) + 1j * normal((4, 2, 3), np.float64), tol=(1e-13, 1e-13))
case("conv_c64_pref_c128", conv((1,), "SAME", preferred_element_type=np.complex128), (ints((1, 1, 4)) + 1j * ints((1, 1, 4))).astype(np.complex64),
     (ints((1, 1, 3)) - 2j).astype(np.complex64))

# how padding, lhs-dilation holes and groups meet infinities (XLA:CPU's paths differ)
winf = np.ones((1, 1, 3, 3), np.float32)
winf[0, 0, 0, 0] = inf
case("conv_f32_padding_times_inf_is_nan", conv((1, 1), "SAME"), np.ones((1, 1, 3, 3), np.float32), winf)
case("conv_f16_bf16_padding_times_inf", lambda a, b, c, d: (lax.conv_general_dilated(a, b, (1, 1), "SAME"), lax.conv_general_dilated(c, d, (1, 1), "SAME")),
     np.ones((1, 1, 3, 3), np.float16), winf.astype(np.float16), np.ones((1, 1, 3, 3), bf16), winf.astype(bf16))
case("conv_f64_padding_skipped", conv((1, 1), "SAME"), np.ones((1, 1, 3, 3)), winf.astype(np.float64))
case("conv_f32_lhs_dilation_skips", conv((1, 1), [(1, 1), (1, 1)], lhs_dilation=(2, 2)), np.ones((1, 1, 3, 3), np.float32), winf)
case("conv_c64_padding_times_inf", conv((1, 1), "SAME"), np.ones((1, 1, 3, 3), np.complex64), winf.astype(np.complex64))
xinf = np.ones((1, 2, 3, 3))
xinf[0, 0, 1, 1] = inf
case("conv_f64_depthwise_expanded", conv((1, 1), "VALID", feature_group_count=2), xinf, np.ones((2, 1, 3, 3)))
case("conv_f32_depthwise_not_expanded", conv((1, 1), "VALID", feature_group_count=2), xinf.astype(np.float32), np.ones((2, 1, 3, 3), np.float32))
xinf4 = np.ones((1, 4, 3, 3))
xinf4[0, 0, 1, 1] = inf
case("conv_f64_groups_of_two_not_expanded", conv((1, 1), "VALID", feature_group_count=2), xinf4, np.ones((4, 2, 3, 3)))
case("conv_f32_ftz", conv((1,), "VALID"), np.array([[[1e-39, 1e-20, 2.0]]], np.float32), np.array([[[1e10, 1e-20, 0.0]]], np.float32))


# ---- the transposed contractions reverse-mode autodiff emits (vjp with a given cotangent)
def vjp_of(f):
    return lambda x, w, ct: jax.vjp(f, x, w)[1](ct)


gconv = lambda x, w: lax.conv_general_dilated(x, w, (2, 2), [(1, 0), (0, 1)], rhs_dilation=(1, 2), feature_group_count=2,
                                              dimension_numbers=("NHWC", "HWIO", "NHWC"))
gx, gw = ints((2, 7, 8, 4)), ints((2, 2, 2, 6))
case("conv_vjp_grouped_strided_nhwc", vjp_of(gconv), gx, gw, ints(jax.eval_shape(gconv, gx, gw).shape))
bconv = lambda x, w: lax.conv_general_dilated(x, w, (1, 2), [(1, 2), (0, 1)], lhs_dilation=(2, 1))
bx, bw = ints((2, 3, 4, 5)), ints((4, 3, 3, 2))
case("conv_vjp_lhs_dilated", vjp_of(bconv), bx, bw, ints(jax.eval_shape(bconv, bx, bw).shape))
att = lambda q, k: lax.dot_general(q, k, (([3], [3]), ([0, 2], [0, 1])))
qa, ka = ints((2, 5, 3, 4)), ints((2, 3, 6, 4))
case("dot_vjp_batched", vjp_of(att), qa, ka, ints(jax.eval_shape(att, qa, ka).shape))

# ---- older printings of the same equations (jaxpr-text-format.md §8, §11): the same outputs
import re


# ---- packed GEMM (GemmPacked): M, N, K off every register tile (14x32, 6x16, 4x8, 14x8 f32; f64 halves
# N) and K over a slice (kc 150..384), transposed layouts, batch axes, several contracting axes whose
# slices cut an axis in the middle, f64, half precision; convolutions as implicit GEMM
case("packed_dot_edges", dot(MM), ints((37, 300)), ints((300, 45)))
case("packed_dot_long_k", dot(MM), ints((29, 777)), ints((777, 33)))
case("packed_dot_both_transposed", dot((([0], [1]), ([], []))), ints((300, 37)), ints((45, 300)))
case("packed_dot_batch_permuted", dot((([2], [0]), ([1], [2]))), ints((29, 3, 65)), ints((65, 35, 3)))
case("packed_dot_two_contracting_axes", dot((([1, 2], [0, 1]), ([], []))), ints((17, 12, 37)), ints((12, 37, 19)))
case("packed_dot_f64", dot(MM), normal((31, 270), np.float64), normal((270, 40), np.float64), tol=(1e-12, 1e-12))
# 520 terms of magnitude ~1: XLA's own results are up to 4.4e-5 from the exact sums, so the
# tolerance is f32 rounding of such a sum (a packing mistake is off by O(1)).
case("packed_dot_f32_random", dot(MM), normal((64, 520)), normal((520, 96)), tol=(2e-5, 1e-4))
case("packed_dot_bf16", dot(MM), normal((20, 300), bf16), normal((300, 40), bf16), tol=(1e-2, 2e-2))
case("packed_dot_f16_pref_f32", dot(MM, preferred_element_type=np.float32), normal((20, 300), np.float16),
     normal((300, 40), np.float16), tol=(1e-5, 1e-4))
case("packed_dot_fused_operand", lambda a, b: lax.dot_general(jnp.tanh(a).T, b * 2.0, MM), normal((90, 33)), normal((90, 47)),
     tol=(1e-5, 1e-5))
case("packed_conv_nhwc_same", conv((1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((2, 13, 11, 20)), ints((3, 3, 20, 33)))
case("packed_conv_stride_dilation_k_slices", conv((2, 2), [(2, 1), (0, 2)], rhs_dilation=(2, 1), dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((1, 17, 15, 50)), ints((3, 3, 50, 19)))
case("packed_conv_nchw_random", conv((1, 2), [(1, 1), (1, 0)]), normal((2, 9, 10, 12)), normal((17, 9, 3, 2)), tol=(2e-5, 2e-5))
# Integer packed GEMMs (i16 pairs; i8/u8 byte quads with AVX-512 VNNI) and bf16 pairs (AVX-512
# BF16): odd K over several K slices, wrapping sums, an int8 convolution.
PI32 = dict(preferred_element_type=np.int32)
case("packed_dot_i8_i32", dot(MM, **PI32), ints((29, 777), -128, 128, np.int8), ints((777, 35), -128, 128, np.int8))
case("packed_dot_i8_wraps", dot(MM), ints((13, 301), -128, 128, np.int8), ints((301, 40), -128, 128, np.int8))
case("packed_dot_u8_u8", dot(MM), ints((17, 403), 0, 256, np.uint8), ints((403, 33), 0, 256, np.uint8))
case("packed_dot_u8_i32", dot(MM, **PI32), ints((17, 403), 0, 256, np.uint8), ints((403, 33), 0, 256, np.uint8))
case("packed_dot_i16_i32", dot(MM, **PI32), ints((15, 257), -32768, 32768, np.int16), ints((257, 34), -32768, 32768, np.int16))
case("packed_conv_i8_i32", conv((1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), **PI32),
     ints((1, 7, 9, 40), -128, 128, np.int8), ints((3, 3, 40, 21), -128, 128, np.int8))
case("packed_dot_bf16_f32_odd_k", dot(MM, preferred_element_type=np.float32), normal((21, 777), bf16),
     normal((777, 37), bf16), tol=(1e-5, 1e-4))
case("packed_conv_feature_groups", conv((1, 1), "SAME", feature_group_count=2, dimension_numbers=("NHWC", "HWIO", "NHWC")),
     ints((1, 8, 9, 12)), ints((3, 3, 6, 10)))
case("packed_conv_f64_skips_padding", conv((1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
     normal((1, 7, 6, 9), np.float64), normal((3, 3, 9, 11), np.float64), tol=(1e-12, 1e-12))


def legacy(name, new_name, rewrite):
    for n, tol, text, args, outs in list(cases):
        if n == name:
            changed = rewrite(text)
            assert changed != text, new_name
            cases.append((new_name, tol, changed, args, outs))


def tuples_041(text):
    """0.4.1: dot_general's dimension numbers as tuples, None-valued params printed."""
    def tup(m):
        xs = [x.strip() for x in m.group(1).split(",") if x.strip()]
        return "(" + ", ".join(xs) + ("," if len(xs) == 1 else "") + ")"
    return re.sub(r"( *)dimension_numbers=(\(\(\[.*?\]\)\))", lambda m: m.group(1) + "dimension_numbers="
                  + re.sub(r"\[([^\]]*)\]", tup, m.group(2)) + "\n" + m.group(1) + "precision=None\n" + m.group(1) + "preferred_element_type=None", text)


legacy("dot_two_batch_dims_permuted", "legacy_dot_tuple_dimension_numbers", tuples_041)
legacy("dot_precision_tuple", "legacy_dot_precision_pybind_repr",
       lambda t: t.replace("Precision.HIGHEST", "<Precision.HIGHEST: 2>").replace("Precision.DEFAULT", "<Precision.DEFAULT: 0>"))
legacy("conv_odd_dimension_numbers", "legacy_conv_without_out_sharding", lambda t: re.sub(r"\s*out_sharding=None", "", t))

for name, tol, text, args, outs in cases:
    print("case", name)
    print("tol", *tol)
    print(text)
    for a in args:
        print(line("in", a))
    for o in outs:
        print(line("out", o))
    print("end")
