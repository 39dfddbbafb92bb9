#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, what bench/gpu/prepare_all.sh built: every
# golden case's host library against its expected outputs (check_cases.py, 4 shards at once, 8
# cases per shard also through NAME and NAME_async), then the suite's workloads against jax.jit on
# XLA:GPU (time_suite.py, needs JAX with CUDA and CuPy there). Writes $OUT/gpu.txt (the summary)
# and $OUT/cases-*.txt (a line per case).
#
#   bench/gpu/run_all.sh [DIR]        (DIR as given to prepare_all.sh; default .gpu)
set -u
dir="${1:-.gpu}"
OUT="${OUT:-/tmp/out}"
mkdir -p "$OUT"
{ date -u; nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader; } | tee "$OUT/gpu.txt"
python3 -c "import jax, numpy; print('jax', jax.__version__, 'numpy', numpy.__version__, jax.devices())" 2>&1 | tail -1 | tee -a "$OUT/gpu.txt"
cases="$(mktemp -d)"
tar -xJf "$dir/cases.tar.xz" -C "$cases"
echo "$(ls "$cases" | wc -l) cases" | tee -a "$OUT/gpu.txt"
ls "$cases" > "$cases.names" && split -n r/4 "$cases.names" "$cases.shard."
start=$(date +%s)
for s in "$cases".shard.*; do
  python3 bench/gpu/check_cases.py "$cases" --device-checks 8 --timeout 120 --only $(cat "$s") > "$OUT/cases-${s##*.}.txt" 2>&1 &
done
wait
echo "cases wall $(( $(date +%s) - start )) s" | tee -a "$OUT/gpu.txt"
tail -q -n1 "$OUT"/cases-*.txt | tee -a "$OUT/gpu.txt"
grep -h -v '^PASS' "$OUT"/cases-*.txt | grep -v '^#' | head -60 | tee -a "$OUT/gpu.txt"
echo "== suite" | tee -a "$OUT/gpu.txt"
python3 bench/gpu/time_suite.py "$dir/suite" --runs 21 --timeout 60 --only $(ls "$dir/suite" | grep -v '^scalar_add$') 2>&1 \
  | tee -a "$OUT/gpu.txt"
