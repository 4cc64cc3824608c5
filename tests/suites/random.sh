#!/usr/bin/env bash
# tests/suites/random.sh: randomised end-to-end exactness.
#
# tests/random/difftest.py writes programs of random accesses (1 to 32 bytes,
# unaligned, across 8 KiB shadow chunks, values used or thrown away;
# read-modify-write; memcpy, memmove and memset; nested calls; threads;
# forked children; signals; sigsetjmp/siglongjmp; a global or a heap
# buffer), computes the edges they must have from a byte-exact model, builds
# each with -O0 and -O2, runs commprof at granularity 1, 2, 4 or 8, with
# --objects=yes or not, and compares its XML (the process's and each
# child's): bytes, UnMA and accesses of every edge between the
# functions and from (unwritten), the buffer's object and its flows.  Fixed
# seeds: the same programs on every run (COMMPROF_RANDOM_SEEDS=A:B to try
# others).
#
# Prints PASS/FAIL lines and, last, "N passed, N failed"; exits 1 on failure.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/lib/suite.sh"
require valgrind gcc python3

# without AVX on the host, the programs make no 32-byte accesses
noavx=()
grep -qw avx /proc/cpuinfo || noavx=(--no-avx)

exec python3 "$ROOT/tests/random/difftest.py" --seeds "${COMMPROF_RANDOM_SEEDS:-1:61}" \
    --valgrind-lib "$VALGRIND_LIB" "${noavx[@]}"
