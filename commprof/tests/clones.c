/* clones: the copies GCC makes of a function keep the function's name.
 *
 * At -O2 GCC clones static functions whose callers all pass the same constant
 * (interprocedural constant propagation): fill, copy and sum below become
 * fill.constprop.0, copy.constprop.0 and sum.constprop.0, which hold all their code
 * (gcc 12; `nm clones-O2`).  A clone is the function: its node is named fill, copy,
 * sum, as the source names it, with its calls and its bytes, and no node is named
 * after a clone.  -O0 makes no clones; the numbers are the same.
 *
 *   fill(a, N, 3):  a[i] = 3i, i = 0..N-1 (N = 1000)
 *   copy(b, a, N):  b[i] = a[i] + 1: reads a once
 *   sum(a, N), sum(b, N): reads a, then b, once each
 *
 * Edges (bytes = unma, every element read once):
 *   fill -> copy: a, 4000;  fill -> sum: a, 4000;  copy -> sum: b, 4000.
 * Calls: fill 1, copy 1, sum 2.
 * stdout: sum(a) = 3 * 499500 = 1498500, sum(b) = 1498500 + 1000 = 1499500:
 *   "1498500 1499500".
 */
#include <stdio.h>

#define N 1000

static int a[N], b[N];

__attribute__((noinline)) static void fill(int *p, int n, int v)
{
   for (int i = 0; i < n; i++) p[i] = i * v;
}

__attribute__((noinline)) static void copy(int *d, const int *s, int n)
{
   for (int i = 0; i < n; i++) d[i] = s[i] + 1;
}

__attribute__((noinline)) static long sum(const int *p, int n)
{
   long s = 0;
   for (int i = 0; i < n; i++) s += p[i];
   return s;
}

int main(void)
{
   fill(a, N, 3);
   copy(b, a, N);
   long sa = sum(a, N);
   long sb = sum(b, N);
   printf("%ld %ld\n", sa, sb);
   return 0;
}
