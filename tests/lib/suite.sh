# tests/lib/suite.sh: what the shell suites of tests/suites share.  Source it
# from a suite (set ROOT first); it sets the paths, counts PASS/FAIL lines and
# ends a suite with its summary line "N passed, N failed".

BUILDDIR=${COMMPROF_BUILDDIR:-$ROOT}
export VALGRIND_LIB="$BUILDDIR/.in_place"
RNG=$ROOT/docs/commprof.rng
VG_TIMEOUT=${COMMPROF_TEST_TIMEOUT:-120}

npass=0
nfail=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() {
    local d=${2//$'\n'/ | }
    ((${#d} > 600)) && d="${d:0:600}..."
    echo "FAIL $1: $d"
    nfail=$((nfail + 1))
}
finish() {
    echo "$npass passed, $nfail failed"
    ((nfail == 0))
    exit
}

# require TOOL...: a FAIL and the end of the suite if one is missing
require() {
    local missing= t
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 || missing+=" $t"
    done
    if [[ -n $missing ]]; then fail prerequisites "not found:$missing"; finish; fi
}
