#!/usr/bin/env python3
"""Writes a synthetic, valid commprof XML profile on stdout.

  gen-profile.py NFUNCS NEDGES [SEED]

Functions f0..f{N-1} plus two special nodes; edges between random pairs with
bytes on a heavy-tailed scale; the per-function in/out sums and the totals are
consistent with the edges.  Used by tests/suites/report.sh for the large-graph
timing test and the reader's memory check.
"""
import random
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
specials = ["(unwritten)", "(syscall read)"]
ids = list(range(n + len(specials)))
edges = {}
while len(edges) < m:
    p, c = rng.randrange(len(ids)), rng.randrange(len(specials), len(ids))
    if p == c or (p, c) in edges:
        continue
    b = int(10 ** rng.uniform(0, 7)) + 1
    edges[(p, c)] = (b, max(1, b // rng.randint(1, 8)), max(1, b // 8))
inb = [0] * len(ids); outb = [0] * len(ids); inu = [0] * len(ids); outu = [0] * len(ids)
for (p, c), (b, u, a) in edges.items():
    outb[p] += b; inb[c] += b; outu[p] = max(outu[p], u); inu[c] = max(inu[c], u)
instr = [0] * len(specials) + [rng.randint(1, 10 ** 6) for _ in range(n)]
w = sys.stdout.write
w('<?xml version="1.0" encoding="UTF-8"?>\n<commprof version="1">\n  <run>\n')
w('    <tool name="commprof" version="0.1.0"/>\n    <exe>./synthetic</exe>\n    <args/>\n')
w('    <pid>1</pid>\n    <ppid>0</ppid>\n    <end reason="exit"/>\n    <options>\n')
w('      <option name="nodes" value="main"/>\n    </options>\n')
w('    <totals instructions="%d" bytes-read="%d" bytes-written="0" comm-bytes="%d" comm-unma="%d" '
  'self-bytes="0" functions="%d" edges="%d"/>\n  </run>\n  <functions>\n'
  % (sum(instr), sum(inb), sum(inb), max(inu + [0]), len(ids), len(edges)))
for i in ids:
    if i < len(specials):
        w('    <function id="%d" kind="special" name="%s" object="" file="" dir="" line="0"' % (i, specials[i]))
    else:
        w('    <function id="%d" kind="function" name="f%d" object="/bin/synthetic" file="s.c" dir="/src" '
          'line="%d"' % (i, i - len(specials), i))
    w(' instructions="%d" calls="%d" bytes-read="%d" bytes-written="0" in-bytes="%d" in-unma="%d" '
      'out-bytes="%d" out-unma="%d" self-bytes="0" self-unma="0" mem-instructions="%d" loads="%d" stores="0" '
      'stack-loads="0" stack-stores="0" stack-bytes-read="0" stack-bytes-written="0"/>\n'
      % (instr[i], 1 if i >= len(specials) else 0, inb[i], inb[i], inu[i], outb[i], outu[i], instr[i] // 3,
         inb[i] // 4))
w('  </functions>\n  <edges>\n')
for (p, c), (b, u, a) in sorted(edges.items(), key=lambda kv: -kv[1][0]):
    w('    <edge producer="%d" consumer="%d" bytes="%d" unma="%d" accesses="%d"/>\n' % (p, c, b, u, a))
w('  </edges>\n  <threads>\n')
w('    <thread id="1" parent="0" name="" instructions="%d" bytes-read="%d" in-bytes="0" out-bytes="0"/>\n'
  % (sum(instr), sum(inb)))
w('  </threads>\n  <thread-matrix/>\n  <thread-edges/>\n</commprof>\n')
