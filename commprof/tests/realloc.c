/* realloc: a grown and moved block keeps the producers of its old bytes; its grown tail
 * is (unwritten).
 *
 *   main:    p = malloc(64)                       (64 bytes, (unwritten))
 *   fill:    writes p[0..64) (16 ints)            -> every byte of the old part: fill
 *   main:    blocker = malloc(64)                 (sits after p, so p cannot grow in
 *                                                  place: natively glibc must move it;
 *                                                  a tool's replacement realloc
 *                                                  allocates a new block and copies)
 *            q = realloc(p, 256)                  moved (main prints whether q != p)
 *            Per definitions.md the move carries the producers with the bytes:
 *            q[0..64) -> fill, q[64..256) (grown tail) -> (unwritten). The copy itself
 *            is done by the allocator and is not a load/store of any node (so no
 *            fill -> main edge from the copy and main is not the producer of q[0..64)).
 *   reader:  reads q[0..256) once, as 64 ints.
 *
 *   => fill        -> reader bytes =  64, unma =  64
 *      (unwritten) -> reader bytes = 192, unma = 192   (256 - 64)
 *   No (unwritten) -> fill: fill only writes (its loop reads no .rodata at -O2).
 *
 * stdout: "moved=1" and the sum of the old part: q[i] = 11i + 4 for i < 16:
 *   11*120 + 64 = 1384. The tail holds indeterminate values: reader adds them into a
 *   volatile sink that is not printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noipa)) void fill(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 11 * i + 4;
}

__attribute__((noipa)) long reader(const int *q, int old_n, int new_n)
{
    long s = 0, t = 0;
    for (int i = 0; i < old_n; i++)
        s += q[i];
    for (int i = old_n; i < new_n; i++)
        t += q[i];
    sink = t;
    return s;
}

int main(void)
{
    int *p = malloc(16 * sizeof(int));
    if (!p)
        return 1;
    fill(p, 16);
    void *blocker = malloc(64);
    uintptr_t old = (uintptr_t)p;
    int *q = realloc(p, 64 * sizeof(int));
    if (!q || !blocker)
        return 1;
    int moved = ((uintptr_t)q != old);
    long s = reader(q, 16, 64);
    printf("realloc moved=%d sum=%ld\n", moved, s);
    free(q);
    free(blocker);
    return 0;
}
