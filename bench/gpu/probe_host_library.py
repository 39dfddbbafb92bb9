#!/usr/bin/env python3
"""Probes the PTX host library itself on a real GPU, with the hand-written vadd2 program
(out = 2 * (a + b), f32[1000], two kernels, a workspace, 64 KiB of dynamic shared memory):

    python3 probe_host_library.py SELFTEST_DIR      (bench/gpu/build_cases.sh --selftest SELFTEST_DIR)

- error codes: no device visible (CUDA_VISIBLE_DEVICES empty: NO_CUDA_DEVICE), PTX ISA 9.9
  (PTX_TOO_NEW_FOR_DRIVER), PTX for sm_100 (PTX_TOO_NEW_FOR_GPU on an older GPU);
- 8 threads calling vadd2_host, vadd2 and vadd2_async (a stream each) at once, results checked;
- the cost of a call: vadd2 (device pointers, synchronised), vadd2_async (one stream, synchronised
  once at the end) and vadd2_host, median of 5 rounds.
Prints one line per check and `N passed, M failed`; exit status 1 if any failed.
"""

import ctypes
import os
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_cases import Driver, code_name, pointer_array  # noqa: E402

N = 1000
results = []


def report(ok, what):
    results.append(ok)
    print("%s %s" % ("PASS" if ok else "FAIL", what), flush=True)


def library(path, name):
    lib = ctypes.CDLL(path)
    for suffix, args in (("", 2), ("_host", 2), ("_async", 3)):
        f = getattr(lib, name + suffix)
        f.restype = ctypes.c_int32
        f.argtypes = [ctypes.c_void_p] * args
    return lib


def inputs():
    i = np.arange(N, dtype=np.float32)
    a = (np.float32(0.5) * i - np.float32(3.0)).astype(np.float32)
    b = (np.float32(1.0) / (i + np.float32(1.0))).astype(np.float32)
    return a, b, ((a + b) * np.float32(2.0)).astype(np.float32)


def host_call(lib, name, a, b, out):
    return getattr(lib, name + "_host")(pointer_array([a.ctypes.data, b.ctypes.data]), pointer_array([out.ctypes.data]))


def child_no_device(path):
    """Runs in a process that sees no GPU."""
    a, b, _ = inputs()
    out = np.zeros(N, np.float32)
    print(host_call(library(path, "vadd2"), "vadd2", a, b, out))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--no-device-child":
        child_no_device(sys.argv[2])
        return 0
    root = sys.argv[1]
    path = os.path.abspath(os.path.join(root, "vadd2", "libvadd2.so"))
    driver = Driver()
    print("# GPU: " + driver.describe(), flush=True)
    a, b, want = inputs()

    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    got = subprocess.run([sys.executable, os.path.abspath(__file__), "--no-device-child", path], env=env,
                         capture_output=True, text=True)
    code = got.stdout.strip()
    report(code == "11", "no visible device: vadd2_host returned %s (%s), expected 11 (NO_CUDA_DEVICE)%s"
           % (code, code_name(int(code)) if code.lstrip("-").isdigit() else "?", got.stderr.strip()[:200]))
    for name, expect in (("vadd2_isa99", 12), ("vadd2_sm100", 13)):
        p = os.path.abspath(os.path.join(root, ".probe", "lib%s.so" % name))
        out = np.zeros(N, np.float32)
        rc = host_call(library(p, name), name, a, b, out)
        report(rc == expect, "%s: returned %d (%s), expected %d" % (name, rc, code_name(rc), expect))

    lib = library(path, "vadd2")
    out = np.zeros(N, np.float32)
    rc = host_call(lib, "vadd2", a, b, out)
    report(rc == 0 and np.array_equal(out, want), "vadd2_host (no current context: primary pushed): %d" % rc)

    driver.make_current()
    da, db = driver.to_device(a), driver.to_device(b)
    bad = []

    def worker(k):
        stream = ctypes.c_void_p()
        driver.cu.cuCtxSetCurrent(driver.ctx)
        driver.cu.cuStreamCreate(ctypes.byref(stream), 1)
        dout = driver.alloc(4 * N)
        o = np.zeros(N, np.float32)
        for j in range(150):
            o[:] = 0
            driver.memset(dout, 4 * N)
            which = (j + k) % 3
            if which == 0:
                rc = host_call(lib, "vadd2", a, b, o)
            elif which == 1:
                rc = lib.vadd2(pointer_array([da, db]), pointer_array([dout]))
                driver.to_host(dout, o)
            else:
                rc = lib.vadd2_async(pointer_array([da, db]), pointer_array([dout]), stream)
                driver.cu.cuStreamSynchronize(stream)
                driver.to_host(dout, o)
            if rc != 0 or not np.array_equal(o, want):
                bad.append((k, j, which, rc))
        driver.free(dout)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report(not bad, "8 threads x 150 calls (host, device, async on own streams): %d wrong%s"
           % (len(bad), (", first " + repr(bad[0])) if bad else ""))

    dout = driver.alloc(4 * N)
    ins, outs = pointer_array([da, db]), pointer_array([dout])
    o = np.zeros(N, np.float32)

    def per_call(f, calls, finish=lambda: None):
        rounds = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(calls):
                f()
            finish()
            rounds.append((time.perf_counter() - t0) / calls * 1e6)
        return statistics.median(rounds)

    t_sync = per_call(lambda: lib.vadd2(ins, outs), 2000)
    t_async = per_call(lambda: lib.vadd2_async(ins, outs, driver.stream), 2000, driver.sync)
    t_host = per_call(lambda: host_call(lib, "vadd2", a, b, o), 500)
    driver.to_host(dout, o)
    report(np.array_equal(o, want), "per call (2 kernels, median of 5 rounds): vadd2 %.1f us, vadd2_async %.1f us,"
           " vadd2_host %.1f us (through ctypes)" % (t_sync, t_async, t_host))
    print("%d passed, %d failed" % (results.count(True), results.count(False)), flush=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
