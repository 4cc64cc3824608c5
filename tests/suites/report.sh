#!/usr/bin/env bash
# tests/suites/report.sh: commprof-report, the reader of the XML profiles.
#
#  - the command line: --help of the program and of each command, --version,
#    unknown commands and bad options (exit 1, one line on stderr);
#  - every error path of the reader (missing file, directory, empty, not XML,
#    truncated, billion laughs, XXE, external DTD, wrong root or version, bad
#    numbers, dangling edge ids, duplicate ids and edges, self edges, deep
#    nesting): exit 2 with exactly one line "commprof-report: FILE:LINE: ...";
#  - the same for the optional sections (objects, flows, phases, time slices
#    and their d attribute, detected phases, per-call records, caller contexts,
#    regions, first-read bytes: 40 malformed variants of in/sections.xml), and
#    exit 2 in one line for a command that needs a section the profile lacks;
#    the embedded schema is the current docs/commprof.rng;
#  - exact golden outputs of every command on hand-written profiles
#    (tests/report/inputs/ -> tests/report/golden/; regenerate them with
#    COMMPROF_UPDATE_GOLDEN=1 tests/suites/report.sh and review the diff):
#    every summary table (edges, functions, objects, threads, phases, maip,
#    calls) as text and CSV, every graph mode (functions, --objects,
#    --threads, --phases), every matrix kind (functions, objects, threads) as
#    text, CSV and SVG, the timeline as SVG and CSV, diff and merge of the
#    sections; the SVGs parse as XML with the names escaped;
#  - profiles of a real run of the tool on a small test program: golden edge
#    rows of the program's own functions, SVG/PNG/PDF output, focus, merge of
#    two runs equals the sum, diff of the two runs; a run with --objects,
#    --per-call, --first-read and --time-slice (exact heap object counts,
#    first-read edges, object matrix cells, per-call records, the slices sum
#    to the functions' bytes, merge sums the objects and drops the slices),
#    and runs of commprof/tests/phases.c, regions.c, contexts.c and
#    threads-pipeline.c (cross-phase edges, regions, contexts, threads);
#  - partition: the known best cut of two dense clusters joined by one light
#    edge, refinement never worse than the greedy result and within balance;
#  - a 2,000-node profile renders in seconds; a 25 MB profile is read within
#    a 300 MB address-space limit (streaming);
#  - the AddressSanitizer + UndefinedBehaviorSanitizer build (make
#    commprof-report-asan) runs all the error-path inputs and every command
#    cleanly.
#
# Not run here: the fuzzer of the reader, tests/fuzz/run [SECONDS] (needs
# clang with libFuzzer; see the script).
#
# Prints PASS/FAIL lines and, last, "N passed, N failed"; exits 1 on failure.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/lib/suite.sh"
IN=$ROOT/tests/report/inputs
GOLD=$ROOT/tests/report/golden
CPR=$BUILDDIR/commprof/report/commprof-report
ASAN=$BUILDDIR/commprof/report/commprof-report-asan
UPDATE=${COMMPROF_UPDATE_GOLDEN:-0}

T=$(mktemp -d "${TMPDIR:-/tmp}/commprof-report.XXXXXX") || { fail setup "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
cd "$T" || { fail setup "cd $T"; finish; }
ulimit -c 0 2>/dev/null

missing=
for t in xmllint python3 gcc timeout od; do
    command -v "$t" >/dev/null 2>&1 || missing+=" $t"
done
[[ -x $CPR ]] || missing+=" $CPR (run make)"
if [[ -n $missing ]]; then fail prerequisites "not found:$missing"; finish; fi

# the inputs are used through relative paths, so that outputs name them the
# same way wherever the tree is
mkdir in && cp "$IN"/*.xml in/ || { fail setup "cannot copy $IN"; finish; }

# ---------------------------------------------------------------------------
# helpers

# r CMD...: runs CMD with stdout/stderr in $T/out, $T/err, status in $rc
r() {
    timeout 120 "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# one_line FILE: exactly one non-empty line
one_line() { [[ $(wc -l <"$1") -eq 1 && -s $1 ]]; }

# usage NAME CMD...: exit 1, one line on stderr naming commprof-report, no stdout
usage() {
    local name=$1
    shift
    r "$@"
    if ((rc != 1)); then
        fail "$name" "exit $rc (expected 1): $(head -c 300 "$T/err")"
    elif ! one_line "$T/err" || ! grep -q '^commprof-report' "$T/err"; then
        fail "$name" "stderr is not one commprof-report line: $(head -c 300 "$T/err")"
    elif [[ -s $T/out ]]; then
        fail "$name" "unexpected stdout: $(head -c 200 "$T/out")"
    else
        pass "$name"
    fi
}

# bad_input NAME FILE [BIN [COMMANDS]]: every command (default: all that read
# a profile) exits 2 with one line "commprof-report: FILE:LINE: message"
# (FILE: message for open errors)
ALL_READERS=("validate" "summary" "graph" "matrix" "partition -k 1" "diff @F@" "merge -o $T/merged-bad.xml")
bad_input() {
    local name=$1 file=$2 bin=${3:-$CPR} cmd why=
    local -a cmds=("${ALL_READERS[@]}")
    [[ -n ${4:-} ]] && read -r -a cmds <<<"$4"
    local re="^commprof-report: $(printf '%s' "$file" | sed 's/[.[\*^$/]/\\&/g')(:[0-9]+)?: .+$"
    for cmd in "${cmds[@]}"; do
        cmd=${cmd//@F@/$file}
        # shellcheck disable=SC2086
        r "$bin" $cmd "$file"
        if ((rc != 2)); then
            why="$cmd: exit $rc (expected 2): $(head -c 300 "$T/err")"
        elif ! one_line "$T/err"; then
            why="$cmd: stderr is not one line: $(head -c 400 "$T/err")"
        elif ! grep -Eq "$re" "$T/err"; then
            why="$cmd: stderr does not match $re: $(head -c 300 "$T/err")"
        elif [[ -s $T/out ]]; then
            why="$cmd: unexpected stdout: $(head -c 200 "$T/out")"
        fi
        [[ -n $why ]] && break
    done
    [[ -e $T/merged-bad.xml ]] && why=${why:-"merge wrote $T/merged-bad.xml"}
    rm -f "$T/merged-bad.xml"
    if [[ -n $why ]]; then fail "$name" "$why"; else pass "$name"; fi
}

# normalise: no Graphviz version comments, no temporary directory
norm() { sed -e '/^<!-- Generated by graphviz/,/-->/d' -e "s|$T|@TMP@|g"; }

# golden NAME CMD...: stdout of CMD (exit 0) equals tests/report/golden/NAME
golden() {
    local name=$1
    shift
    r "$@"
    if ((rc != 0)); then
        fail "golden-$name" "exit $rc: $(head -c 300 "$T/err")"
        return
    fi
    norm <"$T/out" >"$T/golden.out"
    if [[ $UPDATE == 1 ]]; then
        mkdir -p "$GOLD" && cp "$T/golden.out" "$GOLD/$name"
        pass "golden-$name (updated)"
    elif [[ ! -f $GOLD/$name ]]; then
        fail "golden-$name" "no file tests/report/golden/$name (COMMPROF_UPDATE_GOLDEN=1 to create it)"
    elif ! diff -u "$GOLD/$name" "$T/golden.out" >"$T/golden.diff"; then
        fail "golden-$name" "differs: $(head -c 500 "$T/golden.diff")"
    else
        pass "golden-$name"
    fi
}

# golden_file NAME FILE: like golden, for a file a command wrote
golden_file() {
    local name=$1 file=$2
    norm <"$file" >"$T/golden.out"
    if [[ $UPDATE == 1 ]]; then
        mkdir -p "$GOLD" && cp "$T/golden.out" "$GOLD/$name"
        pass "golden-$name (updated)"
    elif [[ ! -f $GOLD/$name ]]; then
        fail "golden-$name" "no file tests/report/golden/$name"
    elif ! diff -u "$GOLD/$name" "$T/golden.out" >"$T/golden.diff"; then
        fail "golden-$name" "differs: $(head -c 500 "$T/golden.diff")"
    else
        pass "golden-$name"
    fi
}

# check NAME CMD...: PASS if CMD succeeds, else FAIL with its output
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "${out:-exit status $?}"; fi
}

# magic FILE HEX: the file starts with these bytes
magic() { [[ $(od -An -tx1 -N $((${#2} / 2)) "$1" 2>/dev/null | tr -d ' \n') == "$2" ]]; }

# ---------------------------------------------------------------------------
# 1. the command line

r "$CPR" --help
if ((rc == 0)) && grep -q '^Usage: commprof-report' "$T/out" &&
    [[ $(grep -cE '^  (summary|graph|matrix|timeline|diff|merge|partition|validate) ' "$T/out") -eq 8 ]]; then
    pass help
else
    fail help "exit $rc: $(head -c 300 "$T/out")"
fi
bad=
for c in summary graph matrix timeline diff merge partition validate; do
    r "$CPR" "$c" --help
    if ((rc != 0)) || ! grep -q "^Usage: commprof-report.*$c" "$T/out" || [[ -s $T/err ]]; then bad+=" $c"; fi
    r "$CPR" help "$c"
    ((rc == 0)) && grep -q "^Usage: commprof-report.*$c" "$T/out" || bad+=" help-$c"
done
if [[ -z $bad ]]; then pass help-commands; else fail help-commands "bad help for:$bad"; fi
r "$CPR" --version
if ((rc == 0)) && grep -Eq '^commprof-report [0-9]+\.[0-9]+' "$T/out"; then pass version; else fail version "$(cat "$T/out" "$T/err")"; fi

usage usage-no-args "$CPR"
usage usage-unknown-command "$CPR" frobnicate in/pipeline.xml
usage usage-help-unknown "$CPR" help frobnicate
usage usage-unknown-option "$CPR" summary --bogus in/pipeline.xml
usage usage-unknown-short "$CPR" summary -z in/pipeline.xml
usage usage-missing-value "$CPR" summary in/pipeline.xml -o
usage usage-top-not-number "$CPR" summary --top=ten in/pipeline.xml
usage usage-top-negative "$CPR" summary --top=-1 in/pipeline.xml
usage usage-threshold-range "$CPR" summary --threshold=101 in/pipeline.xml
usage usage-threshold-junk "$CPR" summary --threshold=5x in/pipeline.xml
usage usage-sort-field "$CPR" summary --sort=colour in/pipeline.xml
usage usage-sort-table "$CPR" summary --table=edges --sort=calls in/pipeline.xml
usage usage-table "$CPR" summary --table=both in/pipeline.xml
usage usage-csv-all "$CPR" summary --csv --table=all in/pipeline.xml
usage usage-summary-two "$CPR" summary in/pipeline.xml in/pipeline2.xml
usage usage-graph-format "$CPR" graph --format=gif in/pipeline.xml
usage usage-graph-extension "$CPR" graph -o "$T/g.gif" in/pipeline.xml
usage usage-graph-layout "$CPR" graph --layout=circo in/pipeline.xml
usage usage-graph-max-nodes "$CPR" graph --max-nodes=0 in/pipeline.xml
usage usage-graph-focus "$CPR" graph --focus=no_such_function in/pipeline.xml
usage usage-matrix-field "$CPR" matrix --field=time in/pipeline.xml
usage usage-diff-one "$CPR" diff in/pipeline.xml
usage usage-merge-no-output "$CPR" merge in/pipeline.xml in/pipeline2.xml
usage usage-merge-no-input "$CPR" merge -o "$T/m.xml"
usage usage-partition-no-k "$CPR" partition in/twoclusters.xml
usage usage-partition-k0 "$CPR" partition -k 0 in/twoclusters.xml
usage usage-partition-too-many "$CPR" partition -k 9 in/twoclusters.xml
usage usage-partition-imbalance "$CPR" partition -k 2 --imbalance=-1 in/twoclusters.xml
usage usage-partition-graph-no-o "$CPR" partition -k 2 --graph in/twoclusters.xml
usage usage-validate-nothing "$CPR" validate
usage usage-sort-objects-field "$CPR" summary --table=objects --sort=in in/sections.xml
usage usage-sort-calls-field "$CPR" summary --table=calls --sort=bytes in/sections.xml
usage usage-csv-no-table "$CPR" summary --csv --table=all in/sections.xml
usage usage-matrix-of "$CPR" matrix --of=phases in/sections.xml
usage usage-matrix-objects-field "$CPR" matrix --of=objects --field=unma in/sections.xml
usage usage-matrix-functions-field "$CPR" matrix --field=read in/sections.xml
usage usage-matrix-threads-field "$CPR" matrix --of=threads --field=accesses in/sections.xml
usage usage-timeline-field "$CPR" timeline --field=time in/sections.xml
usage usage-timeline-top "$CPR" timeline --top=0 in/sections.xml
usage usage-timeline-top-13 "$CPR" timeline --top=13 in/sections.xml
usage usage-timeline-format "$CPR" timeline --format=png in/sections.xml
usage usage-timeline-no-profile "$CPR" timeline
usage usage-timeline-two "$CPR" timeline in/sections.xml in/sections2.xml
usage usage-graph-two-modes "$CPR" graph --objects --threads in/sections.xml
usage usage-diff-table "$CPR" diff --table=phases in/sections.xml in/sections2.xml

# ---------------------------------------------------------------------------
# 2. error paths of the reader

mkdir bad
P=in/pipeline.xml
: >bad/empty.xml
printf 'this is not XML\n' >bad/text.xml
printf '\x00\x01\x02\xff\xfe' >bad/binary.xml
head -c 2500 "$P" >bad/truncated.xml
sed '/<\/commprof>/d' "$P" >bad/unclosed.xml
cat >bad/billion-laughs.xml <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE commprof [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<commprof version="1"><run><tool name="commprof" version="1"/><exe>&lol9;</exe></run></commprof>
EOF
echo "SECRET-$$-hostname" >secret.txt
cat >bad/xxe.xml <<EOF
<?xml version="1.0"?>
<!DOCTYPE commprof [ <!ENTITY x SYSTEM "file://$T/secret.txt"> ]>
<commprof version="1"><run><tool name="commprof" version="1"/><exe>&x;</exe></run></commprof>
EOF
cat >bad/external-dtd.xml <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE commprof SYSTEM "http://127.0.0.1:9/commprof.dtd">
<commprof version="1"/>
EOF
cat >bad/undeclared-entity.xml <<'EOF'
<?xml version="1.0"?>
<commprof version="1"><run><tool name="commprof" version="1"/><exe>&nothere;</exe></run></commprof>
EOF
printf '<?xml version="1.0"?>\n<profile version="1"/>\n' >bad/wrong-root.xml
sed 's/<commprof version="1">/<commprof version="2">/' "$P" >bad/wrong-version.xml
sed 's/<commprof version="1">/<commprof xmlns="urn:x" version="1">/' "$P" >bad/namespace.xml
sed 's/instructions="200000"/instructions="-200000"/' "$P" >bad/number-negative.xml
sed 's/instructions="200000"/instructions="+200000"/' "$P" >bad/number-plus.xml
sed 's/instructions="200000"/instructions=" 200000"/' "$P" >bad/number-space.xml
sed 's/instructions="200000"/instructions="0200000"/' "$P" >bad/number-leading-zero.xml
sed 's/instructions="200000"/instructions="2e5"/' "$P" >bad/number-exponent.xml
sed 's/instructions="200000"/instructions="18446744073709551616"/' "$P" >bad/number-overflow64.xml
sed 's/function id="3"/function id="4294967296"/' "$P" >bad/number-overflow32.xml
sed 's/<pid>4242</<pid>-1</' "$P" >bad/pid-negative.xml
sed 's/producer="3" consumer="4"/producer="99" consumer="4"/' "$P" >bad/dangling-producer.xml
sed 's/producer="3" consumer="4"/producer="3" consumer="77"/' "$P" >bad/dangling-consumer.xml
sed 's/function id="4"/function id="3"/' "$P" >bad/duplicate-id.xml
sed 's/producer="4" consumer="5"/producer="3" consumer="4"/' "$P" >bad/duplicate-edge.xml
sed 's/producer="4" consumer="5"/producer="4" consumer="4"/' "$P" >bad/self-edge.xml
sed 's/bytes="1018" unma="612"/bytes="0" unma="612"/' "$P" >bad/zero-bytes.xml
sed 's/kind="function" name="main"/kind="procedure" name="main"/' "$P" >bad/wrong-kind.xml
sed 's/ name="main"/ name=""/' "$P" >bad/empty-name.xml
sed 's/ calls="1" bytes-read/ bytes-read/' "$P" >bad/missing-attribute.xml
sed 's/<end reason="exit"\/>/<end reason="exit"\/><extra\/>/' "$P" >bad/unknown-element.xml
sed 's/<thread id="2"/<thread id="1"/' "$P" >bad/thread-duplicate-id.xml
sed 's/ parent="1" name="smoother/ parent="9" name="smoother/' "$P" >bad/thread-unknown-parent.xml
sed 's/<cell producer="2" consumer="1"/<cell producer="3" consumer="1"/' "$P" >bad/thread-cell-unknown.xml
sed 's/<cell producer="1" consumer="2"/<cell producer="1" consumer="1"/' "$P" >bad/thread-cell-duplicate.xml
sed 's/<edge producer="4" producer-thread="2" consumer="5"/<edge producer="44" producer-thread="2" consumer="5"/' "$P" \
    >bad/thread-edge-unknown-function.xml
sed 's/producer-thread="2" consumer="5" consumer-thread="1"/producer-thread="2" consumer="5" consumer-thread="7"/' "$P" \
    >bad/thread-edge-unknown-thread.xml
sed '/<thread-matrix>/,$d' "$P" >bad/no-threads-end.xml
# edges before functions
python3 - "$P" >bad/edges-first.xml <<'EOF'
import re, sys
s = open(sys.argv[1]).read()
f = re.search(r'  <functions>.*?</functions>\n', s, re.S).group(0)
e = re.search(r'  <edges>.*?</edges>\n', s, re.S).group(0)
print(s.replace(f, '@F@').replace(e, f).replace('@F@', e), end='')
EOF
python3 -c 'print("<commprof>" * 100000)' >bad/deep.xml
mkdir bad/directory.xml

# the sections of --objects, COMMPROF_PHASE, --time-slice, --per-call, --first-read,
# --separate-callers and regions (from in/sections.xml)
S=in/sections.xml
sed 's/<flow producer="2" object="1" consumer="3"/<flow producer="2" object="9" consumer="3"/' "$S" >bad/s-flow-unknown-object.xml
sed 's/<flow producer="2" object="1"/<flow producer="77" object="1"/' "$S" >bad/s-flow-unknown-function.xml
sed 's/<object id="2" kind="static"/<object id="1" kind="static"/' "$S" >bad/s-object-duplicate-id.xml
sed 's/ thread="1" first-access/ thread="5" first-access/' "$S" >bad/s-object-unknown-thread.xml
sed 's/alloc-pct="97.6"/alloc-pct="97.65"/' "$S" >bad/s-object-bad-pct.xml
sed 's/kind="named"/kind="mapped"/' "$S" >bad/s-object-kind.xml
sed 's/<object id="4" kind="section" name=".bss"/<object id="4" kind="section" name=""/' "$S" >bad/s-object-empty-name.xml
sed 's/<phase id="2"/<phase id="1"/' "$S" >bad/s-phase-duplicate-id.xml
sed 's/consumer="5" consumer-phase="2"/consumer="5" consumer-phase="7"/' "$S" >bad/s-phase-edge-unknown-phase.xml
sed 's/<edge producer="4" producer-phase="2"/<edge producer="40" producer-phase="2"/' "$S" >bad/s-phase-edge-unknown-function.xml
sed 's/<edge producer="2" producer-phase="1" consumer="3" consumer-phase="1"/<edge producer="3" producer-phase="1" consumer="3" consumer-phase="1"/' \
    "$S" >bad/s-phase-edge-self.xml
sed 's/<slice i="2" d="2:8000,0,2400,0"/<slice i="2" d="2:8000,0,2400"/' "$S" >bad/s-slice-d-missing-field.xml
sed 's/<slice i="8" d="3:10000/<slice i="8" d="3:010000/' "$S" >bad/s-slice-d-leading-zero.xml
sed 's/d="2:4000,0,2000,0 3:6000/d="2:4000,0,2000,0  3:6000/' "$S" >bad/s-slice-d-double-space.xml
sed 's/<slice i="8" d="3:10000,2000,1000,2000"/<slice i="8" d="3:10000,2000,1000,2000 "/' "$S" >bad/s-slice-d-trailing-space.xml
sed 's/<slice i="9" d="3:10000,/<slice i="9" d="3:18446744073709551616,/' "$S" >bad/s-slice-d-overflow.xml
sed 's/<slice i="10" d="3:10000,/<slice i="10" d="3:1e4,/' "$S" >bad/s-slice-d-letters.xml
sed 's/<slice i="11" d="[^"]*"/<slice i="11" d=""/' "$S" >bad/s-slice-d-empty.xml
sed 's/<slice i="13" d="3:/<slice i="13" d="4294967296:/' "$S" >bad/s-slice-d-id-overflow.xml
sed 's/<slice i="0" d="1:/<slice i="0" d="9:/' "$S" >bad/s-slice-unknown-function.xml
sed 's/d="1:4000,800,500,0 2:6000/d="1:4000,800,500,0 1:6000/' "$S" >bad/s-slice-function-twice.xml
sed 's/<slice i="3"/<slice i="2"/' "$S" >bad/s-slice-order.xml
sed 's/<time-slices size="10000">/<time-slices size="0">/' "$S" >bad/s-slice-size-zero.xml
sed 's/functions="1 2"/functions="1 22"/' "$S" >bad/s-span-unknown-function.xml
sed 's/first-slice="2" last-slice="6"/first-slice="6" last-slice="2"/' "$S" >bad/s-span-reversed.xml
sed 's/<call function="2"/<call function="12"/' "$S" >bad/s-call-unknown-function.xml
sed 's/<caller function="4"\/>/<caller function="44"\/>/' "$S" >bad/s-call-unknown-caller.xml
sed 's/<consumed producer="3" bytes="40"\/>/<consumed producer="33" bytes="40"\/>/' "$S" >bad/s-call-unknown-producer.xml
sed 's/<object id="3" read-bytes="500"/<object id="13" read-bytes="500"/' "$S" >bad/s-call-unknown-object.xml
sed 's/locality="0.875"/locality="1.875"/' "$S" >bad/s-call-locality.xml
sed 's/first-seq="2" last-seq="5"/first-seq="6" last-seq="5"/' "$S" >bad/s-call-seq-reversed.xml
sed 's/ base="3" callers="1"/ base="33" callers="1"/' "$S" >bad/s-context-unknown-base.xml
sed 's/ base="3" callers="1"/ base="3" callers="1 99"/' "$S" >bad/s-context-unknown-caller.xml
sed 's/ base="3" callers="1"/ base="3" callers="1  2"/' "$S" >bad/s-context-callers-malformed.xml
sed 's/ base="3" callers="1"/ base="3"/' "$S" >bad/s-context-no-callers.xml
sed 's/accesses="4000" first-read="4000"/accesses="4000" first-read="16001"/' "$S" >bad/s-first-read-too-large.xml
sed 's/kind="region" name="hot loop" object=""/kind="region" name="hot loop" object="\/opt\/app"/' "$S" >bad/s-region-object.xml
sed '/<objects>/,/<\/objects>/d' "$S" >bad/s-flows-without-objects.xml
# the same key twice in one file (a line repeated) would be counted twice
sed '/<flow producer="2" object="1" consumer="3"/p' "$S" >bad/s-flow-duplicate.xml
sed '/<edge producer="2" producer-thread="1" consumer="3" consumer-thread="1"/p' "$S" >bad/s-thread-edge-duplicate.xml
sed '/<edge producer="2" producer-phase="1" consumer="3" consumer-phase="2"/p' "$S" >bad/s-phase-edge-duplicate.xml
sed '/<span first-slice="2" last-slice="6"/p' "$S" >bad/s-span-duplicate.xml
sed '/<time-slices/,/<\/time-slices>/d' "$S" >bad/s-spans-without-slices.xml

for f in bad/*.xml; do
    n=${f#bad/}
    bad_input "error-${n%.xml}" "$f"
done
bad_input error-missing-file bad/no-such-file.xml
# an empty file and a callgrind-format file: the message says what is wrong
: >empty.xml
printf '# callgrind format\nversion: 1\ncreator: commprof\n' >profile.out
for f in empty.xml profile.out; do
    bad_input "error-not-xml-$f" "$f"
done
r "$CPR" summary empty.xml
check error-empty-says-so grep -q 'empty.xml: is empty: no profile in it$' "$T/err"
r "$CPR" summary profile.out
check error-callgrind-says-so grep -q 'profile.out:1: empty, or not an XML document (.*callgrind-format' "$T/err"
if grep -rq "SECRET-$$" "$T/out" "$T/err" 2>/dev/null; then
    fail error-xxe-no-leak "the external entity was read"
else
    r "$CPR" summary bad/xxe.xml
    if grep -q "SECRET-$$" "$T/out" "$T/err"; then fail error-xxe-no-leak "the external entity was read"; else pass error-xxe-no-leak; fi
fi
# the error line names the line of the problem
r "$CPR" validate bad/dangling-producer.xml
want=$(grep -n 'producer="99"' bad/dangling-producer.xml | cut -d: -f1)
if grep -q "^commprof-report: bad/dangling-producer.xml:$want: edge 99 -> 4: no function with id 99$" "$T/err"; then
    pass error-line-number
else
    fail error-line-number "expected line $want: $(cat "$T/err")"
fi
# a DOCTYPE's error line is a line of the file, the same on every run (an xmlDtd
# node has no line field: reading one gave bits of a pointer)
lines=()
for i in 1 2 3; do
    r "$CPR" validate bad/external-dtd.xml
    lines+=("$(sed -n 's/^commprof-report: bad\/external-dtd.xml:\([0-9]*\): DOCTYPE.*/\1/p' "$T/err")")
done
nl=$(wc -l <bad/external-dtd.xml)
if [[ -n ${lines[0]} && ${lines[0]} == "${lines[1]}" && ${lines[0]} == "${lines[2]}" && ${lines[0]} -le $((nl + 1)) ]]; then
    pass error-doctype-line
else
    fail error-doctype-line "lines ${lines[*]} of a $nl-line file: $(cat "$T/err")"
fi
# every mutation above really changed the file
same=
for f in bad/*.xml; do
    [[ -f $f ]] && { cmp -s "$f" "$P" || cmp -s "$f" "$S"; } && same+=" $f"
done
if [[ -z $same ]]; then pass error-inputs-mutated; else fail error-inputs-mutated "unchanged:$same"; fi
r "$CPR" validate bad/s-slice-d-leading-zero.xml
want=$(grep -n '<slice i="8"' bad/s-slice-d-leading-zero.xml | cut -d: -f1)
if grep -Eq "^commprof-report: bad/s-slice-d-leading-zero.xml:$want: " "$T/err"; then
    pass error-line-number-slice
else
    fail error-line-number-slice "expected line $want: $(cat "$T/err")"
fi
r "$CPR" validate bad/s-slice-function-twice.xml
if grep -q ':[0-9]*: <slice i="1">: record 2: function 1 appears twice$' "$T/err"; then
    pass error-slice-message
else
    fail error-slice-message "$(cat "$T/err")"
fi
# a file cut anywhere says so on its last line, whatever the parser's words
# for the cut (in the declaration, a comment, a tag name, an attribute value,
# between elements, in the last end tag); text after the root is not a cut
n=$(wc -c <"$P")
for c in 30 100 2500 5000 $(head -n 60 "$P" | wc -c) $((n - 20)) $((n - 3)); do
    head -c "$c" "$P" >bad/cut.xml
    want=$(awk 'END { print NR }' bad/cut.xml)
    r "$CPR" summary bad/cut.xml
    if ((rc == 2)) && [[ $(cat "$T/err") == "commprof-report: bad/cut.xml:$want: the file ends before the document does (truncated?)" ]]; then
        pass "error-truncated-at-$c"
    else
        fail "error-truncated-at-$c" "exit $rc, expected line $want: $(cat "$T/err")"
    fi
done
head -c 2000 "$P" | "$CPR" summary - >/dev/null 2>"$T/err"
check error-truncated-stdin grep -qx 'commprof-report: <stdin>:29: the file ends before the document does (truncated?)' "$T/err"
{ cat "$P"; echo junk; } >bad/after-root.xml
r "$CPR" summary bad/after-root.xml
check error-after-root-not-truncated grep -qx "commprof-report: bad/after-root.xml:$(($(wc -l <"$P") + 1)): Extra content at the end of the document" "$T/err"
rm -f bad/cut.xml bad/after-root.xml
# a duplicate is refused at its second line, with the message of duplicate edges
for d in "flow-duplicate:<flow producer=\"2\" object=\"1\":flow 2 -> object 1 -> 3 appears twice" \
    "thread-edge-duplicate:<edge producer=\"2\" producer-thread=\"1\":thread edge 2 [thread 1] -> 3 [thread 1] appears twice" \
    "phase-edge-duplicate:<edge producer=\"2\" producer-phase=\"1\" consumer=\"3\" consumer-phase=\"2\":phase edge 2 [phase 1] -> 3 [phase 2] appears twice" \
    "span-duplicate:<span first-slice=\"2\":<span> of slices 2-6 appears twice"; do
    IFS=: read -r n pat msg <<<"$d"
    f=bad/s-$n.xml
    want=$(grep -nF "$pat" "$f" | sed -n '2s/:.*//p')
    r "$CPR" summary "$f"
    if ((rc == 2)) && [[ $(cat "$T/err") == "commprof-report: $f:$want: $msg" ]]; then
        pass "error-$n-message"
    else
        fail "error-$n-message" "exit $rc, expected line $want: $(cat "$T/err")"
    fi
done
# a command that needs a section the profile lacks: exit 2, one line naming the file
no_section() {
    local name=$1
    shift
    r "$@"
    if ((rc == 2)) && one_line "$T/err" && grep -q '^commprof-report: in/pipeline.xml: ' "$T/err" && [[ ! -s $T/out ]]; then
        pass "$name"
    else
        fail "$name" "exit $rc: $(head -c 300 "$T/err")"
    fi
}
no_section error-timeline-no-slices "$CPR" timeline in/pipeline.xml
no_section error-summary-no-objects "$CPR" summary --table=objects in/pipeline.xml
no_section error-summary-no-phases "$CPR" summary --table=phases in/pipeline.xml
no_section error-summary-no-calls "$CPR" summary --csv --table=calls in/pipeline.xml
no_section error-summary-sort-no-first-read "$CPR" summary --table=edges --sort=first-read in/pipeline.xml
no_section error-summary-csv-sort-no-first-read "$CPR" summary --csv --table=edges --sort=first-read in/pipeline.xml
no_section error-graph-no-objects "$CPR" graph --objects in/pipeline.xml
no_section error-graph-no-phases "$CPR" graph --phases -o "$T/nophase.svg" in/pipeline.xml
no_section error-matrix-no-objects "$CPR" matrix --of=objects in/pipeline.xml
if [[ -e $T/nophase.svg ]]; then fail error-graph-no-output "graph wrote $T/nophase.svg"; else pass error-graph-no-output; fi
# the embedded schema is the current docs/commprof.rng
sh "$ROOT/commprof/report/embed.sh" "$RNG" "$T/schema-rng.c"
if cmp -s "$T/schema-rng.c" "$BUILDDIR/commprof/report/schema-rng.c"; then
    pass schema-embedded-up-to-date
else
    fail schema-embedded-up-to-date "commprof/report/schema-rng.c differs from docs/commprof.rng (make commprof/report/commprof-report)"
fi
# standard input
r bash -c '"$1" validate - <in/pipeline.xml' _ "$CPR"
if ((rc == 0)) && grep -q '^-: valid (13 functions, 12 edges)$' "$T/out"; then pass stdin; else fail stdin "exit $rc: $(cat "$T/out" "$T/err")"; fi
r bash -c '"$1" summary - <bad/dangling-producer.xml' _ "$CPR"
if ((rc == 2)) && grep -q '^commprof-report: <stdin>:[0-9]*: edge 99 -> 4' "$T/err"; then pass stdin-error; else fail stdin-error "exit $rc: $(cat "$T/err")"; fi
# an unwritable output
r "$CPR" summary -o "$T/no/such/dir/out.txt" "$P"
if ((rc == 2)) && one_line "$T/err" && grep -q "^commprof-report: $T/no/such/dir/out.txt: cannot write: " "$T/err"; then
    pass error-unwritable-output
else
    fail error-unwritable-output "exit $rc: $(cat "$T/err")"
fi
r "$CPR" merge -o "$T/no/such/dir/m.xml" "$P" in/pipeline2.xml
if ((rc == 2)) && one_line "$T/err"; then pass error-merge-unwritable; else fail error-merge-unwritable "exit $rc: $(cat "$T/err")"; fi
# -o FILE is written whole or not at all: a graph rendered by Graphviz (which
# calls exit(1), silently, on a write error) or written as DOT, and a table,
# to a missing directory or a full device: exit 2, one line; an older FILE is
# kept when writing fails, no temporary file is left, devices stay devices
for x in svg dot; do
    r "$CPR" graph -o "$T/no/such/dir/g.$x" "$P"
    if ((rc == 2)) && [[ $(cat "$T/err") == "commprof-report: $T/no/such/dir/g.$x: cannot write: No such file or directory" &&
        ! -s $T/out ]]; then
        pass "error-unwritable-graph-$x"
    else
        fail "error-unwritable-graph-$x" "exit $rc: $(cat "$T/err")"
    fi
done
if [[ -c /dev/full ]]; then
    for a in "graph --format=svg" "graph --format=png" "graph --format=dot" "summary" "matrix --format=svg"; do
        # shellcheck disable=SC2086
        r "$CPR" $a -o /dev/full "$P"
        if ((rc == 2)) && [[ $(cat "$T/err") == "commprof-report: /dev/full: write error: No space left on device" ]] &&
            [[ -c /dev/full ]]; then
            pass "error-dev-full-${a// /}"
        else
            fail "error-dev-full-${a// /}" "exit $rc: $(cat "$T/err"); $(ls -l /dev/full)"
        fi
        if [[ ! -c /dev/full ]] && (($(id -u) == 0)); then rm -f /dev/full && mknod -m 666 /dev/full c 1 7; fi
    done
fi
mkdir -p keep && echo old >keep/g.svg && echo old >keep/t.txt
r "$CPR" graph -o keep/g.svg bad/dangling-producer.xml
r2=$rc
r "$CPR" summary -o keep/t.txt bad/dangling-producer.xml
if ((r2 == 2 && rc == 2)) && [[ $(cat keep/g.svg keep/t.txt) == $'old\nold' ]]; then
    pass error-output-kept
else
    fail error-output-kept "exit $r2, $rc: $(head -c 100 keep/g.svg keep/t.txt)"
fi
r "$CPR" graph -o keep/g.svg "$P"
if ((rc == 0)) && xmllint --noout keep/g.svg 2>/dev/null && [[ $(ls keep) == $'g.svg\nt.txt' ]]; then
    pass output-replaced-no-temporary
else
    fail output-replaced-no-temporary "exit $rc: $(ls keep)"
fi

# ---------------------------------------------------------------------------
# 3. golden outputs on hand-written profiles

golden summary.txt "$CPR" in/pipeline.xml
golden summary-default-command.txt "$CPR" summary in/pipeline.xml
golden summary-sort-out.txt "$CPR" summary --table=functions --sort=out --threshold=90 in/pipeline.xml
golden summary-edges-unma.txt "$CPR" summary --table=edges --sort=unma --top=5 --no-special in/pipeline.xml
golden summary-edges.csv "$CPR" summary --csv --table=edges in/pipeline.xml
golden summary-functions.csv "$CPR" summary --csv in/pipeline.xml
golden graph.dot "$CPR" graph in/pipeline.xml
golden graph-focus.dot "$CPR" graph --focus=smooth --depth=1 --no-special in/pipeline.xml
golden graph-top.dot "$CPR" graph --top=3 --format=dot in/pipeline.xml
golden matrix.txt "$CPR" matrix in/pipeline.xml
golden matrix.csv "$CPR" matrix --csv --field=unma in/pipeline.xml
golden matrix.svg "$CPR" matrix --format=svg in/pipeline.xml
# the legend lists only the functions that have a row or a column (the sixth
# function --top keeps has cells only with the special nodes left out)
golden matrix-top-legend.txt "$CPR" matrix --top=6 --no-special in/sections.xml
golden diff.txt "$CPR" diff in/pipeline.xml in/pipeline2.xml
golden diff-edges.csv "$CPR" diff --csv in/pipeline.xml in/pipeline2.xml
golden diff-functions.csv "$CPR" diff --csv --table=functions --all in/pipeline.xml in/pipeline2.xml
golden partition.txt "$CPR" partition -k 2 in/twoclusters.xml
golden partition-pipeline.txt "$CPR" partition -k 3 in/pipeline.xml
golden partition.csv "$CPR" partition -k 2 --csv in/twoclusters.xml
golden partition-graph.dot "$CPR" partition -k 2 --graph --format=dot in/twoclusters.xml
golden validate.txt "$CPR" validate in/pipeline.xml in/pipeline2.xml in/twoclusters.xml
r "$CPR" merge -o "$T/merged.xml" in/pipeline.xml in/pipeline2.xml
if ((rc == 0)); then golden_file merge.xml "$T/merged.xml"; else fail golden-merge.xml "exit $rc: $(cat "$T/err")"; fi
golden summary-merged.txt "$CPR" summary --top=4 "$T/merged.xml"
# merge -o onto a device, /dev/stdout or a symbolic link writes in place:
# renaming onto them would replace them by a plain file
r "$CPR" merge -o /dev/stdout in/pipeline.xml in/pipeline2.xml
why=
((rc == 0)) || why+="exit $rc: $(head -c 200 "$T/err"); "
[[ -L /dev/stdout ]] || why+="/dev/stdout is no longer a link; "
cmp -s "$T/out" "$T/merged.xml" || why+="stdout differs from merge -o FILE; "
if [[ -z $why ]]; then pass merge-to-dev-stdout; else fail merge-to-dev-stdout "$why"; fi
if [[ ! -L /dev/stdout ]] && (($(id -u) == 0)); then rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout; fi
r "$CPR" merge -o /dev/null in/pipeline.xml in/pipeline2.xml
if ((rc == 0)) && [[ -c /dev/null ]]; then pass merge-to-dev-null; else fail merge-to-dev-null "exit $rc, /dev/null: $(ls -l /dev/null)"; fi
if [[ ! -c /dev/null ]] && (($(id -u) == 0)); then rm -f /dev/null && mknod -m 666 /dev/null c 1 3; fi
rm -f "$T/real-merged.xml" "$T/link-merged.xml"
ln -s "$T/real-merged.xml" "$T/link-merged.xml"
r "$CPR" merge -o "$T/link-merged.xml" in/pipeline.xml in/pipeline2.xml
if ((rc == 0)) && [[ -L $T/link-merged.xml ]] && cmp -s "$T/real-merged.xml" "$T/merged.xml"; then
    pass merge-to-symlink
else
    fail merge-to-symlink "exit $rc: $(ls -l "$T/link-merged.xml" "$T/real-merged.xml" 2>&1)"
fi
[[ -n $(find "${TMPDIR:-/tmp}" -maxdepth 1 -name "commprof-merge.*" 2>/dev/null) ]] &&
    fail merge-in-place-no-tmp "left: $(find "${TMPDIR:-/tmp}" -maxdepth 1 -name "commprof-merge.*")"
# merge -o onto a regular file: through a temporary file beside it (no name
# known in advance), mode 0666 less the umask; a failed merge leaves the old
# file as it was and no temporary file
mkdir -p "$T/mo" && rm -f "$T/mo/"*
echo old >"$T/mo/m.xml"
chmod 600 "$T/mo/m.xml"
(umask 022 && timeout 120 "$CPR" merge -o "$T/mo/m.xml" in/pipeline.xml in/pipeline2.xml >"$T/out" 2>"$T/err")
rc=$?
why=
((rc == 0)) || why+="exit $rc: $(head -c 200 "$T/err"); "
cmp -s "$T/mo/m.xml" "$T/merged.xml" || why+="result differs from merge -o FILE; "
[[ $(stat -c %a "$T/mo/m.xml") == 644 ]] || why+="mode $(stat -c %a "$T/mo/m.xml"), not 644; "
[[ $(ls "$T/mo") == m.xml ]] || why+="left: $(ls "$T/mo" | tr '\n' ' '); "
cp "$T/mo/m.xml" "$T/mo.keep"
printf '<commprof' >"$T/trunc.xml"
r "$CPR" merge -o "$T/mo/m.xml" in/pipeline.xml "$T/trunc.xml"
((rc != 0)) || why+="a truncated input merged (exit 0); "
cmp -s "$T/mo/m.xml" "$T/mo.keep" || why+="the old output changed on a failed merge; "
[[ $(ls "$T/mo") == m.xml ]] || why+="left after the failure: $(ls "$T/mo" | tr '\n' ' '); "
if [[ -z $why ]]; then pass merge-atomic-file; else fail merge-atomic-file "$why"; fi

# threads named with a newline, which the kernel keeps (threadnames.xml, a
# profile of commprof/tests/threads-names-proc): the name shown escaped in
# tables and graphs; and its thread graph, whose edge labels between the
# clusters made Graphviz 2.43's dot layout free memory twice (an abort)
r "$CPR" graph --threads -o "$T/threadnames.svg" in/threadnames.xml
why=
((rc == 0)) || why+="exit $rc: $(head -c 200 "$T/err"); "
xmllint --noout "$T/threadnames.svg" 2>/dev/null || why+="SVG not well-formed; "
grep -q 'thread 2 (p\\nq)' "$T/threadnames.svg" || why+="no escaped name in the SVG; "
r "$CPR" summary --top=30 in/threadnames.xml
((rc == 0)) || why+="summary: exit $rc; "
grep -q 'thread 3 (abc\\n) -> thread 3 (abc\\n)' "$T/out" || why+="no escaped name in the summary; "
if [[ -z $why ]]; then pass threadnames-escaped; else fail threadnames-escaped "$why"; fi

# the other sections (in/sections.xml: objects, threads, phases, slices, calls,
# first-read bytes, a region and a caller context)
SX=in/sections.xml
golden summary-sections.txt "$CPR" "$SX"
golden summary-sections-edges.csv "$CPR" summary --csv --table=edges "$SX"
golden summary-sections-functions.csv "$CPR" summary --csv --table=functions "$SX"
golden summary-edges-first-read.txt "$CPR" summary --table=edges --sort=first-read "$SX"
golden summary-objects.txt "$CPR" summary --table=objects --sort=size --top=3 "$SX"
golden summary-objects-first.txt "$CPR" summary --table=objects --sort=first "$SX"
golden summary-objects.csv "$CPR" summary --csv --table=objects "$SX"
golden summary-threads.txt "$CPR" summary --table=threads "$SX"
golden summary-threads.csv "$CPR" summary --csv --table=threads --sort=id "$SX"
golden summary-phases.txt "$CPR" summary --table=phases "$SX"
golden summary-phases-bandwidth.txt "$CPR" summary --table=phases --sort=bandwidth --top=3 "$SX"
# --threshold cuts the cross-phase edges too (by bytes): 1 of 4 at 50%
golden summary-phases-threshold.txt "$CPR" summary --table=phases --threshold=50 "$SX"
golden summary-phases.csv "$CPR" summary --csv --table=phases "$SX"
golden summary-maip.txt "$CPR" summary --table=maip --no-special "$SX"
golden summary-maip-pipeline.txt "$CPR" summary --table=maip --sort=mar --top=5 in/pipeline.xml
golden summary-maip.csv "$CPR" summary --csv --table=maip "$SX"
# a percentage is printed whole whatever its size (it was cut at 16 bytes):
# 2^64-1 bytes in over 1 byte read, and cpr_fmt_pct itself on 1e300%
sed -e 's/in-bytes="66562"/in-bytes="18446744073709551615"/' -e 's/bytes-read="66562"/bytes-read="1"/' \
    in/pipeline.xml >"$T/hugepct.xml"
r "$CPR" summary --table=maip --threshold=100 "$T/hugepct.xml"
if ((rc == 0)) && grep -Eq ' -0\.998  1844674407370955161600\.00%  .*  main  pipeline\.c:80$' "$T/out"; then
    pass summary-huge-percentage
else
    fail summary-huge-percentage "exit $rc: $(grep '  main  ' "$T/out") $(head -c 200 "$T/err")"
fi
cat >"$T/pct.c" <<'EOF'
#include "cpr.h"
#include <stdlib.h>
#include <string.h>
static int is(char* s, const char* want) { int ok = !strcmp(s, want); free(s); return ok; }
int main(void)
{
    char* s = cpr_fmt_pct(1e300, 100); /* 1e300%: 301 digits, ".00%" */
    size_t n = strlen(s);
    int ok = n == 305 && !strncmp(s, "10000000000000000525", 20) && !strcmp(s + n - 4, ".00%");
    free(s);
    ok = ok && is(cpr_fmt_pct(1, 3), "33.33%") && is(cpr_fmt_pct(5, 0), "-");
    return !ok;
}
EOF
if gcc -D_GNU_SOURCE -I"$ROOT/commprof/report" -o "$T/pct" "$T/pct.c" "$ROOT/commprof/report/util.c" -lm 2>"$T/err" &&
    "$T/pct"; then
    pass fmt-pct-any-size
else
    fail fmt-pct-any-size "$(head -c 300 "$T/err")"
fi
golden summary-calls.txt "$CPR" summary --table=calls "$SX"
golden summary-calls.csv "$CPR" summary --csv --table=calls --sort=seq "$SX"
golden graph-sections.dot "$CPR" graph "$SX"
golden graph-objects.dot "$CPR" graph --objects "$SX"
golden graph-objects-top.dot "$CPR" graph --objects --no-special --top=2 "$SX"
golden graph-threads.dot "$CPR" graph --threads "$SX"
golden graph-phases.dot "$CPR" graph --phases --focus=produce "$SX"
golden matrix-objects.txt "$CPR" matrix --of=objects "$SX"
golden matrix-objects-written.csv "$CPR" matrix --of=objects --field=written --csv "$SX"
golden matrix-objects.svg "$CPR" matrix --of=objects --format=svg "$SX"
golden matrix-threads.txt "$CPR" matrix --of=threads "$SX"
golden matrix-threads-unma.csv "$CPR" matrix --of=threads --field=unma --csv "$SX"
golden timeline.svg "$CPR" timeline "$SX"
golden timeline.csv "$CPR" timeline --csv "$SX"
golden timeline-read.csv "$CPR" timeline --field=read --top=2 --no-special --format=csv "$SX"
golden diff-sections.txt "$CPR" diff in/sections.xml in/sections2.xml
golden diff-threads-to-zero.txt "$CPR" diff --table=threads in/sections.xml in/sections3.xml
golden diff-objects.csv "$CPR" diff --csv --table=objects --all in/sections.xml in/sections2.xml
golden diff-threads.csv "$CPR" diff --csv --table=threads in/sections.xml in/sections2.xml
golden validate-sections.txt "$CPR" validate in/sections.xml in/sections2.xml
r "$CPR" merge -o "$T/merged-sections.xml" in/sections.xml in/sections2.xml
if ((rc == 0)) && grep -q '^commprof-report: merge: phases, time slices, per-call records (in/sections.xml); phases, time slices, per-call records (in/sections2.xml) not merged' "$T/err"; then
    golden_file merge-sections.xml "$T/merged-sections.xml"
else
    fail golden-merge-sections.xml "exit $rc: $(cat "$T/err")"
fi
check merge-sections-valid xmllint --noout --relaxng "$RNG" "$T/merged-sections.xml"
golden summary-merged-objects.txt "$CPR" summary --table=objects "$T/merged-sections.xml"
check merge-sections-sums "$CPR" validate -q "$T/merged-sections.xml"

# validate checks the sums a profile satisfies (commprof/report/check.c): each
# input below breaks one of in/sections.xml's (sed expression | the message);
# validate exits 2 with that one line, and cp_edges refuses it too, while the
# other commands still read the file (a hand-edited profile can be summarised)
sums_cases=(
    's/bytes-read="2500" bytes-written="2000"/bytes-read="2501" bytes-written="2000"/|function 1 (main): bytes-read 2501 is not in-bytes + self-bytes (500 + 2000)'
    's/<edge producer="4" consumer="1" bytes="500" unma="500"/<edge producer="4" consumer="1" bytes="500" unma="501"/|edge hot loop -> main: unma (501) exceeds its bytes (500)'
    '/<function id="3" /s/ in-unma="4000"/ in-unma="3999"/|function 3 (filter<int>&): in-unma 3999 is not between the largest unma of its incoming edges (4000) and their sum (4000)'
    '/<function id="3" /s/ stack-loads="100"/ stack-loads="4001"/|function 3 (filter<int>&): stack-loads (4001) exceeds loads (4000)'
    's/comm-bytes="24864"/comm-bytes="24865"/|<totals> comm-bytes 24865 is not the edges'"'"' bytes (24864)'
    '/<thread id="1" /s/ in-bytes="8000"/ in-bytes="8001"/|thread 1: in-bytes 8001 is not the sum of its column of the thread matrix off the diagonal (8000)'
    '/<thread id="2" /s/ instructions="70300"/ instructions="70301"/|the threads'"'"' instructions add up to 170301, not to <totals> instructions (170300)'
    's/<edge producer="3" producer-thread="2" consumer="4" consumer-thread="1" bytes="8000"/<edge producer="3" producer-thread="2" consumer="4" consumer-thread="1" bytes="7000"/|thread edges filter<int>& -> hot loop: their bytes add up to 7000, not to the edge'"'"'s (8000)'
    's/consumer="4" consumer-thread="1" bytes="8000" unma="2000" accesses="2000"/consumer="4" consumer-thread="1" bytes="8000" unma="2000" accesses="2001"/|thread edge filter<int>&@2 -> hot loop@1: accesses 2001 exceed the edge'"'"'s (2000)'
    's/<cell producer="2" consumer="1" bytes="8000"/<cell producer="2" consumer="1" bytes="8001"/;/<thread id="1" /s/ in-bytes="8000"/ in-bytes="8001"/;/<thread id="2" /s/ out-bytes="8000"/ out-bytes="8001"/|thread-matrix cell 2 -> 1: bytes 8001 are not the sum of the thread edges between the two threads (8000, those of (library data) and (dynamic linker) left out)'
    '/<object id="0" kind="stack"/s/ read-bytes="2300"/ read-bytes="2301"/|object 0: read-bytes 2301 is not the sum of the flows through it (2300)'
    's/<flow producer="1" object="0" consumer="1" bytes="2000"/<flow producer="1" object="0" consumer="1" bytes="2001"/;/<object id="0" kind="stack"/s/ read-bytes="2300"/ read-bytes="2301"/|the flows from main to main through objects add up to 2001 bytes, more than its self-bytes (2000)'
    's/producer-phase="1" consumer="3" consumer-phase="2" bytes="4000"/producer-phase="1" consumer="3" consumer-phase="2" bytes="4001"/|the phase edges of produce -> filter<int>& add up to 16001 bytes, not to the edge'"'"'s (16000)'
    's/producer-phase="0" consumer="1" consumer-phase="2" bytes="200" unma="100"/producer-phase="0" consumer="1" consumer-phase="2" bytes="2001" unma="100"/|the phase edges of main to itself add up to 2001 bytes, more than its self-bytes (2000)'
    's/producer-phase="1" consumer="3" consumer-phase="1" bytes="12000" unma="3000"/producer-phase="1" consumer="3" consumer-phase="1" bytes="12000" unma="2999"/;s/producer-phase="1" consumer="3" consumer-phase="2" bytes="4000" unma="1000"/producer-phase="1" consumer="3" consumer-phase="2" bytes="4000" unma="1000"/|the phase edges of produce -> filter<int>& add up to 3999 unma, less than the edge'"'"'s (4000)'
    's/<phase-edges>/&\n    <edge producer="3" producer-phase="2" consumer="2" consumer-phase="2" bytes="10" unma="10"\/>/|phase edges filter<int>& -> produce: the pair has no edge'
    's/<slice i="9" d="3:10000,2000,1000,2000"/<slice i="9" d="3:10000,2000,1001,2000"/|function 3 (filter<int>&): its time-slice records add up to 8001 bytes-written, not to its bytes-written (8000)'
    's/<slice i="3" d="2:8000,0,2400,0"/<slice i="3" d="2:7000,0,2400,0 1:1000,0,0,0"/;s/<slice i="4" d="2:8000,/<slice i="4" d="2:9000,/;s/<slice i="0" d="1:5000,/<slice i="0" d="1:4000,/;s/first-slice="0" last-slice="0" functions="1" instructions="5000"/first-slice="0" last-slice="0" functions="1" instructions="4000"/|detected phase 3 covers slices 2-6, but its slices make it 2-2 (a maximal run of consecutive slices with the same active functions)'
    's/first-slice="7" last-slice="7" functions="2 3"/first-slice="7" last-slice="7" functions="3"/|detected phase 4 (slices 7-7): its functions are not those active in its slices (2, at least 1% of a slice'"'"'s instructions)'
    's/functions="4" instructions="20000" bytes-read="5200"/functions="4" instructions="20000" bytes-read="5201"/|detected phase 7 (slices 16-17): bytes-read 5201 is not the sum over its slices (5200)'
    '/<span first-slice="18"/d|slices 18-18 make a detected phase that <detected-phases> does not list'
    's/<span first-slice="18".*/&\n    <span first-slice="19" last-slice="19" functions="" instructions="0" bytes-read="0" bytes-written="0" in-bytes="0"\/>/|<detected-phases> lists 9 phases, but its slices make 8 (maximal runs of consecutive slices with the same active functions)'
)
k=0
for c in "${sums_cases[@]}"; do
    k=$((k + 1))
    sed -e "${c%%|*}" in/sections.xml >"sums-$k.xml"
    want="commprof-report: sums-$k.xml: ${c#*|}"
    r "$CPR" validate "sums-$k.xml"
    if cmp -s in/sections.xml "sums-$k.xml"; then
        fail "validate-sums-$k" "the sed expression changed nothing: ${c%%|*}"
    elif ((rc != 2)) || [[ -s $T/out ]] || [[ $(cat "$T/err") != "$want" ]]; then
        fail "validate-sums-$k" "exit $rc: $(head -c 400 "$T/err") (expected: $want)"
    else
        pass "validate-sums-$k"
    fi
    # the second implementation of the sums (commprof/tests/cp_edges, run by
    # every vgtest) refuses the same input
    if python3 "$ROOT/commprof/tests/cp_edges" "sums-$k.xml" --no-edges >"$T/out" 2>"$T/err"; then
        fail "cp-edges-sums-$k" "cp_edges accepted sums-$k.xml"
    elif ! grep -q "^cp_edges: sums-$k.xml: sums: " "$T/err"; then
        fail "cp-edges-sums-$k" "$(head -c 400 "$T/err")"
    else
        pass "cp-edges-sums-$k"
    fi
done
check validate-sums-summary-reads "$CPR" summary sums-1.xml
# a thread-local variable's object (kind tls, "NAME (thread N)") is renumbered with its
# thread, as a stack is: thread 2 of the second input is thread 4 of the merge
sed -e 's|^    <object id="4" kind="section"|    <object id="5" kind="tls" name="counter (thread 2)" symbol="counter" elf="/opt/app" size="8" blocks="0" total-bytes="8" peak-bytes="8" reads="3" read-bytes="24" writes="1" write-bytes="8" written-bytes="8" prod-bytes="8" alloc-pct="100.0" prod-pct="100.0" thread="2" first-access="5000" last-access="6000"/>\n&|' \
    in/sections.xml >"$T/tls.xml"
r "$CPR" merge -o "$T/merged-tls.xml" "$T/tls.xml" "$T/tls.xml"
why=""
((rc == 0)) || why+="exit $rc: $(head -c 300 "$T/err"); "
for n in 2 4; do
    grep -q "kind=\"tls\" name=\"counter (thread $n)\" symbol=\"counter\" .* thread=\"$n\"" "$T/merged-tls.xml" ||
        why+="no counter (thread $n); "
done
grep -q 'counter (thread 3)' "$T/merged-tls.xml" && why+="counter (thread 3) made up; "
xmllint --noout --relaxng "$RNG" "$T/tls.xml" "$T/merged-tls.xml" 2>/dev/null || why+="not valid; "
r "$CPR" summary --table=objects --threshold=100 "$T/merged-tls.xml"
grep -Eq ' tls +counter \(thread 4\)$' "$T/out" || why+="summary: $(grep counter "$T/out"); "
if [[ -z $why ]]; then pass merge-tls-objects; else fail merge-tls-objects "$why"; fi
# C++ statics: the demangled name and the symbol.  Two local statics of one name
# in one function (symbols ..E1n and ..E1n_0) stay two objects in a merge, the
# same symbol in both profiles is one, and the symbol attribute is kept.
sed 's/kind="static" name="table"/kind="static" name="ns::f()::n" symbol="_ZZN2ns1fEvE1n"/' \
    in/sections.xml >"$T/sym1.xml"
sed 's/kind="static" name="table"/kind="static" name="ns::f()::n" symbol="_ZZN2ns1fEvE1n_0"/' \
    in/sections2.xml >"$T/sym2.xml"
sed 's/kind="static" name="table"/kind="static" name="ns::f()::n" symbol="_ZZN2ns1fEvE1n"/' \
    in/sections2.xml >"$T/sym3.xml"
r "$CPR" merge -o "$T/merged-sym12.xml" "$T/sym1.xml" "$T/sym2.xml"
why=
((rc == 0)) || why+="exit $rc: $(cat "$T/err"); "
[[ $(grep -c 'name="ns::f()::n"' "$T/merged-sym12.xml") == 2 ]] || why+="not two objects ns::f()::n; "
grep -q 'name="ns::f()::n" symbol="_ZZN2ns1fEvE1n_0"' "$T/merged-sym12.xml" || why+="symbol not kept; "
xmllint --noout --relaxng "$RNG" "$T/merged-sym12.xml" 2>/dev/null || why+="merged file not valid; "
if [[ -z $why ]]; then pass merge-statics-by-symbol; else fail merge-statics-by-symbol "$why"; fi
r "$CPR" merge -o "$T/merged-sym13.xml" "$T/sym1.xml" "$T/sym3.xml"
if ((rc == 0)) && [[ $(grep -c 'name="ns::f()::n"' "$T/merged-sym13.xml") == 1 ]]; then
    pass merge-statics-same-symbol
else
    fail merge-statics-same-symbol "exit $rc: $(grep -c 'name="ns::f()::n"' "$T/merged-sym13.xml") objects ns::f()::n"
fi
sed 's/kind="static" name="table"/kind="static" name="table" symbol=""/' in/sections.xml >"$T/sym-empty.xml"
r "$CPR" validate "$T/sym-empty.xml"
if ((rc != 0)) && grep -q 'empty symbol\|symbol' "$T/err"; then pass error-empty-symbol; else fail error-empty-symbol "exit $rc: $(cat "$T/err")"; fi
# two static functions of one name without -g (no source file: kind, name,
# object and file in common) stay two nodes: the nth of one file matched with
# the nth of the other (merge refused the result for a self edge), and a
# diff of such a file with itself changes nothing
sed -E 's/(<function id="[34]" kind="function") name="(make_image|smooth)" object="\/home\/user\/pipeline" file="pipeline.c" dir="\/home\/user\/src" line="[0-9]+"/\1 name="st" object="\/home\/user\/pipeline" file="" dir="" line="0"/' \
    in/pipeline.xml >"$T/statics.xml"
r "$CPR" merge -o "$T/merged-statics.xml" "$T/statics.xml" "$T/statics.xml"
why=
((rc == 0)) || why+="exit $rc: $(cat "$T/err"); "
[[ $(grep -c 'name="st" ' "$T/statics.xml") == 2 ]] || why+="the input has not two st; "
[[ $(grep -c 'name="st" .* instructions="400000" ' "$T/merged-statics.xml") == 1 ]] || why+="make_image's st not summed; "
[[ $(grep -c 'name="st" .* instructions="1800000" ' "$T/merged-statics.xml") == 1 ]] || why+="smooth's st not summed; "
if [[ -z $why ]]; then pass merge-statics-without-file; else fail merge-statics-without-file "$why"; fi
r "$CPR" diff --csv "$T/statics.xml" "$T/statics.xml"
if ((rc == 0)) && [[ $(wc -l <"$T/out") == 1 ]]; then pass diff-statics-without-file-self; else fail diff-statics-without-file-self "exit $rc: $(head -c 300 "$T/out" "$T/err")"; fi
r "$CPR" diff --threshold=100 "$T/statics.xml" "$T/merged-statics.xml"
if ((rc == 0)) && grep -q '^Edges by absolute change of bytes: 12 of 12 changed edges shown' "$T/out"; then
    pass diff-statics-without-file-merged
else
    fail diff-statics-without-file-merged "exit $rc: $(grep '^Edges' "$T/out") $(head -c 300 "$T/err")"
fi
# the SVGs parse, names escaped
"$CPR" timeline -o "$T/tl.svg" "$SX" 2>"$T/err"
check timeline-svg-xml bash -c 'xmllint --noout "$1" && grep -q "filter&lt;int&gt;&amp;" "$1" && grep -q "detected phase 8: slices 18-18" "$1"' _ "$T/tl.svg"
"$CPR" matrix --of=objects -o "$T/mo.svg" "$SX" 2>"$T/err"
check matrix-objects-svg-xml bash -c 'xmllint --noout "$1" && grep -q "ring&lt;&amp;&gt;" "$1"' _ "$T/mo.svg"
"$CPR" matrix --of=threads -o "$T/mt.svg" "$SX" 2>"$T/err"
check matrix-threads-svg-xml bash -c 'xmllint --noout "$1" && grep -q "worker &lt;1&gt;" "$1"' _ "$T/mt.svg"
for m in objects threads phases; do
    "$CPR" graph --$m -o "$T/g-$m.svg" "$SX" 2>"$T/err"
    check graph-$m-svg xmllint --noout "$T/g-$m.svg"
done
check graph-threads-clusters bash -c 'grep -c "<title>cluster_" "$1" | grep -qx 2' _ "$T/g-threads.svg"
check graph-phases-clusters bash -c 'grep -c "<title>cluster_" "$1" | grep -qx 3 && grep -q "phase 1: load &amp; fill" "$1"' _ "$T/g-phases.svg"

# outputs that must parse as XML (names full of < > & " escaped)
"$CPR" graph -o "$T/pipeline.svg" in/pipeline.xml 2>"$T/err"
check graph-svg-xml xmllint --noout "$T/pipeline.svg"
check graph-svg-names grep -q 'operator&lt;&lt;(std::ostream&amp;, Image const&amp;)' "$T/pipeline.svg"
check graph-svg-disambiguated bash -c 'grep -q "helper \[a.c:5\]" "$1" && grep -q "helper \[b.c:7\]" "$1"' _ "$T/pipeline.svg"
check graph-svg-special-dashed grep -q 'stroke-dasharray' "$T/pipeline.svg"
check matrix-svg-xml bash -c '"$1" matrix -o "$2" in/pipeline.xml && xmllint --noout "$2"' _ "$CPR" "$T/m.svg"
check matrix-svg-names grep -q 'operator&quot;&quot;_kb(unsigned long long)' "$T/m.svg"
check merge-xml-valid xmllint --noout --relaxng "$RNG" "$T/merged.xml"
"$CPR" graph -o "$T/pipeline.png" in/pipeline.xml 2>"$T/err"
if magic "$T/pipeline.png" 89504e470d0a1a0a; then pass graph-png; else fail graph-png "not a PNG: $(cat "$T/err")"; fi
"$CPR" graph -o "$T/pipeline.pdf" in/pipeline.xml 2>"$T/err"
if magic "$T/pipeline.pdf" 255044462d; then pass graph-pdf; else fail graph-pdf "not a PDF: $(cat "$T/err")"; fi
"$CPR" graph --format=svg in/pipeline.xml >"$T/stdout.svg" 2>"$T/err"
check graph-svg-stdout xmllint --noout "$T/stdout.svg"
# the plugins are linked in: no need of Graphviz's plugin configuration
mkdir empty-gvbindir
r env GVBINDIR="$T/empty-gvbindir" "$CPR" graph -o "$T/nogv.svg" in/pipeline.xml
if ((rc == 0)) && xmllint --noout "$T/nogv.svg" 2>/dev/null; then
    pass graph-without-plugin-config
else
    fail graph-without-plugin-config "exit $rc: $(cat "$T/err")"
fi
"$CPR" partition -k 2 --graph -o "$T/parts.svg" in/twoclusters.xml 2>"$T/err"
check partition-graph-svg bash -c 'xmllint --noout "$1" && grep -q "cluster 1" "$1" && grep -q "cluster 2" "$1"' _ "$T/parts.svg"

# ---------------------------------------------------------------------------
# 4. partition quality

r "$CPR" partition -k 2 in/twoclusters.xml
if ((rc == 0)) && grep -Eq '^bytes between clusters +[0-9,]+ +10$' "$T/out" &&
    grep -q '^  *10  a4 \[1\] -> b1 \[2\]$' "$T/out"; then
    pass partition-best-cut
else
    fail partition-best-cut "$(head -c 600 "$T/out") $(cat "$T/err")"
fi
python3 "$ROOT/tests/report/gen-profile.py" 60 400 7 >random60.xml
ok=1
why=
for k in 2 3 4 6; do
    r "$CPR" partition -k $k random60.xml
    read -r g rf < <(sed -n 's/^bytes between clusters *\([0-9,]*\) *\([0-9,]*\)$/\1 \2/p' "$T/out" | tr -d ,)
    bal=$(sed -n 's/^within the balance limit *\([a-z]*\) *\([a-z]*\)$/\2/p' "$T/out")
    if ((rc != 0)) || [[ -z ${g:-} || -z ${rf:-} ]] || ((rf > g)) || [[ $bal != yes ]]; then
        ok=0
        why+=" k=$k: exit $rc greedy=${g:-?} refined=${rf:-?} balanced=${bal:-?};"
    fi
done
if ((ok)); then pass partition-refine-not-worse; else fail partition-refine-not-worse "$why"; fi

# ---------------------------------------------------------------------------
# 5. size: a 2,000-node graph renders in seconds; a 25 MB file streams

python3 "$ROOT/tests/report/gen-profile.py" 2000 6000 >g2000.xml
start=$(date +%s%N)
r "$CPR" graph -o "$T/g2000.svg" g2000.xml
t1=$((($(date +%s%N) - start) / 1000000))
if ((rc == 0)) && xmllint --noout "$T/g2000.svg" 2>/dev/null && ((t1 < 10000)); then
    pass "graph-2000-nodes-capped (${t1} ms)"
else
    fail graph-2000-nodes-capped "exit $rc, ${t1} ms: $(head -c 300 "$T/err")"
fi
start=$(date +%s%N)
r "$CPR" graph --max-nodes=2000 --max-edges=6000 -o "$T/g2000-all.svg" g2000.xml
t2=$((($(date +%s%N) - start) / 1000000))
if ((rc == 0)) && grep -q 'class="node"' "$T/g2000-all.svg" && ((t2 < 30000)); then
    pass "graph-2000-nodes-all-sfdp (${t2} ms)"
else
    fail graph-2000-nodes-all-sfdp "exit $rc, ${t2} ms: $(head -c 300 "$T/err")"
fi
check graph-2000-layout-sfdp bash -c '"$1" graph g2000.xml 2>/dev/null | grep -q "layout=sfdp"' _ "$CPR"
check graph-small-layout-dot bash -c '"$1" graph in/pipeline.xml | grep -q "layout=dot"' _ "$CPR"
python3 "$ROOT/tests/report/gen-profile.py" 3000 300000 5 >big.xml
r bash -c 'ulimit -v 300000 && exec "$1" validate big.xml' _ "$CPR"
if ((rc == 0)) && grep -q 'valid (3002 functions, 300000 edges)' "$T/out"; then
    pass "reader-streams-25MB-in-300MB ($(($(wc -c <big.xml) / 1000000)) MB)"
else
    fail reader-streams-25MB-in-300MB "exit $rc: $(cat "$T/out" "$T/err" | head -c 300)"
fi
rm -f big.xml

# ---------------------------------------------------------------------------
# 6. profiles of real runs of the tool

cp "$ROOT/tests/lib/chain.c" chain.c
real=0
if ! command -v valgrind >/dev/null 2>&1; then
    fail real-run "valgrind not found"
elif ! out=$(gcc -O0 -g -o chain chain.c 2>&1); then
    fail real-compile "$out"
else
    timeout "$VG_TIMEOUT" valgrind --tool=commprof --commprof-out-file=none --commprof-xml-file=run1.xml ./chain 100 \
        >/dev/null 2>run1.err
    rc1=$?
    timeout "$VG_TIMEOUT" valgrind --tool=commprof --commprof-out-file=none --commprof-xml-file=run2.xml ./chain 200 \
        >/dev/null 2>run2.err
    rc2=$?
    if ((rc1 == 0 && rc2 == 0)) && [[ -s run1.xml && -s run2.xml ]]; then
        pass real-run
        real=1
    else
        fail real-run "exit $rc1/$rc2: $(tail -3 run1.err)"
    fi
fi
if ((real)); then
    check real-validate "$CPR" validate -q run1.xml run2.xml
    # the program's own functions only: libc and ld.so internals vary
    own='^(produce|transform|consume),'
    r "$CPR" summary --csv --table=edges run1.xml
    grep -E "$own" "$T/out" | grep -E ',(produce|transform|consume),' |
        sed "s|,$(pwd -P)/chain,|,@EXE@,|g" >"$T/own.csv"
    golden_file real-own-edges.csv "$T/own.csv"
    r "$CPR" summary --table=functions --sort=name --threshold=100 --top=0 run1.xml
    if ((rc == 0)) && grep -Eq '^ *400 +400 +400 +400 .* transform  chain\.c:5$' "$T/out"; then
        pass real-summary-transform-row
    else
        fail real-summary-transform-row "$(grep transform "$T/out") $(cat "$T/err")"
    fi
    "$CPR" graph --no-special -o "$T/real.svg" run1.xml 2>/dev/null
    check real-graph-svg bash -c 'xmllint --noout "$1" && grep -q ">transform<" "$1"' _ "$T/real.svg"
    r "$CPR" graph --focus=transform --depth=1 --no-special run1.xml
    if ((rc == 0)) && grep -q 'label="produce' "$T/out" && grep -q 'label="consume' "$T/out"; then
        pass real-graph-focus
    else
        fail real-graph-focus "exit $rc: $(head -c 300 "$T/out") $(cat "$T/err")"
    fi
    "$CPR" matrix -o "$T/real-matrix.svg" run1.xml 2>"$T/err"
    check real-matrix-svg xmllint --noout "$T/real-matrix.svg"
    r "$CPR" merge -o merged-runs.xml run1.xml run2.xml
    if ((rc == 0)); then pass real-merge; else fail real-merge "exit $rc: $(cat "$T/err")"; fi
    check real-merge-valid xmllint --noout --relaxng "$RNG" merged-runs.xml
    # merged = sum of the inputs (edges: bytes and accesses summed, UnMA the
    # maximum; functions: counters summed; provenance lists both runs)
    check real-merge-is-sum python3 - run1.xml run2.xml merged-runs.xml <<'EOF'
import sys
import xml.etree.ElementTree as ET
a, b, m = (ET.parse(f).getroot() for f in sys.argv[1:4])
def key(f): return (f.get('kind'), f.get('name'), f.get('object'), f.get('file'))
def funcs(r): return {f.get('id'): f for f in r.findall('functions/function')}
def edges(r):
    F = funcs(r)
    return {(key(F[e.get('producer')]), key(F[e.get('consumer')])): e for e in r.findall('edges/edge')}
err = []
fa, fb, fm = ({key(f): f for f in r.iter('function')} for r in (a, b, m))
for k in set(fa) | set(fb):
    if k not in fm: err.append('function %s missing' % (k,)); continue
    for at in ('instructions', 'calls', 'bytes-read', 'bytes-written', 'in-bytes', 'out-bytes', 'self-bytes',
               'mem-instructions', 'loads', 'stores', 'stack-loads', 'stack-stores', 'stack-bytes-read',
               'stack-bytes-written'):
        s = sum(int(x[k].get(at)) for x in (fa, fb) if k in x)
        if int(fm[k].get(at)) != s: err.append('%s %s: %s != %d' % (k[1], at, fm[k].get(at), s))
    for at in ('in-unma', 'out-unma', 'self-unma'):
        s = max(int(x[k].get(at)) for x in (fa, fb) if k in x)
        if int(fm[k].get(at)) != s: err.append('%s %s: %s != max %d' % (k[1], at, fm[k].get(at), s))
ea, eb, em = edges(a), edges(b), edges(m)
if set(em) != set(ea) | set(eb): err.append('edge sets differ')
for k in em:
    for at in ('bytes', 'accesses'):
        s = sum(int(x[k].get(at)) for x in (ea, eb) if k in x)
        if int(em[k].get(at)) != s: err.append('edge %s: %s %s != %d' % (k, at, em[k].get(at), s))
    s = max(int(x[k].get('unma')) for x in (ea, eb) if k in x)
    if int(em[k].get('unma')) != s: err.append('edge %s: unma != max' % (k,))
pt = [(e.get('producer'), e.get('consumer'), e.get('bytes')) for e in m.findall('edges/edge')]
pt = {funcs(m)[p].get('name') + '->' + funcs(m)[c].get('name'): b for p, c, b in pt}
if pt.get('produce->transform') != '1200': err.append('produce->transform %s != 400 + 800' % pt.get('produce->transform'))
t = m.find('run/totals')
for at in ('instructions', 'bytes-read', 'comm-bytes', 'self-bytes'):
    s = int(a.find('run/totals').get(at)) + int(b.find('run/totals').get(at))
    if int(t.get(at)) != s: err.append('totals %s' % at)
ins = [(i.get('file'), i.get('pid')) for i in m.iter('input')]
want = [('run1.xml', a.find('run/pid').text), ('run2.xml', b.find('run/pid').text)]
if ins != want or m.find('run/provenance').get('unma') != 'max': err.append('provenance %s != %s' % (ins, want))
# the threads of each run are kept apart, renumbered
na, nb = len(a.findall('threads/thread')), len(b.findall('threads/thread'))
ids = [int(t.get('id')) for t in m.findall('threads/thread')]
if ids != list(range(1, na + nb + 1)): err.append('merged thread ids %s' % ids)
if len(m.findall('thread-edges/edge')) != len(a.findall('thread-edges/edge')) + len(b.findall('thread-edges/edge')):
    err.append('thread edges not kept')
print('\n'.join(err[:10]))
sys.exit(1 if err else 0)
EOF
    r "$CPR" diff --no-special run1.xml run2.xml
    if ((rc == 0)) && grep -Eq '^ *400 +800 +\+400 +\+100\.0% .* produce -> transform$' "$T/out"; then
        pass real-diff
    else
        fail real-diff "exit $rc: $(grep -- '->' "$T/out" | head -5) $(cat "$T/err")"
    fi
fi
# the other sections on real runs, restricted to the programs' own functions:
# chain.c with --objects, --per-call, --first-read and --time-slice; the
# phases, regions and contexts test programs of commprof/tests; a threaded run
if ((real)); then
    timeout "$VG_TIMEOUT" valgrind --tool=commprof --commprof-out-file=none --commprof-xml-file=all.xml --objects=yes \
        --per-call=yes --per-call-fns=produce,transform,consume --first-read=yes --time-slice=1000 ./chain 100 \
        >/dev/null 2>all.err
    check real-all-options-validate "$CPR" validate -q all.xml
    # heap objects: exact counts (a and b, allocated on the same line: one site of
# 2 blocks, 200 ints written once and read once)
    r "$CPR" summary --csv --table=objects --sort=name all.xml
    awk -F, 'NR > 1 && $2 == "heap" && $3 ~ /^chain\.c:/ {print $2","$3","$5","$6","$7","$9","$10","$11","$12","$14","$15","$16","$17}' \
        "$T/out" >"$T/own-objects.csv"
    golden_file real-own-objects.csv "$T/own-objects.csv"
    r "$CPR" summary --csv --table=edges all.xml
    grep -E '^(produce|transform),' "$T/out" | grep -E ',(transform|consume),' | sed "s|,$(pwd -P)/chain,|,@EXE@,|g" \
        >"$T/own-fr.csv"
    golden_file real-own-edges-first-read.csv "$T/own-fr.csv"
    r "$CPR" matrix --of=objects --csv all.xml
    check real-matrix-objects python3 - "$T/out" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
cell = {(r[0], head[j]): int(r[j]) for r in rows[1:] for j in range(1, len(r))}
# a and b are allocated on the same line: one allocation site, two blocks
heap = [h for h in head[1:] if h.startswith('chain.c:')]
want = {('transform', 'chain.c:10'): 400, ('consume', 'chain.c:10'): 400, ('produce', 'chain.c:10'): 0}
bad = [(k, cell.get(k), v) for k, v in want.items() if cell.get(k, 0) != v]
print(bad or '', heap)
sys.exit(1 if bad or heap != ['chain.c:10'] else 0)
EOF2
    r "$CPR" summary --csv --table=calls all.xml
    check real-calls python3 - "$T/out" <<'EOF2'
import csv, sys
rows = {r['function']: r for r in csv.DictReader(open(sys.argv[1]))}
err = []
for f in ('produce', 'transform', 'consume'):
    if f not in rows or rows[f]['count'] != '1': err.append('%s: %s' % (f, rows.get(f)))
if 'produce:400' not in rows.get('transform', {}).get('consumed', ''): err.append('transform consumed %s' % rows.get('transform'))
if 'transform:400' not in rows.get('consume', {}).get('consumed', ''): err.append('consume consumed %s' % rows.get('consume'))
obj = rows.get('transform', {}).get('objects', '')
# transform reads a and writes b, both of the site chain.c:10
if not any(o.startswith('chain.c:') and o.split(':')[2:5] == ['400', '400', '200'] for o in obj.split(';')):
    err.append('transform objects %s' % obj)
print('\n'.join(err))
sys.exit(1 if err else 0)
EOF2
    # timeline: the slices sum to each function's bytes; the SVG parses
    r "$CPR" summary --csv --table=functions all.xml
    cp "$T/out" "$T/funcs.csv"
    r "$CPR" timeline --csv --field=written --top=12 --no-special all.xml
    check real-timeline-sums python3 - "$T/out" "$T/funcs.csv" <<'EOF2'
import csv, sys
tl = list(csv.DictReader(open(sys.argv[1])))
fn = {r['name']: r for r in csv.DictReader(open(sys.argv[2]))}
err = []
for f in ('produce', 'transform', 'consume'):
    s = sum(int(r[f]) for r in tl)
    if s != int(fn[f]['bytes_written']): err.append('%s: %d != %s' % (f, s, fn[f]['bytes_written']))
print('\n'.join(err))
sys.exit(1 if err or not tl else 0)
EOF2
    "$CPR" timeline --no-special -o "$T/real-tl.svg" all.xml 2>"$T/err"
    check real-timeline-svg bash -c 'xmllint --noout "$1" && grep -q ">transform<" "$1"' _ "$T/real-tl.svg"
    r "$CPR" summary --table=phases all.xml
    if ((rc == 0)) && grep -Eq '^ +[0-9]+ +[0-9]+-[0-9]+ .*(produce|transform|consume)' "$T/out"; then
        pass real-detected-phases
    else
        fail real-detected-phases "exit $rc: $(head -c 400 "$T/out") $(cat "$T/err")"
    fi
    "$CPR" graph --objects --no-special -o "$T/real-objects.svg" all.xml 2>/dev/null
    check real-graph-objects bash -c 'xmllint --noout "$1" && grep -q ">chain.c:" "$1"' _ "$T/real-objects.svg"
    r "$CPR" merge -o merged-all.xml all.xml all.xml
    if ((rc == 0)) && grep -q 'time slices, per-call records (all.xml)' "$T/err" &&
        xmllint --noout --relaxng "$RNG" merged-all.xml 2>/dev/null && ! grep -q '<time-slices' merged-all.xml; then
        pass real-merge-sections
    else
        fail real-merge-sections "exit $rc: $(cat "$T/err")"
    fi
    r "$CPR" summary --csv --table=objects merged-all.xml
    # summed: blocks, total bytes, reads, writes and their bytes; peak the maximum
    check real-merge-objects-sum grep -Eq '^[0-9]+,heap,chain\.c:10,,400,4,1600,800,400,1600,400,1600,1\.0000,1600,1600,100\.0,100\.0,' \
        "$T/out"

    CT=$ROOT/commprof/tests
    vgrun() { # NAME SOURCE [CFLAGS] -- [VALGRIND OPTIONS]
        local name=$1 src=$2
        shift 2
        local -a cf=()
        while (($#)) && [[ $1 != -- ]]; do cf+=("$1"); shift; done
        shift
        gcc -O0 -g -I"$ROOT/include" -I/usr/include/valgrind "${cf[@]}" -o "$name" "$src" >/dev/null 2>&1 &&
            timeout "$VG_TIMEOUT" valgrind --tool=commprof --commprof-out-file=none --commprof-xml-file="$name.xml" "$@" \
                ./"$name" >/dev/null 2>"$name.err"
    }
    if vgrun phases "$CT/phases.c" --; then
        r "$CPR" summary --table=phases --top=0 phases.xml
        grep -E '^ *(64|128) .* (keep|producer) \[[0-9] frame [0-9]\] -> (recall|consumer) \[' "$T/out" |
            sed 's/^ *\([0-9]*\) .* \(keep\|producer\)/\1 \2/' >"$T/own-phases.txt"
        golden_file real-own-phases.txt "$T/own-phases.txt"
        "$CPR" graph --phases --no-special -o "$T/real-phases.svg" phases.xml 2>/dev/null
        check real-graph-phases bash -c 'xmllint --noout "$1" && grep -q "phase 2: frame 2" "$1"' _ "$T/real-phases.svg"
    else
        fail real-phases-run "$(tail -3 phases.err 2>/dev/null)"
    fi
    if vgrun regions "$CT/regions.c" --; then
        r "$CPR" summary --table=functions --top=0 --threshold=100 regions.xml
        if grep -Eq '  outer  \(region\)$' "$T/out" && grep -Eq '  inner  \(region\)$' "$T/out"; then
            pass real-regions
        else
            fail real-regions "$(grep -i region "$T/out" | head -3)"
        fi
    else
        fail real-regions-run "$(tail -3 regions.err 2>/dev/null)"
    fi
    if vgrun contexts "$CT/contexts.c" -- --separate-callers=1; then
        r "$CPR" summary --table=edges --top=0 --threshold=100 contexts.xml
        if ((rc == 0)) && grep -q "fill'run -> " "$T/out"; then pass real-contexts; else fail real-contexts "$(head -c 400 "$T/out")"; fi
        r "$CPR" merge -o merged-contexts.xml contexts.xml contexts.xml
        check real-contexts-merge bash -c '[[ $(grep -c " base=" "$1") -eq $(grep -c " base=" contexts.xml) ]]' _ merged-contexts.xml
        # _start is entered with no node below it: its context has no callers and
        # the plain name; it stays apart from its function in diff and merge
        r "$CPR" diff contexts.xml contexts.xml
        if ((rc == 0)) && grep -q "^Functions by .*: 0 of 0 changed functions" "$T/out"; then
            pass real-contexts-diff-self
        else
            fail real-contexts-diff-self "$(grep -A3 '^Functions by' "$T/out" | head -5)"
        fi
        r "$CPR" merge -o merged1-contexts.xml contexts.xml
        check real-contexts-merge-one bash -c '[[ $(grep -c "<function " "$1") -eq $(grep -c "<function " contexts.xml) ]] &&
            "$2" validate "$1" >/dev/null &&
            "$2" diff contexts.xml "$1" | grep -q "^Functions by .*: 0 of 0 changed functions"' _ merged1-contexts.xml "$CPR"
    else
        fail real-contexts-run "$(tail -3 contexts.err 2>/dev/null)"
    fi
    if vgrun threads "$CT/threads-pipeline.c" -pthread --; then
        r "$CPR" summary --table=threads threads.xml
        if ((rc == 0)) && [[ $(grep -cE '^ *[123] ' "$T/out") -ge 3 ]]; then pass real-threads; else fail real-threads "$(head -c 600 "$T/out")"; fi
        "$CPR" graph --threads --no-special -o "$T/real-threads.svg" threads.xml 2>/dev/null
        check real-graph-threads bash -c 'xmllint --noout "$1" && [[ $(grep -c "<title>cluster_" "$1") -ge 2 ]]' _ "$T/real-threads.svg"
        "$CPR" matrix --of=threads -o "$T/real-tm.svg" threads.xml 2>/dev/null
        check real-matrix-threads xmllint --noout "$T/real-tm.svg"
    else
        fail real-threads-run "$(tail -3 threads.err 2>/dev/null)"
    fi
fi

# ---------------------------------------------------------------------------
# 7. the AddressSanitizer + UndefinedBehaviorSanitizer build

if [[ -f $BUILDDIR/Makefile ]] && make -C "$BUILDDIR" commprof-report-asan >"$T/asan-build.log" 2>&1 && [[ -x $ASAN ]]; then
    pass asan-build
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87
    export LSAN_OPTIONS=suppressions=$ROOT/tests/report/lsan.supp:print_suppressions=0
    for f in bad/*.xml bad/no-such-file.xml; do
        n=${f#bad/}
        # the reader is shared by all commands: two of them are enough here
        bad_input "asan-error-${n%.xml}" "$f" "$ASAN" "validate summary"
    done
    usage asan-usage-unknown-option "$ASAN" graph --bogus in/pipeline.xml
    usage asan-usage-bad-number "$ASAN" summary --top=1x in/pipeline.xml
    bad=
    for args in "summary in/pipeline.xml" "summary --csv --table=edges in/pipeline.xml" \
        "summary --sort=name --threshold=50 in/pipeline.xml" "graph in/pipeline.xml" \
        "graph -o $T/a.svg in/pipeline.xml" "graph -o $T/a.png --focus=smooth --depth=2 in/pipeline.xml" \
        "graph -o $T/a.pdf --layout=sfdp in/pipeline.xml" "matrix in/pipeline.xml" "matrix --csv in/pipeline.xml" \
        "matrix -o $T/a-m.svg in/pipeline.xml" "diff --all in/pipeline.xml in/pipeline2.xml" \
        "diff --csv --table=functions in/pipeline.xml in/pipeline2.xml" \
        "merge -o $T/a-merged.xml in/pipeline.xml in/pipeline2.xml in/twoclusters.xml" \
        "summary $T/a-merged.xml" "partition -k 2 in/twoclusters.xml" "partition -k 3 in/pipeline.xml" \
        "partition -k 4 --csv random60.xml" "partition -k 2 --graph -o $T/a-p.svg in/twoclusters.xml" \
        "partition -k 5 g2000.xml" "graph -o $T/a-g.svg g2000.xml" "validate in/pipeline.xml" \
        "summary in/sections.xml" "summary --table=maip in/sections.xml" "summary --csv --table=objects in/sections.xml" \
        "summary --csv --table=threads in/sections.xml" "summary --csv --table=phases in/sections.xml" \
        "summary --csv --table=calls in/sections.xml" "summary --csv --table=maip in/pipeline.xml" \
        "graph --objects -o $T/a-o.svg in/sections.xml" "graph --threads -o $T/a-t.svg in/sections.xml" \
        "graph --threads -o $T/a-tn.svg in/threadnames.xml" \
        "graph --phases in/sections.xml" "matrix --of=objects -o $T/a-mo.svg in/sections.xml" \
        "matrix --of=threads --csv in/sections.xml" "timeline in/sections.xml" "timeline --csv --field=in in/sections.xml" \
        "diff in/sections.xml in/sections2.xml" "diff --csv --table=objects in/sections.xml in/sections2.xml" \
        "merge -o $T/a-ms.xml in/sections.xml in/sections2.xml in/pipeline.xml" "summary $T/a-ms.xml"; do
        # full stacks, for the suppression of Graphviz's own leak in dot's
        # clusters (lsan.supp); too slow for the 2,000-node graph (sfdp)
        unwind=0
        [[ $args == *g2000* ]] && unwind=1
        # shellcheck disable=SC2086
        r env ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=$unwind" "$ASAN" $args
        if ((rc != 0)) || grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"; then
            bad+=" [$args: exit $rc $(grep -m1 -E 'ERROR|runtime error' "$T/err")]"
        fi
    done
    if [[ -z $bad ]]; then pass asan-commands; else fail asan-commands "$bad"; fi
else
    fail asan-build "make commprof-report-asan failed: $(tail -5 "$T/asan-build.log" 2>/dev/null)"
fi

finish
