/* objects-realloc: a block grown by realloc stays the same heap object, and the producers
 * of its bytes move with it (run with --objects=yes).
 *
 * Allocation sites (lines of this file):
 *   L65: p = malloc(64)          object "objects-realloc.c:65" (path main:65)
 *   L69: blocker = malloc(32)    object "objects-realloc.c:69" (path main:69); it sits
 *                                after p, so p cannot grow in place (the tool's realloc
 *                                always allocates a new block and copies anyway)
 *   L71: q = realloc(p, 256)     the block of site 65 moves and grows: this is not a new
 *                                allocation site, so there is no object
 *                                "objects-realloc.c:71"; the block stays in object 65.
 *
 * Object 65, from docs/commprof.rng:
 *   blocks       = 1     (one block allocated from the site; realloc moved it)
 *   total-bytes  = 256   ("bytes allocated over the run (realloc growth included)":
 *                         64 from malloc + 192 of growth)
 *   peak-bytes   = 256   (64 live, then 256)
 *   size         = 256   ("size of the last block allocated": the block realloc
 *                         allocated for the object, of 256 bytes)
 *   writes: fill  16 int stores, q[0..16)   (64 bytes, before the move)
 *           more  16 int stores, q[16..32)  (64 bytes, after the move)
 *           -> writes = 32, write-bytes = 128
 *   reads:  reader 32 int loads, q[0..32)  -> reads = 32, read-bytes = 128
 *   written-bytes = 128 (distinct bytes the program wrote), prod-bytes = 128 (all of them
 *   read afterwards); alloc-pct = prod-pct = 128/256 = 50.0
 * Object 69 (never accessed): size = 32, blocks = 1, total-bytes = peak-bytes = 32,
 *   no reads or writes, written-bytes = prod-bytes = 0, 0.0 %.
 *
 * Flows (realloc copies producers with the bytes: the copy is the allocator's, not a load
 * or store of any node, so fill stays the producer of q[0..16)):
 *   fill -> object 65 -> reader  bytes = 64, unma = 64
 *   more -> object 65 -> reader  bytes = 64, unma = 64
 * and the function edges fill -> reader 64/64, more -> reader 64/64.
 * All accesses go through volatile pointers: one load/store per int at -O0 and -O2.
 *
 * stdout: moved=1; reader's sum: fill writes 5i+1 (i < 16): 5*120 + 16 = 616; more writes
 *   2i+3 (i < 16): 2*120 + 48 = 288; total 904.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void fill(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 5 * i + 1;
}

__attribute__((noipa)) void more(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 2 * i + 3;
}

__attribute__((noipa)) long reader(volatile const int *q, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += q[i];
    return s;
}

int main(void)
{
    int *p = malloc(64);
    if (!p)
        return 1;
    fill(p, 16);
    void *blocker = malloc(32);
    uintptr_t old = (uintptr_t)p;
    int *q = realloc(p, 256);
    if (!q || !blocker)
        return 1;
    int moved = ((uintptr_t)q != old);
    more(q + 16, 16);
    long s = reader(q, 32);
    printf("objects-realloc moved=%d sum=%ld\n", moved, s);
    free(q);
    free(blocker);
    return 0;
}
