#!/usr/bin/env bash
# The runtime's costs, each in a fresh process: a scalar model's call (f32[] add) in a tight loop,
# a small region (2M-element add, just enough work to be split in two) and a 4M-element fusion on
# 1 and 2 threads (the pool's wake-up against the region's work), and a model with a 64 MiB
# workspace (its first call allocates and faults the pages in, later calls reuse them).
# Usage: bench/runtime/run.sh [JAXC]   (JAXC: the jaxc launcher to compare, default this tree's)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jaxc="${1:-$root/jaxc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/calls" "$here/calls.c" -ldl
"$jaxc" compile "$here/scalar_add.jaxpr" --emit shared --name add -o "$work/libadd.so"
"$jaxc" compile "$here/add_2m.jaxpr" --emit shared --name small -o "$work/libsmall.so"
"$jaxc" compile "$root/bench/threads/elementwise_4m.jaxpr" --emit shared --name ew -o "$work/libew.so"
"$jaxc" compile "$here/workspace_64m.jaxpr" --emit shared --name ws -o "$work/libws.so"
ew=$((4194304 * 4))
big=$((16777216 * 4))
printf 'scalar add f32[]            '; "$work/calls" "$work/libadd.so" add 2000000 2 4 4 1 4
small=$((2097152 * 4))
for threads in 1 2; do
  printf 'add 2M f32 threads=%s       ' "$threads"
  JAXC_NUM_THREADS=$threads "$work/calls" "$work/libsmall.so" small 2000 2 $small $small 1 $small
  printf 'fusion 4M f32 threads=%s    ' "$threads"
  JAXC_NUM_THREADS=$threads "$work/calls" "$work/libew.so" ew 200 2 $ew $ew 1 $ew
done
printf 'workspace 64 MiB threads=1  '; JAXC_NUM_THREADS=1 "$work/calls" "$work/libws.so" ws 20 1 $big 1 $big
