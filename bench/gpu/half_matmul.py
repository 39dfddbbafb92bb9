#!/usr/bin/env python3
"""f16 and bf16 matmuls for the tensor-core check (bench/gpu/tensor_cores.sh).

    python3 half_matmul.py jaxpr DIR     writes DIR/NAME/model.jaxpr for each matmul below (needs JAX;
                                         run with the repository's .venv)
    python3 half_matmul.py time LIBDIR   on the GPU machine: LIBDIR/NAME/libNAME.so (jaxc compile
                                         DIR/NAME/model.jaxpr -target ptx --emit shared --name NAME)
                                         against jax.jit on XLA:GPU: medians of alternating calls
                                         with device pointers, and the largest difference from XLA
                                         relative to the largest output (both sum in f32 on tensor cores)

Inputs are uniform in [-1, 1), drawn by NumPy with a fixed seed, so both sides get the same arrays.
"""
import os
import sys
import time

# name: (dtype, M, K, N)
MATMULS = {
    "matmul_f16_2048": ("float16", 2048, 2048, 2048),
    "matmul_bf16_2048": ("bfloat16", 2048, 2048, 2048),
    "matmul_bf16_4096x1024": ("bfloat16", 4096, 1024, 4096),
    "matmul_f16_4096x1024": ("float16", 4096, 1024, 4096),
}


def write_jaxprs(out):
    import jax
    import jax.numpy as jnp
    for name, (dt, m, k, n) in MATMULS.items():
        a = jax.ShapeDtypeStruct((m, k), jnp.dtype(dt))
        b = jax.ShapeDtypeStruct((k, n), jnp.dtype(dt))
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.jaxpr"), "w") as f:
            f.write(str(jax.make_jaxpr(lambda x, y: x @ y)(a, b)) + "\n")
        print("wrote", d)


def time_all(libdir, runs=15):
    import ctypes
    import numpy as np
    import cupy as cp
    import jax
    import jax.numpy as jnp
    for name, (dt, m, k, n) in MATMULS.items():
        path = os.path.join(libdir, name, "lib%s.so" % name)
        if not os.path.exists(path):
            print("%-22s no library" % name, flush=True)
            continue
        rng = np.random.default_rng(0)
        host = [rng.uniform(-1, 1, s).astype(np.float32) for s in ((m, k), (k, n))]
        xs = [jnp.asarray(h, dtype=jnp.dtype(dt)) for h in host]
        f = jax.jit(lambda x, y: x @ y)
        ref = f(*xs).block_until_ready()
        # Same bits on both sides: the device arrays' raw 16-bit patterns.
        din = [cp.asarray(np.asarray(x).view(np.uint16)) for x in xs]
        dout = cp.empty((m, n), dtype=np.uint16)
        lib = ctypes.CDLL(path)
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int32
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        ins = (ctypes.c_void_p * 2)(*[a.data.ptr for a in din])
        outs = (ctypes.c_void_p * 1)(dout.data.ptr)
        rc = fn(ins, outs)
        if rc != 0:
            print("%-22s rc=%d" % (name, rc), flush=True)
            continue
        got = cp.asnumpy(dout).view(np.asarray(ref).dtype).astype(np.float64)
        want = np.asarray(ref).astype(np.float64)
        err = float(np.max(np.abs(got - want)) / (np.max(np.abs(want)) + 1e-30))
        tj, tx = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn(ins, outs)
            tj.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            f(*xs).block_until_ready()
            tx.append(time.perf_counter() - t0)
        tj.sort()
        tx.sort()
        mj, mx = tj[len(tj) // 2], tx[len(tx) // 2]
        tflops = 2.0 * m * n * k / mj / 1e12
        print("%-22s xla %8.3f ms  jaxc %8.3f ms  jaxc/xla %6.2f  jaxc %6.1f TFLOP/s  max rel diff %.1e"
              % (name, mx * 1e3, mj * 1e3, mj / mx, tflops, err), flush=True)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("jaxpr", "time"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "jaxpr":
        write_jaxprs(sys.argv[2])
    else:
        time_all(sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
