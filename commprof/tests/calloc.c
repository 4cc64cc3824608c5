/* calloc: the zeroes calloc writes are produced by (allocator).
 *
 *   main: p = calloc(100, 4)          -> p[0..400) produced by (allocator)
 *   part: writes p[0..25) (25 ints = 100 bytes)  -> those bytes now produced by part
 *   r:    reads p[0..100) once (400 bytes)
 *   => part        -> r bytes = 100, unma = 100
 *      (allocator) -> r bytes = 300, unma = 300   (p[25..100): 75 ints)
 *   Also, a block r2 reads without anybody writing it:
 *   main: z = calloc(16, 8) (128 bytes)
 *   r2:   reads z[0..16) once
 *   => (allocator) -> r2 bytes = 128, unma = 128
 *   No (unwritten) edge to r or r2: calloc blocks are never (unwritten), and r/r2 read
 *   nothing else (no .rodata constants in their loops at -O2). part only writes.
 *
 * stdout: p[i] = 2i + 1 for i < 25, 0 after: sum = 2*300 + 25 = 625; z sums to 0.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void part(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 2 * i + 1;
}

__attribute__((noipa)) long r(const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long r2(const long *z, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += z[i];
    return s;
}

int main(void)
{
    int *p = calloc(100, sizeof(int));
    long *z = calloc(16, sizeof(long));
    if (!p || !z)
        return 1;
    part(p, 25);
    long s = r(p, 100);
    long t = r2(z, 16);
    printf("calloc sum=%ld zsum=%ld\n", s, t);
    free(p);
    free(z);
    return 0;
}
