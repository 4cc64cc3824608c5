/* recursion: a recursive function writes one array element at each depth.
 *
 *   rec(a, d): writes a[d] = d*d + 3, then, if d + 1 < DEPTH, calls rec(a, d + 1); after
 *              that call it runs an empty asm statement, so the recursive call is not a
 *              tail call and gcc -O2 cannot turn the recursion into a loop (noipa also
 *              forbids inlining rec into itself).
 *   main calls rec(a, 0) once, DEPTH = 10: rec is entered for d = 0..9 -> calls = 10.
 *   sum_reader: reads a[0..DEPTH) once.
 *
 *   => rec -> sum_reader bytes = 4 * 10 = 40, unma = 40
 *   --fn: rec calls=10, sum_reader calls=1.
 *   Every depth's store is charged to rec (all frames are the same node), so rec's
 *   deeper frames reading their own spills at -O0 are self edges, not printed.
 *
 * stdout: sum_{d<10} (d^2 + 3) = 285 + 30 = 315.
 */
#include <stdio.h>

#define DEPTH 10

static int arr[DEPTH];

__attribute__((noipa)) void rec(int *a, int d)
{
    a[d] = d * d + 3;
    if (d + 1 < DEPTH)
        rec(a, d + 1);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) long sum_reader(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(void)
{
    rec(arr, 0);
    long s = sum_reader(arr, DEPTH);
    printf("recursion sum=%ld\n", s);
    return 0;
}
