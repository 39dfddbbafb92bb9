#!/usr/bin/env python3
"""Runs -target ptx host libraries on a real GPU against golden outputs.

    python3 check_cases.py CASEDIR [--device-checks K] [--timeout S] [--only NAME ...]

CASEDIR (a directory, or a .tar/.tar.gz/.tar.xz of one) holds one directory per case, as
bench/gpu/build_cases.sh writes it:

    NAME/libNAME.so      the host library (jaxc compile -target ptx --emit shared --name NAME)
    NAME/inputs.npz      the golden case's inputs (arr_0, arr_1, ...: constvars, then invars)
    NAME/expected.npz    its expected outputs
    NAME/meta.json       optional: {"rtol": .., "atol": ..} (NumPy's defaults 1e-5, 1e-8)
    NAME/skip.txt        instead of the library: why the case was not built (unsupported on ptx)
    NAME/error.txt       instead of the library: why the build failed

Each library is called through NAME_host (host pointers); the first K cases that pass are also
run through NAME (device pointers, in a context made current by this script) and NAME_async (on
a stream of its own). Outputs are compared as `jaxc check` does (architecture.md): dtype and
shape from expected.npz, byte sizes from the library; integers and booleans exactly; floats and
each part of a complex within atol + rtol * |expected|, infinities exactly, NaN where NaN is
expected. One line per case, then `N passed, M failed[, K skipped]`; exit status 1 if any failed.

Cases run in a worker process; a case that crashes it or hangs (--timeout) fails and the worker
restarts with the next case. Needs Python 3 with NumPy and an NVIDIA driver; no CUDA toolkit.
"""

import argparse
import ctypes
import json
import os
import queue
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

CODES = {
    0: "OK", 1: "BAD_ARGUMENTS", 2: "OUT_OF_MEMORY", 10: "NO_CUDA_DRIVER", 11: "NO_CUDA_DEVICE",
    12: "PTX_TOO_NEW_FOR_DRIVER", 13: "PTX_TOO_NEW_FOR_GPU",
}


def code_name(rc):
    if rc > 1000:
        return "CUDA_ERROR (CUresult %d)" % (rc - 1000)
    return CODES.get(rc, "unknown code")


# --- comparison (cli/ArrayComparison.java) ----------------------------------------------------

def as_float(a, raw_bf16):
    """Float64 values of a float array; bfloat16 arrives as raw 2-byte 'V2' data."""
    import numpy as np
    if raw_bf16:
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def compare(expected, actual, rtol, atol):
    """None if actual matches expected, else why not."""
    import numpy as np
    if expected.dtype != actual.dtype or expected.shape != actual.shape:
        return "got %s%s, expected %s%s" % (actual.dtype, actual.shape, expected.dtype, expected.shape)
    e = expected.reshape(-1)
    a = actual.reshape(-1)
    raw = e.dtype.kind == "V"
    if raw and e.dtype.itemsize != 2:
        return "unsupported raw dtype %s" % e.dtype
    if e.dtype.kind == "c":
        parts = [(e.real.astype(np.float64), a.real.astype(np.float64)),
                 (e.imag.astype(np.float64), a.imag.astype(np.float64))]
    elif e.dtype.kind == "f" or raw:
        parts = [(as_float(e, raw), as_float(a, raw))]
    else:  # integers and booleans: the same bytes
        if e.size == 0:
            return None
        bad = (e.view(np.uint8).reshape(e.size, -1) != a.view(np.uint8).reshape(a.size, -1)).any(axis=1)
        return describe(bad, e, a)
    bad = np.zeros(e.size, dtype=bool)
    for ev, av in parts:
        with np.errstate(invalid="ignore", over="ignore"):
            nan = np.isnan(ev) | np.isnan(av)
            inf = np.isinf(ev) | np.isinf(av)
            close = np.abs(av - ev) <= atol + rtol * np.abs(ev)
        ok = np.where(nan, np.isnan(ev) & np.isnan(av), np.where(inf, ev == av, close))
        bad |= ~ok
    return describe(bad, e, a)


def describe(bad, e, a):
    n = int(bad.sum())
    if n == 0:
        return None
    i = int(bad.argmax())
    return "%d of %d elements differ; first at flat index %d: got %r, expected %r" % (n, e.size, i, a[i], e[i])


def load_npz(path):
    import numpy as np
    with np.load(path, allow_pickle=False) as z:
        keys = sorted(z.files, key=lambda k: int(k.split("_")[1]) if k.startswith("arr_") else 1 << 30)
        return [np.ascontiguousarray(z[k]) for k in keys]


def meta(case_dir):
    rtol, atol = 1e-5, 1e-8
    p = os.path.join(case_dir, "meta.json")
    if os.path.exists(p):
        with open(p) as f:
            m = json.load(f)
        rtol = float(m.get("rtol", rtol))
        atol = float(m.get("atol", atol))
    return rtol, atol


# --- the CUDA driver, for device pointers -------------------------------------------------------

class Driver:
    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.check(self.cu.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.dev = dev.value
        self.ctx = None
        self.stream = None

    @staticmethod
    def check(r, what):
        if r != 0:
            raise RuntimeError("%s failed: CUresult %d" % (what, r))

    def describe(self):
        name = ctypes.create_string_buffer(256)
        self.check(self.cu.cuDeviceGetName(name, 256, self.dev), "cuDeviceGetName")
        major, minor, version = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        self.cu.cuDeviceGetAttribute(ctypes.byref(major), 75, self.dev)  # COMPUTE_CAPABILITY_MAJOR
        self.cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, self.dev)
        self.cu.cuDriverGetVersion(ctypes.byref(version))
        v = version.value
        return "%s (sm_%d%d), CUDA driver %d.%d" % (name.value.decode(), major.value, minor.value, v // 1000, v % 1000 // 10)

    def make_current(self):
        """Device 0's primary context, current on this thread (as the CUDA runtime leaves it)."""
        if self.ctx is None:
            ctx = ctypes.c_void_p()
            self.check(self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), self.dev), "cuDevicePrimaryCtxRetain")
            self.ctx = ctx
            self.check(self.cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
            s = ctypes.c_void_p()
            self.check(self.cu.cuStreamCreate(ctypes.byref(s), 1), "cuStreamCreate")  # NON_BLOCKING
            self.stream = s

    def alloc(self, nbytes):
        p = ctypes.c_uint64()
        self.check(self.cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(nbytes, 1))), "cuMemAlloc_v2")
        return p.value

    def free(self, p):
        self.cu.cuMemFree_v2(ctypes.c_uint64(p))

    def to_device(self, arr):
        p = self.alloc(arr.nbytes)
        if arr.nbytes:
            self.check(self.cu.cuMemcpyHtoD_v2(ctypes.c_uint64(p), ctypes.c_void_p(arr.ctypes.data),
                                               ctypes.c_size_t(arr.nbytes)), "cuMemcpyHtoD_v2")
        return p

    def to_host(self, p, arr):
        if arr.nbytes:
            self.check(self.cu.cuMemcpyDtoH_v2(ctypes.c_void_p(arr.ctypes.data), ctypes.c_uint64(p),
                                               ctypes.c_size_t(arr.nbytes)), "cuMemcpyDtoH_v2")

    def memset(self, p, nbytes):
        if nbytes:
            self.check(self.cu.cuMemsetD8_v2(ctypes.c_uint64(p), ctypes.c_ubyte(0xAB), ctypes.c_size_t(nbytes)),
                       "cuMemsetD8_v2")
            # done before work on a non-blocking stream, which the legacy stream does not order
            self.check(self.cu.cuStreamSynchronize(None), "cuStreamSynchronize")

    def sync(self):
        self.check(self.cu.cuStreamSynchronize(self.stream), "cuStreamSynchronize")


# --- one case ------------------------------------------------------------------------------------

def pointer_array(values):
    return (ctypes.c_void_p * max(len(values), 1))(*values)


def run_case(case_dir, name, driver, device_check):
    """(verdict, detail) for one case."""
    import numpy as np
    for f, verdict in (("skip.txt", "SKIP"), ("error.txt", "FAIL")):
        p = os.path.join(case_dir, f)
        if os.path.exists(p):
            with open(p) as fh:
                lines = fh.read().strip().splitlines()
            return verdict, "not built: " + (lines[0] if lines else f)
    lib_path = os.path.join(case_dir, "lib%s.so" % name)
    if not os.path.exists(lib_path):
        return "FAIL", "no lib%s.so" % name
    lib = ctypes.CDLL(os.path.abspath(lib_path))
    fn = lambda suffix, res, *args: _fn(lib, name + suffix, res, args)
    host = fn("_host", ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)
    nin = fn("_num_inputs", ctypes.c_int32)()
    nout = fn("_num_outputs", ctypes.c_int32)()
    in_bytes = fn("_input_bytes", ctypes.c_int64, ctypes.c_int32)
    out_bytes = fn("_output_bytes", ctypes.c_int64, ctypes.c_int32)
    inputs = load_npz(os.path.join(case_dir, "inputs.npz"))
    expected = load_npz(os.path.join(case_dir, "expected.npz"))
    rtol, atol = meta(case_dir)
    if nin != len(inputs):
        return "FAIL", "the library takes %d inputs, inputs.npz has %d" % (nin, len(inputs))
    if nout != len(expected):
        return "FAIL", "%d outputs, expected.npz has %d" % (nout, len(expected))
    for i, a in enumerate(inputs):
        if in_bytes(i) != a.nbytes:
            return "FAIL", "input %d: the library reads %d bytes, inputs.npz has %d" % (i, in_bytes(i), a.nbytes)
    for j, e in enumerate(expected):
        if out_bytes(j) != e.nbytes:
            return "FAIL", "output %d: the library writes %d bytes, expected.npz has %d" % (j, out_bytes(j), e.nbytes)

    # every output byte 0xAB first (a canary: an output the library never writes is caught);
    # filled through a byte view, which np.full_like cannot do for int8 under NumPy 2
    outputs = []
    for e in expected:
        o = np.empty_like(e)
        if e.dtype.kind != "V":
            o.reshape(-1).view(np.uint8).fill(0xAB)
        else:
            o.reshape(-1).view(np.uint8).fill(0)
        outputs.append(o)
    t0 = time.perf_counter()
    rc = host(pointer_array([a.ctypes.data for a in inputs]), pointer_array([o.ctypes.data for o in outputs]))
    ms = (time.perf_counter() - t0) * 1e3
    if rc != 0:
        return "FAIL", "%s_host returned %d (%s)" % (name, rc, code_name(rc))
    for j, (e, o) in enumerate(zip(expected, outputs)):
        why = compare(e, o, rtol, atol)
        if why:
            return "FAIL", "output %d: %s" % (j, why)
    detail = "host %.1f ms (first call: module load included)" % ms
    if device_check:
        why = device_pointers(lib, name, driver, inputs, expected, rtol, atol)
        if why:
            return "FAIL", why
        detail += "; device pointers and async stream ok"
    return "PASS", detail


def _fn(lib, symbol, res, args):
    f = getattr(lib, symbol)
    f.restype = res
    f.argtypes = list(args)
    return f


def device_pointers(lib, name, driver, inputs, expected, rtol, atol):
    """None if NAME (device pointers) and NAME_async (a stream) reproduce the expected outputs."""
    import numpy as np
    driver.make_current()
    sync = _fn(lib, name, ctypes.c_int32, (ctypes.c_void_p, ctypes.c_void_p))
    run_async = _fn(lib, name + "_async", ctypes.c_int32, (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p))
    dins = [driver.to_device(a) for a in inputs]
    douts = [driver.alloc(e.nbytes) for e in expected]
    try:
        for how in ("device", "async"):
            for p, e in zip(douts, expected):
                driver.memset(p, e.nbytes)
            if how == "device":
                rc = sync(pointer_array(dins), pointer_array(douts))
            else:
                rc = run_async(pointer_array(dins), pointer_array(douts), driver.stream)
                if rc == 0:
                    driver.sync()
            if rc != 0:
                return "%s%s returned %d (%s)" % (name, "" if how == "device" else "_async", rc, code_name(rc))
            for j, (p, e) in enumerate(zip(douts, expected)):
                o = np.empty_like(e)
                driver.to_host(p, o)
                why = compare(e, o, rtol, atol)
                if why:
                    return "%s pointers, output %d: %s" % (how, j, why)
        return None
    finally:
        for p in dins + douts:
            driver.free(p)


# --- worker and supervisor -----------------------------------------------------------------------

def worker(root, names, device_names):
    driver = None
    try:
        driver = Driver()
        print("# GPU: " + driver.describe(), flush=True)
    except Exception as e:  # still run: the libraries report their own error codes
        print("# no usable CUDA driver in this script: %s" % e, flush=True)
    for name in names:
        print("START " + name, flush=True)
        try:
            verdict, detail = run_case(os.path.join(root, name), name, driver,
                                       driver is not None and name in device_names)
        except Exception as e:
            verdict, detail = "FAIL", "%s: %s" % (type(e).__name__, e)
        print("%s %s%s" % (verdict, name, ": " + detail if detail else ""), flush=True)


def supervise(root, names, device_checks, timeout):
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    device_names = set()
    remaining = list(names)
    printed_gpu = False
    while remaining:
        before = len(remaining)
        device = [n for n in remaining if n not in device_names][: max(0, device_checks - len(device_names))]
        device_names.update(device)
        cmd = [sys.executable, os.path.abspath(__file__), root, "--worker", "--device-names", ",".join(device_names),
               "--only"] + remaining
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout] + [lines.put(None)], daemon=True).start()
        current = None
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                proc.kill()
                proc.wait()
                line = None
                if current:
                    print("FAIL %s: no result within %d s (killed)" % (current, timeout), flush=True)
                    counts["FAIL"] += 1
                    remaining.remove(current)
                    current = None
                break
            if line is None:
                break
            line = line.rstrip("\n")
            if line.startswith("# GPU") or line.startswith("# no usable"):
                if not printed_gpu:
                    print(line, flush=True)
                    printed_gpu = True
                continue
            if line.startswith("START "):
                current = line[6:]
                continue
            verdict = line.split(" ", 1)[0]
            if verdict in counts and current is not None:
                counts[verdict] += 1
                print(line, flush=True)
                remaining.remove(current)
                current = None
            else:
                print("  | " + line, flush=True)  # the case's own output
        rc = proc.wait()
        if current is not None:
            print("FAIL %s: the process died (exit status %d)" % (current, rc), flush=True)
            counts["FAIL"] += 1
            remaining.remove(current)
        elif len(remaining) == before:  # no progress: the worker cannot run at all
            for name in remaining:
                print("FAIL %s: the worker exited with status %d before running it" % (name, rc), flush=True)
                counts["FAIL"] += 1
            remaining = []
        elif rc != 0 and remaining:
            print("# worker exited with status %d; restarting" % rc, flush=True)
    summary = "%d passed, %d failed" % (counts["PASS"], counts["FAIL"])
    if counts["SKIP"]:
        summary += ", %d skipped" % counts["SKIP"]
    print(summary, flush=True)
    return 1 if counts["FAIL"] else 0


def case_names(root):
    return sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.startswith("."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("casedir")
    ap.add_argument("--device-checks", type=int, default=5, help="cases also run with device pointers (default 5)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds a case may take (default 120)")
    ap.add_argument("--only", nargs="*", help="these case names only")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--device-names", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = args.casedir
    if os.path.isfile(root) and tarfile.is_tarfile(root):
        tmp = tempfile.mkdtemp(prefix="jaxc-gpu-cases-")
        with tarfile.open(root) as t:
            t.extractall(tmp)
        root = tmp
        subdirs = case_names(root)
        if len(subdirs) == 1 and not os.path.exists(os.path.join(root, subdirs[0], "inputs.npz")):
            root = os.path.join(root, subdirs[0])
    if not os.path.isdir(root):
        print("check_cases.py: %s: not a directory or tar file" % args.casedir, file=sys.stderr)
        return 2
    names = args.only if args.only else case_names(root)
    if args.worker:
        worker(root, names, set(filter(None, args.device_names.split(","))))
        return 0
    if not names:
        print("check_cases.py: no cases in %s" % root, file=sys.stderr)
        return 2
    return supervise(root, names, args.device_checks, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
