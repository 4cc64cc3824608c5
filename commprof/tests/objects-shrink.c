/* objects-shrink: a realloc that shrinks a block (run with --objects=yes).
 *
 * docs/definitions.md: "A realloc that shrinks keeps the block in place; the cut-off tail
 * becomes (unwritten)"; total-bytes: "a realloc that grows a block adds the growth; one
 * that shrinks it subtracts nothing"; written-bytes: "a realloc that shrinks a block
 * counts there the bytes it cuts off (they stay in total-bytes)"; size: "the size of the
 * last block allocated (or resized) at the site".
 *
 * Allocation sites (lines of this file):
 *   L63: p = malloc(1000)   wr writes p[0..1000) (1000 one-byte stores);
 *                           realloc(p, 100) cuts off 900 written bytes;
 *                           rd1 reads p[0..100) (100 one-byte loads);
 *                           realloc(p, 1000) grows it again (it moves; a tail of 900
 *                           unwritten bytes); rd2 reads p[0..1000); free(p)
 *   L70: q = malloc(1000)   wr writes q[0..1000); realloc(q, 100); live at exit
 *
 * Object 63: blocks = 1; total-bytes = 1000 + 900 (the growth) = 1900; peak-bytes = 1000;
 *   size = 1000 (the last resize); writes = write-bytes = 1000; reads = read-bytes =
 *   100 + 1000 = 1100; written-bytes = 900 (cut off by the shrink) + 100 (at the free:
 *   the regrown tail is unwritten) = 1000; prod-bytes = 100 (p[0..100) written, then read;
 *   the cut-off bytes were never read, and the regrown ones are new memory);
 *   alloc-pct = 1000 / 1900 = 52.6; prod-pct = 100 / 1900 = 5.3.
 * Object 70: blocks = 1; total-bytes = peak-bytes = 1000; size = 100 (resized);
 *   writes = write-bytes = 1000; reads = 0; written-bytes = 900 (the shrink) + 100 (live
 *   at the report) = 1000; prod-bytes = 0; alloc-pct = 100.0; prod-pct = 0.0.
 * Edges: wr -> rd1 100/100; wr -> rd2 100/100 (p[0..100) kept its producer through both
 *   reallocs); (unwritten) -> rd2 900/900 (the regrown tail).
 * All accesses go through volatile pointers: one load or store per byte at -O0 and -O2.
 *
 * stdout: rd1 = the sum of (7i + 1) mod 256 for i < 100 = 11710; same=1 (the shrink kept
 *   q in place).  rd2's sum depends on what the regrown tail holds, and is not printed.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void wr(volatile unsigned char *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(7 * i + 1);
}

__attribute__((noipa)) unsigned long rd1(volatile const unsigned char *p, int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) unsigned long rd2(volatile const unsigned char *p, int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    unsigned char *p, *q, *r;
    unsigned long s1;

    p = malloc(1000);
    wr(p, 1000);
    p = realloc(p, 100);
    s1 = rd1(p, 100);
    p = realloc(p, 1000);
    (void)rd2(p, 1000);
    free(p);
    q = malloc(1000);
    wr(q, 1000);
    r = realloc(q, 100);
    printf("objects-shrink rd1=%lu same=%d\n", s1, r == q);
    return 0;
}
