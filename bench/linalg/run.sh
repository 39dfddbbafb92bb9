#!/usr/bin/env bash
# Linear algebra against jax.jit: bench/linalg/run.sh SIZE... (f32 SIZE×SIZE inputs).
# xla_times.py writes each op's jaxpr and XLA's median time into OUT (default /tmp/jaxc-linalg);
# then `jaxc bench` times each jaxpr (random inputs, medians of 3) and the ratios are printed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${OUT:-/tmp/jaxc-linalg}"
mkdir -p "$out"
(cd "$out" && "${JAXC_PYTHON:-$root/.venv/bin/python}" "$here/xla_times.py" "$@")
# Only the ops this run timed (OUT may hold other jaxprs from earlier runs).
for name in $(python3 -c "import json; print(' '.join(sorted(json.load(open('$out/xla.json')))))"); do
  f="$out/$name.jaxpr"
  t="$("$root/jaxc" bench "$f" --runs 3 2>&1 | grep -o 'median [0-9.]* [mu]s' || echo 'median nan ms')"
  python3 -c "import json,sys; v, u = sys.argv[1].split()[1:]; ms = float(v) / (1000 if u == 'us' else 1); x = json.load(open('$out/xla.json'))['$name']; print(f'$name jaxc {ms:.3f} ms XLA {x:.3f} ms ratio {ms / x:.2f}')" "$t"
done
