#!/usr/bin/env python3
"""Checks whether the suite matmul workloads differ from XLA:GPU only by its TF32 default: jaxc's host library
(device pointers) against jax.jit at default and at highest matmul precision. Run on the GPU machine from a
folder holding suite/NAME/libNAME.so (as time_suite.py's LIBDIR) and this folder's counter_rng.py, workloads.py."""
import ctypes, os, sys, numpy as np, cupy as cp, jax, jax.numpy as jnp
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counter_rng, workloads
for name in ["matmul_1024", "mlp", "transformer_block"]:
    w = {x.name: x for x in workloads.WORKLOADS}[name]
    host = [counter_rng.array(w.seed + k, i.shape, i.dtype, i.lo, i.hi) for k, i in enumerate(w.inputs)]
    xs = [jax.device_put(a) for a in host]
    ref_cpu = None
    out = {}
    for prec in ["default", "highest"]:
        with jax.default_matmul_precision(prec):
            r = jax.jit(w.fn)(*xs)
        r = r[0] if isinstance(r, (tuple, list)) else r
        out[prec] = np.asarray(r, np.float64)
    lib = ctypes.CDLL(os.path.join("suite", name, "lib%s.so" % name)); fn = getattr(lib, name)
    fn.restype = ctypes.c_int32; fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    dins = [cp.asarray(a) for a in host]
    dout = cp.empty(out["default"].shape, dtype=np.float32)
    ins = (ctypes.c_void_p * len(dins))(*[a.data.ptr for a in dins]); outs = (ctypes.c_void_p * 1)(dout.data.ptr)
    assert fn(ins, outs) == 0
    j = cp.asnumpy(dout).astype(np.float64)
    def err(a, b): return float(np.max(np.abs(a - b)) / (np.max(np.abs(b)) + 1e-30))
    print(name, "jaxc vs XLA highest %.2e" % err(j, out["highest"]), " jaxc vs XLA default %.2e" % err(j, out["default"]),
          " XLA default vs highest %.2e" % err(out["default"], out["highest"]), flush=True)
