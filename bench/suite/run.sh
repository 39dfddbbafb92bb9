#!/usr/bin/env bash
# Runs the benchmark suite (bench/suite/README.md); arguments go to run.py (--runs N, --filter NAME...).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; exec "${JAXC_PYTHON:-/work/main/.venv/bin/python}" "$here/run.py" "$@"
