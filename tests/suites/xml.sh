#!/usr/bin/env bash
# tests/suites/xml.sh: the output files.
#
#  - every XML profile validates against docs/commprof.rng (xmllint) and is
#    self-consistent (ids, edge references, totals; checked with python3);
#  - the schema rejects files that break the structure;
#  - C++ names full of < > & " are escaped and recovered exactly;
#  - a program under a path with & " ' < > space and UTF-8 gets a valid XML
#    whose object/exe/dir/args are the real strings;
#  - every callgrind-format file is read by callgrind_annotate without
#    warnings, the pseudo call consumer -> producer shows in its call tree, and
#    its totals: line is the sum of the self-cost lines;
#  - "none" writes nothing; no *.tmp.* file is ever left behind.
#
# Prints PASS/FAIL lines and, last, "N passed, N failed"; exits 1 on failure.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$ROOT/tests/lib/suite.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/commprof-xml.XXXXXX") || { fail setup "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
cd "$T" || { fail setup "cd $T"; finish; }
ulimit -c 0 2>/dev/null

missing=
for t in valgrind xmllint python3 gcc g++ callgrind_annotate timeout; do
    command -v "$t" >/dev/null 2>&1 || missing+=" $t"
done
if [[ -n $missing ]]; then fail prerequisites "not found:$missing"; finish; fi
if [[ ! -f $RNG ]]; then fail prerequisites "no $RNG"; finish; fi
if ! xmllint --noout "$RNG" 2>"$T/rng.err"; then fail schema-well-formed "$(cat "$T/rng.err")"; finish; fi

# ---------------------------------------------------------------------------
# helpers

# python checker of the output files (see its docstring)
cp "$ROOT/tests/lib/cpcheck.py" "$T/cpcheck.py"   # the checker shared by the suites

cpcheck() { python3 "$T/cpcheck.py" "$@" 2>&1; }

# check NAME CMD...: PASS if CMD succeeds, else FAIL with its output
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "${out:-exit status $?}"; fi
}

# vg OUTPREFIX ARGS...: runs the tool, stdout/stderr to OUTPREFIX.out/.err, status in $rc
vg() {
    local o=$1
    shift
    timeout "$VG_TIMEOUT" valgrind --tool=commprof "$@" >"$o.out" 2>"$o.err"
    rc=$?
}

# validate NAME FILE: xmllint against the schema, then the python consistency checks
validate() {
    local out
    if [[ ! -s $2 ]]; then fail "$1" "no file $2"; return 1; fi
    if ! out=$(xmllint --noout --relaxng "$RNG" "$2" 2>&1); then fail "$1" "xmllint: $out"; return 1; fi
    if ! out=$(cpcheck valid "$2"); then fail "$1" "$out"; return 1; fi
    pass "$1"
}

# annotate NAME FILE: callgrind_annotate reads FILE without a warning, in its
# default and its tree mode (the tree output is left in FILE.tree)
annotate() {
    local out bad
    out=$(callgrind_annotate "$2" 2>&1)
    local r1=$?
    callgrind_annotate --tree=calling --threshold=100 --inclusive=no "$2" >"$2.tree" 2>&1
    local r2=$?
    bad=$( { echo "$out"; cat "$2.tree"; } |
        grep -E 'WARNING|[Ww]arning:|malformed|Use of uninitiali[sz]ed|callgrind_annotate line [0-9]' | head -5)
    if ((r1 != 0 || r2 != 0)) || [[ -n $bad ]]; then
        fail "$1" "callgrind_annotate exit $r1/$r2: ${bad:-$(echo "$out" | tail -3)}"
    else
        pass "$1"
    fi
}

# notmp NAME DIR: no temporary output file left in DIR
notmp() {
    local left
    left=$(find "$2" -name '*.tmp.*' 2>/dev/null)
    if [[ -n $left ]]; then fail "$1" "left behind: $left"; else pass "$1"; fi
}

# ---------------------------------------------------------------------------
# 1. a C producer -> transform -> consumer chain, -O0 and -O2

cp "$ROOT/tests/lib/chain.c" chain.c

for O in O0 O2; do
    if ! out=$(gcc -$O -g -o chain$O chain.c 2>&1); then fail "compile-chain-$O" "$out"; continue; fi
    mkdir -p "$T/c$O"
    vg "c$O/run" --commprof-out-file="c$O/cg.%p" --commprof-xml-file="c$O/prof.%p.xml" ./chain$O 100
    if ((rc == 0)) && [[ $(cat "c$O/run.out") == 70000 ]]; then
        pass "chain-$O-run"
    else
        fail "chain-$O-run" "exit $rc, stdout '$(head -c 200 "c$O/run.out")', stderr: $(tail -3 "c$O/run.err")"
    fi
    xml=$(ls "c$O"/prof.*.xml 2>/dev/null | head -1)
    cg=$(ls "c$O"/cg.* 2>/dev/null | grep -v '\.tree$' | head -1)
    pid=${xml#c$O/prof.}
    pid=${pid%.xml}
    validate "chain-$O-xml-valid" "${xml:-c$O/prof.xml}" || continue
    check "chain-$O-xml-edges" bash -c '
        p=$1; x=$2
        python3 "$p" edge "$x" produce transform 400 && python3 "$p" edge "$x" transform consume 400 &&
        python3 "$p" noedge "$x" produce consume' _ "$T/cpcheck.py" "$xml"
    check "chain-$O-xml-run-fields" bash -c '
        p=$1; x=$2; O=$3; pid=$4
        python3 "$p" expect "$x" exe "./chain$O" && python3 "$p" expect "$x" args "[\"100\"]" &&
        python3 "$p" expect "$x" pid "$pid" && python3 "$p" expect "$x" reason exit &&
        python3 "$p" expect "$x" option:commprof-xml-file "c$O/prof.%p.xml" &&
        python3 "$p" expect "$x" option:commprof-out-file "c$O/cg.%p" &&
        python3 "$p" expect "$x" option:nodes main && python3 "$p" expect "$x" option:granularity 1 &&
        python3 "$p" expect "$x" object:produce "$(pwd -P)/chain$O" &&
        python3 "$p" expect "$x" file:produce chain.c' _ "$T/cpcheck.py" "$xml" "$O" "$pid"
    if [[ $cg != "c$O/cg.$pid" ]]; then
        fail "chain-$O-cg-file" "expected c$O/cg.$pid, found '${cg}'"
        continue
    fi
    annotate "chain-$O-cg-annotate" "$cg"
    check "chain-$O-cg-tree" bash -c '
        python3 "$1" cgtree "$2.tree" chain.c:transform chain.c:produce &&
        python3 "$1" cgtree "$2.tree" chain.c:consume chain.c:transform' _ "$T/cpcheck.py" "$cg"
    check "chain-$O-cg-totals" cpcheck cgtotals "$cg"
    notmp "chain-$O-no-tmp" "c$O"
done

# other option values: every function of every object, coarse shadow map,
# stack ignored (many more names, from libc and ld.so)
if [[ -x chainO2 ]]; then
    mkdir -p all
    vg all/run --nodes=all --granularity=8 --ignore-stack=yes --summary-edges=0 \
        --commprof-out-file=all/cg --commprof-xml-file=all/prof.xml ./chainO2 100
    if ((rc == 0)); then pass nodes-all-run; else fail nodes-all-run "exit $rc: $(tail -3 all/run.err)"; fi
    if validate nodes-all-xml-valid all/prof.xml; then
        check nodes-all-xml-options bash -c '
            python3 "$1" expect "$2" option:nodes all && python3 "$1" expect "$2" option:granularity 8 &&
            python3 "$1" expect "$2" option:ignore-stack yes && python3 "$1" expect "$2" option:summary-edges 0 &&
            python3 "$1" edge "$2" produce transform 400' _ "$T/cpcheck.py" all/prof.xml
    fi
    if [[ -s all/cg ]]; then
        annotate nodes-all-cg-annotate all/cg
        check nodes-all-cg-totals cpcheck cgtotals all/cg
    else
        fail nodes-all-cg-annotate "no file all/cg"
    fi
    notmp nodes-all-no-tmp all
fi

# ---------------------------------------------------------------------------
# 2. the schema rejects broken files (mutations of a valid profile)

base=$(ls cO0/prof.*.xml 2>/dev/null | head -1)
if [[ -n $base ]] && xmllint --noout --relaxng "$RNG" "$base" >/dev/null 2>&1; then
    # mutate NAME PYTHON-EXPR-ON-s: the mutated file must fail validation
    mutate() {
        local name=$1 expr=$2
        if ! python3 - "$base" "mut-$name.xml" "$expr" <<'PYEOF'
import re, sys
s = open(sys.argv[1], encoding='utf-8').read()
t = eval(sys.argv[3], {'re': re, 's': s})
if t == s:
    sys.exit('mutation changed nothing')
open(sys.argv[2], 'w', encoding='utf-8').write(t)
PYEOF
        then
            fail "schema-rejects-$name" "could not build the mutated file"
            return
        fi
        if xmllint --noout --relaxng "$RNG" "mut-$name.xml" >/dev/null 2>&1; then
            fail "schema-rejects-$name" "xmllint accepted mut-$name.xml"
        else
            pass "schema-rejects-$name"
        fi
    }
    mutate version 'str.replace(s, "<commprof version=\"1\"", "<commprof version=\"2\"", 1)'
    mutate root-name 're.sub(r"commprof( version=\"1\">|>\s*$)", r"profile\1", s)'
    mutate end-reason 're.sub(r"<end reason=\"\w+\"/>", "<end reason=\"crash\"/>", s)'
    mutate end-missing 're.sub(r"\s*<end reason=\"\w+\"/>", "", s)'
    mutate run-order 're.sub(r"(\s*<pid>\d+</pid>)(\s*<ppid>\d+</ppid>)", r"\2\1", s)'
    mutate sections-order 're.sub(r"(  <functions>.*?  </functions>\n)(  <edges>.*?  </edges>\n)", r"\2\1", s, flags=re.S)'
    mutate totals-missing 're.sub(r"\s*<totals [^>]*/>", "", s)'
    mutate unknown-element 'str.replace(s, "<edges>", "<edges><bogus/>", 1)'
    mutate unknown-attribute 'str.replace(s, "<edge producer=", "<edge color=\"red\" producer=", 1)'
    mutate missing-attribute 're.sub(r"(<edge [^>]*?) unma=\"\d+\"", r"\1", s, count=1)'
    mutate text-content 'str.replace(s, "<functions>", "<functions>junk", 1)'
    mutate kind-value 'str.replace(s, "kind=\"special\"", "kind=\"other\"", 1)'
    mutate kind-special-name 're.sub(r"kind=\"function\" name=\"produce\"", "kind=\"special\" name=\"produce\"", s)'
    mutate special-object 're.sub(r"(kind=\"special\" name=\"[^\"]*\") object=\"\"", r"\1 object=\"/bin/x\"", s, count=1)'
    mutate negative 're.sub(r"(<edge [^>]*?) bytes=\"\d+\"", r"\1 bytes=\"-4\"", s, count=1)'
    mutate not-a-number 're.sub(r"(<function [^>]*?) instructions=\"\d+\"", r"\1 instructions=\"12k\"", s, count=1)'
    mutate leading-zero 're.sub(r"(<edge [^>]*?) bytes=\"(\d+)\"", r"\1 bytes=\"0\2\"", s, count=1)'
    mutate too-big 're.sub(r"(<edge [^>]*?) bytes=\"\d+\"", r"\1 bytes=\"18446744073709551616\"", s, count=1)'
    mutate edge-zero-bytes 're.sub(r"(<edge [^>]*?) bytes=\"\d+\"", r"\1 bytes=\"0\"", s, count=1)'
    mutate id-negative 're.sub(r"<function id=\"\d+\"", "<function id=\"-1\"", s, count=1)'
    mutate option-value 're.sub(r"name=\"granularity\" value=\"\d+\"", "name=\"granularity\" value=\"3\"", s)'
    mutate option-name 're.sub(r"<option name=\"nodes\"", "<option name=\"Nodes!\"", s)'
    mutate tool-name 'str.replace(s, "<tool name=\"commprof\"", "<tool name=\"cachegrind\"", 1)'
    mutate pid-text 're.sub(r"<pid>\d+</pid>", "<pid>self</pid>", s)'
else
    fail schema-rejects "no valid base profile from the chain-O0 run"
fi

# ---------------------------------------------------------------------------
# 3. C++ names full of < > & " (and operator<<, templates)

cat >names.cc <<'EOF'
#include <vector>
#include <iostream>
#include <cstddef>
#define NI __attribute__((noinline, noipa))
struct Point { int x, y; };
template<typename T> NI void fill(T *p, int n) { for (int i = 0; i < n; i++) p[i] = T(i * 3 + 1); }
template<typename T> NI T total(const T *p, int n) { T s = T(); for (int i = 0; i < n; i++) s += p[i]; return s; }
NI std::ostream &operator<<(std::ostream &os, const Point &p) { return os << p.x << ',' << p.y; }
NI bool operator<(const Point &a, const Point &b) { return a.x < b.x; }
NI bool operator>(const Point &a, const Point &b) { return a.y > b.y; }
NI Point operator&(const Point &a, const Point &b) { return Point{a.x & b.x, a.y & b.y}; }
NI void vec_produce(std::vector<int> &v) { for (size_t i = 0; i < v.size(); i++) v[i] = (int)i * 5; }
NI long vec_consume(const std::vector<int> &v) { long s = 0; for (size_t i = 0; i < v.size(); i++) s += v[i]; return s; }
NI unsigned long long operator"" _km(unsigned long long x) { return x * 1000; }
namespace { NI int anon_fn(int x) { return x + 1; } }
template<typename A, typename B> struct Pair {
    A a; B b;
    NI B swap_get(const Pair<B, A> &o) const { return o.a; }
};
/* names longer than any fixed-size buffer: N<N<...N<int>...> > 150 deep */
template<typename T> struct N { T t; };
template<int K, typename T> struct Nest { typedef N<typename Nest<K - 1, T>::type> type; };
template<typename T> struct Nest<0, T> { typedef T type; };
typedef Nest<150, int>::type Deep;
template<typename T> NI void long_produce(T *p, int n) { for (int i = 0; i < n; i++) ((char *)p)[i] = (char)i; }
template<typename T> NI int long_consume(const T *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += ((const char *)p)[i]; return s; }
int main()
{
    Deep deep[8];
    long_produce<Deep>(deep, sizeof deep);
    if (long_consume<Deep>(deep, sizeof deep) != 496) return 1;
    int buf[64];
    fill<int>(buf, 64);
    double d[16];
    fill<double>(d, 16);
    long t = total<int>(buf, 64) + (long)total<double>(d, 16);
    std::vector<int> v(100);
    vec_produce(v);
    t += vec_consume(v);
    Point a{3, 4}, b{6, 5};
    Point c = a & b;
    std::cout << c << ' ' << (a < b) << (a > b) << ' ' << t + 7_km + anon_fn(2) << '\n';
    Pair<int, char> p{1, 'x'};
    Pair<char, int> q{'y', 2};
    std::cout << (int)p.swap_get(q) << '\n';
    return 0;
}
EOF
names=(
    'void fill<int>(int*, int)'
    'void fill<double>(double*, int)'
    'int total<int>(int const*, int)'
    'double total<double>(double const*, int)'
    'operator<(Point const&, Point const&)'
    'operator>(Point const&, Point const&)'
    'operator&(Point const&, Point const&)'
    'vec_produce(std::vector<int, std::allocator<int> >&)'
    'vec_consume(std::vector<int, std::allocator<int> > const&)'
    'operator"" _km(unsigned long long)'
    '(anonymous namespace)::anon_fn(int)'
    'Pair<int, char>::swap_get(Pair<char, int> const&) const'
)
deep=$(python3 -c "print('N<' * 150 + 'int' + '> ' * 149 + '>')")
long_p="void long_produce<$deep >($deep*, int)"
long_c="int long_consume<$deep >($deep const*, int)"
names+=("$long_p" "$long_c")
# the demangler may or may not abbreviate std::basic_ostream<char, ...>
shl1='operator<<(std::ostream&, Point const&)'
shl2='operator<<(std::basic_ostream<char, std::char_traits<char> >&, Point const&)'
for O in O0 O2; do
    if ! out=$(g++ -$O -g -o names$O names.cc 2>&1); then fail "cxx-$O-compile" "$out"; continue; fi
    vg "cxx$O" --nodes=main --commprof-out-file="cxx$O.cg" --commprof-xml-file="cxx$O.xml" ./names$O
    if ((rc == 0)) && [[ $(head -1 "cxx$O.out") == "2,4 10 38241" ]]; then
        pass "cxx-$O-run"
    else
        fail "cxx-$O-run" "exit $rc, stdout '$(head -c 200 "cxx$O.out")', stderr: $(tail -3 "cxx$O.err")"
    fi
    validate "cxx-$O-xml-valid" "cxx$O.xml" || continue
    check "cxx-$O-names-exact" cpcheck names "cxx$O.xml" "${names[@]}"
    if out=$(cpcheck names "cxx$O.xml" "$shl1") || out=$(cpcheck names "cxx$O.xml" "$shl2"); then
        pass "cxx-$O-name-operator<<"
    else
        fail "cxx-$O-name-operator<<" "$out"
    fi
    check "cxx-$O-edges" bash -c '
        python3 "$1" edge "$2" "void fill<int>(int*, int)" "int total<int>(int const*, int)" 256 &&
        python3 "$1" edge "$2" "void fill<double>(double*, int)" "double total<double>(double const*, int)" 128 &&
        python3 "$1" edge "$2" "vec_produce(std::vector<int, std::allocator<int> >&)" \
                                "vec_consume(std::vector<int, std::allocator<int> > const&)" 400 &&
        python3 "$1" edge "$2" "$3" "$4" 32' \
        _ "$T/cpcheck.py" "cxx$O.xml" "$long_p" "$long_c"
    # the raw file has the names escaped, not as bare markup
    if grep -q -F 'name="operator&lt;(Point const&amp;, Point const&amp;)"' "cxx$O.xml" &&
        grep -q -F 'name="operator&quot;&quot; _km(unsigned long long)"' "cxx$O.xml"; then
        pass "cxx-$O-escaped"
    else
        fail "cxx-$O-escaped" "operator< / operator\"\" names not written as &lt; &amp; &quot; in cxx$O.xml"
    fi
    if [[ -s cxx$O.cg ]]; then
        annotate "cxx-$O-cg-annotate" "cxx$O.cg"
        check "cxx-$O-cg-tree" cpcheck cgtree "cxx$O.cg.tree" \
            '*:vec_consume(std::vector<int, std::allocator<int> > const&)' \
            '*:vec_produce(std::vector<int, std::allocator<int> >&)'
        check "cxx-$O-cg-tree-long-names" cpcheck cgtree "cxx$O.cg.tree" "*:$long_c" "*:$long_p"
        check "cxx-$O-cg-totals" cpcheck cgtotals "cxx$O.cg"
    else
        fail "cxx-$O-cg-annotate" "no file cxx$O.cg"
    fi
done
notmp cxx-no-tmp "$T"

# A std::vector's buffer at -O2: the allocation is library code inlined into
# make_buf, whose line for it is in new_allocator.h.  Without inline info the
# heap object is named after main's call of make_buf (vec.cc:10), and the
# summary says how to do better; with --read-inline-info=yes it is named after
# the line that makes the vector (vec.cc:4).
cat >vec.cc <<'EOF2'
#include <vector>
#include <cstdio>
__attribute__((noipa)) long make_buf(int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; i++) v[i] = i;
    long s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}
int main() { printf("%ld\n", make_buf(1000)); return 0; }
EOF2
if ! out=$(g++ -O2 -g -o vecO2 vec.cc 2>&1); then
    fail "cxx-inline-compile" "$out"
else
    vg vec --objects=yes --commprof-out-file=vec.cg --commprof-xml-file=vec.xml ./vecO2
    if ((rc == 0)) && grep -q -- '--read-inline-info=yes names them after the lines' vec.err &&
        grep -q 'kind="heap" name="vec.cc:10"' vec.xml; then
        pass "cxx-inline-hint"
    else
        fail "cxx-inline-hint" "exit $rc; no hint on stderr or no object vec.cc:10: $(grep -o 'kind="heap" name="[^"]*"' vec.xml | tr '\n' ' ')"
    fi
    vg veci --objects=yes --read-inline-info=yes --commprof-out-file=veci.cg --commprof-xml-file=veci.xml ./vecO2
    if ((rc == 0)) && ! grep -q -- '--read-inline-info=yes names them' veci.err &&
        grep -q 'kind="heap" name="vec.cc:4"' veci.xml; then
        pass "cxx-inline-named"
    else
        fail "cxx-inline-named" "exit $rc; objects: $(grep -o 'kind="heap" name="[^"]*"' veci.xml | tr '\n' ' ')"
    fi
    validate "cxx-inline-xml-valid" veci.xml
fi

# ---------------------------------------------------------------------------
# 4. a program under a path full of XML metacharacters, run from there

W="$T/we&ird \"q\" 'a' <lt> >gt é✓ dir"
if mkdir "$W" && cp chain.c "$W/src.c" && (cd "$W" && gcc -O0 -g -o prog src.c) 2>"$T/w.err"; then
    args=(100 'a&b' '<c>' 'd"e' "f'g" 'h é✓' $'line1\nline2' '')
    (cd "$W" && timeout "$VG_TIMEOUT" valgrind --tool=commprof "$W/prog" "${args[@]}" >"$T/w.out" 2>"$T/w.err")
    rc=$?
    xmls=("$W"/commprof.out.*.xml)
    cgs=()
    for f in "$W"/commprof.out.*; do [[ $f == *.xml ]] || cgs+=("$f"); done
    if ((rc == 0)) && ((${#xmls[@]} == 1)) && [[ -f ${xmls[0]} ]] && ((${#cgs[@]} == 1)); then
        pass path-run-default-names
    else
        fail path-run-default-names "exit $rc, files: $(ls -A "$W" | tr '\n' ' '), stderr: $(tail -3 "$T/w.err")"
    fi
    x=${xmls[0]}
    pid=${x##*/commprof.out.}
    pid=${pid%.xml}
    if validate path-xml-valid "$x"; then
        real=$(cd "$W" && pwd -P)
        check path-xml-object cpcheck expect "$x" object:produce "$real/prog"
        check path-xml-exe cpcheck expect "$x" exe "$W/prog"
        check path-xml-dir cpcheck expect "$x" dir:produce "$real"
        check path-xml-args cpcheck expect "$x" args "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1:], ensure_ascii=False))' "${args[@]}")"
        check path-xml-pid cpcheck expect "$x" pid "$pid"
        check path-xml-edges cpcheck edge "$x" produce transform 400
    fi
    if [[ ${cgs[0]:-} == "$W/commprof.out.$pid" ]]; then
        annotate path-cg-annotate "${cgs[0]}"
        check path-cg-tree cpcheck cgtree "${cgs[0]}.tree" src.c:transform src.c:produce
        check path-cg-totals cpcheck cgtotals "${cgs[0]}"
        if grep '^ob=' "${cgs[0]}" | grep -q -F -e " $real/prog"; then
            pass path-cg-object
        else
            fail path-cg-object "no ob= line with $real/prog"
        fi
    else
        fail path-cg-file "expected $W/commprof.out.$pid, found: ${cgs[*]:-none}"
    fi
    notmp path-no-tmp "$W"
else
    fail path-setup "$(cat "$T/w.err")"
fi

# ---------------------------------------------------------------------------
# 5. "none" writes nothing

mkdir -p "$T/none"
if [[ -x chainO0 ]]; then
    cp chainO0 "$T/none-prog"
    (cd "$T/none" && timeout "$VG_TIMEOUT" valgrind --tool=commprof --commprof-xml-file=none \
        --commprof-out-file=none ../none-prog 100 >../none.out 2>../none.err)
    rc=$?
    left=$(ls -A "$T/none")
    if ((rc == 0)) && [[ -z $left ]] && [[ $(cat "$T/none.out") == 70000 ]]; then
        pass none-writes-nothing
    else
        fail none-writes-nothing "exit $rc, stdout '$(head -c 100 "$T/none.out")', files: $left"
    fi
    if grep -q -E 'profile: ' "$T/none.err"; then
        fail none-no-file-announced "$(grep -E 'profile: ' "$T/none.err")"
    else
        pass none-no-file-announced
    fi
fi

# ---------------------------------------------------------------------------
# 6. every XML file written by this suite is valid; no temporary file anywhere

bad=
nx=0
while IFS= read -r -d '' f; do
    case $f in */mut-*) continue ;; esac
    nx=$((nx + 1))
    xmllint --noout --relaxng "$RNG" "$f" >/dev/null 2>&1 || bad+=" $f"
done < <(find "$T" -name '*.xml' -print0)
if [[ -z $bad ]] && ((nx > 0)); then pass "all-xml-valid ($nx files)"; else fail all-xml-valid "invalid:${bad:- no XML file found}"; fi
notmp no-tmp-anywhere "$T"

finish
