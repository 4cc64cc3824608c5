#!/usr/bin/env bash
# tests/suites/dist.sh: `make dist` (in the build directory) makes a tarball
# that holds every file of the source tree and its MANIFEST, and the tarball
# can make the same tarball again without git (from its MANIFEST).
#
# In a git checkout, "every file" is `git ls-files`; elsewhere (an unpacked
# tarball), the MANIFEST beside this script's tree.  Needs a configured build
# (tests/run-all builds first).  The tarballs are made in a temporary
# directory; the build directory keeps no trace.
#
# Prints PASS/FAIL/SKIP lines and, last, "N passed, N failed"; exits 1 on failure.

set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT" || exit 1
. "$ROOT/tests/lib/suite.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/commprof-dist.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

if [[ ! -f $BUILDDIR/Makefile ]]; then
    fail "make dist" "no Makefile in $BUILDDIR (configure first)"
    finish
fi

if top=$(git -C "$ROOT" rev-parse --show-toplevel 2>/dev/null) && [[ $top == "$(cd "$ROOT" && pwd -P)" ]]; then
    git -C "$ROOT" ls-files | sort >"$tmp/want"
elif [[ -f $ROOT/MANIFEST ]]; then
    sort "$ROOT/MANIFEST" >"$tmp/want"
else
    fail "make dist" "neither a git checkout nor a MANIFEST: no list of source files"
    finish
fi

# a distdir name of its own, so that a tarball of the user's is left alone;
# the tarball moves to $tmp at once
name=commprof-dist-test.$$
if ! make -C "$BUILDDIR" -s dist distdir="$name" >"$tmp/log" 2>&1 \
    || ! mv "$BUILDDIR/$name.tar.gz" "$tmp/commprof-dist.tar.gz"; then
    rm -rf "${BUILDDIR:?}/$name" "$BUILDDIR/$name.tar.gz"
    fail "make dist" "$(tail -n 3 "$tmp/log" | tr '\n' ' ')"
    finish
fi
pass "make dist"

tar tzf "$tmp/commprof-dist.tar.gz" | sed -n 's|^[^/]*/||p' | grep -v '/$' | sort >"$tmp/got"
missing=$(comm -23 "$tmp/want" "$tmp/got")
if [[ -z $missing ]]; then
    pass "the tarball holds every source file ($(wc -l <"$tmp/want") files)"
else
    fail "the tarball holds every source file" "missing $(wc -l <<<"$missing"): $(head -n 5 <<<"$missing" | tr '\n' ' ')"
fi
if grep -qx MANIFEST "$tmp/got"; then
    pass "the tarball has its MANIFEST"
else
    fail "the tarball has its MANIFEST"
fi

# again from the unpacked tarball, which has no .git: the MANIFEST lists the files
mkdir "$tmp/unpacked" && tar xzf "$tmp/commprof-dist.tar.gz" -C "$tmp/unpacked" || {
    fail "unpack the tarball"
    finish
}
src=$(echo "$tmp"/unpacked/*)
if (cd "$src" && GIT_CEILING_DIRECTORIES="$tmp" ./configure -q >/dev/null 2>&1 \
    && GIT_CEILING_DIRECTORIES="$tmp" make -s dist distdir=again >"$tmp/log2" 2>&1) \
    && [[ -f $src/again.tar.gz ]]; then
    tar tzf "$src/again.tar.gz" | sed -n 's|^[^/]*/||p' | grep -v '/$' | sort >"$tmp/got2"
    if cmp -s "$tmp/got" "$tmp/got2"; then
        pass "the unpacked tarball makes the same tarball (from its MANIFEST)"
    else
        fail "the unpacked tarball makes the same tarball" \
            "$(diff "$tmp/got" "$tmp/got2" | head -n 5 | tr '\n' ' ')"
    fi
else
    fail "make dist in the unpacked tarball" "$(tail -n 3 "$tmp/log2" 2>/dev/null | tr '\n' ' ')"
fi

finish
