"""Times the benchmark suite: XLA:CPU (jax.jit) against jaxc's shared libraries through the C ABI,
alternating in this one process, after checking that jaxc's outputs match XLA's.

For each workload in cases/ (or those --filter selects): compile with `./jaxc compile --emit shared`
for the host, load the .so with ctypes, regenerate the inputs from the seed (counter_rng), then per
round time one XLA call (fresh outputs, block_until_ready), one jaxc call with fresh np.empty
outputs and one with reused outputs; report medians. Also measures the machine's limits (STREAM
copy/triad, FMA peak, each on 1 thread and all) and a scalar model's call time from C.

Usage: bench/suite/run.sh [--runs N] [--filter SUBSTRING ...] [--no-limits]"""
import argparse
import ctypes
import datetime
import json
import math
import os
import pathlib
import platform
import re
import subprocess
import sys
import time

# numpy's OpenBLAS pool is used by neither contender, but its threads spin after any BLAS call
# and took 3-6% of the samples of a profiled run on two cores: one thread, set before the import.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import jax
import numpy as np

import counter_rng
import workloads

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CASES = HERE / "cases"
BUILD = HERE / "build"
LIMITS = HERE / "limits"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def cpu_description():
    """Model name, family/model numbers, CPU count and the vector features that matter here."""
    try:
        info = open("/proc/cpuinfo").read()
    except OSError:
        info = ""
    model = re.search(r"^model name\s*:\s*(.+)$", info, re.M)
    fam = re.search(r"^cpu family\s*:\s*(\d+)", info, re.M)
    num = re.search(r"^model\s*:\s*(\d+)", info, re.M)
    flags = re.search(r"^(?:flags|Features)\s*:\s*(.+)$", info, re.M)
    flags = set(flags.group(1).split()) if flags else set()
    name = model.group(1).strip() if model else platform.machine()
    if fam and num:
        name += f" (family {fam.group(1)} model {num.group(1)})"
    wanted = ["sse2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512_vnni",
              "avx512_bf16", "asimd", "sve"]
    return f"{name}, {os.cpu_count()} CPUs; " + " ".join(w for w in wanted if w in flags)


def build_tools():
    BUILD.mkdir(exist_ok=True)
    for src, extra in (("stream", ["-lpthread"]), ("fma_peak", ["-ffp-contract=fast", "-lpthread"]),
                       ("call_time", ["-ldl"])):
        sh(["cc", "-O3", "-march=native", "-o", str(BUILD / src), str(LIMITS / f"{src}.c")] + extra)


def compile_model(name):
    lib = BUILD / f"lib{name}.so"
    sh([str(ROOT / "jaxc"), "compile", str(CASES / name / "model.jaxpr"), "--emit", "shared",
        "--name", name, "-o", str(lib)])
    return lib


def limits(before=None):
    """The machine's limits; with the ones measured before, the better of each (other work on a
    shared machine can only make a measurement lower)."""
    copy1, triad1, copy_all, triad_all = map(float, sh([str(BUILD / "stream")]).split())
    fma1, fma_all, width = sh([str(BUILD / "fma_peak")]).split()
    if before:
        copy1, copy_all = max(copy1, before["copy"][0]), max(copy_all, before["copy"][1])
        triad1, triad_all = max(triad1, before["triad"][0]), max(triad_all, before["triad"][1])
        fma1, fma_all = max(float(fma1), before["fma_1"]), max(float(fma_all), before["fma_all"])
    return {"bw_1": max(copy1, triad1), "bw_all": max(copy_all, triad_all),
            "copy": (copy1, copy_all), "triad": (triad1, triad_all),
            "fma_1": float(fma1), "fma_all": float(fma_all), "width": int(width)}


def print_limits(lim, when):
    print(f"limits ({when}): bandwidth copy {lim['copy'][0]:.1f} / {lim['copy'][1]:.1f} GB/s, triad "
          f"{lim['triad'][0]:.1f} / {lim['triad'][1]:.1f} GB/s (1 thread / all); FMA peak f32 at {lim['width']} bits "
          f"{lim['fma_1']:.1f} / {lim['fma_all']:.1f} GFLOP/s (1 core / all)", flush=True)


class Jaxc:
    """A workload's entry point NAME(inputs, outputs) through ctypes."""

    def __init__(self, lib, name, inputs, out_specs):
        self.lib = ctypes.CDLL(str(lib))
        self.fn = self.lib[name]
        self.fn.restype = ctypes.c_int32
        self.fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.inputs = inputs
        self.in_ptrs = (ctypes.c_void_p * len(inputs))(*[a.ctypes.data for a in inputs])
        self.out_specs = out_specs
        self.reused = self.fresh_outputs()
        self.reused_ptrs = (ctypes.c_void_p * len(self.reused))(*[a.ctypes.data for a in self.reused])

    def fresh_outputs(self):
        return [np.empty(shape, dtype) for shape, dtype in self.out_specs]

    def call_fresh(self):
        outs = self.fresh_outputs()
        ptrs = (ctypes.c_void_p * len(outs))(*[a.ctypes.data for a in outs])
        rc = self.fn(self.in_ptrs, ptrs)
        if rc != 0:
            raise RuntimeError(f"the entry point returned {rc}")
        return outs

    def call_reused(self):
        self.fn(self.in_ptrs, self.reused_ptrs)


def mismatch(got, want, rtol, atol):
    """None when jaxc's outputs match XLA's, else the first difference in words."""
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"output {k}: {g.dtype}{list(g.shape)} vs XLA's {w.dtype}{list(w.shape)}"
        if g.dtype.kind in "fc":
            bad = ~(np.abs(g.astype(np.float64) - w) <= atol + rtol * np.abs(w.astype(np.float64)))
            bad &= ~(np.isnan(g) & np.isnan(w))
        else:
            bad = g != w
        if bad.any():
            i = int(np.flatnonzero(bad.reshape(-1))[0])
            return (f"output {k}: {int(bad.sum())} of {g.size} differ, first at {i}: "
                    f"{g.reshape(-1)[i]!r} vs XLA {w.reshape(-1)[i]!r}")
    return None


def time_workload(w, meta, lib, runs):
    args = [counter_rng.array(w.seed + k, i.shape, i.dtype, i.lo, i.hi) for k, i in enumerate(w.inputs)]
    dev = [jax.device_put(a) for a in args]
    xla = jax.jit(w.fn)
    ref = xla(*dev)
    ref = [np.asarray(o) for o in (ref if isinstance(ref, (tuple, list)) else [ref])]
    j = Jaxc(lib, w.name, args, [(o.shape, o.dtype) for o in ref])
    problem = mismatch(j.call_fresh(), ref, meta["rtol"], meta["atol"])
    j.call_reused()
    t_xla, t_fresh, t_reused = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        jax.block_until_ready(xla(*dev))
        t1 = time.perf_counter()
        j.call_fresh()
        t2 = time.perf_counter()
        j.call_reused()
        t3 = time.perf_counter()
        t_xla.append(t1 - t0)
        t_fresh.append(t2 - t1)
        t_reused.append(t3 - t2)
    return float(np.median(t_xla)), float(np.median(t_fresh)), float(np.median(t_reused)), problem


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10, help="timed rounds per workload (default 10)")
    ap.add_argument("--filter", nargs="*", default=[], help="only workloads whose name contains one of these")
    ap.add_argument("--no-limits", action="store_true", help="skip the bandwidth and FMA measurements")
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    chosen = [w for w in workloads.WORKLOADS if not a.filter or any(f in w.name for f in a.filter)]
    if not chosen:
        ap.error("no workload matches " + " ".join(a.filter))

    print(f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"cpu: {cpu_description()}")
    print(f"jax {jax.__version__}, jaxlib {jax.lib.__version__ if hasattr(jax.lib, '__version__') else '?'}, "
          f"numpy {np.__version__}, python {platform.python_version()}; JAXC_NUM_THREADS="
          f"{os.environ.get('JAXC_NUM_THREADS', '(unset)')}; runs {a.runs}", flush=True)
    build_tools()
    lim = None
    if not a.no_limits:
        lim = limits()
        print_limits(lim, "before")

    rows, failures = [], []
    for w in chosen:
        meta = json.loads((CASES / w.name / "meta.json").read_text())
        try:
            lib = compile_model(w.name)
        except subprocess.CalledProcessError as e:
            first = (e.stderr.strip().splitlines() or ["?"])[0]
            rows.append((w.name, None, f"compile failed: {first}"))
            failures.append(w.name)
            continue
        t_xla, t_fresh, t_reused, problem = time_workload(w, meta, lib, a.runs)
        if problem:
            failures.append(w.name)
        rows.append((w.name, (meta, t_xla, t_fresh, t_reused), problem or "ok"))
        print(f"  {w.name}: XLA {t_xla * 1e3:.3f} ms, jaxc {t_fresh * 1e3:.3f} ms, {problem or 'ok'}",
              file=sys.stderr, flush=True)
    if lim:
        lim = limits(lim)
        print_limits(lim, "best of before and after")

    head = (f"{'workload':<18} {'XLA ms':>9} {'jaxc ms':>9} {'reused':>9} {'jaxc/XLA':>8} "
            f"{'jaxc rate':>15} {'jaxc %lim':>9} {'XLA %lim':>8}  check")
    print(head)
    print("-" * len(head))
    ratios = []
    for name, times, check in rows:
        if times is None:
            print(f"{name:<18} {check}")
            continue
        meta, t_xla, t_fresh, t_reused = times
        ratio = t_fresh / t_xla
        ratios.append(ratio)
        if meta["bound"] == "compute":
            work, unit, limit = meta["flops"], "GFLOP/s", lim and lim["fma_all"]
        else:
            work, unit, limit = meta["bytes"], "GB/s", lim and lim["bw_all"]
        rate, xla_rate = work / t_fresh / 1e9, work / t_xla / 1e9
        pct = f"{100 * rate / limit:8.1f}%" if limit else f"{'-':>9}"
        xpct = f"{100 * xla_rate / limit:7.1f}%" if limit else f"{'-':>8}"
        print(f"{name:<18} {t_xla * 1e3:9.3f} {t_fresh * 1e3:9.3f} {t_reused * 1e3:9.3f} {ratio:8.2f} "
              f"{rate:7.2f} {unit:<7} {pct} {xpct}  {check}")
    if ratios:
        print(f"geometric mean of jaxc/XLA (fresh outputs) over {len(ratios)} workloads: "
              f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")
    lib = compile_model("scalar_add")
    ns = float(sh([str(BUILD / "call_time"), str(lib), "scalar_add"]))
    print(f"scalar model (f32[] + f32[]) call from C: {ns / 1e3:.4f} us ({ns:.1f} ns)")
    if failures:
        print("FAILED: " + " ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
