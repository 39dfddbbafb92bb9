#!/usr/bin/env bash
# Byte-identical output over the whole golden corpus (issue 9, part 4): two processes compile
# every case at the same time, from different working directories (absolute and relative model
# paths), with -XX:ActiveProcessorCount 1 and 4 (the threads compiling a partitioned module's
# parts) and JAXC_NUM_THREADS 1 and 3, to .o, .so, .s, .ll, .h (CPU) and .ptx, .so, .o, .h (ptx);
# every file must be byte-identical. CI runs a subset (cli's DeterministicOutputTest); this is the
# same test over every case. Prints the test's summary line (cases, files, seconds).
#
# usage: bench/determinism/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -pl cli -am test -Dtest=DeterministicOutputTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Djaxc.determinism.all=true 2>&1 | grep -E 'DeterministicOutputTest|FAIL|ERROR|Tests run' || true
