"""How far jaxc's special functions are from jax.jit's (XLA) on random inputs: max ULPs of XLA's result and
the share of bit-identical results, per function and dtype. Run: .venv/bin/python bench/special/versus_xla.py
"""
import numpy as np, jax, jax.numpy as jnp, subprocess, sys, os
from jax import lax
import jax.scipy.special as sp
jax.config.update("jax_enable_x64", True)
N = 20000
r = np.random.default_rng(0)
def ulps(a, b):
    a = a.astype(np.float64); b = b.astype(np.float64)
    ok = np.isfinite(a) & np.isfinite(b) & (b != 0)
    sp_ = np.spacing(np.abs(b[ok]).astype(DT))
    return np.max(np.abs(a[ok] - b[ok]) / sp_.astype(np.float64)) if ok.any() else 0.0, np.mean(a[ok] == b[ok]) if ok.any() else 1.0
FUNS = {
  "igamma": (lambda a, x: sp.gammainc(a, x), lambda: (r.uniform(0.05, 25, N), r.uniform(0, 40, N))),
  "igammac": (lambda a, x: sp.gammaincc(a, x), lambda: (r.uniform(0.05, 25, N), r.uniform(0, 40, N))),
  "igamma_grad_a": (lax.igamma_grad_a, lambda: (r.uniform(0.05, 25, N), r.uniform(0.01, 40, N))),
  "betainc": (sp.betainc, lambda: (r.uniform(0.1, 12, N), r.uniform(0.1, 12, N), r.uniform(0, 1, N))),
  "i0e": (sp.i0e, lambda: (r.uniform(-40, 40, N),)),
  "i1e": (sp.i1e, lambda: (r.uniform(-40, 40, N),)),
  "zeta": (sp.zeta, lambda: (r.uniform(1.01, 12, N), r.uniform(0.05, 30, N))),
  "polygamma": (lambda n, x: lax.polygamma(n, x), lambda: (r.integers(0, 6, N).astype(float), r.uniform(0.05, 20, N))),
}
for DT in (np.float32, np.float64):
  for name, (f, gen) in FUNS.items():
    args = [a.astype(DT) for a in gen()]
    want = np.asarray(jax.jit(f)(*args))
    txt = str(jax.make_jaxpr(f)(*args))
    d = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"jaxc_special_{name}_{DT.__name__}"); os.makedirs(d, exist_ok=True)
    open(d + "/m.jaxpr", "w").write(txt)
    np.savez(d + "/in.npz", *args)
    cmd = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "jaxc"), "run", d + "/m.jaxpr", "--inputs", d + "/in.npz", "--output", d + "/out.npz"] + (["--x64"] if DT == np.float64 else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode: print(name, DT.__name__, "FAILED", p.stderr[:300]); continue
    got = np.load(d + "/out.npz")["arr_0"]
    m, same = ulps(got, want)
    print(f"{name:14s} {DT.__name__}: max {m:.2f} ulp from XLA, {100*same:.1f}% bit-identical")
