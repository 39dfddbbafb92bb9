"""The fifteen workloads of issue 7 as JAX functions, with their inputs (shape, dtype, value
range), tolerances and work counts. generate.py turns them into the committed suite; run.py times
them with jax.jit. Every array is an argument (no closed-over constants), so each jaxpr's inputs
are its invars."""
import math
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
from jax import lax

F32 = "float32"
I32 = "int32"


@dataclass(frozen=True)
class Input:
    shape: tuple
    dtype: str = F32
    lo: float = -1.0
    hi: float = 1.0


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    fn: object
    inputs: list
    bound: str            # "compute": GFLOP/s against the FMA peak; "memory": GB/s against bandwidth
    flops: int = 0        # multiply-adds count 2 (dot and convolution work only)
    bytes_override: int = 0  # least memory traffic, where it is not inputs + outputs
    rtol: float = 1e-5
    atol: float = 1e-6
    seed: int = 0
    notes: str = field(default="")


def _layernorm(x, g, b, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * g + b


def tanh_chain(x):
    return jnp.tanh((x * 1.7 + 0.3) * x - 0.5)


def matmul(a, b):
    return a @ b


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def batched_matmul(a, b):
    return jnp.einsum("bmk,bkn->bmn", a, b)


def layernorm(x, g, b):
    return _layernorm(x, g, b)


def sum_all(x):
    return jnp.sum(x)


def sum_rows(x):
    return jnp.sum(x, axis=1)


def conv2d(x, w):
    return lax.conv_general_dilated(x, w, window_strides=(1, 1), padding="SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def mlp(x, w1, b1, w2, b2, w3, b3):
    h = jax.nn.relu(x @ w1 + b1)
    h = jax.nn.relu(h @ w2 + b2)
    return h @ w3 + b3


HEADS = 8


def transformer_block(x, ln1_g, ln1_b, w_qkv, b_qkv, w_o, b_o, ln2_g, ln2_b, w_1, b_1, w_2, b_2):
    s, d = x.shape
    dh = d // HEADS
    h = _layernorm(x, ln1_g, ln1_b)
    qkv = h @ w_qkv + b_qkv
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(s, HEADS, dh).transpose(1, 0, 2) for t in (q, k, v))
    att = jax.nn.softmax(jnp.einsum("hqd,hkd->hqk", q, k) / math.sqrt(dh), axis=-1)
    o = jnp.einsum("hqk,hkd->hqd", att, v).transpose(1, 0, 2).reshape(s, d)
    x = x + o @ w_o + b_o
    h = _layernorm(x, ln2_g, ln2_b)
    return x + jax.nn.gelu(h @ w_1 + b_1) @ w_2 + b_2


def rnn(xs, h0, wx, wh, b):
    def step(h, x):
        return jnp.tanh(x @ wx + h @ wh + b), None
    h, _ = lax.scan(step, h0, xs)
    return h


def newton_sqrt(x):
    def cond(c):
        i, _, err = c
        return (i < 50) & (err > 1e-6)

    def body(c):
        i, y, _ = c
        y2 = 0.5 * (y + x / y)
        return i + 1, y2, jnp.max(jnp.abs(y2 - y))

    _, y, _ = lax.while_loop(cond, body, (0, x, jnp.float32(jnp.inf)))
    return y


def embedding(table, ids):
    return jnp.take(table, ids, axis=0)


def _mm(n, seed):
    return Workload(f"matmul_{n}", f"f32 matmul {n}x{n} @ {n}x{n}", matmul,
                    [Input((n, n)), Input((n, n))], "compute", flops=2 * n ** 3,
                    rtol=1e-4, atol=1e-4 * math.sqrt(n), seed=seed)


S, D, FF = 256, 512, 2048
WORKLOADS = [
    Workload("tanh_chain", "tanh((x*1.7+0.3)*x-0.5) on f32[16M]", tanh_chain,
             [Input((1 << 24,))], "memory", rtol=1e-5, atol=2e-6, seed=100),
    _mm(256, 200), _mm(1024, 300), _mm(2048, 400),
    Workload("softmax", "jax.nn.softmax over the last axis of f32[4096,1024]", softmax,
             [Input((4096, 1024), lo=-4.0, hi=4.0)], "memory", rtol=1e-5, atol=1e-8, seed=500),
    Workload("batched_matmul", "f32 einsum bmk,bkn->bmn, batch 32, M 128, K 64, N 128", batched_matmul,
             [Input((32, 128, 64)), Input((32, 64, 128))], "compute", flops=2 * 32 * 128 * 64 * 128,
             rtol=1e-4, atol=1e-4, seed=600),
    Workload("layernorm", "layer norm over the last axis of f32[8192,1024] (eps 1e-5, scale, bias)", layernorm,
             [Input((8192, 1024)), Input((1024,), lo=0.5, hi=1.5), Input((1024,), lo=-0.5, hi=0.5)],
             "memory", rtol=1e-4, atol=1e-4, seed=700),
    Workload("sum_all", "sum of all of f32[64M]", sum_all, [Input((1 << 26,))], "memory",
             rtol=1e-4, atol=2.0, seed=800, notes="summation order differs: atol scales with sqrt(n)"),
    Workload("sum_rows", "sum over axis 1 of f32[8192,8192]", sum_rows, [Input((8192, 8192))], "memory",
             rtol=1e-4, atol=2e-3, seed=900),
    Workload("conv2d", "conv NHWC 8x56x56x64 with HWIO 3x3x64x64, SAME, stride 1", conv2d,
             [Input((8, 56, 56, 64)), Input((3, 3, 64, 64), lo=-0.1, hi=0.1)], "compute",
             flops=2 * 8 * 56 * 56 * 64 * 3 * 3 * 64, rtol=1e-4, atol=1e-4, seed=1000),
    Workload("mlp", "MLP 784-512-512-10 with relu, batch 256", mlp,
             [Input((256, 784)), Input((784, 512), lo=-0.05, hi=0.05), Input((512,), lo=-0.1, hi=0.1),
              Input((512, 512), lo=-0.05, hi=0.05), Input((512,), lo=-0.1, hi=0.1),
              Input((512, 10), lo=-0.05, hi=0.05), Input((10,), lo=-0.1, hi=0.1)], "compute",
             flops=2 * 256 * (784 * 512 + 512 * 512 + 512 * 10), rtol=1e-4, atol=1e-4, seed=1100),
    Workload("transformer_block", "pre-LN transformer block, seq 256, d_model 512, 8 heads, MLP 2048 (gelu)",
             transformer_block,
             [Input((S, D)), Input((D,), lo=0.5, hi=1.5), Input((D,), lo=-0.1, hi=0.1),
              Input((D, 3 * D), lo=-0.05, hi=0.05), Input((3 * D,), lo=-0.1, hi=0.1),
              Input((D, D), lo=-0.05, hi=0.05), Input((D,), lo=-0.1, hi=0.1),
              Input((D,), lo=0.5, hi=1.5), Input((D,), lo=-0.1, hi=0.1),
              Input((D, FF), lo=-0.05, hi=0.05), Input((FF,), lo=-0.1, hi=0.1),
              Input((FF, D), lo=-0.03, hi=0.03), Input((D,), lo=-0.1, hi=0.1)], "compute",
             flops=2 * S * D * 3 * D + 2 * 2 * HEADS * S * S * (D // HEADS) + 2 * S * D * D + 2 * 2 * S * D * FF,
             rtol=1e-4, atol=2e-4, seed=1200),
    Workload("rnn_scan", "lax.scan RNN, 100 steps, hidden 256, batch 32, tanh cell", rnn,
             [Input((100, 32, 256)), Input((32, 256)), Input((256, 256), lo=-0.06, hi=0.06),
              Input((256, 256), lo=-0.06, hi=0.06), Input((256,), lo=-0.1, hi=0.1)], "compute",
             flops=100 * 2 * 2 * 32 * 256 * 256, rtol=1e-4, atol=1e-4, seed=1300),
    Workload("newton_while", "sqrt by Newton in lax.while_loop on f32[1M] (max step 1e-6, at most 50 steps)",
             newton_sqrt, [Input((1 << 20,), lo=0.25, hi=4.0)], "memory", rtol=1e-6, atol=1e-6, seed=1400,
             notes="GB/s counts one read of x and one write of y, not the iterations"),
    Workload("embedding_gather", "jnp.take of 4096 int32 ids from an f32[32000,512] table", embedding,
             [Input((32000, 512)), Input((4096,), I32, 0, 32000)], "memory",
             bytes_override=4096 * 4 + 2 * 4096 * 512 * 4, rtol=0.0, atol=0.0, seed=1500,
             notes="GB/s counts the ids, the rows read and the output, not the whole table"),
]

# The scalar model whose call time is measured from C (not a timed workload).
def scalar_add(a, b):
    return a + b


SCALAR = Workload("scalar_add", "f32[] + f32[]", scalar_add, [Input(()), Input(())], "memory")
