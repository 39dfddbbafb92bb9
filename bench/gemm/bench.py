"""Times jaxc's GEMM-shaped workloads against jax.jit (XLA:CPU).

Usage: /work/main/.venv/bin/python bench/gemm/bench.py [--runs N] [--only NAME]
Writes each workload's jaxpr, compiles it with `./jaxc compile --emit shared`, calls the entry
point through ctypes with fresh output buffers, alternating with jax.jit; prints medians of wall
time (ms), the ratio jaxc/XLA, GFLOP/s and % of the FMA peak bench/gemm/fma_peak.c measures on all
cores, and the medians of CPU time (all threads of the process) per call: on a machine shared with
other work the CPU-time ratio and jaxc's GFLOP per CPU-second against one core's FMA peak are the
steadier figures (fma_peak.c times one core's FMAs by that thread's CPU time).
"""
import argparse, ctypes, os, subprocess, statistics, time
import numpy as np
import jax, jax.numpy as jnp
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.environ.get("BENCH_OUT", "/tmp/jaxc-gemm-bench")


def mm(a, b):
    return a @ b


def bmm(a, b):
    return jnp.einsum("bij,bjk->bik", a, b)


def conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def depthwise(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                    feature_group_count=x.shape[-1])


def mlp(x, w1, b1, w2, b2, w3, b3):
    h = jax.nn.relu(x @ w1 + b1)
    h = jax.nn.relu(h @ w2 + b2)
    return h @ w3 + b3


def rnn(xs, wx, wh, b):
    def step(h, x):
        h = jnp.tanh(x @ wx + h @ wh + b)
        return h, h
    return lax.scan(step, jnp.zeros((32, 256), jnp.float32), xs)[0]


WORKLOADS = {
    "matmul_256": (mm, [(256, 256), (256, 256)], 2 * 256**3),
    "matmul_1024": (mm, [(1024, 1024), (1024, 1024)], 2 * 1024**3),
    "matmul_2048": (mm, [(2048, 2048), (2048, 2048)], 2 * 2048**3),
    "bmm_32x128x64x128": (bmm, [(32, 128, 64), (32, 64, 128)], 2 * 32 * 128 * 64 * 128),
    "conv_56x56x64_3x3x64": (conv, [(1, 56, 56, 64), (3, 3, 64, 64)], 2 * 56 * 56 * 64 * 9 * 64),
    "depthwise_56x56x64_3x3": (depthwise, [(8, 56, 56, 64), (3, 3, 1, 64)], 2 * 8 * 56 * 56 * 64 * 9),
    "mlp_784_512_512_10_b256": (mlp, [(256, 784), (784, 512), (512,), (512, 512), (512,), (512, 10), (10,)],
                                2 * 256 * (784 * 512 + 512 * 512 + 512 * 10)),
    "rnn_scan_100_h256_b32": (rnn, [(100, 32, 256), (256, 256), (256, 256), (256,)], 100 * 2 * 2 * 32 * 256 * 256),
}


def fma_peak():
    exe = os.path.join(OUT, "fma_peak")
    subprocess.run(["cc", "-O3", "-march=native", "-fopenmp", os.path.join(HERE, "fma_peak.c"), "-o", exe], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[2])


def compile_so(name, fn, shapes):
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    path = os.path.join(OUT, name + ".jaxpr")
    with open(path, "w") as f:
        f.write(str(jax.make_jaxpr(fn)(*args)))
    so = os.path.join(OUT, "lib" + name + ".so")
    subprocess.run([os.environ.get("JAXC", os.path.join(ROOT, "jaxc")), "compile", path, "--emit", "shared", "-o", so,
                    "--name", name], check=True, cwd=ROOT)
    return so


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--only")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    peak, core = fma_peak()
    cpu = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].splitlines()[0].strip()
    print(f"f32 FMA peak (bench/gemm/fma_peak.c) {peak:.1f} GFLOP/s on all cores (wall), {core:.1f} per core (cpu time); cpu {cpu}; "
          f"{os.cpu_count()} cpus")
    rng = np.random.default_rng(0)
    for name, (fn, shapes, flops) in WORKLOADS.items():
        if a.only and a.only not in name:
            continue
        so = compile_so(name, fn, shapes)
        lib = ctypes.CDLL(so)
        xs = [(rng.standard_normal(s, dtype=np.float32) * 0.1).astype(np.float32) for s in shapes]
        jit = jax.jit(fn)
        jx = [jnp.asarray(x) for x in xs]
        ref = np.asarray(jit(*jx))
        entry = getattr(lib, name)
        entry.restype = ctypes.c_int

        def call():
            out = np.empty(ref.shape, ref.dtype)
            ins = (ctypes.c_void_p * len(xs))(*[x.ctypes.data for x in xs])
            outs = (ctypes.c_void_p * 1)(out.ctypes.data)
            rc = entry(ins, outs)
            assert rc == 0, rc
            return out

        got = call()
        err = float(np.max(np.abs(got - ref)) / (np.max(np.abs(ref)) + 1e-30))
        tj, tx, cj, cx = [], [], [], []
        for _ in range(a.runs):
            c0 = time.process_time(); t0 = time.perf_counter(); call()
            tj.append(time.perf_counter() - t0); cj.append(time.process_time() - c0)
            c0 = time.process_time(); t0 = time.perf_counter(); jit(*jx).block_until_ready()
            tx.append(time.perf_counter() - t0); cx.append(time.process_time() - c0)
        mj, mx = statistics.median(tj), statistics.median(tx)
        mcj, mcx = statistics.median(cj), statistics.median(cx)
        gf = flops / mj / 1e9
        print(f"{name:26s} jaxc {mj*1e3:9.3f} ms  xla {mx*1e3:9.3f} ms  jaxc/xla {mj/mx:5.2f}  "
              f"jaxc {gf:6.1f} GFLOP/s ({100*gf/peak:3.0f}% of peak)  xla {flops/mx/1e9:6.1f}  "
              f"cpu ms jaxc {mcj*1e3:8.2f} xla {mcx*1e3:8.2f} ratio {mcj/mcx:5.2f}  "
              f"per cpu-second jaxc {flops/mcj/1e9:6.1f} GFLOP ({100*flops/mcj/1e9/core:3.0f}% of a core's peak)  err {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
