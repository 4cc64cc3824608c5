/* cflags: -fno-strict-aliasing */
/* objects-reuse: one allocation site, a block freed and another allocated from the same
 * site; peak versus total bytes (run with --objects=yes).
 *
 * Site R (line 74, one malloc call in a loop of 2; object "objects-reuse.c:74"):
 *   block 1: malloc(100); put(p, 25): 25 int stores, bytes [0,100)
 *            get1(p, 30): 30 short loads, bytes [0,60); free
 *   block 2: malloc(60);  put(p, 10): 10 int stores, bytes [0,40)
 *            get2(p, 24): 24 short loads, bytes [0,48); free
 *   blocks = 2; size = 60 (the last block allocated); total-bytes = 100 + 60 = 160;
 *   peak-bytes = 100 (block 1 is freed before block 2 is allocated: at most 100 live).
 *   writes = 25 + 10 = 35, write-bytes = 100 + 40 = 140
 *   reads = 30 + 24 = 54, read-bytes = 60 + 48 = 108
 *   written-bytes (summed over the blocks) = 100 + 40 = 140 -> alloc-pct = 140/160 = 87.5
 *   prod-bytes (written, then read before the free, summed over the blocks) = 60 + 40 =
 *   100 -> prod-pct = 100/160 = 62.5
 *   Flows: put -> R -> get1  bytes = 60, unma = 60
 *          put -> R -> get2  bytes = 40, unma = 40
 *          (unwritten) -> R -> get2  bytes = 8, unma = 8: block 2's bytes [40,48) were
 *          never written in block 2. When block 2 reuses block 1's address (stdout says
 *          whether it does: same=1), put wrote those addresses in block 1, but free forgot
 *          that, so they are (unwritten), not put's (docs/definitions.md, Heap blocks).
 *   The function edges are the same: put -> get1 60/60, put -> get2 40/40,
 *   (unwritten) -> get2 8/8.
 *
 * Site T (line 89, one malloc call in a loop of 2; object "objects-reuse.c:89"): blocks of
 *   30 and 50 bytes both live until the end, never accessed: blocks = 2, size = 50,
 *   total-bytes = peak-bytes = 80, reads = writes = 0, written-bytes = prod-bytes = 0.
 *
 * Every block access goes through a volatile pointer: one access per element at -O0 and
 * -O2. The loops in main only pass the pointers on. keep[] is volatile, or gcc -O2 would
 * remove the malloc/free pairs of site T, whose blocks are never used.
 *
 * stdout: get1 sums the shorts of the ints 3i+2 (i < 15; high halves 0):
 *   3*105 + 30 = 345; get2 sums 3i+2 for i < 10 (= 155) and 4 shorts of (unwritten) bytes,
 *   which are not printed (they go to a volatile sink).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noipa)) void put(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 3 * i + 2;
}

__attribute__((noipa)) long get1(volatile const short *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long get2(volatile const short *p, int n, int written)
{
    long s = 0, t = 0;
    for (int i = 0; i < written; i++)
        s += p[i];
    for (int i = written; i < n; i++)
        t += p[i];
    sink = t;
    return s;
}

int main(void)
{
    uintptr_t addr[2];
    long s1 = 0, s2 = 0;
    for (int k = 0; k < 2; k++) {
        int *p = malloc(k == 0 ? 100 : 60);
        if (!p)
            return 1;
        addr[k] = (uintptr_t)p;
        if (k == 0) {
            put(p, 25);
            s1 = get1((short *)p, 30);
        } else {
            put(p, 10);
            s2 = get2((short *)p, 24, 20);
        }
        free(p);
    }
    void *volatile keep[2];     /* volatile: gcc -O2 must not drop the malloc/free pairs */
    for (int k = 0; k < 2; k++)
        keep[k] = malloc(k == 0 ? 30 : 50);
    printf("objects-reuse same=%d get1=%ld get2=%ld\n", addr[0] == addr[1], s1, s2);
    free(keep[0]);
    free(keep[1]);
    return 0;
}
