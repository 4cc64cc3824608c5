#!/usr/bin/env python3
"""Runner for commprof's .vgtest regression tests (commprof's own; not Valgrind's vg_regtest).

Usage:
  python3 tests/vgtest_runner.py --valgrind-lib DIR [--valgrind /usr/bin/valgrind]
                                 [-j N] [--timeout SECONDS] [--no-build]
                                 [TESTDIR_OR_VGTEST ...]

Without test arguments it runs <repo>/commprof/tests. A directory argument runs every
*.vgtest below it; a file argument runs that test (the .vgtest suffix may be omitted).

Build step: before running, every test program source NAME.c (NAME.cpp) in the
directories of the selected tests is compiled when its outputs are missing or older than
the source:
  NAME     with  $CC  $CFLAGS -g -O0 -I<repo>/include -o NAME    NAME.c <cflags>
  NAME-O2  with  $CC  $CFLAGS -g -O2 -I<repo>/include -o NAME-O2 NAME.c <cflags>
(C++: $CXX / $CXXFLAGS, default g++). <cflags> are the flags of a source line
`/* cflags: ... */` (e.g. -pthread, -mavx2).

.vgtest keys (one `key: value` per line; `#` comments and blank lines are ignored):
  prog:                 program, relative to the test's directory (run as ./PROG)
  prog-asis:            program run exactly as written
  args:                 arguments of the program (shell syntax)
  vgopts:               Valgrind options (repeatable, concatenated; ${PWD} is expanded)
  env:                  NAME=VALUE for the program's environment (repeatable)
  stdin:                file to use as the program's stdin (default /dev/null)
  prereq:               shell command; exit status 0 runs the test, anything else skips it
  post:                 shell command run after the test; its stdout is compared with
                        <test>.post.exp*; it must exit with status 0
  cleanup:              shell command run at the end
  stderr_filter:        filter for stderr (default ./filter_stderr)
  stdout_filter:        filter for stdout (default: none)
  stderr_filter_args:   arguments of the stderr filter (default: the test name)
  stdout_filter_args:   arguments of the stdout filter (default: the test name)

Each test runs in its directory as
  VALGRIND_LIB=DIR valgrind --command-line-only=yes --tool=TOOL $EXTRA_REGTEST_OPTS VGOPTS ./PROG ARGS
where TOOL is the name of the directory that contains `tests/` (commprof for
commprof/tests). Filtered stderr is compared with <test>.stderr.exp* (at least one must
exist), filtered stdout with <test>.stdout.exp* (not checked if there is none), the post
command's output with <test>.post.exp*. Any one of several alternatives may match. On a
mismatch the runner writes <test>.{stderr,stdout,post}.out and a .diff per alternative
(<test>.stderr.exp2 -> <test>.stderr.diff2) and prints the first 40 lines of the
closest diff; on success it removes stale .out/.diff files.

Prints `PASS name`, `FAIL name` (followed by indented details) or `SKIP name` per test,
and as its last line `N passed, N failed` (`, N skipped` appended if any were skipped).
Exits 1 if any test failed, 0 otherwise.
"""

import argparse
import concurrent.futures
import difflib
import glob
import os
import re
import shlex
import signal
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TESTDIR = os.path.join(REPO, "commprof", "tests")
DIFF_LINES = 40

SINGLE_KEYS = {
    "prog", "prog-asis", "args", "stdin", "prereq", "post", "cleanup",
    "stdout_filter", "stderr_filter", "stdout_filter_args", "stderr_filter_args",
}
MULTI_KEYS = {"vgopts", "env"}
KEY_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s?(.*?)\s*$")
CFLAGS_RE = re.compile(r"/\*\s*cflags:\s*(.*?)\s*\*/")


# --------------------------------------------------------------------------- build

def source_cflags(src):
    try:
        with open(src, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = CFLAGS_RE.search(line)
                if m:
                    return shlex.split(m.group(1))
    except OSError:
        pass
    return []


def needs_build(src, out):
    try:
        return os.path.getmtime(out) < os.path.getmtime(src)
    except OSError:
        return True


def build_one(src, out, opt):
    """Compiles src into out at optimisation level opt. Returns None or an error text."""
    if src.endswith(".cpp"):
        compiler = shlex.split(os.environ.get("CXX", "g++"))
        flags = shlex.split(os.environ.get("CXXFLAGS", ""))
    else:
        compiler = shlex.split(os.environ.get("CC", "gcc"))
        flags = shlex.split(os.environ.get("CFLAGS", ""))
    cmd = (compiler + flags + ["-g", opt, "-I" + os.path.join(REPO, "include"),
                               "-o", out, src] + source_cflags(src))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
    except OSError as e:
        return "%s: %s" % (" ".join(cmd), e)
    if p.returncode != 0:
        try:
            os.unlink(out)
        except OSError:
            pass
        return "%s\n%s" % (" ".join(shlex.quote(c) for c in cmd),
                           p.stdout.decode("utf-8", "replace").rstrip())
    return None


def build_dirs(dirs, jobs):
    """Builds every out-of-date test program in dirs. Returns the number of failures."""
    work = []
    for d in sorted(dirs):
        for src in sorted(glob.glob(os.path.join(d, "*.c")) + glob.glob(os.path.join(d, "*.cpp"))):
            base = os.path.splitext(src)[0]
            for out, opt in ((base, "-O0"), (base + "-O2", "-O2")):
                if needs_build(src, out):
                    work.append((src, out, opt))
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        for (src, out, opt), err in zip(work, ex.map(lambda w: build_one(*w), work)):
            if err is not None:
                failures += 1
                print("BUILD FAILED %s (%s):" % (os.path.relpath(out), opt))
                for line in err.splitlines():
                    print("    " + line)
    sys.stdout.flush()
    return failures


# --------------------------------------------------------------------------- tests

class TestError(Exception):
    pass


def parse_vgtest(path):
    t = {"vgopts": [], "env": []}
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = KEY_RE.match(line)
            if not m:
                raise TestError("%s:%d: bad line: %s" % (path, lineno, line.rstrip()))
            key, value = m.group(1), m.group(2)
            if key in MULTI_KEYS:
                t[key].append(value)
            elif key in SINGLE_KEYS:
                t[key] = value
            else:
                raise TestError("%s:%d: unknown key '%s'" % (path, lineno, key))
    if "prog" not in t and "prog-asis" not in t:
        raise TestError("%s: no prog: or prog-asis: line" % path)
    return t


def tool_name(testdir):
    """Name of the directory that contains the nearest enclosing `tests` directory."""
    parts = os.path.abspath(testdir).split(os.sep)
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] == "tests":
            return parts[i - 1]
    raise TestError("%s is not inside a <tool>/tests directory" % testdir)


def dot_slash(prog):
    return prog if prog.startswith("/") else "./" + prog


def sh(cmd, cwd, stdin=None, timeout=None, env=None):
    """Runs cmd with /bin/sh -c in cwd. Returns (rc, stdout bytes, stderr bytes);
    rc is None on timeout (the whole process group is killed)."""
    stdin_f = None
    try:
        if isinstance(stdin, bytes):
            stdin_arg = subprocess.PIPE
        else:
            stdin_f = open(stdin or os.devnull, "rb")
            stdin_arg = stdin_f
        p = subprocess.Popen(["/bin/sh", "-c", cmd], cwd=cwd, stdin=stdin_arg,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env, start_new_session=True)
        try:
            out, err = p.communicate(stdin if isinstance(stdin, bytes) else None,
                                     timeout=timeout)
            return p.returncode, out, err
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            out, err = p.communicate()
            return None, out, err
    finally:
        if stdin_f is not None:
            stdin_f.close()


def text(b):
    return b.decode("utf-8", "replace")


def expected_files(testdir, name, stream):
    pat = os.path.join(testdir, "%s.%s.exp*" % (name, stream))
    return sorted(f for f in glob.glob(pat) if not f.endswith(("~", "#")))


def compare(testdir, name, stream, actual, exps, details):
    """Compares actual (str) with the alternatives exps. Returns True on a match.
    Writes/removes <name>.<stream>.out and .diff* files."""
    out_file = os.path.join(testdir, "%s.%s.out" % (name, stream))
    stale = glob.glob(os.path.join(testdir, "%s.%s.diff*" % (name, stream)))
    alts = exps if exps else [None]          # None: expect empty output
    best = None
    for exp in alts:
        if exp is None:
            want = ""
        else:
            with open(exp, encoding="utf-8", errors="replace") as f:
                want = f.read()
        if want == actual:
            for f in stale + [out_file]:
                try:
                    os.unlink(f)
                except OSError:
                    pass
            return True
        diff = list(difflib.unified_diff(
            want.splitlines(), actual.splitlines(),
            fromfile=os.path.basename(exp) if exp else "(empty)",
            tofile=os.path.basename(out_file), lineterm=""))
        if not diff:          # differences only in the final newline
            diff = ["--- %s" % (os.path.basename(exp) if exp else "(empty)"),
                    "+++ %s" % os.path.basename(out_file),
                    "(outputs differ only in trailing newline)"]
        suffix = ""
        if exp is not None:
            suffix = exp[len(os.path.join(testdir, "%s.%s.exp" % (name, stream))):]
        diff_file = os.path.join(testdir, "%s.%s.diff%s" % (name, stream, suffix))
        with open(diff_file, "w", encoding="utf-8") as f:
            f.write("\n".join(diff) + "\n")
        if best is None or len(diff) < len(best):
            best = diff
    with open(out_file, "w", encoding="utf-8") as f:
        f.write(actual)
    details.append("%s mismatch (%s):" % (stream, os.path.basename(out_file)))
    details.extend("    " + l for l in best[:DIFF_LINES])
    if len(best) > DIFF_LINES:
        details.append("    ... (%d more diff lines)" % (len(best) - DIFF_LINES))
    return False


def apply_filter(testdir, name, t, stream, raw, timeout):
    key = stream + "_filter"
    if key in t:
        filt = t[key]
    elif stream == "stderr":
        filt = "filter_stderr"
    else:
        return text(raw)
    args = t.get(key + "_args", name)
    rc, out, err = sh("%s %s" % (dot_slash(filt), args), testdir, stdin=raw, timeout=timeout)
    if rc != 0:
        raise TestError("%s filter '%s' failed (exit %s): %s"
                        % (stream, filt, rc, text(err).strip()))
    return text(out)


def run_test(vgtest, opts):
    """Returns (status, details) with status PASS, FAIL or SKIP."""
    testdir = os.path.dirname(os.path.abspath(vgtest))
    name = os.path.basename(vgtest)[:-len(".vgtest")]
    try:
        t = parse_vgtest(vgtest)
        tool = tool_name(testdir)
    except (TestError, OSError) as e:
        return "FAIL", [str(e)]
    env = dict(os.environ)
    env.pop("VALGRIND_OPTS", None)

    if "prereq" in t:
        rc, _, _ = sh(t["prereq"], testdir, timeout=opts.timeout, env=env)
        if rc != 0:
            return "SKIP", ["prereq failed: %s" % t["prereq"]]

    details = []
    try:
        ok = run_checks(vgtest, testdir, name, tool, t, env, opts, details)
    except (TestError, OSError) as e:
        details.append(str(e))
        ok = False
    finally:
        if t.get("cleanup"):
            crc, _, cerr = sh(t["cleanup"], testdir, timeout=opts.timeout, env=env)
            if crc != 0:
                details.append("(cleanup failed, exit %s: %s)" % (crc, text(cerr).strip()))
    return ("PASS" if ok else "FAIL"), details


def run_checks(vgtest, testdir, name, tool, t, env, opts, details):
    """Runs the program under Valgrind and the post command; compares all outputs.
    Appends failure details; returns True if everything matched."""
    if "prog-asis" in t:
        prog = t["prog-asis"]
    else:
        prog = t["prog"]
        path = prog if prog.startswith("/") else os.path.join(testdir, prog)
        if not os.path.isfile(path):
            raise TestError("program %s not found (did it build?)" % prog)
        prog = dot_slash(prog)

    vgopts = " ".join(o.replace("${PWD}", testdir) for o in t["vgopts"])
    lib = shlex.quote(opts.valgrind_lib)
    cmd = " ".join(filter(None, [
        " ".join(t["env"]),
        "VALGRIND_LIB=%s VALGRIND_LIB_INNER=%s" % (lib, lib),
        shlex.quote(opts.valgrind),
        "--command-line-only=yes",
        "--tool=%s" % tool,
        os.environ.get("EXTRA_REGTEST_OPTS", ""),
        vgopts,
        prog,
        t.get("args", ""),
    ]))
    stdin = os.path.join(testdir, t["stdin"]) if "stdin" in t else None
    rc, out, err = sh(cmd, testdir, stdin=stdin, timeout=opts.timeout, env=env)
    ok = True
    if rc is None:
        details.append("timed out after %ss: %s" % (opts.timeout, cmd))
        ok = False

    stdout_exps = expected_files(testdir, name, "stdout")
    if stdout_exps:
        actual = apply_filter(testdir, name, t, "stdout", out, opts.timeout)
        ok &= compare(testdir, name, "stdout", actual, stdout_exps, details)

    stderr_exps = expected_files(testdir, name, "stderr")
    actual = apply_filter(testdir, name, t, "stderr", err, opts.timeout)
    if not stderr_exps:
        details.append("no %s.stderr.exp* file" % name)
        ok = False
    else:
        ok &= compare(testdir, name, "stderr", actual, stderr_exps, details)

    if "post" in t:
        # vg_regtest redirects the output of the post command with "POST >
        # file": a list of commands must be one group, or in tree only the
        # last one is compared
        if re.search(r"&&|\|\||;", t["post"]) and not t["post"].lstrip().startswith("("):
            details.append("post: wrap a list of commands in parentheses (vg_regtest "
                           "compares only the last one's output): %s" % t["post"])
            return False
        for key in ("vgopts", "args", "prog"):
            if "%" in " ".join(t.get(key, []) if isinstance(t.get(key), list) else [str(t.get(key, ""))]):
                details.append("%s: vg_regtest cannot run a test with a %% there" % key)
                return False
        prc, pout, perr = sh(t["post"], testdir, timeout=opts.timeout, env=env)
        if prc != 0:
            details.append("post command exited with %s: %s" % (prc, t["post"]))
            details.extend("    " + l for l in text(perr).splitlines()[:DIFF_LINES])
            ok = False
        ok &= compare(testdir, name, "post", text(pout),
                      expected_files(testdir, name, "post"), details)
    return ok


# --------------------------------------------------------------------------- main

def collect(paths):
    tests = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                tests.extend(os.path.join(root, f) for f in sorted(files)
                             if f.endswith(".vgtest"))
        elif p.endswith(".vgtest") and os.path.isfile(p):
            tests.append(p)
        elif os.path.isfile(p + ".vgtest"):
            tests.append(p + ".vgtest")
        else:
            raise SystemExit("vgtest_runner: %s is neither a directory nor a test" % p)
    seen = set()
    unique = []
    for t in tests:
        a = os.path.abspath(t)
        if a not in seen:
            seen.add(a)
            unique.append(t)
    return unique


def main():
    ap = argparse.ArgumentParser(
        description="Run commprof .vgtest regression tests.",
        epilog="See the module docstring of this file for the .vgtest format.")
    ap.add_argument("--valgrind-lib", required=True,
                    help="directory with the tool (exported as VALGRIND_LIB)")
    ap.add_argument("--valgrind", default="/usr/bin/valgrind", help="valgrind launcher")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="tests to run in parallel")
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds allowed to each command of a test (default 900)")
    ap.add_argument("--no-build", action="store_true", help="do not compile test programs")
    ap.add_argument("tests", nargs="*", help="test directories or .vgtest files")
    opts = ap.parse_args()
    opts.valgrind_lib = os.path.abspath(opts.valgrind_lib)

    tests = collect(opts.tests or [DEFAULT_TESTDIR])
    if not opts.no_build:
        build_dirs(set(os.path.dirname(os.path.abspath(t)) for t in tests),
                   max(opts.jobs, os.cpu_count() or 1))

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        futures = [ex.submit(run_test, t, opts) for t in tests]
        for vgtest, fut in zip(tests, futures):
            name = os.path.basename(vgtest)[:-len(".vgtest")]
            try:
                status, details = fut.result()
            except Exception as e:  # a runner bug must not hide the other results
                status, details = "FAIL", ["runner error: %r" % (e,)]
            counts[status] += 1
            print("%s %s" % (status, name))
            if status != "PASS":
                for line in details:
                    print("    " + line)
            sys.stdout.flush()

    summary = "%d passed, %d failed" % (counts["PASS"], counts["FAIL"])
    if counts["SKIP"]:
        summary += ", %d skipped" % counts["SKIP"]
    print(summary)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
