"""Writes the benchmark suite (bench/suite/cases/NAME/) from workloads.py with real JAX:

  model.jaxpr   exactly print(jax.make_jaxpr(jax.jit(f))(*inputs)) plus a newline
  meta.json     description, seed, inputs (shape, dtype, value range), outputs, tolerances,
                flop and byte counts, JAX version
  expected.npz  per output (np.savez layout, arr_k): the whole output when it has at most
                WHOLE_LIMIT elements, else its values at counter_rng.sample_positions(n, SAMPLES)

Inputs are not stored: counter_rng regenerates them from the seed (input k uses seed + k), here,
in run.py and in the Java CI test. Run with JAX 0.10.2: /work/main/.venv/bin/python generate.py
[--only NAME ...]."""
import argparse
import json
import pathlib
import zipfile

import jax
import numpy as np

import counter_rng
from workloads import SCALAR, WORKLOADS

HERE = pathlib.Path(__file__).resolve().parent
CASES = HERE / "cases"
WHOLE_LIMIT = 65536
SAMPLES = 4096
SUM_RTOL = 1e-5


def savez(path, arrays):
    """np.savez's layout with fixed timestamps, so regenerating changes no bytes."""
    with zipfile.ZipFile(path, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for i, a in enumerate(arrays):
            zi = zipfile.ZipInfo(f"arr_{i}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            with zf.open(zi, "w", force_zip64=True) as fid:
                np.lib.format.write_array(fid, np.array(a, order="C"), allow_pickle=False)  # keeps 0-d arrays 0-d


def inputs_of(w):
    return [counter_rng.array(w.seed + k, i.shape, i.dtype, i.lo, i.hi) for k, i in enumerate(w.inputs)]


def nbytes(shape, dtype):
    return int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize


def write(w, with_outputs=True):
    out_dir = CASES / w.name
    out_dir.mkdir(parents=True, exist_ok=True)
    args = inputs_of(w)
    text = str(jax.make_jaxpr(jax.jit(w.fn))(*args))
    (out_dir / "model.jaxpr").write_text(text + "\n", encoding="utf-8")
    meta = {
        "name": w.name,
        "description": w.description,
        "seed": w.seed,
        "jax_version": jax.__version__,
        "inputs": [{"shape": list(i.shape), "dtype": i.dtype, "lo": i.lo, "hi": i.hi} for i in w.inputs],
    }
    if with_outputs:
        outs = jax.jit(w.fn)(*args)
        outs = [np.asarray(o) for o in (outs if isinstance(outs, (tuple, list)) else [outs])]
        stored, described = [], []
        for o in outs:
            flat = o.reshape(-1)
            whole = flat.size <= WHOLE_LIMIT
            stored.append(o if whole else flat[counter_rng.sample_positions(flat.size, SAMPLES)])
            described.append({"shape": list(o.shape), "dtype": str(o.dtype), "stored": "whole" if whole else "sample",
                              "sum": float(np.sum(o, dtype=np.float64)),
                              "abs_sum": float(np.sum(np.abs(o), dtype=np.float64))})
        savez(out_dir / "expected.npz", stored)
        in_bytes = sum(nbytes(i.shape, i.dtype) for i in w.inputs)
        out_bytes = sum(o.nbytes for o in outs)
        meta.update({
            "outputs": described,
            "samples": SAMPLES,
            "rtol": w.rtol,
            "atol": w.atol,
            "sum_rtol": SUM_RTOL,
            "bound": w.bound,
            "flops": w.flops,
            "bytes": w.bytes_override or in_bytes + out_bytes,
            "notes": w.notes,
        })
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"{w.name}: {len(text.splitlines())} jaxpr lines", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", help="regenerate only these workloads")
    a = ap.parse_args()
    if jax.__version__ != "0.10.2":
        print(f"warning: the suite was made with JAX 0.10.2, this is {jax.__version__}")
    for w in WORKLOADS:
        if not a.only or w.name in a.only:
            write(w)
    if not a.only or SCALAR.name in a.only:
        write(SCALAR, with_outputs=False)


if __name__ == "__main__":
    main()
