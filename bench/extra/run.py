"""Workloads beyond the suite that users also run (pooling, top-k, integer arithmetic, bias + GELU,
normalisations, attention, convolutions of other shapes, sorting, scatter...): each is traced by
JAX, compiled by jaxc to a shared library, and timed against jax.jit on XLA:CPU, alternating in
one process with fresh output buffers per call (medians, at most 41 calls or 15 s each); outputs
are checked with rtol = atol = 1e-4.

    .venv/bin/python bench/extra/run.py [JAXC] [NAME ...]

JAXC defaults to the repository's ./jaxc; jaxprs and libraries go to a temporary directory.
"""
import ctypes, os, subprocess, sys, tempfile, time
import numpy as np, jax, jax.numpy as jnp
from jax import lax
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JAXC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "jaxc")
rng = np.random.default_rng(0)
def f32(*s): return rng.uniform(-1, 1, s).astype(np.float32)
def i32(hi, *s): return rng.integers(0, hi, s).astype(np.int32)
W = {}
def w(name, *args):
    def d(fn): W[name] = (fn, args); return fn
    return d
@w("conv_s2_nhwc", f32(8,112,112,32), f32(3,3,32,64))
def _(x, k): return lax.conv_general_dilated(x, k, (2,2), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
@w("conv_1x1", f32(8,56,56,64), f32(1,1,64,128))
def _(x, k): return lax.conv_general_dilated(x, k, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
@w("conv_nchw", f32(8,64,56,56), f32(64,64,3,3))
def _(x, k): return lax.conv_general_dilated(x, k, (1,1), "SAME")
@w("depthwise", f32(8,56,56,128), f32(3,3,1,128))
def _(x, k): return lax.conv_general_dilated(x, k, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"), feature_group_count=128)
@w("bias_gelu", f32(4096,1024), f32(1024))
def _(x, b): return jax.nn.gelu(x + b)
@w("transpose2d", f32(4096,4096))
def _(x): return x.T + 1.0
@w("colsum", f32(8192,2048))
def _(x): return jnp.sum(x, axis=0)
@w("argmax_rows", f32(4096,1024))
def _(x): return jnp.argmax(x, axis=1)
@w("argmax_1d", f32(1 << 22))
def _(x): return jnp.argmax(x)
@w("cumsum", f32(1024,4096))
def _(x): return jnp.cumsum(x, axis=1)
@w("sort_rows", f32(256,4096))
def _(x): return jnp.sort(x, axis=1)
@w("batchnorm_train", f32(64,56,56,64))
def _(x):
    m = jnp.mean(x, axis=(0,1,2)); v = jnp.var(x, axis=(0,1,2)); return (x - m) * lax.rsqrt(v + 1e-5)
@w("logsumexp", f32(4096,1024))
def _(x): return jax.nn.logsumexp(x, axis=-1)
@w("xent_loss", f32(4096,1000), i32(1000,4096))
def _(x, y): return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(x), y[:, None], axis=1))
@w("attention", f32(8,512,64), f32(8,512,64), f32(8,512,64))
def _(q, k, v): return jax.nn.softmax(jnp.einsum("hqd,hkd->hqk", q, k) / 8.0, axis=-1) @ v
@w("matvec", f32(4096,4096), f32(4096))
def _(a, x): return a @ x
@w("matmul_tall", f32(8192,256), f32(256,256))
def _(a, b): return a @ b
@w("matmul_f64", f32(512,512).astype(np.float64), f32(512,512).astype(np.float64))
def _(a, b): return a @ b
@w("mlp_relu_big", f32(1024,1024), f32(1024,4096), f32(4096), f32(4096,1024))
def _(x, w1, b1, w2): return jax.nn.relu(x @ w1 + b1) @ w2
@w("elementwise_f64", f32(4096,1024).astype(np.float64))
def _(x): return jnp.exp(x) * jnp.sin(x) + jnp.sqrt(jnp.abs(x))
@w("int_ops", i32(1000, 4096, 1024))
def _(x): return (x * 3 + 7) % 13 ^ (x >> 2)
@w("where_clip", f32(4096,2048))
def _(x): return jnp.where(x > 0, jnp.clip(x, 0, 0.5), x * 0.1)
@w("max_pool", f32(16,112,112,64))
def _(x): return lax.reduce_window(x, -jnp.inf, lax.max, (1,3,3,1), (1,2,2,1), "SAME")
@w("avg_pool", f32(16,56,56,64))
def _(x): return lax.reduce_window(x, 0.0, lax.add, (1,2,2,1), (1,2,2,1), "VALID") / 4
@w("concat_slice", f32(2048,1024), f32(2048,1024))
def _(a, b): return jnp.concatenate([a[:, :512] * 2, b[:, 512:]], axis=0)
@w("one_hot_dot", i32(512, 4096), f32(512, 256))
def _(ids, e): return jax.nn.one_hot(ids, 512) @ e
@w("scatter_add", i32(1000, 65536), f32(65536, 64))
def _(ids, v): return jnp.zeros((1000, 64), jnp.float32).at[ids].add(v)
@w("rmsnorm", f32(8192,1024), f32(1024))
def _(x, g): return x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g
@w("topk", f32(512,4096))
def _(x): return lax.top_k(x, 16)[0]

def _ln(x, g, b):
    m = jnp.mean(x, -1, keepdims=True); v = jnp.mean((x - m) ** 2, -1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b
@w("layernorm_grad", f32(4096,1024), f32(1024), f32(1024))
def _(x, g, b): return jax.grad(lambda x, g, b: jnp.sum(_ln(x, g, b) ** 2), argnums=(0, 1, 2))(x, g, b)
@w("rope", f32(8,1024,64), f32(1024,64), f32(1024,64))
def _(x, c, s):
    x1, x2 = x[..., :32], x[..., 32:]
    return x * c + jnp.concatenate([-x2, x1], axis=-1) * s
@w("xent_grad", f32(4096,1000), i32(1000,4096))
def _(x, y): return jax.grad(lambda x: -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(x), y[:, None], axis=1)))(x)
@w("xent_grad_arange", f32(4096,1000), i32(1000,4096))
def _(x, y): return jax.grad(lambda x: -jnp.mean(jax.nn.log_softmax(x)[jnp.arange(4096), y]))(x)
@w("adam_update", f32(4096,1024), f32(4096,1024), f32(4096,1024), f32(4096,1024))
def _(p, g, m, v):
    m = 0.9 * m + 0.1 * g; v = 0.999 * v + 0.001 * g * g
    return p - 1e-3 * m / (jnp.sqrt(v) + 1e-8), m, v
@w("maxpool_grad", f32(16,56,56,64))
def _(x): return jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -jnp.inf, lax.max, (1,2,2,1), (1,2,2,1), "VALID")))(x)
@w("conv_transpose", f32(8,28,28,64), f32(3,3,64,32))
def _(x, k): return lax.conv_transpose(x, k, (2,2), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
@w("argsort_rows", f32(256,2048))
def _(x): return jnp.argsort(x, axis=1)
@w("segment_sum", f32(65536,64), i32(512, 65536))
def _(x, s): return jax.ops.segment_sum(x, s, num_segments=512)
@w("lstm_step", f32(64,512), f32(64,512), f32(64,512), f32(1024,2048), f32(2048))
def _(x, h, c, w, b):
    z = jnp.concatenate([x, h], 1) @ w + b
    i, f, g, o = jnp.split(z, 4, 1)
    c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
    return jax.nn.sigmoid(o) * jnp.tanh(c), c
@w("dropout", f32(4096,1024))
def _(x): return jnp.where(jax.random.bernoulli(jax.random.PRNGKey(0), 0.9, x.shape), x / 0.9, 0)
@w("einsum3", f32(64,128,64), f32(64,64), f32(64,32))
def _(a, b, c): return jnp.einsum("bij,jk,kl->bil", a, b, c)
@w("softplus_swish", f32(4096,2048))
def _(x): return jax.nn.softplus(x) + jax.nn.swish(x)
@w("reduce_max_axis0", f32(8192,1024))
def _(x): return jnp.max(x, axis=0)
@w("var_mean", f32(1024,4096))
def _(x): return jnp.var(x, axis=1), jnp.mean(x, axis=1)
@w("gather_rows_2d", f32(100000,128), i32(100000, 8192))
def _(t, i): return t[i] * 2.0

# Second batch (fourteenth session): layouts, loops, quantisation, other dtypes and special functions.
def i8(*s): return rng.integers(-128, 128, s).astype(np.int8)
@w("causal_attention", f32(8,512,64), f32(8,512,64), f32(8,512,64))
def _(q, k, v):
    s = jnp.einsum("hqd,hkd->hqk", q, k) / 8.0
    m = jnp.arange(512)[:, None] >= jnp.arange(512)[None, :]
    return jax.nn.softmax(jnp.where(m, s, -jnp.inf), axis=-1) @ v
@w("attention_bqhd", f32(2,512,8,64), f32(2,512,8,64), f32(2,512,8,64))
def _(q, k, v): return jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / 8.0, axis=-1), v)
@w("head_split", f32(1024,512))
def _(x): return x.reshape(1024, 8, 64).transpose(1, 0, 2) * 2.0
@w("transpose_021", f32(64,512,512))
def _(x): return jnp.swapaxes(x, 1, 2) + 1.0
@w("outer_product", f32(4096), f32(4096))
def _(x, y): return x[:, None] * y[None, :]
@w("sum_mid_axis", f32(256,256,256))
def _(x): return jnp.sum(x, axis=1)
@w("global_avg_pool", f32(32,28,28,256))
def _(x): return jnp.mean(x, axis=(1, 2))
@w("roll", f32(4096,1024))
def _(x): return jnp.roll(x, 7, axis=1)
@w("pad_2d", f32(4096,1024))
def _(x): return jnp.pad(x, ((1, 1), (3, 5)))
@w("tile", f32(4096,256))
def _(x): return jnp.tile(x, (1, 4))
@w("quantize_i8", f32(4096,1024))
def _(x): return jnp.clip(jnp.round(x * 127), -128, 127).astype(jnp.int8)
@w("dequant_matmul", f32(256,1024), i8(1024,1024), f32(1024))
def _(x, q, s): return x @ (q.astype(jnp.float32) * s)
@w("int8_matmul", i8(512,1024), i8(1024,512))
def _(a, b): return lax.dot(a, b, preferred_element_type=jnp.int32)
@w("bf16_matmul", f32(1024,1024).astype(jnp.bfloat16), f32(1024,1024).astype(jnp.bfloat16))
def _(a, b): return a @ b
@w("f16_elementwise", f32(4096,1024).astype(np.float16), f32(4096,1024).astype(np.float16))
def _(x, y): return x * y + jnp.tanh(x)
@w("erf_log1p_expm1", f32(4096,1024))
def _(x): return lax.erf(x) + jnp.log1p(jnp.abs(x)) + jnp.expm1(x)
@w("atan2", f32(4096,1024), f32(4096,1024))
def _(x, y): return jnp.arctan2(x, y)
@w("pow", f32(4096,1024))
def _(x): return jnp.abs(x) ** 2.5 + x ** 3
@w("log_sigmoid", f32(4096,1024))
def _(x): return jax.nn.log_sigmoid(x)
@w("bce_logits", f32(4096,1024), f32(4096,1024))
def _(x, z): return jnp.mean(jnp.maximum(x, 0) - x * z + jnp.log1p(jnp.exp(-jnp.abs(x))))
@w("cumsum_axis0", f32(4096,1024))
def _(x): return jnp.cumsum(x, axis=0)
@w("cummax", f32(1024,4096))
def _(x): return lax.cummax(x, axis=1)
@w("sort_1d", f32(1 << 20))
def _(x): return jnp.sort(x)
@w("argmin_axis0", f32(4096,1024))
def _(x): return jnp.argmin(x, axis=0)
@w("small_batched_matmul", f32(16384,8,8), f32(16384,8,8))
def _(a, b): return a @ b
@w("conv1d", f32(16,4096,64), f32(5,64,64))
def _(x, k): return lax.conv_general_dilated(x, k, (1,), "SAME", dimension_numbers=("NWC","WIO","NWC"))
@w("ema_scan", f32(1000,1024))
def _(xs): return lax.scan(lambda c, x: (0.9 * c + 0.1 * x, 0.9 * c + 0.1 * x), jnp.zeros(1024), xs)[1]
@w("fori_elementwise", f32(65536))
def _(x): return lax.fori_loop(0, 100, lambda i, x: x * 0.99 + 0.01 * jnp.sin(x), x)
@w("take_axis1", f32(1024,4096), i32(4096, 1024))
def _(x, i): return jnp.take(x, i, axis=1)
@w("resize_bilinear", f32(8,64,64,32))
def _(x): return jax.image.resize(x, (8, 128, 128, 32), "bilinear")
@w("l2_normalize", f32(8192,512))
def _(x): return x / jnp.linalg.norm(x, axis=-1, keepdims=True)
@w("cosine_sim", f32(1024,256), f32(1024,256))
def _(a, b):
    a = a / jnp.linalg.norm(a, axis=-1, keepdims=True); b = b / jnp.linalg.norm(b, axis=-1, keepdims=True)
    return a @ b.T
@w("softmax_axis0", f32(1024,4096))
def _(x): return jax.nn.softmax(x, axis=0)
@w("tril", f32(4096,4096))
def _(x): return jnp.tril(x)
@w("clip_grad_norm", f32(4096,1024), f32(1024))
def _(g1, g2):
    n = jnp.sqrt(jnp.sum(g1 * g1) + jnp.sum(g2 * g2)); s = jnp.minimum(1.0, 1.0 / n)
    return g1 * s, g2 * s
@w("mse_grad_w", f32(4096,256), f32(256,128), f32(4096,128))
def _(x, wt, y): return jax.grad(lambda wt: jnp.mean((x @ wt - y) ** 2))(wt)
@w("log_softmax", f32(4096,1024))
def _(x): return jax.nn.log_softmax(x)
@w("max_int_rows", i32(1 << 30, 4096, 1024))
def _(x): return jnp.max(x, axis=1)
@w("any_rows", f32(4096,1024))
def _(x): return jnp.any(x > 0.999, axis=1)
@w("count_positive", f32(4096,1024))
def _(x): return jnp.sum(x > 0, axis=1)
@w("matmul_at_b", f32(1024,1024), f32(1024,1024))
def _(a, b): return a.T @ b
@w("conv_grad_kernel", f32(8,56,56,64), f32(3,3,64,64))
def _(x, k): return jax.grad(lambda k: jnp.sum(lax.conv_general_dilated(x, k, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC")) ** 2))(k)
@w("conv_grad_input_s2", f32(8,56,56,64), f32(3,3,64,64))
def _(x, k): return jax.grad(lambda x: jnp.sum(lax.conv_general_dilated(x, k, (2,2), "SAME", dimension_numbers=("NHWC","HWIO","NHWC")) ** 2))(x)
@w("conv_f64", f32(8,32,32,32).astype(np.float64), f32(3,3,32,32).astype(np.float64))
def _(x, k): return lax.conv_general_dilated(x, k, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
@w("mha_heads", f32(8,256,512), f32(512,512), f32(512,512), f32(512,512), f32(512,512))
def _(x, wq, wk, wv, wo):
    def heads(t): return t.reshape(8, 256, 8, 64).transpose(0, 2, 1, 3)
    q, k, v = heads(x @ wq * 0.05), heads(x @ wk * 0.05), heads(x @ wv * 0.05)
    a = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / 8.0, axis=-1)
    return (a @ v).transpose(0, 2, 1, 3).reshape(8, 256, 512) @ wo
@w("mixer_token", f32(64,196,256), f32(196,384), f32(384,196))
def _(x, w1, w2): return x + (jax.nn.gelu(x.swapaxes(1, 2) @ (w1 * 0.1)) @ (w2 * 0.1)).swapaxes(1, 2)
only = sys.argv[2:] or sorted(W)
OUT = tempfile.mkdtemp(prefix="jaxc-extra-")
for name in only:
    fn, args = W[name]
    if any(a.dtype == np.float64 for a in args): jax.config.update("jax_enable_x64", True)
    else: jax.config.update("jax_enable_x64", False)
    path = os.path.join(OUT, "%s.jaxpr" % name)
    open(path, "w").write(str(jax.make_jaxpr(fn)(*args)))
    so = os.path.join(OUT, "%s.so" % name)
    x64 = ["--x64"] if any(a.dtype == np.float64 for a in args) else []
    t0 = time.time()
    r = subprocess.run([JAXC, "compile", path, "--emit", "shared", "--name", "f", "-o", so] + x64, capture_output=True, text=True)
    ct = time.time() - t0
    if r.returncode: print("%-18s compile failed: %s" % (name, r.stderr.strip()[:200]), flush=True); continue
    jf = jax.jit(fn); ref = jf(*args); ref = ref if isinstance(ref, (tuple, list)) else (ref,)
    lib = ctypes.CDLL(so); f = lib.f; f.restype = ctypes.c_int32; f.argtypes = [ctypes.c_void_p]*2
    ins = [np.ascontiguousarray(a) for a in args]
    inp = (ctypes.c_void_p*len(ins))(*[a.ctypes.data for a in ins])
    xs = [jax.device_put(a) for a in args]
    tj, tx = [], []; budget = time.time() + 15
    for i in range(41):
        outs = [np.empty(r_.shape, r_.dtype) for r_ in ref]
        op = (ctypes.c_void_p*len(outs))(*[o.ctypes.data for o in outs])
        t = time.perf_counter(); rc = f(inp, op); tj.append(time.perf_counter() - t)
        t = time.perf_counter(); jax.block_until_ready(jf(*xs)); tx.append(time.perf_counter() - t)
        if time.time() > budget and i >= 5: break
    ok = rc == 0 and all(np.allclose(o.astype(np.float64), np.asarray(r_).astype(np.float64), rtol=1e-4, atol=1e-4, equal_nan=True) for o, r_ in zip(outs, ref))
    if not ok and rc == 0:  # say how far: long sums differ from XLA's in their last bits
        err = max(float(np.max(np.nan_to_num(np.abs(o.astype(np.float64) - np.asarray(r_, np.float64))) / (np.abs(np.asarray(r_, np.float64)).max() + 1e-30)))
                  for o, r_ in zip(outs, ref))
    mj, mx = np.median(tj)*1e3, np.median(tx)*1e3
    print("%-18s xla %9.3f ms  jaxc %9.3f ms  ratio %5.2f  %s  (compile %.1f s)" % (name, mx, mj, mj/mx, "ok" if ok else ("MISMATCH rc=%d" % rc if rc else "max error %.1e of max|x|" % err), ct), flush=True)
