#!/usr/bin/env python3
"""Randomised end-to-end exactness test of commprof.

For each seed, writes a C program whose node functions f0..fK-1 store to and
load from one buffer (a global array or a heap block) with accesses of 1, 2,
4, 8, 16 and 32 bytes at random (often unaligned, across 8 KiB shadow
chunks) offsets, whose loaded values are used or thrown away; read-modify-
write them; copy and fill ranges with memcpy, memmove (overlapping both
ways) and memset; loop over their accesses; call one another; run in
threads or in a forked child; raise a signal whose handler calls a later
function; call one under sigsetjmp and siglongjmp out of any depth.  It works out what commprof must
report from the program's own description (a byte-exact model of the last
writer of every byte of the buffer, at the granularity of the run), builds
the program with -O0 and -O2, runs commprof (--granularity=1, 2, 4 or 8,
--objects=yes or not) and compares, in the process's profile and in each
forked child's (which inherits the producers and starts with zeroed counters):
  - for every edge producer -> consumer between the functions, and from
    (unwritten) to them: bytes, unique addresses (UnMA) and accesses (not in
    the programs with signals and jumps, whose bookkeeping variables are
    memory of the functions too);
  - with --objects=yes, the buffer's object (reads, read-bytes, writes,
    write-bytes, written-bytes, prod-bytes) and its flows producer -> buffer
    -> consumer, self flows included (bytes, UnMA).
Self edges and the functions' other memory (their stack frames at -O0, the
threads' arguments) are not compared: only memory whose truth the model has.
Every profile must also satisfy the sums of commprof-report validate (checked
by commprof/tests/cp_edges): totals, functions against their edges, threads
against the thread matrix, objects against their flows, edges against their
phase edges, functions against their time-slice records (with --vgopt).

    difftest.py [--seeds A:B] [--keep DIR] [--valgrind-lib DIR] [--no-avx]
                [--vgopt OPT ...] [-v]

Prints PASS/FAIL per program and build, then "N passed, N failed".
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

WIDTHS = (1, 2, 4, 8, 16, 32)
UNW = '(unwritten)'
CP_EDGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'commprof', 'tests', 'cp_edges')


class LongJmp(Exception):
    """siglongjmp to the innermost sigsetjmp of the model."""


class Prog:
    """A random program and its model."""

    def __init__(self, seed, avx=True):
        r = random.Random(seed)
        self.widths = WIDTHS if avx else WIDTHS[:-1]
        self.seed = seed
        self.heap = r.random() < 0.4
        self.threads = r.random() < 0.3
        self.size = r.choice((96, 300, 1000, 5000, 9000, 20000))
        self.nf = r.randint(2, 6)
        self.fns = []
        for i in range(self.nf):
            ops = []
            for _ in range(r.randint(1, 9)):
                ops.append(self.rand_op(r, i))
            reps = r.choice((1, 1, 1, 2, 3))
            self.fns.append((ops, reps))
        # the sequence of calls main makes (each one a thread if threads)
        self.calls = [r.randrange(self.nf) for _ in range(r.randint(3, 12))]
        # how commprof runs: the granularity, and --objects=yes (the buffer's
        # object and its flows are compared too)
        o = random.Random(seed * 7919 + 1)
        self.gran = o.choice((1, 1, 1, 2, 4, 8))
        self.objects = o.random() < 0.4
        # control flow: a signal whose handler calls a later function, a call
        # under sigsetjmp, a siglongjmp to the innermost one (if any)
        x = random.Random(seed * 104729 + 3)
        for i, (ops, reps) in enumerate(self.fns if x.random() < 0.4 else ()):
            for _ in range(x.choice((0, 0, 0, 1, 2))):
                k = x.random()
                if k < 0.35 and i + 1 < self.nf:
                    op = ('raise', x.randrange(i + 1, self.nf))
                elif k < 0.7 and i + 1 < self.nf:
                    op = ('sjcall', x.randrange(i + 1, self.nf))
                else:
                    op = ('longjmp',)
                ops.insert(x.randrange(len(ops) + 1), op)
        # the functions' edges then include the bookkeeping (jbn, sig_fn, the
        # jump buffers): only the buffer's object and flows are compared
        self.ctl = any(op[0] in ('raise', 'sjcall', 'longjmp') for ops, _ in self.fns for op in ops)
        if self.ctl:
            self.objects = True
        # calls of main made in a forked child (which writes its own profile)
        y = random.Random(seed * 15485863 + 11)
        self.forks = set()
        if y.random() < 0.25:
            self.forks = {j for j in range(len(self.calls)) if y.random() < 0.4}

    def rand_off(self, r, w):
        hi = self.size - w
        k = r.random()
        if k < 0.3:                      # a few hot spots, so data is re-read
            return min(hi, r.choice((0, 8, 64, 4094, 8189, 8192 - 3)) % (hi + 1))
        if k < 0.6:
            return (r.randrange(hi + 1) // w) * w   # aligned
        return r.randrange(hi + 1)

    def rand_op(self, r, i):
        k = r.random()
        if k < 0.35:
            w = r.choice(self.widths)
            return ('st', self.rand_off(r, w), w)
        if k < 0.70:                     # a load, its value used or thrown away
            w = r.choice(self.widths)
            return ('ld', self.rand_off(r, w), w, r.random() < 0.3)
        if k < 0.78:
            w = r.choice((1, 2, 4, 8))
            return ('rmw', self.rand_off(r, w), w)
        if k < 0.86:
            n = r.randint(1, min(200, self.size // 2))
            s = r.randrange(self.size - n + 1)
            d = r.randrange(self.size - n + 1)
            if max(s, d) < min(s, d) + n:   # overlapping: memmove
                return ('memmove', d, s, n)
            return ('memcpy', d, s, n)
        if k < 0.93:
            n = r.randint(1, min(300, self.size))
            return ('memset', r.randrange(self.size - n + 1), n)
        if i + 1 < self.nf:
            return ('call', r.randrange(i + 1, self.nf))
        w = r.choice(self.widths)
        return ('ld', self.rand_off(r, w), w, False)

    # ---------------------------------------------------------------- C
    def c_source(self):
        o = []
        o.append('#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n'
                 '#include <pthread.h>\n#include <setjmp.h>\n#include <signal.h>\n'
                 '#include <unistd.h>\n#include <sys/wait.h>\n')
        o.append('typedef uint16_t u16u __attribute__((aligned(1), may_alias));\n'
                 'typedef uint32_t u32u __attribute__((aligned(1), may_alias));\n'
                 'typedef uint64_t u64u __attribute__((aligned(1), may_alias));\n')
        if self.heap:
            o.append('static unsigned char *buf;\n')
        else:
            o.append('static unsigned char buf[%d] __attribute__((aligned(64)));\n' % self.size)
        o.append('unsigned long sink;\n')
        for i in range(self.nf):
            o.append('static unsigned long f%d(void);\n' % i)
        o.append('static sigjmp_buf jb[64];\nstatic volatile int jbn, sig_fn;\n'
                 'static void on_sig(int s)\n{\n   (void)s;\n   switch (sig_fn) {\n')
        for i in range(self.nf):
            o.append('   case %d: sink += f%d(); break;\n' % (i, i))
        o.append('   }\n}\n')
        for i, (ops, reps) in enumerate(self.fns):
            o.append('__attribute__((noinline)) static unsigned long f%d(void)\n{\n'
                     '   unsigned long acc = 0;\n' % i)
            o.append('   for (int rep = 0; rep < %d; rep++) {\n' % reps)
            for j, op in enumerate(ops):
                o.append('      ' + self.c_op(op, i, j) + '\n')
            o.append('      __asm__ volatile("" ::: "memory");\n   }\n   return acc;\n}\n')
        if self.threads:
            o.append('static void* thr(void* a)\n{\n   switch ((int)(intptr_t)a) {\n')
            for i in range(self.nf):
                o.append('   case %d: sink += f%d(); break;\n' % (i, i))
            o.append('   }\n   return 0;\n}\n')
        o.append('int main(void)\n{\n')
        o.append('   struct sigaction sa;\n   memset(&sa, 0, sizeof sa);\n   sa.sa_handler = on_sig;\n'
                 '   sa.sa_flags = SA_NODEFER;\n   sigaction(SIGUSR1, &sa, 0);\n')
        if self.heap:
            o.append('   buf = malloc(%d);\n' % self.size)
        for j, c in enumerate(self.calls):
            if j in self.forks:
                o.append('   if (fork() == 0) { sink += f%d(); _exit(0); } else wait(0);\n' % c)
            elif self.threads:
                o.append('   { pthread_t t; pthread_create(&t, 0, thr, (void*)(intptr_t)%d); '
                         'pthread_join(t, 0); }\n' % c)
            else:
                o.append('   sink += f%d();\n' % c)
        o.append('   printf("%lu\\n", sink);\n   return 0;\n}\n')
        return ''.join(o)

    def c_op(self, op, i, j):
        k = op[0]
        v = (i * 131 + j * 7 + 1) & 0xff
        if k in ('st', 'ld', 'rmw'):
            off, w = op[1], op[2]
            p = 'buf + %d' % off
            if w <= 8:
                t = {1: 'unsigned char', 2: 'u16u', 4: 'u32u', 8: 'u64u'}[w]
                lv = '*(volatile %s*)(%s)' % (t, p)
                if k == 'st':
                    return '%s = (%s)(%d + rep);' % (lv, t, v)
                if k == 'ld':
                    return ('(void)%s;' if op[3] else 'acc += %s;') % lv
                return '%s += 1;' % lv
            ins = 'movdqu' if w == 16 else 'vmovdqu'
            ty = 'char(*)[%d]' % w
            if k == 'st':
                return ('__asm__ volatile("pcmpeqb %%%%xmm0, %%%%xmm0\\n\\t%s %%%%%smm0, %%0" '
                        ': "=m"(*(%s)(%s)) :: "xmm0");' % (ins, 'x' if w == 16 else 'y', ty, p))
            return ('__asm__ volatile("%s %%0, %%%%%smm0" :: "m"(*(%s)(%s)) : "xmm0");'
                    % (ins, 'x' if w == 16 else 'y', ty, p))
        if k in ('memcpy', 'memmove'):
            return '%s(buf + %d, buf + %d, %d);' % (k, op[1], op[2], op[3])
        if k == 'memset':
            return 'memset(buf + %d, %d, %d);' % (op[1], v, op[2])
        if k == 'call':
            return 'acc += f%d();' % op[1]
        if k == 'raise':
            return 'sig_fn = %d; raise(SIGUSR1);' % op[1]
        if k == 'sjcall':
            return 'if (!sigsetjmp(jb[jbn++], 1)) acc += f%d(); jbn--;' % op[1]
        if k == 'longjmp':
            return 'if (jbn > 0) siglongjmp(jb[jbn - 1], 1);'
        raise ValueError(k)

    # ------------------------------------------------------------ model
    def fresh(self):
        """Empty counters: of the process, or of a child at its fork."""
        self.edges = {}          # (p, c) -> [bytes, set(addrs), accesses], self edges included
        # the buffer's object (--objects=yes): loads and stores and their bytes,
        # the bytes read while written (prod-bytes)
        self.obj = {'reads': 0, 'read-bytes': 0, 'writes': 0, 'write-bytes': 0}
        self.prod = set()
        self.jbn = 0

    def finish(self):
        self.obj['written-bytes'] = sum(1 for p in self.shadow if p != UNW)
        self.obj['prod-bytes'] = len(self.prod)
        return (self.edges, self.obj)

    def model(self):
        """The profiles (edges, object) of the process, then of each forked
        child in the order of the forks."""
        self.shadow = [UNW] * self.size
        self.fresh()
        children = []
        for j, c in enumerate(self.calls):
            if j in self.forks:
                # the child inherits the producers, starts with zeroed counters
                # and leaves the parent's memory as it was
                saved = (self.shadow, self.edges, self.obj, self.prod)
                self.shadow = list(self.shadow)
                self.fresh()
                self.run_fn(c)
                children.append(self.finish())
                self.shadow, self.edges, self.obj, self.prod = saved
            else:
                self.run_fn(c)
        return [self.finish()] + children

    def load(self, c, a, n):
        by = {}
        for b in range(a, a + n):
            by.setdefault(self.shadow[b], []).append(b)
        for p, bs in by.items():
            e = self.edges.setdefault((p, c), [0, set(), 0])
            e[0] += len(bs)
            e[1].update(bs)
            e[2] += 1
            if p != UNW:
                self.prod.update(bs)
        self.obj['reads'] += 1
        self.obj['read-bytes'] += n

    def store(self, c, a, n):
        """A store of n bytes at offset a: at granularity g, c becomes the producer
        of every byte of the aligned g-byte blocks it touches (the buffer is
        aligned to 16 at least)."""
        g = self.gran
        for b in range((a // g) * g, min(self.size, ((a + n + g - 1) // g) * g)):
            self.shadow[b] = c
        self.obj['writes'] += 1
        self.obj['write-bytes'] += n

    def pieces(self, n):
        """The accesses of commprof's copies and fills: 16 bytes at a time, then 8, 4, 2, 1."""
        out, pos = [], 0
        while n - pos >= 16:
            out.append((pos, 16)); pos += 16
        for w in (8, 4, 2, 1):
            if n - pos >= w:
                out.append((pos, w)); pos += w
        return out

    def run_fn(self, i):
        f = 'f%d' % i
        ops, reps = self.fns[i]
        for _ in range(reps):
            for op in ops:
                k = op[0]
                if k == 'st':
                    self.store(f, op[1], op[2])
                elif k == 'ld':
                    self.load(f, op[1], op[2])
                elif k == 'rmw':
                    self.load(f, op[1], op[2])
                    self.store(f, op[1], op[2])
                elif k in ('memcpy', 'memmove'):
                    d, s, n = op[1], op[2], op[3]
                    # a destination above an overlapping source: from the end down
                    ps = self.pieces_down(n) if s < d < s + n else self.pieces(n)
                    for q, w in ps:
                        self.load(f, s + q, w)
                        self.store(f, d + q, w)
                elif k == 'memset':
                    for q, w in self.pieces(op[2]):
                        self.store(f, op[1] + q, w)
                elif k in ('call', 'raise'):
                    self.run_fn(op[1])
                elif k == 'sjcall':
                    self.jbn += 1
                    try:
                        self.run_fn(op[1])
                    except LongJmp:
                        pass
                    self.jbn -= 1
                elif k == 'longjmp':
                    if self.jbn > 0:
                        raise LongJmp()

    def pieces_down(self, n):
        """The same from the end down: pieces' mirror image."""
        return [(n - q - w, w) for q, w in self.pieces(n)]


def parse_xml(path, size):
    """The cross edges {(p, c): (bytes, unma, accesses)}, the buffer's object
    (the heap block or the static buf of size bytes; None without
    --objects=yes) as a dict of its counters, and its flows
    {(p, c): (bytes, unma)}."""
    r = ET.parse(path).getroot()
    names = {int(f.get('id')): f.get('name') for f in r.findall('functions/function')}
    edges = {}
    for e in r.findall('edges/edge'):
        p, c = names[int(e.get('producer'))], names[int(e.get('consumer'))]
        edges[(p, c)] = (int(e.get('bytes')), int(e.get('unma')), int(e.get('accesses')))
    obj, flows = None, {}
    for o in r.iter('object'):
        if o.get('size') == str(size) and (o.get('kind') == 'heap' or o.get('name') == 'buf'):
            obj = o
    if obj is not None:
        for fl in r.iter('flow'):
            if fl.get('object') == obj.get('id'):
                p, c = names[int(fl.get('producer'))], names[int(fl.get('consumer'))]
                flows[(p, c)] = (int(fl.get('bytes')), int(fl.get('unma')))
        obj = {k: int(obj.get(k)) for k in ('reads', 'read-bytes', 'writes', 'write-bytes',
                                            'written-bytes', 'prod-bytes')}
    return edges, obj, flows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='1:31')
    ap.add_argument('--keep')
    ap.add_argument('--valgrind-lib')
    ap.add_argument('--vgopt', action='append', default=[], help='a further Valgrind option')
    ap.add_argument('--no-avx', action='store_true', help='no 32-byte accesses')
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split(':'))
    env = dict(os.environ)
    if a.valgrind_lib:
        env['VALGRIND_LIB'] = a.valgrind_lib
    d = a.keep or tempfile.mkdtemp(prefix='commprof-difftest.')
    os.makedirs(d, exist_ok=True)
    npass = nfail = 0
    for seed in range(lo, hi):
        prog = Prog(seed, avx=not a.no_avx)
        src = os.path.join(d, 'r%d.c' % seed)
        with open(src, 'w') as fh:
            fh.write(prog.c_source())
        profiles = prog.model()
        fns = set('f%d' % i for i in range(prog.nf))
        for opt in ('-O0', '-O2'):
            name = 'r%d%s' % (seed, opt)
            exe = os.path.join(d, name)
            for old in os.listdir(d):
                if old.startswith(name + '.') and old.endswith('.xml'):
                    os.unlink(os.path.join(d, old))
            cc = subprocess.run(['gcc', '-g', opt, '-fno-builtin', '-pthread', '-o', exe, src],
                                capture_output=True, text=True)
            if cc.returncode:
                print('FAIL %s: gcc: %s' % (name, cc.stderr[:500])); nfail += 1; continue
            opts = ['--granularity=%d' % prog.gran] + (['--objects=yes'] if prog.objects else [])
            run = subprocess.run(['valgrind', '-q', '--tool=commprof', '--commprof-out-file=none',
                                  '--commprof-xml-file=' + exe + '.%p.xml'] + opts + a.vgopt + [exe],
                                 capture_output=True, text=True, env=env, timeout=300)
            if run.returncode:
                print('FAIL %s: valgrind exit %d: %s' % (name, run.returncode, run.stderr[-500:]))
                nfail += 1; continue
            # the process's profile first, then its children's, by pid (each
            # child ends before the next fork)
            xmls = sorted((int(f[len(name) + 1:-4]), os.path.join(d, f)) for f in os.listdir(d)
                          if f.startswith(name + '.') and f.endswith('.xml'))
            diffs = []
            if len(xmls) != len(profiles):
                diffs.append('%d profiles, want %d' % (len(xmls), len(profiles)))
            for n, ((edges_w, obj_w), (_, xml)) in enumerate(zip(profiles, xmls)):
                who = 'child %d: ' % n if n else ''
                want = {k: (v[0], len(v[1]), v[2]) for k, v in edges_w.items() if k[0] != k[1]}
                edges, obj, flows = parse_xml(xml, prog.size)
                # the sums every profile satisfies (cp_edges checks them)
                sums = subprocess.run([CP_EDGES, xml, '--no-edges'], capture_output=True, text=True)
                if sums.returncode:
                    diffs.append('%s%s' % (who, sums.stderr.strip()[-300:]))
                got = {k: v for k, v in edges.items() if k[1] in fns and (k[0] in fns or k[0] == UNW)}
                for k in sorted(set(want) | set(got)) if not prog.ctl else ():
                    if want.get(k) != got.get(k):
                        diffs.append('%s%s -> %s: want %s got %s'
                                     % (who, k[0], k[1], want.get(k), got.get(k)))
                if prog.objects:
                    if obj is None:
                        # the XML lists a global only once it has been accessed
                        if prog.heap or obj_w['reads'] or obj_w['writes']:
                            diffs.append('%sno object of %d bytes' % (who, prog.size))
                    else:
                        for k, v in obj_w.items():
                            if obj[k] != v:
                                diffs.append('%sobject %s: want %d got %d' % (who, k, v, obj[k]))
                    wflows = {k: (v[0], len(v[1])) for k, v in edges_w.items()}
                    for k in sorted(set(wflows) | set(flows)):
                        if wflows.get(k) != flows.get(k):
                            diffs.append('%sflow %s -> buf -> %s: want %s got %s'
                                         % (who, k[0], k[1], wflows.get(k), flows.get(k)))
            if diffs:
                print('FAIL %s (%s, %s): %s' % (name, src, ' '.join(opts), '; '.join(diffs)))
                nfail += 1
            else:
                if a.v: print('PASS %s (%d profiles)' % (name, len(profiles)))
                else: print('PASS %s' % name)
                npass += 1
    if not a.keep:
        shutil.rmtree(d, ignore_errors=True)
    print('%d passed, %d failed' % (npass, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == '__main__':
    main()
