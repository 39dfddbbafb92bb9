"""A 12-layer decoder-only transformer (d_model 512, 8 heads, seq 256, MLP 2048) in plain
jax.numpy, printed as a jaxpr for the compile-speed benchmark.

    python bench/compile/transformer.py            # writes bench/compile/transformer_12l.jaxpr
    python bench/compile/transformer.py --time     # also times jax.jit(f).lower(*args).compile()

The weights are arguments (not constants), so the jaxpr stays small and the compile is what is
measured. Run with JAX 0.10.2 (/work/main/.venv/bin/python).
"""
import os
import sys
import time

import jax
import jax.numpy as jnp

LAYERS, D, HEADS, SEQ, MLP, VOCAB = 12, 512, 8, 256, 2048, 1024


def layer_norm(x, g, b):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(var + 1e-5) * g + b


def attention(x, wqkv, wo):
    qkv = x @ wqkv
    q, k, v = jnp.split(qkv, 3, axis=-1)
    hd = D // HEADS
    q = q.reshape(SEQ, HEADS, hd).transpose(1, 0, 2)
    k = k.reshape(SEQ, HEADS, hd).transpose(1, 0, 2)
    v = v.reshape(SEQ, HEADS, hd).transpose(1, 0, 2)
    s = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(float(hd))
    mask = jnp.tril(jnp.ones((SEQ, SEQ), dtype=bool))
    s = jnp.where(mask, s, -1e9)
    s = s - jnp.max(s, axis=-1, keepdims=True)
    p = jnp.exp(s)
    p = p / jnp.sum(p, axis=-1, keepdims=True)
    o = jnp.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(SEQ, D)
    return o @ wo


def gelu(x):
    return 0.5 * x * (1 + jnp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def model(tokens, embed, layers, lnf):
    x = embed[tokens]
    for (g1, b1, wqkv, wo, g2, b2, w1, w2) in layers:
        x = x + attention(layer_norm(x, g1, b1), wqkv, wo)
        x = x + gelu(layer_norm(x, g2, b2) @ w1) @ w2
    x = layer_norm(x, *lnf)
    return x @ embed.T


def args():
    f32 = jnp.float32
    layer = (jnp.ones(D, f32), jnp.zeros(D, f32), jnp.zeros((D, 3 * D), f32), jnp.zeros((D, D), f32),
             jnp.ones(D, f32), jnp.zeros(D, f32), jnp.zeros((D, MLP), f32), jnp.zeros((MLP, D), f32))
    return (jnp.zeros(SEQ, jnp.int32), jnp.zeros((VOCAB, D), f32), [layer] * LAYERS,
            (jnp.ones(D, f32), jnp.zeros(D, f32)))


if __name__ == "__main__":
    a = args()
    if "--time" in sys.argv:
        t = time.perf_counter()
        jax.jit(model).lower(*a).compile()
        print(f"lower+compile {time.perf_counter() - t:.3f} s", file=sys.stderr)
    else:
        out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "transformer_12l.jaxpr")
        with open(out, "w") as f:
            print(jax.make_jaxpr(model)(*a), file=f)
        print(out)
