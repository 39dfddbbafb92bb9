#!/usr/bin/env bash
# The fuzz benchmark: bench/fuzz/run.sh [SEED] [COUNT] [--plan-only]
# Feeds COUNT (default 1,000,000) generated and mutated jaxprs through parse, type pass, the
# lowering passes, the CPU planner and LLVM IR emission and verification (--plan-only: stop after
# planning) in one JVM, as FuzzTest does with 20,000, and prints the count of each outcome, the
# throughput and the slowest input. Failing inputs are written to target/fuzz-failures/; the exit
# status is 1 if there were any.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
seed="${1:-1}"
count="${2:-1000000}"
shift $(( $# < 2 ? $# : 2 ))
cd "$root"
# -DskipTests still compiles the test classes, where the fuzzer lives.
mvn -B -q -Dstyle.color=never -DskipTests package >/dev/null
cp="cli/target/test-classes:cli/target/jaxc-cli.jar:$(cat cli/target/classpath.txt)"
exec java -XX:+UseSerialGC -Xmx1g -cp "$cp" dev.jaxc.cli.fuzz.FuzzMain "$seed" "$count" --root "$root" "$@"
