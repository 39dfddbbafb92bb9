#!/usr/bin/env python3
"""Times the benchmark suite's workloads on an NVIDIA GPU: jaxc's PTX host library (NAME with
device pointers, which synchronises) against jax.jit on XLA:GPU, medians of alternating calls,
outputs compared. Runs on a GPU machine with JAX, CuPy and numpy (no Java):

    python3 time_suite.py LIBDIR [--runs N] [--timeout S] [--only NAME ...]

LIBDIR/NAME/libNAME.so comes from
    jaxc compile bench/suite/cases/NAME/model.jaxpr -target ptx --emit shared --name NAME
Each workload runs in its own process with a time limit: kernels that still run as one GPU
thread (docs/backend-design.md, PTX backend) can take seconds.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker(libdir, name, runs):
    import numpy as np
    import cupy as cp
    import jax
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "suite"))  # workloads.py, counter_rng.py
    import counter_rng
    import workloads
    w = {x.name: x for x in workloads.WORKLOADS}[name]
    host = [counter_rng.array(w.seed + k, i.shape, i.dtype, i.lo, i.hi) for k, i in enumerate(w.inputs)]
    f = jax.jit(w.fn)
    xs = [jax.device_put(a) for a in host]
    ref = f(*xs)
    ref = ref if isinstance(ref, (tuple, list)) else (ref,)
    jax.block_until_ready(ref)
    lib = ctypes.CDLL(os.path.join(libdir, name, "lib%s.so" % name))
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    din = [cp.asarray(a) for a in host]
    dout = [cp.empty(r.shape, dtype=np.dtype(r.dtype)) for r in ref]
    ins = (ctypes.c_void_p * len(din))(*[a.data.ptr for a in din])
    outs = (ctypes.c_void_p * len(dout))(*[o.data.ptr for o in dout])
    t0 = time.perf_counter()
    rc = fn(ins, outs)
    first = time.perf_counter() - t0
    if rc != 0:
        print("RESULT %s rc=%d" % (name, rc), flush=True)
        return
    ok = all(np.allclose(cp.asnumpy(o), np.asarray(r), rtol=max(w.rtol, 1e-4), atol=max(w.atol, 1e-4))
             for o, r in zip(dout, ref))
    tj, tx = [], []
    budget = time.perf_counter() + 20
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(ins, outs)
        tj.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        jax.block_until_ready(f(*xs))
        tx.append(time.perf_counter() - t0)
        if time.perf_counter() > budget:
            break
    tj.sort()
    tx.sort()
    mj, mx = tj[len(tj) // 2] * 1e3, tx[len(tx) // 2] * 1e3
    print("RESULT %-18s xla %10.3f ms  jaxc %10.3f ms  jaxc/xla %8.2f  runs %d  first %.0f ms  %s"
          % (name, mx, mj, mj / mx, len(tj), first * 1e3, "ok" if ok else "MISMATCH"), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("libdir")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--worker")
    a = ap.parse_args()
    if a.worker:
        worker(a.libdir, a.worker, a.runs)
        return 0
    names = a.only or sorted(d for d in os.listdir(a.libdir) if os.path.isdir(os.path.join(a.libdir, d)))
    for n in names:
        try:
            p = subprocess.run([sys.executable, __file__, a.libdir, "--worker", n, "--runs", str(a.runs)],
                               capture_output=True, text=True, timeout=a.timeout)
            lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT")]
            print(lines[0][7:] if lines else "%-18s failed: %s" % (n, (p.stderr.strip().splitlines() or ["?"])[-1]),
                  flush=True)
        except subprocess.TimeoutExpired:
            print("%-18s no result within %d s (kernels run as one GPU thread)" % (n, a.timeout), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
