#!/usr/bin/env bash
# The GPU check of the tensor-core GEMM (backend-ptx MmaGemm), in two halves:
#
#   bench/gpu/tensor_cores.sh build OUT   here (Java, the repository's .venv): builds OUT (a few MiB)
#   bench/gpu/tensor_cores.sh run OUT     on the GPU machine (Python 3, NumPy, CuPy, JAX; no Java)
#
# build writes
#   OUT/cases          testdata/gpu-gemm's 18 golden cases (bench/gpu/build_cases.sh, sm_80 PTX,
#                      the default rule: f16/bf16 on mma.sync, f32 on the SIMT kernel unless JAXC_PTX_F32_GEMM=3xtf32)
#   OUT/cases-3xtf32   the same with JAXC_PTX_F32_GEMM=3xtf32 (every f32 product on tensor cores)
#   OUT/suite/NAME     suite GEMM workloads (bench/suite/cases), default rule
#   OUT/suite-simt/NAME  the f32 GEMM workloads that now take 3xTF32, with JAXC_PTX_F32_GEMM=simt (the old
#                      kernel), to compare
#   OUT/half/NAME      f16/bf16 matmuls of bench/gpu/half_matmul.py
#   OUT/half-tile64/NAME, OUT/suite-tile64/NAME  the f16/bf16 matmuls, matmul_2048 and conv2d with
#                      64 x 64 tiles forced (JAXC_PTX_GEMM_TILE=4x4): the rule's 128 x 128 (f16/bf16)
#                      and 128 x 64 (3xTF32) tiles need 166-255 registers per thread (ptxas -v,
#                      no spills), so one block per multiprocessor; this says whether smaller
#                      tiles with more blocks per multiprocessor are faster
# run, in under two minutes of GPU time (estimated: about 20 short processes that import JAX): check_cases.py on both case folders (JAX's outputs
# within each case's tolerances), time_suite.py on the suite libraries against jax.jit (the matmuls
# are flagged MISMATCH against XLA's TF32 default, as before), precision_check.py (jaxc against
# XLA at precision=highest: 3xTF32 should stay near 1e-6 as the SIMT kernel was), half_matmul.py.
# With the device tool: build here into an ignored folder (out/tc is under .gitignore's /out/),
# then run with carry ["out/tc"] and the command `bench/gpu/tensor_cores.sh run out/tc`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/gpu"
SUITE_DEFAULT="matmul_256 matmul_1024 matmul_2048 batched_matmul mlp conv2d transformer_block"
SUITE_SIMT="matmul_256 matmul_1024 matmul_2048 mlp transformer_block"
SUITE_TILE64="matmul_2048 conv2d"

suite_build() {  # OUTDIR NAMES...
  local dir="$1" name
  shift
  mkdir -p "$dir"
  for name in "$@"; do
    mkdir -p "$dir/$name"
    "${JAXC:-$root/jaxc}" compile "$root/bench/suite/cases/$name/model.jaxpr" -target ptx --sm sm_80 \
        --emit shared --name "$name" -o "$dir/$name/lib$name.so"
    echo "built $dir/$name"
  done
}

case "${1:-}" in
  build)
    [ $# -eq 2 ] || { echo "usage: $0 build OUT" >&2; exit 2; }
    out="$2"
    mkdir -p "$out"
    out="$(cd "$out" && pwd)"
    "$here/build_cases.sh" "$out/cases" "$root/testdata/gpu-gemm"
    JAXC_PTX_F32_GEMM=3xtf32 "$here/build_cases.sh" "$out/cases-3xtf32" "$root/testdata/gpu-gemm"
    # shellcheck disable=SC2086
    suite_build "$out/suite" $SUITE_DEFAULT
    # shellcheck disable=SC2086
    JAXC_PTX_F32_GEMM=simt suite_build "$out/suite-simt" $SUITE_SIMT
    python="${PYTHON:-$root/.venv/bin/python}"
    [ -x "$python" ] || python=/work/main/.venv/bin/python
    "$python" "$here/half_matmul.py" jaxpr "$out/half-src"
    # shellcheck disable=SC2086
    JAXC_PTX_GEMM_TILE=4x4 suite_build "$out/suite-tile64" $SUITE_TILE64
    for d in "$out/half-src"/*/; do
      name="$(basename "$d")"
      for v in half half-tile64; do
        mkdir -p "$out/$v/$name"
        tile=""
        [ "$v" = half-tile64 ] && tile=4x4
        JAXC_PTX_GEMM_TILE="$tile" "${JAXC:-$root/jaxc}" compile "$d/model.jaxpr" -target ptx --sm sm_80 \
            --emit shared --name "$name" -o "$out/$v/$name/lib$name.so"
        echo "built $out/$v/$name"
      done
    done
    echo "OUT holds $(du -sh "$out" | cut -f1)"
    ;;
  run)
    [ $# -eq 2 ] || { echo "usage: $0 run OUT" >&2; exit 2; }
    out="$(cd "$2" && pwd)"
    # time_suite.py and precision_check.py import the suite's counter_rng and workloads.
    export PYTHONPATH="$root/bench/suite${PYTHONPATH:+:$PYTHONPATH}"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader || true
    echo "== gpu-gemm cases, default rule"
    python3 "$here/check_cases.py" "$out/cases" --device-checks 4 || true
    echo "== gpu-gemm cases, 3xTF32 forced"
    python3 "$here/check_cases.py" "$out/cases-3xtf32" --device-checks 4 || true
    echo "== suite, default rule (f16/bf16 on mma.sync, f32 on the SIMT kernel)"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite" --runs 11 --only $SUITE_DEFAULT
    echo "== suite, JAXC_PTX_F32_GEMM=simt"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite-simt" --runs 11 --only $SUITE_SIMT
    echo "== suite, 64 x 64 tiles forced"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite-tile64" --runs 11 --only $SUITE_TILE64
    echo "== precision: jaxc (default rule) against XLA default (TF32) and highest"
    (cd "$out" && python3 "$here/precision_check.py")
    echo "== f16/bf16 matmuls"
    python3 "$here/half_matmul.py" time "$out/half"
    echo "== f16/bf16 matmuls, 64 x 64 tiles forced"
    python3 "$here/half_matmul.py" time "$out/half-tile64"
    ;;
  *)
    echo "usage: $0 build OUT | $0 run OUT" >&2
    exit 2
    ;;
esac
