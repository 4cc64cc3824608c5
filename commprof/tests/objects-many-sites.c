/* objects-many-sites: 400 heap objects, one per allocation path (run with --objects=yes
 * --alloc-depth=22).
 *
 * Each of the 20 functions c0 .. c19 calls rec(d) for d = 0 .. 19; rec recurses d times
 * and then allocates 16 bytes, so the 400 allocations have 400 different paths
 *   rec x (d + 1 frames: the innermost at the malloc, L38, the others at L42),
 *   c<i> (line 46 + i), main:L75
 * (22 frames at most: --alloc-depth=22 keeps them all apart) and make 400 heap objects,
 * each with one block of 16 bytes that nothing reads or writes. All are named after the
 * malloc's line, objects-many-sites.c:38.
 *
 * The tool's table of objects grows while the program runs (past 64, 128, 256 ... objects,
 * the static ones and libc's counted): each of these 400 objects is made by the
 * allocation that first takes its path, and the allocation's counts must go to the new
 * object even when making it has moved the table.
 *
 * Every object: size = 16, blocks = 1, total-bytes = peak-bytes = 16 (freed at the end),
 * no reads or writes, written-bytes = prod-bytes = 0, alloc-pct = prod-pct = 0.0. The
 * post command drops the paths and counts the equal lines: 400 of them.
 *
 * stdout: 400 blocks, all non-NULL, each different from the one before (ok=1).
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINL __attribute__((noipa))

static void *keep[400];
static int nkeep;

/* not a tail call: the frames of the recursion stay on the stack */
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

NOINL void *rec(int d)
{
    void *p;
    if (d == 0) {
        p = malloc(16);
        KEEP_FRAME();
        return p;
    }
    p = rec(d - 1);
    KEEP_FRAME();
    return p;
}
NOINL void c0(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c1(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c2(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c3(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c4(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c5(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c6(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c7(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c8(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c9(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c10(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c11(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c12(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c13(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c14(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c15(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c16(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c17(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c18(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }
NOINL void c19(int d) { keep[nkeep++] = rec(d); KEEP_FRAME(); }

static void (*const callers[20])(int) = {
    c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19,
};

int main(void)
{
    for (int i = 0; i < 20; i++)
        for (int d = 0; d < 20; d++)
            callers[i](d);
    int ok = nkeep == 400;
    for (int i = 0; i < nkeep; i++)
        ok &= keep[i] != NULL && (i == 0 || keep[i] != keep[i - 1]);
    for (int i = 0; i < nkeep; i++)
        free(keep[i]);
    printf("objects-many-sites blocks=%d ok=%d\n", nkeep, ok);
    return 0;
}
