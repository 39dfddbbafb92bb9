#!/usr/bin/env bash
# Builds the case directory that bench/gpu/check_cases.py runs on a GPU machine (which needs
# no Java): one directory per golden case, OUT/NAME/{libNAME.so, inputs.npz, expected.npz,
# meta.json}, the library from
#     jaxc compile CASE/model.jaxpr -target ptx --sm $SM --host-target $HOST --emit shared --name NAME
# A case that does not build gets OUT/NAME/skip.txt (the compiler said "unsupported") or
# OUT/NAME/error.txt (anything else) instead, which check_cases.py counts as skipped / failed.
#
#   bench/gpu/build_cases.sh OUT [CASE_DIR_OR_ROOT ...]   golden cases (default: testdata/cases)
#   bench/gpu/build_cases.sh --selftest OUT               only vadd2, the host library's own
#                                                         hand-written PTX test program
# Environment: JAXC (default: ./jaxc of this checkout), SM (default sm_80: runs on sm_80 and
# newer, H100/H200 included), HOST (x86_64 or aarch64; default x86_64), JOBS (parallel
# compiles, default 2), SELFTEST=1 (also add vadd2 to a golden-case build).
# OUT must stay small enough to travel to the GPU machine (64 MiB with the repository); the
# script prints its size, and `tar -cJf OUT.tar.xz -C OUT .` shrinks it (check_cases.py reads
# such a tar file too).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
JAXC="${JAXC:-$root/jaxc}"
SM="${SM:-sm_80}"
HOST="${HOST:-x86_64}"
JOBS="${JOBS:-2}"

selftest() {  # vadd2 through the backend-ptx test that writes it (GpuCheckScriptTest)
  local out
  out="$(cd "$1" && pwd)"
  (cd "$root" && mvn -B -q -pl backend-ptx -am test -Dtest=GpuCheckScriptTest \
      -Dsurefire.failIfNoSpecifiedTests=false -Djaxc.gpu.selftest.out="$out") >&2
  [ -f "$out/vadd2/libvadd2.so" ] || { echo "build_cases.sh: the vadd2 case was not written" >&2; exit 1; }
}

if [ "${1:-}" = "--selftest" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --selftest OUT" >&2; exit 2; }
  mkdir -p "$2"
  selftest "$2"
  echo "wrote $2/vadd2 ($(du -sh "$2" | cut -f1))"
  exit 0
fi
[ $# -ge 1 ] || { echo "usage: $0 OUT [CASE_DIR_OR_ROOT ...] | $0 --selftest OUT" >&2; exit 2; }
out="$1"
shift
[ $# -ge 1 ] || set -- "$root/testdata/cases"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# NAME as jaxc names an entry point after a case directory (cli HostRun.entryName)
entry_name() {
  local s
  s="$(printf '%s' "$1" | sed 's/[^A-Za-z0-9_]/_/g')"
  case "$s" in [0-9]*|"") s="_$s" ;; esac
  printf '%s' "$s"
}

build_one() {  # CASE_DIR: builds OUT/NAME
  local case_dir="$1" name dir flags log gpu_expected
  name="$(entry_name "$(basename "$case_dir")")"
  dir="$out/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$case_dir/inputs.npz" "$case_dir/expected.npz" "$dir/"
  # Where XLA:GPU's own outputs were recorded (the denormal cases), the GPU is checked against them.
  gpu_expected="$(dirname "$case_dir")/../gpu-expected/$(basename "$case_dir")/expected.npz"
  [ -f "$gpu_expected" ] && cp "$gpu_expected" "$dir/expected.npz"
  [ -f "$case_dir/meta.json" ] && cp "$case_dir/meta.json" "$dir/"
  flags=()
  if [ -f "$case_dir/meta.json" ] && grep -Eq '"x64"[[:space:]]*:[[:space:]]*true' "$case_dir/meta.json"; then
    flags+=(--x64)
  fi
  if log="$("$JAXC" compile "$case_dir/model.jaxpr" -target ptx --sm "$SM" --host-target "$HOST" \
      --emit shared --name "$name" -o "$dir/lib$name.so" "${flags[@]}" 2>&1)"; then
    echo "built $name"
  elif printf '%s' "$log" | grep -q "unsupported"; then
    printf '%s\n' "$log" >"$dir/skip.txt"
    echo "skipped $name: $(head -n1 "$dir/skip.txt")"
  else
    printf '%s\n' "$log" >"$dir/error.txt"
    echo "FAILED $name: $(head -n1 "$dir/error.txt")"
  fi
}
export -f build_one entry_name
export out JAXC SM HOST

"$JAXC" --version >/dev/null  # builds the launcher's jars once, before the parallel compiles
for d in "$@"; do
  find "$d" -name model.jaxpr -printf '%h\n'
done | sort | xargs -r -P "$JOBS" -I{} bash -c 'build_one "$1"' _ {}

[ "${SELFTEST:-0}" = 1 ] && selftest "$out"
built=$(find "$out" -name 'lib*.so' | wc -l)
skipped=$(find "$out" -name skip.txt | wc -l)
failed=$(find "$out" -name error.txt | wc -l)
echo "$built built, $failed failed, $skipped skipped; $out holds $(du -sh "$out" | cut -f1)"
