/* objects-calloc: calloc'ed blocks as heap objects (run with --objects=yes).
 *
 * calloc's zeroes are produced by (allocator) (docs/definitions.md, Heap blocks); they are
 * not the program's writes: written-bytes counts "distinct bytes the program wrote
 * (calloc's zeroes excluded)", prod-bytes "distinct bytes written by the program and later
 * read" (docs/commprof.rng).
 *
 *   L60: z = calloc(25, 8)   object "objects-calloc.c:60": 200 bytes, never written
 *   L61: p = calloc(40, 4)   object "objects-calloc.c:61": 160 bytes
 *   part(p, 10):    10 int stores, p[0..10) = bytes [0,40)
 *   sum_longs(z, 25): 25 loads of 8 bytes, all of z
 *   sum_ints(p, 40):  40 loads of 4 bytes, all of p
 *
 * Object 60: blocks=1 size=total-bytes=peak-bytes=200, reads=25 read-bytes=200, writes=0
 *   write-bytes=0, written-bytes=0, prod-bytes=0 (it reads only calloc's zeroes),
 *   alloc-pct = prod-pct = 0.0
 * Object 61: blocks=1 size=total-bytes=peak-bytes=160, reads=40 read-bytes=160, writes=10
 *   write-bytes=40, written-bytes=40, prod-bytes=40 (the zeroes sum_ints reads after them
 *   are not the program's), alloc-pct = prod-pct = 40/160 = 25.0
 *
 * Flows:
 *   (allocator) -> 60 -> sum_longs  bytes = 200, unma = 200
 *   (allocator) -> 61 -> sum_ints   bytes = 120, unma = 120   (bytes [40,160))
 *   part        -> 61 -> sum_ints   bytes =  40, unma =  40
 * and the same function edges: (allocator) -> sum_longs 200/200, (allocator) -> sum_ints
 * 120/120, part -> sum_ints 40/40. Nothing else among these functions: part only writes,
 * the readers read their block and their own stack, and no block byte is (unwritten).
 * Every block access goes through a volatile pointer (one access per element at -O0 and
 * -O2).
 *
 * stdout: z sums to 0; p[i] = 4i + 1 for i < 10, 0 after: 4*45 + 10 = 190.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void part(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 4 * i + 1;
}

__attribute__((noipa)) long sum_ints(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long sum_longs(volatile const long *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    long *z = calloc(25, sizeof(long));
    int *p = calloc(40, sizeof(int));
    if (!z || !p)
        return 1;
    part(p, 10);
    long sz = sum_longs(z, 25);
    long sp = sum_ints(p, 40);
    printf("objects-calloc z=%ld p=%ld\n", sz, sp);
    free(z);
    free(p);
    return 0;
}
