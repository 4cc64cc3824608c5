#!/usr/bin/env bash
# tests/suites/intree.sh: commprof built and tested inside a Valgrind source
# tree (tests/intree/run: downloads Valgrind's source with apt-get source,
# builds the core and commprof, runs vg_regtest on commprof/tests and builds
# the manual; a few minutes).
#
# Runs only if COMMPROF_INTREE=1, or, when COMMPROF_INTREE is not set, in CI
# (CI=true).  Otherwise prints a SKIP line and `0 passed, 0 failed`.

set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [[ -n ${COMMPROF_INTREE+x} ]]; then
    run=$([[ $COMMPROF_INTREE == 1 ]] && echo yes || echo no)
else
    run=$([[ ${CI:-} == true ]] && echo yes || echo no)
fi
if [[ $run != yes ]]; then
    echo "SKIP intree (set COMMPROF_INTREE=1)"
    echo "0 passed, 0 failed"
    exit 0
fi
exec bash "$ROOT/tests/intree/run"
