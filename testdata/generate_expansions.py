"""Writes the jaxprs JAX's own lowerings trace for the special functions it lowers with
`mlir.lower_fun` (jax/_src/lax/special.py): igamma, igammac, igamma_grad_a, random_gamma_grad,
regularized_incomplete_beta and bessel_i0e. XLA compiles exactly these equations, so jaxc expands
each such primitive into them (frontend LowerFunExpansion) instead of writing its own algorithm.

Each function is traced for f32 and f64 operands of shape [N] with N = 9973, a prime no
coefficient or parameter of these functions contains; jaxc substitutes the flattened operand size
for N. This script proves that substitution sound: tracing at N' = 9967 must give the same text
with N' for N.

Run with JAX 0.10.2: .venv/bin/python testdata/generate_expansions.py
"""
import pathlib
from functools import partial

import jax
import numpy as np
from jax._src.lax import special as sp

jax.config.update("jax_enable_x64", True)

OUT = pathlib.Path(__file__).resolve().parent.parent / "frontend/src/main/resources/dev/jaxc/frontend/expansions"
N, CHECK = 9973, 9967

# primitive name -> (function JAX's lowering traces for dtype dt, operand count)
FUNCTIONS = {
    "igamma": (lambda dt: partial(sp.igamma_impl, dtype=dt), 2),
    "igammac": (lambda dt: partial(sp.igammac_impl, dtype=dt), 2),
    "igamma_grad_a": (lambda dt: partial(sp.igamma_grad_a_impl, dtype=dt), 2),
    "random_gamma_grad": (lambda dt: partial(sp.random_gamma_grad_impl, dtype=dt), 2),
    "regularized_incomplete_beta": (lambda dt: partial(sp.regularized_incomplete_beta_impl, dtype=dt), 3),
    "bessel_i0e": (lambda dt: sp.bessel_i0e_impl, 1),
}


def trace(fn, n, dt, arity):
    return str(jax.make_jaxpr(fn)(*[np.ones(n, dt) for _ in range(arity)]))


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (make, arity) in FUNCTIONS.items():
        for dt, tag in ((np.float32, "f32"), (np.float64, "f64")):
            text = trace(make(dt), N, dt, arity)
            other = trace(make(dt), CHECK, dt, arity)
            if str(CHECK) in text or str(N) in other or other.replace(str(CHECK), str(N)) != text:
                raise SystemExit(f"{name} {tag}: the operand size is not a free parameter of the trace")
            path = OUT / f"{name}_{tag}.jaxpr"
            path.write_text(text + "\n")
            print(f"{path.relative_to(OUT.parent.parent.parent.parent.parent.parent.parent)}: {len(text.splitlines())} lines")
    (OUT / "VERSION").write_text(f"jax {jax.__version__}\n")


if __name__ == "__main__":
    main()
