"""Checks of commprof output files.

  valid FILE              well-formed XML, cross-field consistency (what RelaxNG cannot say)
  expect FILE WHAT VALUE  WHAT: pid ppid exe reason args (JSON list) option:NAME object:FN dir:FN
  edge FILE P C [BYTES]   an edge between the functions named P and C (bytes > 0, or == BYTES)
  noedge FILE P C         no such edge
  names FILE NAME...      each NAME is the name of exactly one kind="function" node
  absent FILE NAME...     no node has one of these names
  cgtotals FILE           callgrind file: totals: == summary: == sum of the self-cost lines
  cgtree OUT CONS PROD    callgrind_annotate --tree=calling output lists '> PROD' under '* CONS'
                          (CONS, PROD: "file:function", or "*:function" for any file)
Prints the problems; exit status 1 if any.
"""
import json, re, sys
import xml.etree.ElementTree as ET

def die(msg):
    print(msg)
    sys.exit(1)

def load(path):
    try:
        return ET.parse(path).getroot()
    except Exception as e:
        die('%s: not well-formed: %s' % (path, e))

def num(el, attr):
    return int(el.get(attr))

def fns(r): return r.findall('functions/function')
def edges(r): return r.findall('edges/edge')
def by_name(r, name): return [f for f in fns(r) if f.get('name') == name]

def valid(path):
    r = load(path)
    errs = []
    if r.tag != 'commprof':
        die('%s: root element is <%s>' % (path, r.tag))
    F, E = fns(r), edges(r)
    ids = {}
    for f in F:
        i = num(f, 'id')
        if i in ids: errs.append('function id %d twice' % i)
        ids[i] = f
    pairs = set()
    for e in E:
        p, c = num(e, 'producer'), num(e, 'consumer')
        for x in (p, c):
            if x not in ids: errs.append('edge refers to unknown id %d' % x)
        if p == c: errs.append('self edge %d -> %d written as <edge>' % (p, c))
        if (p, c) in pairs: errs.append('edge %d -> %d twice' % (p, c))
        pairs.add((p, c))
        b, u, a = num(e, 'bytes'), num(e, 'unma'), num(e, 'accesses')
        if not 1 <= u <= b: errs.append('edge %d -> %d: unma %d not in [1, bytes %d]' % (p, c, u, b))
        if not 1 <= a <= b: errs.append('edge %d -> %d: accesses %d not in [1, bytes %d]' % (p, c, a, b))
    t = r.find('run/totals')
    if num(t, 'functions') != len(F): errs.append('totals functions=%s, %d <function>' % (t.get('functions'), len(F)))
    if num(t, 'edges') != len(E): errs.append('totals edges=%s, %d <edge>' % (t.get('edges'), len(E)))
    for a in ('instructions', 'bytes-read', 'bytes-written', 'self-bytes'):
        s = sum(num(f, a) for f in F)
        if s != num(t, a): errs.append('totals %s=%s, the functions sum to %d' % (a, t.get(a), s))
    s = sum(num(e, 'bytes') for e in E)
    if s != num(t, 'comm-bytes'): errs.append('totals comm-bytes=%s, the edges sum to %d' % (t.get('comm-bytes'), s))
    if num(t, 'comm-unma') > num(t, 'comm-bytes'): errs.append('totals comm-unma > comm-bytes')
    for i, f in ids.items():
        for d, key in (('in', 'consumer'), ('out', 'producer')):
            es = [e for e in E if num(e, key) == i]
            b = sum(num(e, 'bytes') for e in es)
            u = num(f, d + '-unma')
            if num(f, d + '-bytes') != b:
                errs.append('function %d %s-bytes=%s, its edges sum to %d' % (i, d, f.get(d + '-bytes'), b))
            if es and not max(num(e, 'unma') for e in es) <= u <= sum(num(e, 'unma') for e in es):
                errs.append('function %d %s-unma=%d not in [max, sum] of its edges\' unma' % (i, d, u))
            if not es and u:
                errs.append('function %d %s-unma=%d without edges' % (i, d, u))
            if u > num(t, 'comm-unma'):
                errs.append('function %d %s-unma > totals comm-unma' % (i, d))
        if num(f, 'self-unma') > num(f, 'self-bytes'): errs.append('function %d self-unma > self-bytes' % i)
    names = [o.get('name') for o in r.findall('run/options/option')]
    if len(set(names)) != len(names): errs.append('an option is listed twice: %s' % names)
    for e in errs: print('%s: %s' % (path, e))
    return 1 if errs else 0

def get(r, what):
    if what in ('pid', 'ppid', 'exe'): return r.find('run/' + what).text or ''
    if what == 'reason': return r.find('run/end').get('reason')
    if what == 'args': return json.dumps([a.text or '' for a in r.findall('run/args/arg')], ensure_ascii=False)
    if what.startswith('option:'):
        o = [x for x in r.findall('run/options/option') if x.get('name') == what[7:]]
        return o[0].get('value') if o else None
    for k in ('object', 'dir', 'file'):
        if what.startswith(k + ':'):
            o = by_name(r, what[len(k) + 1:])
            return o[0].get(k) if o else None
    die('unknown field ' + what)

def find_edges(path, pn, cn):
    r = load(path)
    P, C = by_name(r, pn), by_name(r, cn)
    if not P: die('%s: no function named %r' % (path, pn))
    if not C: die('%s: no function named %r' % (path, cn))
    pi = {num(f, 'id') for f in P}
    ci = {num(f, 'id') for f in C}
    return [e for e in edges(r) if num(e, 'producer') in pi and num(e, 'consumer') in ci]

def cgtotals(path):
    events = summary = totals = sums = None
    after_calls = False
    errs = []
    with open(path, encoding='utf-8', errors='surrogateescape') as fh:
        for ln, line in enumerate(fh, 1):
            line = line.rstrip('\n')
            if line.startswith('events:'):
                events = line.split()[1:]
                sums = [0] * len(events)
            elif line.startswith('summary:'):
                summary = [int(x) for x in line.split()[1:]]
            elif line.startswith('totals:'):
                totals = [int(x) for x in line.split()[1:]]
            elif line.startswith('calls='):
                after_calls = True
            elif line[:1].isdigit() or line[:1] in ('+', '-', '*'):
                if sums is None: die('%s:%d: cost line before events:' % (path, ln))
                v = [int(x) for x in line.split()[1:]]
                if len(v) > len(events): errs.append('line %d: more costs than events' % ln)
                if after_calls:          # the cost of a call: not a self cost
                    after_calls = False
                    continue
                for i, x in enumerate(v[:len(events)]): sums[i] += x
    if events is None: errs.append('no events: line')
    if totals is None: errs.append('no totals: line')
    elif summary is not None and summary != totals: errs.append('summary: %s != totals: %s' % (summary, totals))
    if totals is not None and sums is not None and totals != sums:
        errs.append('totals: %s, the self-cost lines sum to %s' % (totals, sums))
    for e in errs: print('%s: %s' % (path, e))
    return 1 if errs else 0

# a function line of callgrind_annotate: cost columns, then '*' (the function)
# or '>' (a function it calls), then file:function
LINE = re.compile(r'^([\s\d,.()%]*)\s([*>])\s+(\S.*)$')

def fnmatch_(text, want, tail):
    # text is "file:function..." as callgrind_annotate prints it; want "file:function",
    # or "*:function" for any file
    if want.startswith('*:'):
        text = text.split(':', 1)[-1]
        want = want[2:]
    return text.startswith(want + tail)

def cgtree(path, cons, prod):
    lines = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    seen = False
    for i, l in enumerate(lines):
        m = LINE.match(l)
        if not (m and m.group(2) == '*' and fnmatch_(m.group(3) + ' [', cons, ' [')):
            continue
        seen = True
        for l2 in lines[i + 1:]:
            if not l2.strip(): break
            m2 = LINE.match(l2)
            if m2 and m2.group(2) == '>' and fnmatch_(m2.group(3), prod, ' ('): return 0
    print('%s: %s' % (path, ('no "> %s" line under "* %s"' % (prod, cons)) if seen else 'no "* %s" line' % cons))
    return 1

def main(a):
    c = a[0]
    if c == 'valid': return valid(a[1])
    if c == 'expect':
        v = get(load(a[1]), a[2])
        if v != a[3]:
            print('%s: %s is %r, expected %r' % (a[1], a[2], v, a[3]))
            return 1
        return 0
    if c == 'edge':
        es = find_edges(a[1], a[2], a[3])
        b = sum(num(e, 'bytes') for e in es)
        if not es or (len(a) > 4 and b != int(a[4])):
            print('%s: edge %s -> %s: %s bytes, expected %s' % (a[1], a[2], a[3], b if es else 'no edge', a[4] if len(a) > 4 else '> 0'))
            return 1
        return 0
    if c == 'noedge':
        if find_edges(a[1], a[2], a[3]):
            print('%s: unexpected edge %s -> %s' % (a[1], a[2], a[3]))
            return 1
        return 0
    if c == 'names':
        r = load(a[1])
        bad = 0
        for n in a[2:]:
            k = len([f for f in by_name(r, n) if f.get('kind') == 'function'])
            if k != 1:
                print('%s: %d functions named %r' % (a[1], k, n))
                bad = 1
        if bad: print('names present: ' + json.dumps([f.get('name') for f in fns(r)], ensure_ascii=False))
        return bad
    if c == 'absent':
        r = load(a[1])
        there = [n for n in a[2:] if by_name(r, n)]
        if there: print('%s: unexpected functions %s' % (a[1], there))
        return 1 if there else 0
    if c == 'cgtotals': return cgtotals(a[1])
    if c == 'cgtree': return cgtree(a[1], a[2], a[3])
    die('unknown command ' + c)

sys.exit(main(sys.argv[1:]))
