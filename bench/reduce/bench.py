"""Times jaxc's shared libraries against jax.jit (XLA:CPU) on reduction workloads.

Usage: /work/main/.venv/bin/python bench/reduce/bench.py [--runs N] [--only NAME]
Writes each workload's jaxpr, compiles it with `./jaxc compile --emit shared`, calls the entry
point through ctypes with fresh output buffers, alternating with jax.jit; prints medians (ms),
the ratio jaxc/XLA, GB/s (input bytes + output bytes over jaxc's median) and its % of the machine's
read bandwidth measured by bench/reduce/triad.c (OpenMP, all cores). The machine is shared while
helpers build: compare the two columns of one run, not runs.
"""
import argparse, ctypes, os, subprocess, sys, time, statistics
import numpy as np
import jax, jax.numpy as jnp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.environ.get("BENCH_OUT", "/tmp/jaxc-reduce-bench")

def softmax(x):
    return jax.nn.softmax(x, axis=-1)

def layernorm(x):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5)

WORKLOADS = {
    "sum_all_64m": (lambda x: jnp.sum(x), [(1 << 26,)]),
    "sum_rows_8192": (lambda x: jnp.sum(x, axis=1), [(8192, 8192)]),
    "sum_cols_8192": (lambda x: jnp.sum(x, axis=0), [(8192, 8192)]),
    "max_all_64m": (lambda x: jnp.max(x), [(1 << 26,)]),
    "softmax_4096x1024": (softmax, [(4096, 1024)]),
    "layernorm_8192x1024": (layernorm, [(8192, 1024)]),
}

def triad_gbs():
    exe = os.path.join(OUT, "triad")
    subprocess.run(["cc", "-O3", "-march=native", "-fopenmp", "-ffast-math", os.path.join(HERE, "triad.c"), "-o", exe], check=True)
    return float(subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split()[0])

def compile_so(name, fn, shapes, jaxc=None, tag=""):
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    path = os.path.join(OUT, name + ".jaxpr")
    with open(path, "w") as f:
        f.write(str(jax.make_jaxpr(fn)(*args)))
    so = os.path.join(OUT, "lib" + name + tag + ".so")
    subprocess.run([jaxc or os.environ.get("JAXC", os.path.join(ROOT, "jaxc")), "compile", path, "--emit", "shared", "-o", so, "--name", name],
                   check=True, cwd=ROOT)
    return so

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--only")
    ap.add_argument("--before", help="another jaxc launcher (e.g. the main branch's) timed in the same run")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    bw = triad_gbs()
    print(f"read bandwidth (bench/reduce/triad.c) {bw:.1f} GB/s; cpu {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
    rng = np.random.default_rng(0)
    for name, (fn, shapes) in WORKLOADS.items():
        if a.only and a.only not in name:
            continue
        def entry_of(so):
            lib = ctypes.CDLL(so)
            f = getattr(lib, name)
            f.restype = ctypes.c_int
            return f
        entries = {"jaxc": entry_of(compile_so(name, fn, shapes))}
        if a.before:
            entries["before"] = entry_of(compile_so(name, fn, shapes, a.before, "_before"))
        xs = [rng.standard_normal(s, dtype=np.float32) for s in shapes]
        jit = jax.jit(fn)
        jx = [jnp.asarray(x) for x in xs]
        ref = np.asarray(jit(*jx))
        def call(entry):
            out = np.empty(ref.shape, ref.dtype)  # fresh, as JAX gives them
            ins = (ctypes.c_void_p * len(xs))(*[x.ctypes.data for x in xs])
            outs = (ctypes.c_void_p * 1)(out.ctypes.data)
            rc = entry(ins, outs)
            assert rc == 0, rc
            return out
        got = call(entries["jaxc"])
        err = float(np.max(np.abs(got - ref) / (np.abs(ref) + 1e-6)))
        times = {k: [] for k in list(entries) + ["xla"]}
        for _ in range(a.runs):
            for k, e in entries.items():
                t0 = time.perf_counter(); call(e); times[k].append(time.perf_counter() - t0)
            t0 = time.perf_counter(); jit(*jx).block_until_ready(); times["xla"].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        nbytes = sum(x.nbytes for x in xs) + ref.nbytes  # read once, written once
        gbs = nbytes / med["jaxc"] / 1e9
        before = f"  before {med['before']*1e3:8.2f} ms ({med['before']/med['xla']:5.2f}x xla)" if "before" in med else ""
        print(f"{name:22s} jaxc {med['jaxc']*1e3:8.2f} ms  xla {med['xla']*1e3:8.2f} ms  jaxc/xla {med['jaxc']/med['xla']:5.2f}  "
              f"{gbs:6.1f} GB/s ({100*gbs/bw:4.0f}% of read bw)  max rel err {err:.1e}{before}", flush=True)


if __name__ == "__main__":
    main()
