"""Facts for backend-llvm's rng_uniform kernel tests: jaxprs using lax.rng_uniform, their inputs,
and what XLA:CPU returns on the first, second, … call of one jitted function (the rng state
advances at every execution). Case "NAME#k" holds call k of NAME.

XLA numbers rng instructions across everything a process compiles, so each case is made in a
fresh process, as the first rng program it compiles: the program a jaxc artifact reproduces.
Regenerate with /work/main/.venv/bin/python gen_facts.py > facts.txt (from this directory). The
format is the spine's (backend-llvm/src/test/resources/spine/gen_facts.py).
"""
import subprocess
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

bf16 = jnp.bfloat16
f16, f32, f64 = np.float16, np.float32, np.float64
i32, i64, u32, u64 = np.int32, np.int64, np.uint32, np.uint64


def rng(shape):
    return lambda a, b: lax.rng_uniform(a, b, shape)


def two_outputs_reversed(a, b):
    x = lax.rng_uniform(a, b, (5,))
    y = lax.rng_uniform(a, b, (3,))
    return y, x


def sum_then_select(a, b):
    x = lax.rng_uniform(a, b, (4,))
    y = lax.rng_uniform(a, b, (4,))
    z = lax.rng_uniform(a, b, (4,))
    return lax.select(a < b, z, y) + x, lax.concatenate([y, x], 0)


def bounds_from_rng(a, b):
    x = lax.rng_uniform(a, b, (2,))
    return lax.rng_uniform(x[0], x[1] + 10, (6,)), x


def in_scan(a, b):
    def body(c, _):
        return c + lax.rng_uniform(a, b, (3,)), None
    return lax.scan(body, jnp.zeros(3, a.dtype), None, length=4)[0]


def in_nested_jit(a, b):
    return jax.jit(lambda p, q: lax.rng_uniform(p, q, (2, 2)))(a, b) * 2


# name: (function, inputs, calls)
CASES = {
    "f32_unit": (rng((6,)), (f32(0), f32(1)), 3),
    "f32_fma": (rng((3, 5)), (f32(0.3), f32(2.7)), 3),
    "f32_scalar": (rng(()), (f32(-2), f32(-1.5)), 3),
    "f32_odd": (rng((13,)), (f32(1e-3), f32(7)), 3),
    "f64": (rng((7,)), (f64(-1.5), f64(2.25)), 3),
    "f64_multi_dim": (rng((2, 3, 5)), (f64(0), f64(1e10)), 3),
    "f16": (rng((2, 3)), (f16(-1), f16(3)), 3),
    "bf16": (rng((5,)), (bf16(1), bf16(3)), 3),
    "i32": (rng((9,)), (i32(-5), i32(100)), 3),
    "i32_full_range": (rng((3, 3)), (i32(-2**31), i32(2**31 - 1)), 3),
    "i32_lo_is_hi": (rng((4,)), (i32(7), i32(7)), 3),
    "i32_lo_above_hi": (rng((5,)), (i32(50), i32(-50)), 3),
    "u32": (rng((1,)), (u32(10), u32(4000000000)), 3),
    "i64": (rng((5,)), (i64(-(2**40)), i64(2**50)), 3),
    "u64_odd": (rng((3,)), (u64(3), u64(2**63 + 12345)), 3),
    "empty": (rng((0, 3)), (f32(0), f32(1)), 2),
    "two_outputs_reversed": (two_outputs_reversed, (f32(0), f32(1)), 3),
    "sum_then_select": (sum_then_select, (f32(-1), f32(1)), 3),
    "bounds_from_rng": (bounds_from_rng, (f32(0), f32(1)), 3),
    "in_scan": (in_scan, (f32(0), f32(1)), 3),
    "in_nested_jit": (in_nested_jit, (f64(1), f64(2)), 3),
    "threads": (rng((4,)), (f32(0), f32(1)), 16),
}


def short(dt):
    dt = np.dtype(dt)
    if dt == np.dtype(bf16):
        return "bf16"
    return {"b": "bool", "i": "i", "u": "u", "f": "f", "c": "c"}[dt.kind] + ("" if dt.kind == "b" else str(dt.itemsize * 8))


def line(kind, a):
    dims = ",".join(str(d) for d in a.shape) or "-"
    return f"{kind} {short(a.dtype)} {dims} {np.ascontiguousarray(a).tobytes().hex() or '-'}"


def one(name):
    f, args, calls = CASES[name]
    args = [np.asarray(a) for a in args]
    text = str(jax.make_jaxpr(f)(*args))
    jf = jax.jit(f)
    for k in range(1, calls + 1):
        outs = jf(*args)
        if not isinstance(outs, (tuple, list)):
            outs = (outs,)
        print(f"case {name}#{k}")
        print(text)
        for a in args:
            print(line("in", a))
        for o in outs:
            print(line("out", np.asarray(o)))
        print("end")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        one(sys.argv[2])
    else:
        for name in CASES:
            r = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True, check=True)
            sys.stdout.write(r.stdout)
