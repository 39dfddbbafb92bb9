"""The Python side of the compile-time comparison for a suite workload (bench/suite/cases): a
process that imports JAX and lowers and compiles the workload's function for its input shapes, as
a user of jax.jit would (no input data is made: lowering needs only shapes and dtypes).

    python bench/compile/xla_compile_suite.py softmax

Compare the whole process (/usr/bin/time) with
`jaxc compile bench/suite/cases/softmax/model.jaxpr --emit shared`.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "suite"))

import jax  # noqa: E402
import numpy as np  # noqa: E402

import workloads  # noqa: E402


def main():
    by_name = {w.name: w for w in workloads.WORKLOADS + [workloads.SCALAR]}
    w = by_name[sys.argv[1]]
    args = [jax.ShapeDtypeStruct(i.shape, np.dtype(i.dtype)) for i in w.inputs]
    t = time.perf_counter()
    jax.jit(w.fn).lower(*args).compile()
    print(f"{w.name}: lower+compile {time.perf_counter() - t:.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
