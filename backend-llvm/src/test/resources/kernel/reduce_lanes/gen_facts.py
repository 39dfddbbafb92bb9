"""Facts for backend-llvm's ReduceLanesFactsTest: reductions XLA:CPU 0.10.2 hands to YNNPACK
(4096 operand elements or more) or whose order is free, and softmax/layernorm-shaped chains that
jaxc fuses into reductions and row loops. Each case: a jaxpr as JAX prints it, its inputs, and the
outputs of jax.jit on CPU. Float results are compared within a tolerance (the order of a large float
reduction is YNNPACK's on XLA and jaxc's lanes here); integers, bools, max and min bit for bit.
Regenerate with /work/main/.venv/bin/python gen_facts.py (from this directory); same format as
../reduce/facts.txt.
"""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

bf16 = jnp.bfloat16
rng = np.random.default_rng(7)
facts = []


def case(name, f, *args):
    args = [np.asarray(a) for a in args]
    text = str(jax.make_jaxpr(f)(*args))
    outs = jax.jit(f)(*args)
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    facts.append((name, text, args, [np.asarray(o) for o in outs]))


def short(dt):
    dt = np.dtype(dt)
    if dt == np.dtype(bf16):
        return "bf16"
    return {"b": "bool", "i": "i", "u": "u", "f": "f", "c": "c"}[dt.kind] + ("" if dt.kind == "b" else str(dt.itemsize * 8))


def line(kind, a):
    dims = ",".join(str(d) for d in a.shape) or "-"
    return f"{kind} {short(a.dtype)} {dims} {np.ascontiguousarray(a).tobytes().hex() or '-'}"


def pos(shape, t=np.float32):
    """Well-conditioned values (positive), so any summation order agrees within rounding."""
    return rng.uniform(0.5, 1.5, shape).astype(t)


# Every combination of reduced axes of an odd-sized rank-3 operand (3 * 5 * 277 = 4155 elements),
# in one case per dtype (one output per combination).
shape = (3, 5, 277)
combos = [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
case("sum_f32_every_axes", lambda x: tuple(jnp.sum(x, axis=a) for a in combos), pos(shape))
case("max_min_f32_every_axes", lambda x: tuple(f(x, axis=a) for a in combos for f in (jnp.max, jnp.min)),
     rng.standard_normal(shape).astype(np.float32))
for t in [np.float64, np.float16, bf16]:
    case(f"sum_{short(t)}", lambda x: tuple(jnp.sum(x, axis=a, dtype=x.dtype) for a in [(2,), (1, 2), (0, 1, 2), (0,)]), pos(shape, t))
for t in [np.int32, np.uint8, np.int64, np.int8]:
    case(f"sum_max_min_{short(t)}", lambda x: tuple(f(x, axis=a) for a in [(2,), (0, 2), (0, 1, 2)]
                                                   for f in (lambda y, axis: jnp.sum(y, axis=axis, dtype=y.dtype), jnp.max, jnp.min)),
         rng.integers(0, 100, shape).astype(t))
# Small order-free reductions take the lanes too (bit for bit with XLA's tree).
case("sum_i32_small_rows", lambda x: jnp.sum(x, axis=1), rng.integers(-1000, 1000, (9, 37)).astype(np.int32))
case("max_f32_small_rows", lambda x: jnp.max(x, axis=1), rng.standard_normal((9, 37)).astype(np.float32))
case("any_all_rows", lambda x: (jnp.any(x, axis=1), jnp.all(x, axis=1)), rng.uniform(size=(9, 600)) < 0.995)
# A full reduction in partials (>= 2^16 elements, odd length), and full reductions of a matrix.
case("sum_f32_full_70001", lambda x: jnp.sum(x), pos((70001,)))
case("sum_max_i32_full_67x263", lambda x: (jnp.sum(x), jnp.max(x)), rng.integers(-1000, 1000, (67, 263)).astype(np.int32))
case("sum_f32_full_67x263", lambda x: jnp.sum(x), pos((67, 263)))
# Producers fused into reductions, and row loops.
xs = rng.standard_normal((9, 521)).astype(np.float32) * 3
case("softmax_f32", lambda x: jax.nn.softmax(x, axis=-1), xs)
case("softmax_bf16", lambda x: jax.nn.softmax(x, axis=-1), xs.astype(bf16))
case("log_softmax_f32", lambda x: jax.nn.log_softmax(x, axis=-1), xs)
def layernorm(x):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5)
case("layernorm_f32", layernorm, xs)
case("layernorm_3d_f32", layernorm, rng.standard_normal((3, 7, 211)).astype(np.float32))
case("sum_squares_and_mean_f64", lambda x: (jnp.sum(x * x, axis=1), jnp.mean(x, axis=1)), rng.standard_normal((11, 409)))
case("sum_of_convert_f16", lambda x: jnp.sum(x.astype(np.float32), axis=1), pos((9, 600), np.float16))
# A reduction whose result is read at another row must not share a row loop with its reader.
case("rows_read_reversed", lambda x: x / jnp.sum(x, axis=1, keepdims=True)[::-1], pos((17, 257)))
# Column reductions (leading axes reduced) folded in partial rows (ReduceColumns): 2 and 3 parts,
# a fused producer.
case("sum_f32_columns_700x130", lambda x: (jnp.sum(x, axis=0), jnp.sum(jnp.exp(x), axis=0)), pos((700, 130)))
case("sum_max_i32_columns_40x30x97", lambda x: (jnp.sum(x * 3, axis=(0, 1)), jnp.max(x, axis=0), jnp.min(x, axis=(0, 1))),
     rng.integers(-1000, 1000, (40, 30, 97)).astype(np.int32))
# (No NaN case: XLA 0.10.2 hands max/min of 4096 elements or more to YNNPACK, which drops NaNs;
# jaxc propagates them, as XLA does below 4096 and as jnp.max documents.)

with open("facts.txt", "w") as out:
    for name, text, args, outs in facts:
        out.write(f"case {name}\n{text}\n")
        for a in args:
            out.write(line("in", a) + "\n")
        for o in outs:
            out.write(line("out", o) + "\n")
        out.write("end\n")
print(len(facts), "cases")
