"""The Python side of the compile-time comparison: a process that imports JAX and lowers and
compiles one golden case's function, as a user of jax.jit would.

    python bench/compile/xla_compile.py model_transformer_block_flax

Compare the whole process (farm-bench, or /usr/bin/time) with
`jaxc compile testdata/cases/CASE/model.jaxpr --emit shared`. The case is built by
testdata/generate.py (its registry of golden cases), so flax is imported for flax models, as the
user's program would.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata"))

import jax  # noqa: E402
import numpy as np  # noqa: E402
import zlib  # noqa: E402

import generate  # noqa: E402


def main():
    c = generate.REGISTRY[sys.argv[1]]
    rng = np.random.default_rng(zlib.crc32(c.name.encode()))
    fn, args = c.build(rng)
    t = time.perf_counter()
    jax.jit(fn).lower(*args).compile()
    print(f"{c.name}: lower+compile {time.perf_counter() - t:.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
