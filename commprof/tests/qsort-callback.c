/* qsort-callback: a library call goes on after a callback that called a function.
 *
 * docs/definitions.md, "A library call reads each byte of the program's memory once":
 * the library's own frames are not concerned, their loads count as usual; a callback that
 * calls a function starts a new library call, and when it returns the call it interrupted
 * goes on (its frames are the library's again).
 *
 * sorter1 and sorter2 each sort a copy of the same 64 longs with qsort; cmp1 and cmp2
 * compare the same way, but cmp2 also calls the node function helper (which does
 * nothing).  glibc's qsort (a merge sort with a temporary buffer on its own stack) then
 * runs the same instructions for both, and everything it does is charged to the sorter
 * that called it, so sorter1 and sorter2 must have the same loads, bytes read, stack
 * loads and self bytes.  Before, after cmp2's first call of helper the stack pointer of
 * that call was taken for the library call's: qsort's own frames, above it, counted
 * as the program's memory, read once per call, and sorter2 lost loads of them (18 of
 * its loads for 16 elements, as a probe measured).
 *
 * qsort-callback.check prints "sorter1 = sorter2" when the four numbers are equal (the
 * numbers themselves depend on glibc's code), then checks the comparisons:
 *   - cmp1, cmp2 and helper have the same number of calls (the same comparisons, and
 *     cmp2 calls helper once in each);
 *   - each comparator reads 16 bytes a call (two longs), from fill (an element still where
 *     fill wrote it) or from its sorter (an element qsort has copied: the library's copy
 *     is the sorter's store), and the edges fill -> cmp1 = fill -> cmp2 and
 *     sorter1 -> cmp1 = sorter2 -> cmp2;
 *   - fill -> sorter1 = fill -> sorter2 = 512 bytes over 512 addresses: the library call
 *     reads each byte of the program's array once (64 longs), however often the merge
 *     sort reads an element.
 *
 * stdout: the smallest and largest elements, -500 and 478 ((i * 7919) % 1000 - 500 for
 *   i < 64).
 */
#include <stdio.h>
#include <stdlib.h>

#define NI __attribute__((noipa))
#define N 64

static long a1[N], a2[N];

NI void helper(void)
{
    __asm__ volatile("");
}

NI int cmp1(const void *p, const void *q)
{
    long x = *(const long *)p, y = *(const long *)q;
    return (x > y) - (x < y);
}

NI int cmp2(const void *p, const void *q)
{
    helper();
    long x = *(const long *)p, y = *(const long *)q;
    return (x > y) - (x < y);
}

NI void fill(void)
{
    for (int i = 0; i < N; i++)
        a1[i] = a2[i] = (long)((i * 7919) % 1000) - 500;
}

NI void sorter1(void)
{
    qsort(a1, N, sizeof(long), cmp1);
}

NI void sorter2(void)
{
    qsort(a2, N, sizeof(long), cmp2);
}

int main(void)
{
    fill();
    sorter1();
    sorter2();
    printf("%ld %ld\n", a1[0], a2[N - 1]);
    return 0;
}
