/* cold: a function whose unlikely paths the compiler moved to a separate part,
 * work.cold (gcc -O2), entered by jumps from work's body: at the part's first
 * instruction (the first path) and in its middle (the second), and left by
 * jumps back into work's body.  The part is work's own code: it is charged to
 * work's frame, it makes no frame and no call of its own, and no node is named
 * work.cold.  With --separate-callers=1 all of work's code is work'main, and
 * report is always report'work.
 *
 *   work(a, b): r = 3a; if a < 0 (unlikely): report("neg a", a), r = -r;
 *               if b < 0 (unlikely): report("neg b", b), r += 7;
 *               memset(dst, r & 255, 64); return r + b
 *   main: for i = -2..2: s += work(i, -i)
 *
 * work is called 5 times; a < 0 for i = -2, -1 and b < 0 for i = 1, 2: the cold
 * paths run 4 times, report is called 4 times.
 * -O2, from the disassembly (gcc 12): work's body is 21 instructions on every path
 * (push, lea, mov, sub, test, js, test, js, movzbl, add, movd, punpcklbw,
 * punpcklwd, pshufd, 4 movaps (the memset), add, pop, ret; the two js go to the
 * cold part and come back to the next instruction): 5 x 21 = 105, loads = 5
 * (pop; ret's load is not counted), stores = 5 x 5 = 25 (push and the 4 movaps).
 * Each cold path is 7 instructions (mov, lea, store of r to the stack, call
 * report, load of r, neg or add, jmp back): 4 x 7 = 28, loads = stores = 4.
 * work'main: instructions = 105 + 28 = 133, loads = 9, stores = 29, calls = 5.
 * -O0 has no cold part: work'main calls = 5, report'work calls = 4.
 *
 * stdout: work returns 8, 4, 0, 9, 11: "32 13" (dst[3] = 13, the last r).
 * stderr: report's four lines.
 */
#include <stdio.h>
#include <string.h>

char dst[64];

__attribute__((noipa, cold)) void report(const char *m, int v)
{
   fprintf(stderr, "%s %d\n", m, v);
}

__attribute__((noipa)) int work(int a, int b)
{
   int r = a * 3;
   if (__builtin_expect(a < 0, 0)) { report("neg a", a); r = -r; }
   if (__builtin_expect(b < 0, 0)) { report("neg b", b); r += 7; }
   memset(dst, r & 0xff, sizeof dst);
   return r + b;
}

int main(void)
{
   int s = 0;
   for (int i = -2; i < 3; i++) s += work(i, -i);
   printf("%d %d\n", s, dst[3]);
   return 0;
}
