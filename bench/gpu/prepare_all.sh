#!/usr/bin/env bash
# Builds, on this machine (Java, no GPU), what bench/gpu/run_all.sh runs on a GPU machine:
#   OUT/cases.tar.xz  every golden case's -target ptx host library with its inputs and outputs
#                     (bench/gpu/build_cases.sh; about 10 MiB compressed, 160 MiB unpacked)
#   OUT/suite/NAME/libNAME.so  the benchmark suite's workloads for time_suite.py
# Then hand OUT to the device tool with the repository (carry: OUT/cases.tar.xz, OUT/suite):
#   bench/gpu/run_all.sh OUT
#
#   bench/gpu/prepare_all.sh OUT      (default OUT: .gpu, which .git/info/exclude may list)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/.gpu}"
mkdir -p "$out/suite"
JOBS="${JOBS:-2}" "$root/bench/gpu/build_cases.sh" "$out/cases" >"$out/build.log"
tail -n1 "$out/build.log"
tar -cJf "$out/cases.tar.xz" -C "$out/cases" .
for d in "$root"/bench/suite/cases/*/; do
  n="$(basename "$d")"
  mkdir -p "$out/suite/$n"
  "$root/jaxc" compile "$d/model.jaxpr" -target ptx --emit shared --name "$n" -o "$out/suite/$n/lib$n.so"
done
echo "wrote $out/cases.tar.xz ($(du -h "$out/cases.tar.xz" | cut -f1)) and $out/suite"
