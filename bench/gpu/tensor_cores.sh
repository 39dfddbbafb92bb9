#!/usr/bin/env bash
# The GPU check of the tensor-core GEMM (backend-ptx MmaGemm), current kernel against the first
# one (JAXC_PTX_MMA=v1, as measured in bench/gpu/tensor-cores-h200.txt), in two halves:
#
#   bench/gpu/tensor_cores.sh build OUT   here (Java, the repository's .venv): builds OUT (a few MiB)
#   bench/gpu/tensor_cores.sh run OUT     on the GPU machine (Python 3, NumPy, CuPy, JAX; no Java)
#
# build writes (all sm_80 PTX, which runs on sm_80 and newer)
#   OUT/cases          testdata/gpu-gemm's 18 golden cases, current kernel, the default rule
#                      (f16/bf16 on mma.sync; f32 on 3xTF32 below the SIMT kernel's largest tiles, MmaGemm.kind)
#   OUT/cases-3xtf32   the same with JAXC_PTX_F32_GEMM=3xtf32 (every f32 product on tensor cores)
#   OUT/half/NAME, OUT/half-1block/NAME, OUT/half-v1/NAME   bench/gpu/half_matmul.py's f16/bf16
#                      matmuls (2048³, 4096 x 1024 x 4096) as sm_90 PTX (H100/H200 only): the
#                      current kernel (ldmatrix, 128 registers, two blocks per multiprocessor, which
#                      only sm_90 PTX asks for), JAXC_PTX_MMA=1block (the same without the
#                      two-block request) and JAXC_PTX_MMA=v1 (the first kernel)
#   OUT/suite-3xtf32/NAME, OUT/suite-3xtf32-v1/NAME   the suite's f32 GEMM workloads
#                      (bench/suite/cases) with 3xTF32 forced, current kernel and v1
#   OUT/suite-simt/NAME   the same workloads on the SIMT kernel (JAXC_PTX_F32_GEMM=simt), to compare
# run, in under two minutes of GPU time (about 15 short processes that import JAX): check_cases.py
# on both case folders (JAX's outputs within each case's tolerances), half_matmul.py on both
# half folders (against jax.jit; the relative difference from XLA is printed too), time_suite.py on
# the three suite folders (the 3xTF32 and SIMT results are flagged MISMATCH against XLA's TF32
# default, as before: they are more accurate than it).
# With the device tool: build here into an ignored folder (out/tc is under .gitignore's /out/),
# then run with carry ["out/tc"] and the command `bench/gpu/tensor_cores.sh run out/tc`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/bench/gpu"
SUITE_F32="matmul_2048 mlp transformer_block"

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
    unset JAXC_PTX_MMA JAXC_PTX_F32_GEMM JAXC_PTX_GEMM_TILE
    "$here/build_cases.sh" "$out/cases" "$root/testdata/gpu-gemm"
    JAXC_PTX_F32_GEMM=3xtf32 "$here/build_cases.sh" "$out/cases-3xtf32" "$root/testdata/gpu-gemm"
    # shellcheck disable=SC2086
    JAXC_PTX_F32_GEMM=3xtf32 suite_build "$out/suite-3xtf32" $SUITE_F32
    # shellcheck disable=SC2086
    JAXC_PTX_F32_GEMM=3xtf32 JAXC_PTX_MMA=v1 suite_build "$out/suite-3xtf32-v1" $SUITE_F32
    # shellcheck disable=SC2086
    JAXC_PTX_F32_GEMM=simt suite_build "$out/suite-simt" $SUITE_F32
    python="${PYTHON:-$root/.venv/bin/python}"
    [ -x "$python" ] || python=/work/main/.venv/bin/python
    "$python" "$here/half_matmul.py" jaxpr "$out/half-src"
    for d in "$out/half-src"/*/; do
      name="$(basename "$d")"
      for v in half half-1block half-v1; do
        mkdir -p "$out/$v/$name"
        mma="${v#half}"
        mma="${mma#-}"
        JAXC_PTX_MMA="$mma" "${JAXC:-$root/jaxc}" compile "$d/model.jaxpr" -target ptx --sm sm_90 \
            --emit shared --name "$name" -o "$out/$v/$name/lib$name.so"
        echo "built $out/$v/$name"
      done
    done
    echo "OUT holds $(du -sh "$out" | cut -f1)"
    ;;
  run)
    [ $# -eq 2 ] || { echo "usage: $0 run OUT" >&2; exit 2; }
    out="$(cd "$2" && pwd)"
    # time_suite.py imports the suite's counter_rng and workloads.
    export PYTHONPATH="$root/bench/suite${PYTHONPATH:+:$PYTHONPATH}"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader || true
    echo "== f16/bf16 matmuls, current kernel"
    python3 "$here/half_matmul.py" time "$out/half"
    echo "== f16/bf16 matmuls, JAXC_PTX_MMA=v1"
    python3 "$here/half_matmul.py" time "$out/half-v1"
    echo "== f16/bf16 matmuls, JAXC_PTX_MMA=1block"
    python3 "$here/half_matmul.py" time "$out/half-1block"
    echo "== gpu-gemm cases, current kernel, default rule"
    python3 "$here/check_cases.py" "$out/cases" --device-checks 4 || true
    echo "== gpu-gemm cases, current kernel, 3xTF32 forced"
    python3 "$here/check_cases.py" "$out/cases-3xtf32" --device-checks 4 || true
    echo "== suite f32 GEMMs, 3xTF32 forced, current kernel"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite-3xtf32" --runs 11 --only $SUITE_F32
    echo "== suite f32 GEMMs, 3xTF32 forced, JAXC_PTX_MMA=v1"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite-3xtf32-v1" --runs 11 --only $SUITE_F32
    echo "== suite f32 GEMMs, SIMT kernel"
    # shellcheck disable=SC2086
    python3 "$here/time_suite.py" "$out/suite-simt" --runs 11 --only $SUITE_F32
    ;;
  *)
    echo "usage: $0 build OUT | $0 run OUT" >&2
    exit 2
    ;;
esac
