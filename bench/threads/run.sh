#!/usr/bin/env bash
# Times f32 512x512x512 matmul, a 4M-element elementwise fusion (mul, add, max) and a sum and max
# over the last axis of f32[4096,1024] with JAXC_NUM_THREADS=1 and 2 (and what the machine offers
# when unset). Usage: bench/threads/run.sh [REPS]
# The outputs' hash must be the same on every line of a model: results do not depend on threads.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
reps="${1:-15}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/bench" "$here/bench.c" -ldl
"$root/jaxc" compile "$here/matmul_512.jaxpr" --emit shared --name matmul -o "$work/libmatmul.so"
"$root/jaxc" compile "$here/elementwise_4m.jaxpr" --emit shared --name ew -o "$work/libew.so"
"$root/jaxc" compile "$here/reduce_4m.jaxpr" --emit shared --name red -o "$work/libred.so"
mm=$((512 * 512 * 4))
ew=$((4194304 * 4))
for threads in 1 2 unset; do
  if [[ $threads == unset ]]; then unset JAXC_NUM_THREADS; else export JAXC_NUM_THREADS=$threads; fi
  printf 'matmul f32 512x512x512  threads=%-5s ' "$threads"
  "$work/bench" "$work/libmatmul.so" matmul "$reps" 2 $mm $mm 1 $mm
  printf 'elementwise f32 4M      threads=%-5s ' "$threads"
  "$work/bench" "$work/libew.so" ew "$reps" 2 $ew $ew 1 $ew
  printf 'reduce f32 4096x1024    threads=%-5s ' "$threads"
  "$work/bench" "$work/libred.so" red "$reps" 1 $ew 2 16384 16384
done
