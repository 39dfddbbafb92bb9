"""Facts for RngUniformKeysTest: the Philox key XLA:CPU gives each rng_uniform of a program, read
from XLA's own log (TF_CPP_VMODULE=rng_expander=2 prints "Expand rng instruction %x = f32[3]..."
and then "Rng key %constant = u64[] constant(K)" for each rng it expands, in its order).

XLA numbers rng instructions across everything a process compiles, so each program is compiled
in a fresh process, as the first rng program there: the program a jaxc artifact reproduces.
Every rng_uniform of a program has its own shape, which names it in the facts. Regenerate with
/work/main/.venv/bin/python gen_rng_keys.py > rng_keys.txt (from this directory).

Format: "case NAME", the jaxpr as JAX prints it, then "rng SHAPE KEY" per expanded rng in XLA's
order (SHAPE as dims joined by ",", "-" for a scalar), then "end".
"""
import os
import re
import subprocess
import sys

import numpy as np
import jax
from jax import lax

jax.config.update("jax_platforms", "cpu")


def outputs_in_order(a, b):
    return tuple(lax.rng_uniform(a, b, (n,)) for n in (1, 2, 3, 4, 5))


def outputs_reversed(a, b):
    x = lax.rng_uniform(a, b, (1,))
    y = lax.rng_uniform(a, b, (2,))
    z = lax.rng_uniform(a, b, (3,))
    return z, x, y


def through_an_add(a, b):
    x = lax.rng_uniform(a, b, (1,))
    y = lax.rng_uniform(a, b, (2,))
    z = lax.rng_uniform(a, b, (2, 2))
    return z + y, x


def select_reverses(a, b):
    x = lax.rng_uniform(a, b, (1,))
    y = lax.rng_uniform(a, b, (2,))
    return (lax.select(a < b, y[:1], x),)


def bounds_first(a, b):
    x = lax.rng_uniform(a, b, (1,))
    y = lax.rng_uniform(a, b, (2,))
    return lax.rng_uniform(y[0], x[0], (3,)), x


def dead_rng(a, b):
    x = lax.rng_uniform(a, b, (1,))
    lax.rng_uniform(a, b, (2,))
    z = lax.rng_uniform(a, b, (3,))
    return z, x


def nested_jit(a, b):
    x = lax.rng_uniform(a, b, (1,))
    return x, jax.jit(lambda p, q: lax.rng_uniform(p, q, (2,)))(a, b)


def only_in_scan(a, b):
    def body(c, _):
        return c + lax.rng_uniform(a, b, (3,)), None
    return (lax.scan(body, np.zeros(3, np.float32), None, length=2)[0],)


PROGRAMS = {f.__name__: f for f in (outputs_in_order, outputs_reversed, through_an_add, select_reverses,
                                    bounds_first, dead_rng, nested_jit, only_in_scan)}
ARGS = (np.float32(0), np.float32(1))


def one(name):
    f = PROGRAMS[name]
    print(jax.make_jaxpr(f)(*ARGS))
    jax.jit(f)(*ARGS)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        one(sys.argv[2])
        sys.exit()
    env = dict(os.environ, TF_CPP_VMODULE="rng_expander=2", TF_CPP_MIN_LOG_LEVEL="0")
    for name in PROGRAMS:
        r = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True,
                           check=True, env=env)
        shapes = re.findall(r"Expand rng instruction %\S+ = f32\[([0-9,]*)\]", r.stderr)
        keys = re.findall(r"Rng key %\S+ = u64\[\] constant\((\d+)\)", r.stderr)
        assert len(shapes) == len(keys), (name, r.stderr)
        print(f"case {name}")
        sys.stdout.write(r.stdout)
        for s, k in zip(shapes, keys):
            print(f"rng {s or '-'} {k}")
        print("end")
