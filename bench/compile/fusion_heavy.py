"""A fusion-heavy model (layernorm, GELU, softmax, residual over f32[2048,1024]) printed as a jaxpr:
checks that emitting each step as its own function does not slow the generated code.

    python bench/compile/fusion_heavy.py   # writes bench/compile/fusion_heavy.jaxpr
"""
import os

import jax
import jax.numpy as jnp


def f(x, g, b):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    y = (x - mu) * jax.lax.rsqrt(var + 1e-5) * g + b
    y = 0.5 * y * (1 + jnp.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))
    s = jnp.exp(y - jnp.max(y, axis=-1, keepdims=True))
    s = s / jnp.sum(s, axis=-1, keepdims=True)
    return x + s * y


if __name__ == "__main__":
    args = (jnp.zeros((2048, 1024), jnp.float32), jnp.ones(1024, jnp.float32), jnp.zeros(1024, jnp.float32))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fusion_heavy.jaxpr")
    with open(out, "w") as fh:
        print(jax.make_jaxpr(f)(*args), file=fh)
    print(out)
