#!/usr/bin/env bash
# tests/suites/options.sh: command-line options.
#
#  - a bad value of a commprof option (or an unknown --commprof-* option)
#    stops Valgrind with exit status 1 before the client runs, and the first
#    line of stderr names the option and, for commprof's own options, the
#    accepted values, all in one line;
#  - an output file that cannot be written stops it the same way, with a
#    message naming the path and the reason;
#  - good values are accepted and recorded in the XML profile;
#  - --help lists every commprof option.
#
# Prints PASS/FAIL lines and, last, "N passed, N failed"; exits 1 on failure.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/lib/suite.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/commprof-options.XXXXXX") || { fail setup "mktemp -d failed"; finish; }
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || { fail setup "cd $T"; finish; }

missing=
for t in valgrind gcc python3 timeout; do
    command -v "$t" >/dev/null 2>&1 || missing+=" $t"
done
if [[ -n $missing ]]; then fail prerequisites "not found:$missing"; finish; fi

# The client leaves a marker file in its working directory and says so.
cat >client.c <<'EOF'
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#define NI __attribute__((noinline, noipa))
int buf[64];
NI void produce(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i + 1; }
NI long consume(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
int main(void)
{
    int fd = open("client-ran", O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) close(fd);
    produce(buf, 64);
    printf("CLIENT-RAN %ld\n", consume(buf, 64));
    return 0;
}
EOF
if ! out=$(gcc -O0 -g -o client client.c 2>&1); then fail setup "compile: $out"; finish; fi

# vg ARGS...: runs the tool on the client in $T/w (emptied first);
# stdout/stderr in $T/out, $T/err; status in $rc
vg() {
    rm -rf "$T/w"
    mkdir "$T/w"
    (cd "$T/w" && timeout "$VG_TIMEOUT" valgrind --tool=commprof "$@" ../client >"$T/out" 2>"$T/err")
    rc=$?
}

client_ran() { [[ -e $T/w/client-ran ]] || grep -q CLIENT-RAN "$T/out"; }

# ---------------------------------------------------------------------------
# 1. bad values

# bad OPTION ACCEPTED-REGEX: ACCEPTED-REGEX (extended, may be empty) must match
# the first stderr line as well; for commprof's own options (a non-empty
# regex) stderr is that one line.
bad() {
    local opt=$1 accepted=$2 first why=
    vg "$opt" --commprof-out-file=p.cg --commprof-xml-file=p.xml
    first=$(head -n 1 "$T/err")
    ((rc == 1)) || why+="exit status $rc, expected 1; "
    client_ran && why+="the client ran; "
    [[ $first == *"$opt"* ]] || why+="first stderr line does not name $opt; "
    if [[ -n $accepted ]]; then
        grep -q -E -- "$accepted" <<<"$first" || why+="first stderr line does not give the accepted values (/$accepted/); "
        (($(grep -c '' "$T/err") == 1)) || why+="stderr has $(grep -c '' "$T/err") lines, expected 1; "
    fi
    [[ -e $T/w/p.cg || -e $T/w/p.xml ]] && why+="a profile was written; "
    if [[ -z $why ]]; then pass "bad-option $opt"; else fail "bad-option $opt" "${why}stderr: $(head -c 300 "$T/err")"; fi
}

G='1, 2, 4,? (and|or) 8|1\|2\|4\|8|1, 2, 4, 8'
bad --granularity=3 "$G"
bad --granularity=abc "$G"
bad --granularity=0 "$G"
bad --granularity=16 "$G"
bad --granularity=-1 "$G"
bad --granularity=4x "$G"
bad --granularity= "$G"
N='main.*all|all.*main'
bad --nodes=some "$N"
bad --nodes= "$N"
bad --nodes=MAIN "$N"
B='yes.*no|no.*yes'
bad --ignore-stack=maybe "$B"
bad --ignore-stack= "$B"
S='0 (to|and|-|\.\.) ?100000|whole number|non-negative|integer'
bad --summary-edges=x "$S"
bad --summary-edges=-1 "$S"
bad --summary-edges=100001 "$S"
bad --summary-edges=99999999999999999999999 "$S"
bad --summary-edges= "$S"
bad --node-objs= 'pattern'
# an empty pattern in a list is refused: it would select what no option selects
bad --fn-include=, 'none of them empty'
bad --collect-in=work,,solve 'none of them empty'
bad --per-call-fns=work, 'none of them empty'
bad --object-exclude=,tmp 'none of them empty'
bad --commprof-out-file= 'file name|file'
bad --commprof-xml-file= 'file name|file'
bad --commprof-bogus=1 ''
# Valgrind's core only warns about --xml=yes (its XML error output, which
# commprof does not write) and runs on; commprof stops and points at its own
# XML profile option
bad --xml=yes ''
if grep -q -- '--commprof-xml-file' "$T/err"; then pass "bad-option --xml=yes names --commprof-xml-file"
else fail "bad-option --xml=yes names --commprof-xml-file" "stderr: $(tail -c 300 "$T/err")"; fi

# ---------------------------------------------------------------------------
# 2. outputs that cannot be written

mkdir -p "$T/adir" "$T/u"
echo x >"$T/afile"

# unwritable OPTION PATH REASON-REGEX [OTHER-ARGS...]: exit 1 before the
# client runs, a stderr line names PATH and the reason, nothing written
unwritable() {
    local opt=$1 path=$2 reason=$3 why= shown=${2/#"$T"/'$T'}
    shift 3
    rm -f "$T/u"/*
    vg "$opt=$path" "$@"
    ((rc == 1)) || why+="exit status $rc, expected 1; "
    client_ran && why+="the client ran; "
    if ! grep -F -- "$path" "$T/err" | grep -q -E -- ": ($reason)"; then
        why+="no stderr line names $path and the reason ($reason); "
    fi
    [[ -n $(ls -A "$T/u") ]] && why+="files written: $(ls -A "$T/u"); "
    [[ -n $(find "$T" / -maxdepth 1 -name '*.tmp.*' 2>/dev/null) ]] &&
        why+="probe file left: $(find "$T" / -maxdepth 1 -name '*.tmp.*' 2>/dev/null); "
    if [[ -z $why ]]; then pass "unwritable $opt=$shown"; else fail "unwritable $opt=$shown" "${why}stderr: $(tail -c 300 "$T/err")"; fi
}

ANY='No such file or directory|Permission denied|Operation not permitted|Read-only file system|Not a directory|Is a directory|Input/output error'
unwritable --commprof-out-file /nonexistent-dir/x 'No such file or directory' --commprof-xml-file="$T/u/p.xml"
unwritable --commprof-xml-file /nonexistent-dir/y.xml 'No such file or directory' --commprof-out-file="$T/u/p.cg"
unwritable --commprof-xml-file /proc/x "$ANY" --commprof-out-file="$T/u/p.cg"
unwritable --commprof-out-file /proc/self/x "$ANY" --commprof-xml-file="$T/u/p.xml"
unwritable --commprof-out-file /tmp 'Is a directory' --commprof-xml-file="$T/u/p.xml"
unwritable --commprof-out-file "$T/adir" 'Is a directory' --commprof-xml-file="$T/u/p.xml"
unwritable --commprof-xml-file "$T/adir" 'Is a directory' --commprof-out-file="$T/u/p.cg"
unwritable --commprof-xml-file "$T/afile/x.xml" 'Not a directory' --commprof-out-file="$T/u/p.cg"
if (($(id -u) != 0)); then
    mkdir -p "$T/ro" && chmod 555 "$T/ro"
    unwritable --commprof-out-file "$T/ro/x" 'Permission denied' --commprof-xml-file="$T/u/p.xml"
fi

# both options naming one file
vg --commprof-out-file="$T/u/same" --commprof-xml-file="$T/u/same"
if ((rc == 1)) && ! client_ran && grep -q -F "$T/u/same" "$T/err" && [[ ! -e $T/u/same ]]; then
    pass same-file-rejected
else
    fail same-file-rejected "exit $rc, stderr: $(tail -c 300 "$T/err")"
fi
# ... however it is spelt (./, //, dir/.., a link to it), relative names included
mkdir -p "$T/u/sub"
ln -sf "$T/u/same2" "$T/u/link2" && : >"$T/u/same2"
for pair in "same:./same" "$T/u/same:$T/u//same" "$T/u/sub/../same:$T/u/same" \
            "$T/u/link2:$T/u/same2" "../u/sub/../q.xml:../u/q.xml" "../w/r.xml:r.xml"; do
    a=${pair%%:*} b=${pair#*:}
    vg --commprof-out-file="$a" --commprof-dot-file="$b"
    if ((rc == 1)) && ! client_ran && grep -q "name the same file" "$T/err"; then
        pass "same-file-rejected $a $b"
    else
        fail "same-file-rejected $a $b" "exit $rc, stderr: $(tail -c 300 "$T/err")"
    fi
done
# ... and two different files are not
vg --commprof-out-file=../u/sub/../a.out --commprof-xml-file=a.out
if ((rc == 0)) && client_ran; then
    pass same-file-distinct-names
else
    fail same-file-distinct-names "exit $rc, stderr: $(tail -c 300 "$T/err")"
fi

# ---------------------------------------------------------------------------
# 3. good values run the client and are recorded in the profile

# good NAME ARGS...: exit 0, the client ran, a valid XML in w/p.xml
good() {
    local name=$1 why=
    shift
    vg --commprof-out-file=p.cg --commprof-xml-file=p.xml "$@"
    ((rc == 0)) || why+="exit status $rc; "
    client_ran || why+="the client did not run; "
    [[ -s $T/w/p.xml && -s $T/w/p.cg ]] || why+="profile missing; "
    if [[ -z $why ]] && command -v xmllint >/dev/null && [[ -f $RNG ]]; then
        xmllint --noout --relaxng "$RNG" "$T/w/p.xml" >/dev/null 2>&1 || why+="XML invalid; "
    fi
    if [[ -z $why ]]; then pass "$name"; else fail "$name" "${why}stderr: $(tail -c 300 "$T/err")"; fi
    [[ -z $why ]]
}

# option_is NAME VALUE: the XML of the last run records option NAME = VALUE
option_is() {
    python3 - "$T/w/p.xml" "$1" "$2" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
v = [o.get('value') for o in r.findall('run/options/option') if o.get('name') == sys.argv[2]]
if v != [sys.argv[3]]:
    sys.exit('option %s recorded as %s, expected %r' % (sys.argv[2], v, sys.argv[3]))
PYEOF
}

for g in 1 2 4 8; do
    if good "good-option --granularity=$g" --granularity=$g; then
        out=$(option_is granularity $g 2>&1) || fail "good-option --granularity=$g recorded" "$out"
    fi
done
if good "good-options combined" --nodes=all --ignore-stack=yes --summary-edges=100000 \
    '--node-objs=libc.so*,ld-*.so*'; then
    out=$( { option_is nodes all && option_is ignore-stack yes && option_is summary-edges 100000 &&
        option_is node-objs 'libc.so*,ld-*.so*' && option_is commprof-xml-file p.xml &&
        option_is commprof-out-file p.cg; } 2>&1)
    if [[ -z $out ]]; then pass "good-options combined recorded"; else fail "good-options combined recorded" "$out"; fi
fi
good "good-option --summary-edges=0" --summary-edges=0
good "good-options --nodes=main --ignore-stack=no" --nodes=main --ignore-stack=no
# option names the profile records (to check --help below), from the last good run
recorded=$(python3 -c '
import sys, xml.etree.ElementTree as ET
for o in ET.parse(sys.argv[1]).getroot().findall("run/options/option"): print(o.get("name"))
' "$T/w/p.xml" 2>/dev/null)

# ---------------------------------------------------------------------------
# 3b. outputs that are not plain files are written in place: a device, a
#     FIFO, a descriptor (/dev/stdout), a symbolic link

# /dev/null for both (the same device twice is allowed); renaming a temporary
# file onto it would replace the device (as root) or fail (/dev is not
# writable by others)
vg --commprof-out-file=/dev/null --commprof-xml-file=/dev/null
why=
((rc == 0)) || why+="exit status $rc; "
client_ran || why+="the client did not run; "
[[ -c /dev/null ]] || why+="/dev/null is no longer a character device; "
[[ -n $(find /dev -maxdepth 1 -name 'null.*' 2>/dev/null) ]] && why+="left in /dev: $(find /dev -maxdepth 1 -name 'null.*'); "
grep -q 'cannot' "$T/err" && why+="stderr: $(grep cannot "$T/err" | head -2); "
if [[ -z $why ]]; then pass out-dev-null; else fail out-dev-null "$why"; fi
if [[ ! -c /dev/null ]] && (($(id -u) == 0)); then       # mend it for the rest of the run
    rm -f /dev/null && mknod -m 666 /dev/null c 1 3
fi

# a FIFO read by another process: the whole profile comes through it, and
# the reader is not cut off at start-up
rm -f "$T/fifo" "$T/fifo.out"
mkfifo "$T/fifo"
timeout "$VG_TIMEOUT" cat "$T/fifo" >"$T/fifo.out" &
reader=$!
vg --commprof-out-file=p.cg --commprof-xml-file="$T/fifo"
wait "$reader"
why=
((rc == 0)) || why+="exit status $rc; "
[[ -p $T/fifo ]] || why+="the FIFO was replaced; "
if command -v xmllint >/dev/null && [[ -f $RNG ]]; then
    xmllint --noout --relaxng "$RNG" "$T/fifo.out" >/dev/null 2>&1 || why+="the XML read from the FIFO is not valid; "
else
    grep -q '</commprof>' "$T/fifo.out" || why+="the XML read from the FIFO is incomplete; "
fi
if [[ -z $why ]]; then pass out-fifo; else fail out-fifo "${why}stderr: $(tail -c 300 "$T/err")"; fi

# /dev/stdout for both, stdout a file: the client's output stays, both
# profiles follow it
vg --commprof-out-file=/dev/stdout --commprof-xml-file=/dev/stdout
why=
((rc == 0)) || why+="exit status $rc; "
grep -q '^CLIENT-RAN 2080$' "$T/out" || why+="the client's output is gone; "
grep -q '^# callgrind format' "$T/out" || why+="no callgrind profile on stdout; "
grep -q '^</commprof>' "$T/out" || why+="no XML profile on stdout; "
[[ -L /dev/stdout ]] || why+="/dev/stdout is no longer a link; "
if [[ -z $why ]]; then pass out-dev-stdout; else fail out-dev-stdout "${why}stdout: $(head -c 300 "$T/out")"; fi
if [[ ! -L /dev/stdout ]] && (($(id -u) == 0)); then
    rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout
fi

# a symbolic link to a file: the link stays, its file gets the profile
rm -f "$T/real.xml" "$T/link.xml"
ln -s "$T/real.xml" "$T/link.xml"
vg --commprof-out-file=none --commprof-xml-file="$T/link.xml"
why=
((rc == 0)) || why+="exit status $rc; "
[[ -L $T/link.xml ]] || why+="the link was replaced; "
grep -q '</commprof>' "$T/real.xml" 2>/dev/null || why+="no profile in the link's file; "
if [[ -z $why ]]; then pass out-symlink; else fail out-symlink "${why}stderr: $(tail -c 300 "$T/err")"; fi

# --stats=yes: the shadow lines agree with each other (the table's pages are
# shadow bytes like the chunks')
for g in 1 4; do
    vg --commprof-out-file=none --stats=yes --granularity=$g
    out=$(python3 - "$T/err" <<'PYEOF' 2>&1
import re, sys
e = open(sys.argv[1]).read()
def num(pat):
    m = re.search(pat, e)
    if not m: sys.exit('no line matching %r' % pat)
    return [int(x) for x in m.groups()]
live, peak, blive, bpeak = num(r'shadow chunks: (\d+) live, (\d+) peak; (\d+) bytes live, (\d+) bytes peak')
pages, tbytes = num(r'shadow table: (\d+) pages used, (\d+) bytes')
written, per, per100 = num(r'at exit: (\d+); shadow bytes \(chunks and table\) per such byte: (\d+)\.(\d\d)')
ck, ckw, ckp, ckp100 = num(r'near the peak: (\d+) shadow bytes \(chunks and table\) for (\d+) application bytes with a producer: (\d+)\.(\d\d)')
pk, wpk, nct, pkp, pkp100 = num(r'peak: (\d+) shadow bytes \(chunks and table\); most application bytes with a producer at one count: (\d+) \((\d+) counts\): (\d+)\.(\d\d) shadow bytes per byte')
bad = []
# the most bytes counted at one time include the counts at exit and near the peak
if pk != bpeak + tbytes or wpk < max(written, ckw) or nct < 2 or pkp * 100 + pkp100 != pk * 100 // wpk:
    bad.append('peak: %d for %d (%d counts), %d.%02d' % (pk, wpk, nct, pkp, pkp100))
if pages < 1 or tbytes != pages * 4096: bad.append('table: %d pages, %d bytes' % (pages, tbytes))
if not (live <= peak and blive <= bpeak and live >= 1): bad.append('chunks %d/%d, bytes %d/%d' % (live, peak, blive, bpeak))
if written < 256 or per * 100 + per100 != (blive + tbytes) * 100 // written:
    bad.append('at exit: %d bytes, %d.%02d per byte' % (written, per, per100))
if not (tbytes <= ck <= bpeak + tbytes) or ckw < 1 or ckp * 100 + ckp100 != ck * 100 // ckw:
    bad.append('near the peak: %d for %d, %d.%02d' % (ck, ckw, ckp, ckp100))
if bad: sys.exit('; '.join(bad))
PYEOF
)
    if ((rc == 0)) && [[ -z $out ]]; then pass "stats-shadow --granularity=$g"
    else fail "stats-shadow --granularity=$g" "exit $rc; $out"; fi
done

# ---------------------------------------------------------------------------
# 3b. --fn-include, --collect-in and --per-call-fns patterns that no function
#     matched are reported at exit, one line each (the client's functions are
#     produce, consume and main); those that matched are not

vg --collect-in=produce,nosuch --per-call=yes '--per-call-fns=consume,zz*' \
   --commprof-out-file=none --commprof-xml-file=none
want1="commprof: --collect-in pattern 'nosuch' matched no node function that ran (a C++ function's name has its parameters: 'nosuch(*)')"
want2="commprof: --per-call-fns pattern 'zz*' matched no node function that ran"
got=$(grep -c 'matched no' "$T/err")
if ((rc == 0)) && grep -qF -- "$want1" "$T/err" && grep -qF -- "$want2" "$T/err" && [[ $got == 2 ]]; then
    pass unmatched-patterns
else
    fail unmatched-patterns "exit $rc; $got lines: $(grep 'matched no' "$T/err" | head -3)"
fi
vg --collect-in=produce --per-call=yes --per-call-fns=consume --commprof-out-file=none --commprof-xml-file=none
if ((rc == 0)) && ! grep -q 'matched no' "$T/err"; then pass matched-patterns-quiet
else fail matched-patterns-quiet "exit $rc; $(grep 'matched no' "$T/err" | head -2)"; fi
vg '--fn-include=produce,consume,main,nosuch*' --commprof-out-file=none --commprof-xml-file=none
if ((rc == 0)) && [[ $(grep -c 'matched no function' "$T/err") == 1 ]] \
   && grep -qF "commprof: --fn-include pattern 'nosuch*' matched no function that ran in the node objects" "$T/err"; then
    pass unmatched-fn-include
else
    fail unmatched-fn-include "exit $rc; $(grep 'matched no' "$T/err" | head -3)"
fi
# a function that ran but that --fn-exclude leaves out is no node: the line says so
vg --fn-exclude=produce --collect-in=produce --commprof-out-file=none --commprof-xml-file=none
if ((rc == 0)) && grep -qF "commprof: --collect-in pattern 'produce' matched no node function that ran (a C++ function's name has its parameters: 'produce(*)') (the functions --fn-include or --fn-exclude leaves out are not nodes)" "$T/err"; then
    pass unmatched-collect-in-excluded
else
    fail unmatched-collect-in-excluded "exit $rc; $(grep 'matched no' "$T/err" | head -3)"
fi

# a pattern that names a code region, not a function: the line says so (and
# gives no C++ hint)
cat >"$T/region.c" <<'EOF'
#include <stdio.h>
#include "commprof.h"
static volatile int x;
int main(void)
{
    COMMPROF_REGION_BEGIN("summing");
    x = 1;
    COMMPROF_REGION_END("summing");
    printf("%d\n", x);
    return 0;
}
EOF
if out=$(gcc -O0 -g -I"$ROOT/include" -I/usr/include/valgrind -o "$T/region" "$T/region.c" 2>&1); then
    timeout "$VG_TIMEOUT" valgrind --tool=commprof --collect-in=summing --per-call=yes --per-call-fns=summing \
        --commprof-out-file=none --commprof-xml-file=none "$T/region" >"$T/out" 2>"$T/err"
    rc=$?
    if ((rc == 0)) && [[ $(grep -c 'matched no' "$T/err") == 2 ]] \
       && grep -qF "commprof: --collect-in pattern 'summing' matched no node function that ran: it names a code region, and --collect-in matches functions only" "$T/err" \
       && grep -qF "commprof: --per-call-fns pattern 'summing' matched no node function that ran: it names a code region, and --per-call-fns matches functions only" "$T/err"; then
        pass unmatched-pattern-region
    else
        fail unmatched-pattern-region "exit $rc; $(grep 'matched no' "$T/err" | head -3)"
    fi
else
    fail unmatched-pattern-region "compile: $out"
fi

# --collect-atstart=no without any COMMPROF_START(): nothing is collected, and the
# run says why at exit (a callgrind user's --collect-atstart=no --toggle-collect=f
# habit); with collection on at some time, no such line
vg --collect-atstart=no --collect-in=produce --commprof-out-file=none --commprof-xml-file=none
want="commprof: warning: nothing was collected: with --collect-atstart=no collection starts at COMMPROF_START(), which the program never called (--collect-in narrows collection to its functions, it does not switch it on)"
if ((rc == 0)) && grep -qF -- "$want" "$T/err" && [[ $(grep -c 'nothing was collected' "$T/err") == 1 ]]; then
    pass never-collected
else
    fail never-collected "exit $rc; $(grep 'collected' "$T/err" | head -2)"
fi
vg --collect-atstart=no --commprof-out-file=none --commprof-xml-file=none
if ((rc == 0)) && grep -qF -- "commprof: warning: nothing was collected: with --collect-atstart=no collection starts at COMMPROF_START(), which the program never called" "$T/err" \
   && ! grep -q -- '--collect-in narrows' "$T/err"; then
    pass never-collected-plain
else
    fail never-collected-plain "exit $rc; $(grep 'collected' "$T/err" | head -2)"
fi
vg --collect-in=produce --commprof-out-file=none --commprof-xml-file=none
if ((rc == 0)) && ! grep -q 'nothing was collected' "$T/err"; then pass collected-quiet
else fail collected-quiet "exit $rc; $(grep 'collected' "$T/err" | head -2)"; fi

# ---------------------------------------------------------------------------
# 4. --help lists every option

rm -f "$T/w/client-ran"
timeout "$VG_TIMEOUT" valgrind --tool=commprof --help >"$T/help" 2>&1
hrc=$?
if ((hrc == 0)); then pass help-exit-status; else fail help-exit-status "exit $hrc"; fi
opts=$(printf '%s\n' commprof-out-file commprof-xml-file nodes node-objs ignore-stack granularity \
    summary-edges $recorded | awk '!seen[$0]++')
for o in $opts; do
    if grep -q -E -- "^ +--$o=" "$T/help"; then pass "help-lists --$o"; else fail "help-lists --$o" "--$o= not in the --help output"; fi
done

if [[ -n $(find "$T" -name '*.tmp.*') ]]; then
    fail no-tmp-files "left: $(find "$T" -name '*.tmp.*')"
else
    pass no-tmp-files
fi

finish
