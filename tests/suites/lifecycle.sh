#!/usr/bin/env bash
# tests/suites/lifecycle.sh: the profile is written however the client ends.
#
#  return from main, exit(3) (status kept), SIGSEGV, abort(), SIGTERM from
#  outside, execve (a profile with <end reason="exec"/> before the new image
#  runs), a failed execve, fork (parent and child each write their own
#  complete file, with and without %p in the name), children that exec at
#  once (vfork, posix_spawn, system()), and COMMPROF_DUMP_PROFILE()
#  (a file with <end reason="request"/> mid-run, rewritten at exit).
# Every XML file is validated against docs/commprof.rng and must hold the
# edge between two known functions; callgrind files must be complete; no
# *.tmp.* file may be left behind.
#
# Prints PASS/FAIL lines and, last, "N passed, N failed"; exits 1 on failure.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/lib/suite.sh"
bgpid=

T=$(mktemp -d "${TMPDIR:-/tmp}/commprof-lifecycle.XXXXXX") || { fail setup "mktemp -d failed"; finish; }
trap '[[ -n $bgpid ]] && kill -KILL "$bgpid" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || { fail setup "cd $T"; finish; }
ulimit -c 0 2>/dev/null

missing=
for t in valgrind vgdb xmllint python3 gcc timeout; do
    command -v "$t" >/dev/null 2>&1 || missing+=" $t"
done
if [[ -n $missing ]]; then fail prerequisites "not found:$missing"; finish; fi
if [[ ! -f $RNG ]]; then fail prerequisites "no $RNG"; finish; fi

# valgrind.h, which include/commprof.h includes: where the build found it
VGINC=$(sed -n 's/^VALGRIND_INCLUDEDIR *= *//p' "$BUILDDIR/Makefile" 2>/dev/null | head -1)
[[ -f $VGINC/valgrind.h ]] || VGINC=$(pkg-config --variable=includedir valgrind 2>/dev/null)/valgrind
[[ -f $VGINC/valgrind.h ]] || VGINC=/usr/include/valgrind

# python checker of the output files (the same as in xml.sh)
cp "$ROOT/tests/lib/cpcheck.py" "$T/cpcheck.py"   # the checker shared by the suites

cpcheck() { python3 "$T/cpcheck.py" "$@" 2>&1; }

# check NAME CMD...: PASS if CMD succeeds, else FAIL with its output
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "${out:-exit status $?}"; fi
}

# ---------------------------------------------------------------------------
# the client

cat >lc.c <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <spawn.h>
#include "commprof.h"
extern char **environ;
#define NI __attribute__((noinline, noipa))

int buf[256], cbuf[128], lbuf[64];

NI void produce(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i * 7 + 3; }
NI long consume(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
NI void child_produce(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i + 1; }
NI long child_consume(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
NI void later_produce(int *a, int n) { for (int i = 0; i < n; i++) a[i] = 2 * i; }
NI long later_consume(const int *a, int n) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }

static int copy(const char *from, const char *to)
{
    char b[65536];
    int in = open(from, O_RDONLY), out = open(to, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ssize_t n;
    if (in < 0 || out < 0) return -1;
    while ((n = read(in, b, sizeof b)) > 0)
        if (write(out, b, n) != n) return -1;
    close(in);
    close(out);
    return n < 0 ? -1 : 0;
}

/* write the pid to tmp, then rename it to name: name appears complete */
static int ready(const char *tmp, const char *name)
{
    char line[32];
    int fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    int n = snprintf(line, sizeof line, "%d\n", (int)getpid());
    if (fd < 0 || write(fd, line, n) != n) return -1;
    close(fd);
    return rename(tmp, name);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "return";
    produce(buf, 256);
    printf("sum %ld\n", consume(buf, 256));
    fflush(stdout);
    if (!strcmp(mode, "exit3")) exit(3);
    if (!strcmp(mode, "segv")) *(volatile int *)(long)(argc * 8) = 1;
    if (!strcmp(mode, "abort")) abort();
    if (!strcmp(mode, "selfkill")) raise(SIGKILL);
    if (!strcmp(mode, "forkdump")) {
        pid_t c = fork();
        if (c < 0) return 98;
        if (c == 0) {
            COMMPROF_DUMP_PROFILE();
            COMMPROF_DUMP_PROFILE();
            _exit(0);
        }
        waitpid(c, NULL, 0);
        COMMPROF_DUMP_PROFILE();
        printf("forkdump child %d\n", (int)c);
        return 0;
    }
    if (!strcmp(mode, "vgdb")) {
        if (ready(argv[2], argv[3]) != 0) return 97;
        for (int i = 0; i < 6000 && access("stop", F_OK) != 0; i++) usleep(10000);
        return 0;
    }
    if (!strcmp(mode, "term")) {
        if (ready(argv[2], argv[3]) != 0) return 97;
        for (;;) pause();
    }
    if (!strcmp(mode, "exec")) {
        execl("/bin/sh", "sh", "-c", "echo EXECED; exit 5", (char *)0);
        perror("execl");
        return 99;
    }
    if (!strcmp(mode, "execfail")) {
        execl("/nonexistent-dir/prog", "prog", (char *)0);
        printf("EXEC-FAILED\n");
        return 0;
    }
    if (!strcmp(mode, "fork")) {
        pid_t c = fork();
        if (c < 0) { perror("fork"); return 98; }
        if (c == 0) {
            child_produce(cbuf, 128);
            printf("child-sum %ld\n", child_consume(cbuf, 128));
            fflush(stdout);
            if (argc > 2 && !strcmp(argv[2], "_exit")) _exit(0);
            exit(0);
        }
        int st = -1;
        waitpid(c, &st, 0);
        later_produce(lbuf, 64);
        later_consume(lbuf, 64);
        printf("parent %d child %d status %d\n", (int)getpid(), (int)c, st);
        return 0;
    }
    if (!strcmp(mode, "spawn")) {
        /* children that exec at once, made by vfork, posix_spawn and
           system(): each leaves the profile of what it ran before its exec
           (nothing of the parent's), and the parent's goes on */
        char *sh[] = { "sh", "-c", "exit 0", (char *)0 };
        int st[3] = { -1, -1, -1 };
        pid_t c[2];
        c[0] = vfork();
        if (c[0] == 0) { execv("/bin/sh", sh); _exit(127); }
        waitpid(c[0], &st[0], 0);
        if (posix_spawn(&c[1], "/bin/sh", NULL, NULL, sh, environ) != 0) return 96;
        waitpid(c[1], &st[1], 0);
        st[2] = system("exit 0");
        later_produce(lbuf, 64);
        printf("later %ld\n", later_consume(lbuf, 64));
        printf("parent %d status %d %d %d\n", (int)getpid(), st[0], st[1], st[2]);
        return 0;
    }
    if (!strcmp(mode, "dump")) {
        COMMPROF_DUMP_PROFILE();
        if (copy(argv[2], "snap.xml") == 0 && copy(argv[3], "snap.cg") == 0) printf("SNAP-OK\n");
        later_produce(lbuf, 64);
        printf("later %ld\n", later_consume(lbuf, 64));
        return 0;
    }
    return 0;
}
CEOF
if ! out=$(gcc -O0 -g -I"$ROOT/include" -I"$VGINC" -o lc lc.c 2>&1); then
    fail compile-client "$out"
    finish
fi

SUM='sum 229248'

# run NAME ARGS...: in a fresh directory $T/NAME, runs the client with the
# outputs prof.%p.xml and prof.%p.cg; status in $rc, output in NAME/out, NAME/err
run() {
    local d=$1
    shift
    mkdir -p "$T/$d"
    # (the braces keep the shell's "Segmentation fault" report off stderr)
    { (cd "$T/$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
        --commprof-xml-file=prof.%p.xml --commprof-out-file=prof.%p.cg ../lc "$@" >out 2>err); } 2>/dev/null
    rc=$?
}

# cg_complete FILE: a callgrind file that ends with its totals: line
cg_complete() {
    [[ -s $1 ]] || { echo "no file $1"; return 1; }
    tail -n 1 "$1" | grep -q '^totals: [0-9]' || { echo "$1 does not end with a totals: line"; return 1; }
}

# profile NAME DIR REASON [PID]: DIR holds exactly one prof.PID.xml and its
# prof.PID.cg; the XML validates, ends for REASON, holds produce -> consume
profile() {
    local name=$1 d=$T/$2 reason=$3 want_pid=${4:-} why= out
    local xmls=("$d"/prof.*.xml)
    if ((${#xmls[@]} != 1)) || [[ ! -f ${xmls[0]} ]]; then
        fail "$name" "expected one prof.<pid>.xml in $2, found: $(cd "$d" && ls -A | tr '\n' ' ')"
        return
    fi
    local x=${xmls[0]}
    local pid=${x##*/prof.}
    pid=${pid%.xml}
    [[ -n $want_pid && $pid != "$want_pid" ]] && why+="file is for pid $pid, expected $want_pid; "
    out=$(xmllint --noout --relaxng "$RNG" "$x" 2>&1) || why+="xmllint: $out; "
    out=$(cpcheck valid "$x") || why+="$out; "
    out=$(cpcheck expect "$x" reason "$reason") || why+="$out; "
    out=$(cpcheck expect "$x" pid "$pid") || why+="$out; "
    out=$(cpcheck edge "$x" produce consume 1024) || why+="$out; "
    out=$(cg_complete "$d/prof.$pid.cg") || why+="$out; "
    if [[ -z $why ]]; then pass "$name"; else fail "$name" "$why"; fi
}

notmp() {
    local left
    left=$(find "$T/$2" -name '*.tmp.*' 2>/dev/null)
    if [[ -n $left ]]; then fail "$1" "left behind: $left"; else pass "$1"; fi
}

# status NAME WANT: the run's exit status
status() {
    local d=$T/${1%%-*}
    if ((rc == $2)) && grep -q -x "$SUM" "$d/out"; then
        pass "$1"
    else
        fail "$1" "exit status $rc, expected $2; stdout: $(head -c 200 "$d/out"); stderr: $(tail -n 3 "$d/err" 2>/dev/null)"
    fi
}

# wait_ready FILE: the pid the client writes to FILE when it is ready (30 s at most)
wait_ready() {
    for ((i = 0; i < 600; i++)); do
        [[ -s $1 ]] && break
        sleep 0.05
    done
    head -n 1 "$1" 2>/dev/null
}

# ---------------------------------------------------------------------------
# ends of the process

run return return
status return-status 0
profile return-profile return exit
notmp return-no-tmp return

run exit3 exit3
status exit3-status 3
profile exit3-profile exit3 exit
notmp exit3-no-tmp exit3

run segv segv
status segv-status 139
profile segv-profile segv exit
notmp segv-no-tmp segv

run abort abort
status abort-status 134
profile abort-profile abort exit
notmp abort-no-tmp abort

# SIGKILL the client sends itself: Valgrind sees it, the profile is written
run selfkill selfkill
status selfkill-status 137
profile selfkill-profile selfkill exit
notmp selfkill-no-tmp selfkill

# SIGTERM from outside, once the client has done its work and sits in pause()
# (it writes its pid to term/ready when it gets there)
mkdir -p "$T/term"
(cd "$T/term" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
    --commprof-xml-file=prof.%p.xml --commprof-out-file=prof.%p.cg ../lc term ready.new ready >out 2>err) &
bgpid=$!
vpid=$(wait_ready "$T/term/ready")
if [[ $vpid =~ ^[0-9]+$ ]]; then
    kill -TERM "$vpid"
    wait "$bgpid"
    rc=$?
    bgpid=
    status term-status 143
    profile term-profile term exit "$vpid"
else
    fail term-status "the client did not reach pause() in 30 s: $(tail -n 3 "$T/term/err")"
fi
if [[ -n $bgpid ]]; then
    pkill -KILL -P "$bgpid" 2>/dev/null     # the valgrind under our timeout
    kill -KILL "$bgpid" 2>/dev/null
    wait "$bgpid" 2>/dev/null
    bgpid=
fi
notmp term-no-tmp term

# vgdb's monitor command dump, while the client waits (it writes its pid to
# vgdb/ready, then polls for vgdb/stop): a profile with reason="request" and
# the answer "commprof: profile written"; the exit writes the second one
mkdir -p "$T/vgdb"
(cd "$T/vgdb" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof --vgdb=yes \
    --commprof-xml-file=prof.%p.%n.xml --commprof-out-file=none ../lc vgdb ready.new ready >out 2>err) &
bgpid=$!
vpid=$(wait_ready "$T/vgdb/ready")
if [[ $vpid =~ ^[0-9]+$ ]]; then
    vout=$(timeout 60 vgdb --pid="$vpid" dump 2>&1)
    : >"$T/vgdb/stop"
    wait "$bgpid"
    rc=$?
    bgpid=
    why=
    grep -qx 'commprof: profile written' <<<"$vout" || why+="vgdb said: $(tail -n 3 <<<"$vout"); "
    ((rc == 0)) || why+="exit status $rc; "
    for n in 1 2; do
        x=$T/vgdb/prof.$vpid.$n.xml
        want=request
        ((n == 2)) && want=exit
        if [[ -f $x ]]; then
            out=$(cpcheck expect "$x" reason "$want") || why+="$n: $out; "
            out=$(cpcheck edge "$x" produce consume 1024) || why+="$n: $out; "
        else
            why+="no prof.$vpid.$n.xml; "
        fi
    done
    if [[ -z $why ]]; then pass vgdb-dump; else fail vgdb-dump "$why"; fi
else
    fail vgdb-dump "the client did not get ready in 30 s: $(tail -n 3 "$T/vgdb/err")"
fi
if [[ -n $bgpid ]]; then
    pkill -KILL -P "$bgpid" 2>/dev/null
    kill -KILL "$bgpid" 2>/dev/null
    wait "$bgpid" 2>/dev/null
    bgpid=
fi
notmp vgdb-no-tmp vgdb

# %n without %p in a forked child: every file of the child's gets .<pid>, so
# the child's second write does not replace the parent's (child: two dumps
# and _exit; parent: one dump after waiting, then the exit)
mkdir -p "$T/forkn"
{ (cd "$T/forkn" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
    --commprof-xml-file=prof.%n.xml --commprof-out-file=none ../lc forkdump >out 2>err); } 2>/dev/null
rc=$?
cpid=$(sed -n 's/^forkdump child \([0-9]*\)$/\1/p' "$T/forkn/out")
got=$(cd "$T/forkn" && ls prof.* 2>/dev/null | sort | tr '\n' ' ')
want=$(printf '%s\n' prof.1.xml prof.2.xml "prof.1.xml.$cpid" "prof.2.xml.$cpid" "prof.3.xml.$cpid" | sort | tr '\n' ' ')
why=
((rc == 0)) || why+="exit status $rc; "
[[ $cpid =~ ^[0-9]+$ ]] || why+="no child pid in stdout; "
[[ $got == "$want" ]] || why+="files: $got, expected: $want; "
for f in prof.1.xml:request prof.2.xml:exit "prof.1.xml.$cpid:request" "prof.2.xml.$cpid:request" "prof.3.xml.$cpid:exit"; do
    x=$T/forkn/${f%:*}
    [[ -f $x ]] || continue
    out=$(cpcheck expect "$x" reason "${f##*:}") || why+="${f%:*}: $out; "
done
if [[ -z $why ]]; then pass fork-seq-names; else fail fork-seq-names "$why"; fi

# execve: the profile of what ran before, then the new image (natively)
run exec exec
if ((rc == 5)) && grep -q EXECED "$T/exec/out"; then
    pass exec-new-image-ran
else
    fail exec-new-image-ran "exit status $rc (expected 5 from the exec'd shell), stdout: $(head -c 200 "$T/exec/out")"
fi
profile exec-profile exec exec
notmp exec-no-tmp exec

# a failed execve: the process goes on, its final profile is an exit one
run execfail execfail
if ((rc == 0)) && grep -q EXEC-FAILED "$T/execfail/out"; then pass execfail-status; else fail execfail-status "exit status $rc, stdout: $(head -c 200 "$T/execfail/out")"; fi
profile execfail-profile execfail exit
notmp execfail-no-tmp execfail

# execve traced with --trace-children=yes: the new image has the same pid and
# so the same file names; the pre-exec profile is kept as NAME.exec1
d=$T/exectrace
mkdir -p "$d"
(cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof --trace-children=yes \
    --commprof-xml-file=prof.%p.xml --commprof-out-file=prof.%p.cg ../lc exec >out 2>err)
rc=$?
x=$(ls "$d"/prof.*.xml 2>/dev/null | head -n 1)
if ((rc == 5)) && [[ -n $x && -s $x && -s $x.exec1 && -s ${x%.xml}.cg.exec1 ]] \
    && grep -q '<end reason="exec"/>' "$x.exec1" && grep -q '<end reason="exit"/>' "$x" \
    && grep -q '<exe>/bin/sh</exe>' "$x"; then
    pass exec-traced-keeps-both-profiles
else
    fail exec-traced-keeps-both-profiles "exit status $rc, files: $(ls -A "$d" | tr '\n' ' ')"
fi

# ... also when the first image's command line is long: the profile's header
# then holds 30000 bytes of arguments (XML-escaped: '&' is 5 bytes) before the
# pid and the end reason that tell it apart
d=$T/exectrace-long
mkdir -p "$d"
long=$(printf '&%.0s' $(seq 6000))
(cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof --trace-children=yes \
    --commprof-xml-file=prof.%p.xml --commprof-out-file=prof.%p.cg ../lc exec "$long" >out 2>err)
rc=$?
x=$(ls "$d"/prof.*.xml 2>/dev/null | head -n 1)
if ((rc == 5)) && [[ -n $x && -s $x && -s $x.exec1 && -s ${x%.xml}.cg.exec1 ]] \
    && grep -q '<end reason="exec"/>' "$x.exec1" && grep -q '<end reason="exit"/>' "$x"; then
    pass exec-traced-long-args-keeps-both-profiles
else
    fail exec-traced-long-args-keeps-both-profiles "exit status $rc, files: $(ls -A "$d" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------------------
# fork

# forkfiles NAME XML CG PID PPID FUNC-P FUNC-C: a complete profile of process PID
forkfiles() {
    local name=$1 x=$2 cg=$3 pid=$4 ppid=$5 why= out
    if [[ ! -s $x ]]; then
        fail "$name" "no file ${x#$T/}; files: $(ls -A "$(dirname "$x")" | tr '\n' ' ')"
        return
    fi
    out=$(xmllint --noout --relaxng "$RNG" "$x" 2>&1) || why+="xmllint: $out; "
    out=$(cpcheck valid "$x") || why+="$out; "
    out=$(cpcheck expect "$x" reason exit) || why+="$out; "
    out=$(cpcheck expect "$x" pid "$pid") || why+="$out; "
    [[ -n $ppid ]] && { out=$(cpcheck expect "$x" ppid "$ppid") || why+="$out; "; }
    out=$(cpcheck edge "$x" "$6" "$7") || why+="$out; "
    out=$(cg_complete "$cg") || why+="$out; "
    if [[ -z $why ]]; then pass "$name"; else fail "$name" "$why"; fi
}

for variant in pid fixed; do
    d=$T/fork-$variant
    mkdir -p "$d"
    if [[ $variant == pid ]]; then
        xo=prof.%p.xml co=prof.%p.cg how=exit
    else
        xo=fixed.xml co=fixed.cg how=_exit
    fi
    (cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
        --commprof-xml-file=$xo --commprof-out-file=$co ../lc fork $how >out 2>err)
    rc=$?
    line=$(grep '^parent ' "$d/out")
    read -r _ ppid _ cpid _ cst <<<"$line"
    if ((rc == 0)) && [[ -n ${cpid:-} && ${cst:-} == 0 ]] && grep -q '^child-sum 8256$' "$d/out"; then
        pass "fork-$variant-run"
    else
        fail "fork-$variant-run" "exit status $rc, stdout: $(head -c 300 "$d/out")"
        continue
    fi
    if [[ $variant == pid ]]; then
        px=$d/prof.$ppid.xml pc=$d/prof.$ppid.cg cx=$d/prof.$cpid.xml cc=$d/prof.$cpid.cg
    else
        px=$d/fixed.xml pc=$d/fixed.cg cx=$d/fixed.xml.$cpid cc=$d/fixed.cg.$cpid
    fi
    forkfiles "fork-$variant-parent-profile" "$px" "$pc" "$ppid" "" produce consume
    forkfiles "fork-$variant-child-profile" "$cx" "$cc" "$cpid" "$ppid" child_produce child_consume
    # the parent's own work after the child ended is in the parent's file only
    check "fork-$variant-parent-has-later" cpcheck edge "$px" later_produce later_consume 256
    check "fork-$variant-child-own-work" cpcheck absent "$cx" later_produce later_consume
    n=$(ls -A "$d" | grep -c -v -E '^(out|err)$')
    if ((n == 4)); then pass "fork-$variant-four-files"; else fail "fork-$variant-four-files" "files: $(ls -A "$d" | tr '\n' ' ')"; fi
    notmp "fork-$variant-no-tmp" "fork-$variant"
done

# children that exec at once (vfork, posix_spawn, system): the parent's
# profile holds its work before and after them; each child leaves a profile
# that ends at its exec and holds none of the parent's edges (its counters
# start at zero); nothing else
d=$T/spawn
run spawn spawn
line=$(grep '^parent ' "$d/out")
read -r _ ppid _ st0 st1 st2 <<<"$line"
if ((rc == 0)) && [[ ${st0:-} == 0 && ${st1:-} == 0 && ${st2:-} == 0 ]] \
        && grep -q -x "$SUM" "$d/out" && grep -q -x 'later 4032' "$d/out"; then
    pass spawn-run
else
    fail spawn-run "exit status $rc, stdout: $(head -c 300 "$d/out")"
fi
px=$d/prof.${ppid:-none}.xml
why=
out=$(xmllint --noout --relaxng "$RNG" "$px" 2>&1) || why+="xmllint: $out; "
out=$(cpcheck expect "$px" reason exit) || why+="$out; "
out=$(cpcheck edge "$px" produce consume 1024) || why+="$out; "
out=$(cpcheck edge "$px" later_produce later_consume 256) || why+="$out; "
out=$(cg_complete "$d/prof.${ppid:-none}.cg") || why+="$out; "
if [[ -z $why ]]; then pass spawn-parent-profile; else fail spawn-parent-profile "$why"; fi
why=
n=0
for x in "$d"/prof.*.xml; do
    [[ $x == "$px" || ! -f $x ]] && continue
    n=$((n + 1))
    c=${x%.xml}
    out=$(xmllint --noout --relaxng "$RNG" "$x" 2>&1) || why+="xmllint: $out; "
    out=$(cpcheck expect "$x" reason exec) || why+="$out; "
    out=$(cpcheck expect "$x" ppid "$ppid") || why+="$out; "
    out=$(cpcheck absent "$x" produce consume later_produce later_consume) || why+="$out; "
    out=$(cg_complete "$c.cg") || why+="$out; "
done
# one child each for vfork, posix_spawn and system()
((n == 3)) || why+="$n child profiles, expected 3: $(ls -A "$d" | tr '\n' ' '); "
if [[ -z $why ]]; then pass spawn-child-profiles; else fail spawn-child-profiles "$why"; fi
notmp spawn-no-tmp spawn

# a forked child writes /dev/null and /dev/stdout as they are: no /dev/null.PID
# beside the device, and both profiles on stdout
d=$T/fork-dev
mkdir -p "$d"
(cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
    --commprof-xml-file=/dev/null --commprof-out-file=/dev/stdout ../lc fork exit >out 2>err)
rc=$?
why=
((rc == 0)) || why+="exit status $rc; "
grep -q '^child-sum 8256$' "$d/out" || why+="the child did not run; "
n=$(grep -c '^# callgrind format' "$d/out")
((n == 2)) || why+="$n callgrind profiles on stdout, expected 2 (parent and child); "
[[ -c /dev/null ]] || why+="/dev/null is no longer a character device; "
[[ -L /dev/stdout ]] || why+="/dev/stdout is no longer a link; "
left=$(find /dev -maxdepth 1 \( -name 'null.*' -o -name 'stdout.*' \) 2>/dev/null)
[[ -n $left ]] && why+="left in /dev: $left; "
grep -q 'cannot' "$d/err" && why+="$(grep cannot "$d/err" | head -2); "
if [[ -z $why ]]; then pass fork-dev-files; else fail fork-dev-files "$why"; fi

# ---------------------------------------------------------------------------
# COMMPROF_DUMP_PROFILE(): a file mid-run, the final one at exit

d=$T/dump
mkdir -p "$d"
(cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
    --commprof-xml-file=dump.xml --commprof-out-file=dump.cg ../lc dump dump.xml dump.cg >out 2>err)
rc=$?
if ((rc == 0)) && grep -q SNAP-OK "$d/out"; then
    pass dump-file-exists-mid-run
else
    fail dump-file-exists-mid-run "exit status $rc, stdout: $(head -c 300 "$d/out")"
fi
if [[ -s $d/snap.xml ]]; then
    check dump-request-valid bash -c 'xmllint --noout --relaxng "$1" "$2" && python3 "$3" valid "$2"' _ "$RNG" "$d/snap.xml" "$T/cpcheck.py"
    check dump-request-reason cpcheck expect "$d/snap.xml" reason request
    check dump-request-edges bash -c 'python3 "$1" edge "$2" produce consume 1024 && python3 "$1" absent "$2" later_produce later_consume' _ "$T/cpcheck.py" "$d/snap.xml"
    check dump-request-callgrind bash -c 'grep -q "^desc: Ended: request" "$1" && tail -n 1 "$1" | grep -q "^totals: "' _ "$d/snap.cg"
fi
check dump-exit-valid bash -c 'xmllint --noout --relaxng "$1" "$2" && python3 "$3" valid "$2"' _ "$RNG" "$d/dump.xml" "$T/cpcheck.py"
check dump-exit-reason cpcheck expect "$d/dump.xml" reason exit
check dump-exit-edges bash -c 'python3 "$1" edge "$2" produce consume 1024 && python3 "$1" edge "$2" later_produce later_consume 256' _ "$T/cpcheck.py" "$d/dump.xml"
notmp dump-no-tmp dump

# %n numbers the writes of a process: the request's file is .1, the exit's .2
d=$T/dumpn
mkdir -p "$d"
(cd "$d" && exec timeout "$VG_TIMEOUT" valgrind --tool=commprof \
    --commprof-xml-file=dn.%n.xml --commprof-out-file=dn.%n.cg ../lc dump none.xml none.cg >out 2>err)
rc=$?
rm -f "$d"/snap.*      # the client's copies of none.xml: nothing
if ((rc == 0)) && [[ -s $d/dn.1.xml && -s $d/dn.2.xml && -s $d/dn.1.cg && -s $d/dn.2.cg && ! -e $d/dn.3.xml ]]; then
    pass dump-percent-n-files
    check dump-percent-n-first cpcheck expect "$d/dn.1.xml" reason request
    check dump-percent-n-second cpcheck expect "$d/dn.2.xml" reason exit
else
    fail dump-percent-n-files "exit status $rc, files: $(ls -A "$d" | tr '\n' ' ')"
fi
# natively, the request is a no-op
mkdir -p "$T/native"
if out=$(cd "$T/native" && ../lc dump /dev/null /dev/null 2>&1) && [[ $out == *"later 4032"* ]]; then
    pass dump-native-noop
else
    fail dump-native-noop "$out"
fi
rm -rf "$T/native"     # its snap.* are copies of /dev/null

# ---------------------------------------------------------------------------

bad=
nx=0
while IFS= read -r -d '' f; do
    nx=$((nx + 1))
    xmllint --noout --relaxng "$RNG" "$f" >/dev/null 2>&1 || bad+=" ${f#$T/}"
done < <(find "$T" -name '*.xml*' -type f -print0)
if [[ -z $bad ]] && ((nx > 0)); then pass "all-xml-valid ($nx files)"; else fail all-xml-valid "invalid:${bad:- no XML file found}"; fi
notmp no-tmp-anywhere .

finish
