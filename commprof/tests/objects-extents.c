/* cflags: -I/usr/include/valgrind */
/* objects-extents: the object of an address changes after the address was accessed (run
 * with --objects=yes). commprof remembers the last objects an access fell in; these
 * cases check that it forgets them when the objects change.
 *
 * A. A heap block named in part after it was used.
 *    blk = malloc(256) at line 79 (object "objects-extents.c:79", path [main:79])
 *    w(blk, 64)       64 int stores, bytes [0,256): all to the block's object
 *    r(blk, 64)       64 int loads, [0,256): all from the block's object
 *    COMMPROF_NAME_OBJECT(blk + 16, 128, "later"): bytes [64,192) are "later" from now on
 *    r(blk + 16, 32)  32 int loads from "later" (128 bytes)
 *    r(blk, 8)        8 int loads from the block's own part, [0,32) (32 bytes)
 *    free(blk)
 *  objects-extents.c:79: reads = 64 + 8 = 72, read-bytes = 256 + 32 = 288, writes = 64,
 *    write-bytes = 256; written-bytes = 128: at the free, the bytes of "later" count for
 *    "later", not for the block; prod-bytes = 256: every byte was written, then read by
 *    r(blk, 64) while it was the block's. size = total-bytes = peak-bytes = 256, blocks = 1,
 *    alloc-pct = 128/256 = 50.0, prod-pct = 256/256 = 100.0.
 *  later: kind=named size = total-bytes = peak-bytes = 128, blocks = 0, reads = 32,
 *    read-bytes = 128, writes = 0, write-bytes = 0, written-bytes = 128 (its bytes were
 *    written by the program, before it was named), prod-bytes = 128 (read while "later",
 *    and written before), alloc-pct = prod-pct = 100.0.
 *  Flows: w -> objects-extents.c:79 -> r  bytes = 256 + 32 = 288, unma = 256
 *         w -> later -> r                 bytes = 128, unma = 128
 *
 * B. A block freed, then a block of another site (Valgrind's allocator gives it the same
 *    address; the counts are the same either way).
 *    p = malloc(40) at line 89; w(p, 10); r(p, 10); free(p)
 *    q = malloc(40) at line 95; w(q, 10); r(q, 10); free(q)
 *  each: kind=heap size = total-bytes = peak-bytes = 40, blocks = 1, reads = writes = 10,
 *    read-bytes = write-bytes = written-bytes = prod-bytes = 40, alloc-pct = prod-pct = 100.0
 *  Flows: w -> objects-extents.c:89 -> r and w -> objects-extents.c:95 -> r: 40/40 each.
 *
 * C. Two globals read in turn: int ga[16], gb[16]; w(ga, 16); w(gb, 16); then three times
 *    r(ga, 16); r(gb, 16).
 *  each: kind=static size = total-bytes = peak-bytes = 64, blocks = 0, reads = 48,
 *    read-bytes = 192, writes = 16, write-bytes = written-bytes = prod-bytes = 64,
 *    alloc-pct = prod-pct = 100.0
 *  Flows: w -> ga -> r and w -> gb -> r: bytes = 192, unma = 64 each.
 *
 * D. Memory of no object, named later: m = mmap of one page (no object: not heap, not the
 *    executable's, not a stack); w(m, 16); r(m, 16); COMMPROF_NAME_OBJECT(m, 64, "mapped");
 *    r(m, 16); munmap(m): the naming ends, and what was written stays to its credit
 *  mapped: kind=named size = total-bytes = peak-bytes = 64, blocks = 0, reads = 16,
 *    read-bytes = 64 (only the loads after the naming), writes = 0, write-bytes = 0,
 *    written-bytes = 64 (counted at the munmap), prod-bytes = 64, alloc-pct = prod-pct = 100.0
 *  Flows: w -> mapped -> r  bytes = 64, unma = 64.
 *
 * w and r touch nothing else but their own stack; every array access is volatile, one per
 * element at -O0 and -O2. Natively the request is a no-op.
 *
 * stdout: w writes p[i] = i. A: r(blk, 64) = 2016, r(blk + 16, 32) = 16 + ... + 47 = 1008,
 *   r(blk, 8) = 28. B: 45 and 45. C: 120 each, three times: 360 and 360. D: 120 twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "commprof.h"

int ga[16];
int gb[16];

__attribute__((noipa)) void w(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
}

__attribute__((noipa)) long r(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    int *blk = malloc(64 * sizeof(int));
    if (!blk)
        return 1;
    w(blk, 64);
    long a1 = r(blk, 64);
    COMMPROF_NAME_OBJECT(blk + 16, 32 * sizeof(int), "later");
    long a2 = r(blk + 16, 32);
    long a3 = r(blk, 8);
    free(blk);

    int *p = malloc(10 * sizeof(int));
    if (!p)
        return 1;
    w(p, 10);
    long b1 = r(p, 10);
    free(p);
    int *q = malloc(10 * sizeof(int));
    if (!q)
        return 1;
    w(q, 10);
    long b2 = r(q, 10);
    free(q);

    w(ga, 16);
    w(gb, 16);
    long c1 = 0, c2 = 0;
    for (int k = 0; k < 3; k++) {
        c1 += r(ga, 16);
        c2 += r(gb, 16);
    }

    int *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 1;
    w(m, 16);
    long d1 = r(m, 16);
    COMMPROF_NAME_OBJECT(m, 16 * sizeof(int), "mapped");
    long d2 = r(m, 16);
    munmap(m, 4096);
    printf("objects-extents A %ld %ld %ld B %ld %ld C %ld %ld D %ld %ld\n", a1, a2, a3, b1, b2,
           c1, c2, d1, d2);
    return 0;
}
