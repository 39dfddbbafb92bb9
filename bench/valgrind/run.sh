#!/usr/bin/env bash
# Every golden case's shared library under valgrind memcheck (issue 9, part 3): each case is
# compiled for x86-64, linked, and run once by jaxc's C runner under
#   valgrind -q --tool=memcheck --error-exitcode=125 --leak-check=no
# with its inputs and outputs each a heap block of exactly its size. A memcheck error (a read or
# write outside a buffer, an output byte never written) fails the case with "failed valgrind
# memcheck". Valgrind runs AVX2 but not AVX-512 code, so CPUs are named: haswell (AVX2, FMA: the
# goldens' FMA contractions hold) and the x86-64 baseline (SSE2).
# Valgrind does not emulate the denormal flushing (MXCSR FTZ/DAZ) that jaxc's code sets, so the
# cases of testdata/known-differences-valgrind.txt differ in value there; that is not a memcheck
# failure. CI runs a subset (cli's ValgrindCorpusTest).
#
# usage: bench/valgrind/run.sh [JOBS]   (default: the number of CPUs)
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs="${1:-$(nproc)}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for cpu in haswell x86-64; do
  start=$(date +%s.%N)
  ./jaxc check --target x86_64 --cpu "$cpu" --valgrind -j "$jobs" testdata/cases >"$out/$cpu.txt" || true
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  n=$(grep -c '^\(PASS\|FAIL\|SKIP\) ' "$out/$cpu.txt" || true)
  memcheck=$(grep -c 'failed valgrind memcheck' "$out/$cpu.txt" || true)
  other=$(grep '^FAIL ' "$out/$cpu.txt" | grep -v 'valgrind' | sed 's/^FAIL \([^:]*\):.*/\1/' | sed 's#.*/##' \
    | grep -v -x -F -f <(grep -v '^#' testdata/known-differences-valgrind.txt | awk 'NF {print $1}') || true)
  printf '%s: %s cases in %.0f s (%.2f s per case, -j %s): %s; memcheck failures: %s; unexpected value failures: %s\n' \
    "$cpu" "$n" "$secs" "$(echo "$secs / $n" | bc -l)" "$jobs" "$(tail -1 "$out/$cpu.txt")" "$memcheck" \
    "$(echo "$other" | grep -c . || true)"
  grep 'failed valgrind memcheck' "$out/$cpu.txt" || true
  [[ -z "$other" ]] || echo "$other"
done
