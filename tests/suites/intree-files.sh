#!/usr/bin/env bash
# tests/suites/intree-files.sh: the files of the in-tree build (commprof built
# inside a Valgrind source tree), checked without a Valgrind tree:
#
#  - commprof/tests/Makefile.am is what commprof/tests/gen-makefile-am
#    generates from the directory (it lists every test program, .vgtest,
#    .exp and script; rerun the script after changing the tests);
#  - commprof/sources.am, included by automake in tree, defines no variable
#    that automake would take for a primary (NAME_HEADERS, NAME_SOURCES, ...);
#  - include/commprof.h is commprof/commprof.h (a symlink to it);
#  - every file commprof/Makefile.am distributes exists;
#  - commprof/docs/cp-manual.xml is well-formed XML, and valid DocBook 4.5
#    when the DTD is installed (docbook-xml), links to the other chapters of
#    Valgrind's manual aside (tests/intree/run checks those in tree);
#  - the chapter has an entry (id="cpopt.NAME": the prefix keeps the ids
#    apart from those of the other tools' options in Valgrind's manual, e.g.
#    callgrind's opt.separate-callers) for every option that cp_options.c
#    prints in --help, and names every element and attribute of
#    docs/commprof.rng.
#
# Prints PASS/FAIL/SKIP lines and, last, "N passed, N failed"; exits 1 on failure.

set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT" || exit 1

npass=0
nfail=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() {
    echo "FAIL $1${2:+: $2}"
    nfail=$((nfail + 1))
}

# 1. the generated Makefile.am
if out=$(python3 commprof/tests/gen-makefile-am --check 2>&1); then
    pass "commprof/tests/Makefile.am up to date"
else
    fail "commprof/tests/Makefile.am up to date" "$(head -n 1 <<<"$out")"
    sed -n '2,60p' <<<"$out" | sed 's/^/    /'
fi

# 2. sources.am
bad=$(grep -nE '^[[:space:]]*[A-Za-z0-9_]+_(HEADERS|SOURCES|PROGRAMS|LIBRARIES|LTLIBRARIES|DATA|SCRIPTS|MANS|TEXINFOS|PYTHON|JAVA|LISP)[[:space:]]*[+:]?=' \
    commprof/sources.am)
if [[ -z $bad ]]; then
    pass "commprof/sources.am defines no automake primary"
else
    fail "commprof/sources.am defines no automake primary" \
        "automake includes it in tree and would take these for primaries: $bad"
fi

# 3. the client header
if [[ -f commprof/commprof.h && include/commprof.h -ef commprof/commprof.h ]]; then
    pass "include/commprof.h is commprof/commprof.h"
else
    fail "include/commprof.h is commprof/commprof.h" \
        "commprof/commprof.h must be the header and include/commprof.h a symlink to it"
fi

# 4. files distributed by commprof/Makefile.am
missing=()
for f in $(sed -n 's/^[[:space:]]*\(EXTRA_DIST\|pkginclude_HEADERS\)[[:space:]]*=//p' commprof/Makefile.am); do
    [[ -e commprof/$f ]] || missing+=("$f")
done
if ((${#missing[@]} == 0)); then
    pass "commprof/Makefile.am: distributed files exist"
else
    fail "commprof/Makefile.am: distributed files exist" "missing: ${missing[*]}"
fi

# 5. the manual chapter
doc=commprof/docs/cp-manual.xml
if ! command -v xmllint >/dev/null 2>&1; then
    echo "SKIP $doc (no xmllint: install libxml2-utils)"
elif ! out=$(xmllint --noout "$doc" 2>&1); then
    fail "$doc is well-formed" "$out"
else
    pass "$doc is well-formed"
    if command -v xmlcatalog >/dev/null 2>&1 &&
        xmlcatalog /etc/xml/catalog "-//OASIS//DTD DocBook XML V4.5//EN" 2>/dev/null | grep -q '^file:'; then
        out=$(XML_CATALOG_FILES=/etc/xml/catalog xmllint --noout --nonet --valid "$doc" 2>&1)
        errs=$(grep -v 'IDREF attribute linkend references an unknown ID' <<<"$out" | grep .)
        if [[ -z $errs ]]; then
            pass "$doc is valid DocBook 4.5"
        else
            fail "$doc is valid DocBook 4.5" "$(head -n 5 <<<"$errs")"
        fi
    else
        echo "SKIP $doc is valid DocBook 4.5 (no DocBook XML 4.5 DTD: install docbook-xml)"
    fi
fi

# 6. the chapter documents every option and every XML element and attribute
if out=$(python3 - "$doc" commprof/cp_options.c docs/commprof.rng <<'PY'
import re, sys
doc, opts, rng = (open(f, encoding="utf-8").read() for f in sys.argv[1:4])
usage = opts[opts.find("cp_print_usage"):]
missing = ["--" + o for o in re.findall(r'^"\s+--([a-z][a-z0-9-]*)', usage, re.M)
           if 'id="cpopt.%s"' % o not in doc]
names = sorted(set(re.findall(r'<(?:element|attribute) name="([^"]+)"', rng)))
missing += [n for n in names
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(n), doc)]
print(" ".join(missing))
sys.exit(1 if missing else 0)
PY
); then
    pass "$doc documents every option and XML name"
else
    fail "$doc documents every option and XML name" \
        "not in the chapter (options of cp_options.c, names of docs/commprof.rng): $out"
fi

echo "$npass passed, $nfail failed"
((nfail == 0))
