#!/usr/bin/env python3
"""Host-driven control flow against one-thread device loops on a GPU (docs/backend-design.md,
PTX backend, "Control flow driven from the host"): 100 iterations of x = 0.9 x + 0.5 over
f32[N], as a lax.while_loop and as a lax.scan, for N = 256 … 131072.

    python3 host_control.py write DIR     the models, DIR/{while,scan}_N.jaxpr (here, with jaxc)
    for f in DIR/*.jaxpr; do for m in always never; do
      JAXC_PTX_HOST_CONTROL=$m ./jaxc compile $f -target ptx --emit shared --name m \\
          -o DIR/$(basename $f .jaxpr)_$m.so; done; done
    python3 host_control.py time DIR      on the GPU machine (NumPy, CuPy; no Java)

`time` calls m(inputs, outputs) on device pointers (synchronising), medians of 21 calls, and
checks both forms give the same outputs.
"""
import ctypes
import os
import sys
import time

SIZES = (256, 2048, 16384, 131072)

WHILE = """{ lambda ; a:i32[] b:f32[N]. let
    _:i32[] _:i32[] c:f32[N] = while[
      body_jaxpr={ lambda ; d:i32[] e:i32[] f:f32[N]. let
          g:i32[] = add d 1:i32[]
          h:f32[N] = mul f 0.8999999761581421:f32[]
          j:f32[N] = add h 0.5:f32[]
        in (g, e, j) }
      body_nconsts=0
      cond_jaxpr={ lambda ; k:i32[] l:i32[] m:f32[N]. let
          n:bool[] = lt k l
        in (n,) }
      cond_nconsts=0
    ] 0:i32[] a b
  in (c,) }
"""

SCAN = """{ lambda ; a:f32[N]. let
    b:f32[N] = scan[
      jaxpr={ lambda ; d:f32[N]. let
          e:f32[N] = mul d 0.8999999761581421:f32[]
          f:f32[N] = add e 0.5:f32[]
        in (f,) }
      length=100
      num_carry=1
      num_consts=0
      reverse=False
      unroll=1
    ] a
  in (b,) }
"""


def write(d):
    os.makedirs(d, exist_ok=True)
    for n in SIZES:
        for kind, text in (("while", WHILE), ("scan", SCAN)):
            with open(os.path.join(d, "%s_%d.jaxpr" % (kind, n)), "w") as f:
                f.write(text.replace("[N]", "[%d]" % n))


def timed(d, lib, host_inputs, n):
    import numpy as np
    import cupy as cp
    f = getattr(ctypes.CDLL(os.path.join(d, lib)), "m")
    f.restype = ctypes.c_int32
    f.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    din = [cp.asarray(a) for a in host_inputs]
    out = cp.empty((n,), dtype=np.float32)
    ins = (ctypes.c_void_p * len(din))(*[a.data.ptr for a in din])
    outs = (ctypes.c_void_p * 1)(out.data.ptr)
    if f(ins, outs) != 0:
        raise SystemExit("%s failed" % lib)
    ts = []
    for _ in range(21):
        t0 = time.perf_counter()
        f(ins, outs)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[10] * 1e3, cp.asnumpy(out)


def measure(d):
    import numpy as np
    for kind in ("while", "scan"):
        for n in SIZES:
            x = np.linspace(0, 1, n, dtype=np.float32)
            ins = [np.array(100, np.int32), x] if kind == "while" else [x]
            r = {m: timed(d, "%s_%d_%s.so" % (kind, n, m), ins, n) for m in ("always", "never")}
            same = np.allclose(r["always"][1], r["never"][1], rtol=1e-6)
            print("%-5s N=%-7d host-driven %8.3f ms   one-thread %8.3f ms   %s"
                  % (kind, n, r["always"][0], r["never"][0], "same" if same else "DIFFER"), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "time"):
        raise SystemExit(__doc__)
    (write if sys.argv[1] == "write" else measure)(sys.argv[2])
