#!/usr/bin/env python3
"""XLA:GPU's own outputs for the golden cases where XLA:GPU and XLA:CPU knowingly differ.

testdata/cases/*/expected.npz come from XLA:CPU, which flushes denormals; XLA:GPU keeps them, and
so does jaxc's PTX path (docs/backend-design.md, "PTX backend"). For the cases listed in
known-differences-ptx.txt this script evaluates the same closed jaxpr on the stored inputs with
JAX on a CUDA GPU and writes what it gives to testdata/gpu-expected/NAME/expected.npz (with a
meta.json naming the GPU and the JAX version). PtxCorpusTest then checks the emulated launch
against those outputs: the known differences are proved to be XLA:GPU's behaviour, not merely
listed.

Run it on a machine with an NVIDIA GPU and JAX's CUDA build (the device tool's machine):
    JAX_PLATFORMS=cuda python3 testdata/generate_gpu_expected.py [OUT_DIR]
OUT_DIR defaults to testdata/gpu-expected. Cases whose jaxpr text on this JAX version differs from
the stored model.jaxpr are still evaluated (the stored inputs and the traced function are the
same); the difference is recorded in meta.json.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cuda")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402
from generate import jax  # noqa: E402

# generate.py pins JAX to the CPU; this script wants the platform the environment names.
jax.config.update("jax_platforms", os.environ["JAX_PLATFORMS"])


def known_difference_names():
    names = []
    for line in (HERE / "known-differences-ptx.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.append(line.split()[0])
    return names


def main(argv):
    out_root = Path(argv[1]) if len(argv) > 1 else HERE / "gpu-expected"
    device = jax.devices()[0]
    if device.platform != "gpu":
        print(f"no GPU: JAX runs on {device.platform}", file=sys.stderr)
        return 2
    failures = 0
    for name in known_difference_names():
        c = g.REGISTRY[name]
        case_dir = HERE / "cases" / name
        try:
            with jax.enable_x64(True) if c.x64 else g.contextlib.nullcontext():
                closed, consts, leaves = g._trace(c)
                traced = consts + leaves
                # bf16 is stored as raw 2-byte records: view it as the traced dtype.
                stored = [s if s.dtype == t.dtype else s.view(t.dtype)
                          for s, t in zip(g.load_npz(case_dir / "inputs.npz"), traced)]
                if [s.tobytes() for s in stored] != [t.tobytes() for t in traced]:
                    raise g.CaseError("stored inputs differ from the traced ones")
                nc = len(consts)
                outs = g._evaluate(closed, stored[:nc], stored[nc:])
        except Exception as e:  # report and go on with the others
            failures += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        d = out_root / name
        d.mkdir(parents=True, exist_ok=True)
        g.savez(d / "expected.npz", outs)
        same_text = str(closed) + "\n" == (case_dir / "model.jaxpr").read_text()
        meta = {"device": device.device_kind, "jax": jax.__version__, "jaxpr_text_matches": same_text}
        (d / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        print(f"ok {name}{'' if same_text else ' (jaxpr text differs on this JAX version)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
