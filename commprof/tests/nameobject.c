/* cflags: -I/usr/include/valgrind */
/* nameobject: COMMPROF_NAME_OBJECT on the middle of a heap block and on a global (run
 * with --objects=yes).
 *
 * commprof.h: with --objects=yes the size bytes at addr (a heap block, part of one, or
 * any other memory) are reported as a data object named name, instead of the object they
 * would belong to otherwise.
 *
 * main: blk = malloc(256) at line 74 (heap object "nameobject.c:74", path [main:74]);
 *       COMMPROF_NAME_OBJECT(blk + 16, 128, "middle"): ints 16..48 of the block, bytes
 *       [64, 192);  COMMPROF_NAME_OBJECT(gtab, 64, "lut"): all of int gtab[16].
 *   w(blk, 64)      64 int stores: 32 into middle (128 bytes), 32 into the rest of the
 *                   block ([0,64) and [192,256): 128 bytes)
 *   r(blk + 16, 32) 32 int loads from middle (128 bytes)
 *   r(blk, 8)       8 int loads from the block's own part, [0,32) (32 bytes)
 *   w(gtab, 16)     16 int stores into lut (64 bytes)
 *   r(gtab, 16)     16 int loads from lut (64 bytes)
 *   free(blk)
 *
 * Expected objects (docs/commprof.rng; size/total-bytes/peak-bytes are the size for
 * kinds other than heap, blocks is 0 for them):
 *   middle: kind=named size=128 blocks=0 total-bytes=128 peak-bytes=128 reads=32
 *           read-bytes=128 writes=32 write-bytes=128 written-bytes=128 prod-bytes=128
 *           alloc-pct=100.0 prod-pct=100.0 (every byte written, then read; freeing the
 *           block at the end does not undo what was written and read)
 *   lut:    kind=named size=64 blocks=0 total-bytes=64 peak-bytes=64 reads=16
 *           read-bytes=64 writes=16 write-bytes=64 written-bytes=64 prod-bytes=64
 *           alloc-pct=100.0 prod-pct=100.0
 *   gtab:   absent (all its bytes are reported as lut instead: never accessed as gtab)
 *   nameobject.c:74 [main:74]: the block without middle:
 *           kind=heap size=256 blocks=1 total-bytes=256 peak-bytes=256 reads=8
 *           read-bytes=32 writes=32 write-bytes=128 written-bytes=128 (the bytes of
 *           middle are middle's, not counted twice) prod-bytes=32 alloc-pct=50.0
 *           prod-pct=12.5
 * Flows among {w, r}:
 *   w -> middle -> r  128/128,  w -> nameobject.c:74 [main:74] -> r  32/32,
 *   w -> lut -> r  64/64.
 * Function edge: w -> r 224/224.
 * Memory regions per function (docs/commprof.rng: heap-bytes-* are the bytes read or
 * written in heap blocks, global-bytes-* those in the main executable's data sections;
 * naming an object does not move its bytes out of the heap block or the global):
 *   w: heap-bytes-written = 256, global-bytes-written = 64, heap-bytes-read = 0,
 *      global-bytes-read = 0
 *   r: heap-bytes-read = 128 + 32 = 160, global-bytes-read = 64, heap-bytes-written = 0,
 *      global-bytes-written = 0
 * w and r touch nothing else but their own stack; every array access is volatile, one per
 * element at -O0 and -O2. Natively the requests are no-ops.
 *
 * stdout: w writes p[i] = i: middle sums 16 + ... + 47 = 1008, blk[0..8) 28,
 *   lut 0 + ... + 15 = 120.
 */
#include <stdio.h>
#include <stdlib.h>
#include "commprof.h"

static int gtab[16];

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
    COMMPROF_NAME_OBJECT(blk + 16, 32 * sizeof(int), "middle");
    COMMPROF_NAME_OBJECT(gtab, sizeof gtab, "lut");
    w(blk, 64);
    long m = r(blk + 16, 32);
    long h = r(blk, 8);
    w(gtab, 16);
    long l = r(gtab, 16);
    printf("nameobject middle=%ld head=%ld lut=%ld\n", m, h, l);
    free(blk);
    return 0;
}
