/* cflags: -fno-strict-aliasing */
/* objects-pct: Alloc% and Prod% (MCProf) of a buffer half written and a quarter read, on a
 * heap block and on a global array (run with --objects=yes).
 *
 * From docs/commprof.rng: written-bytes = distinct bytes the program wrote (summed over the
 * blocks); prod-bytes = distinct bytes written by the program and later read;
 * alloc-pct = written-bytes / total-bytes, prod-pct = prod-bytes / total-bytes, in percent
 * with one decimal. total-bytes is the size for a static.
 *
 * Both buffers, of 1000 bytes, get the same treatment:
 *   writer:  125 int stores, bytes [0,500); then 25 int stores again over [0,100)
 *            -> writes = 150, write-bytes = 600, written-bytes = 500 (distinct)
 *   reader1: 125 short loads over [0,250), twice -> 250 loads, 500 bytes
 *   reader2: 25 int loads over [900,1000), bytes nobody wrote -> 25 loads, 100 bytes
 *   -> reads = 275, read-bytes = 600
 *      prod-bytes = 250: the distinct written bytes that were read ([0,250); reading them
 *      twice does not count them twice, and reader2's bytes were never written)
 *   alloc-pct = 500/1000 = 50.0, prod-pct = 250/1000 = 25.0
 *
 * heap block: malloc(1000) at line 72, object "objects-pct.c:72", blocks = 1,
 *   size = total-bytes = peak-bytes = 1000 (freed before the exit: its bytes count at the
 *   free, the sums above are over its one block).
 * global:     char gbuf[1000] (.bss, object "gbuf", kind static, size 1000).
 *
 * Flows, per buffer:
 *   writer      -> buffer -> reader1  bytes = 500, unma = 250
 *   (unwritten) -> buffer -> reader2  bytes = 100, unma = 100
 * Function edges (both buffers together): writer -> reader1 1000/500,
 *   (unwritten) -> reader2 200/200.
 * Every buffer access goes through a volatile pointer: one access per element at -O0 and
 * -O2; the functions touch nothing else but their own stack.
 *
 * stdout: the ints of [0,100) are 9i (second pass), of [100,250) 5i+1 as written by the
 *   first pass (i < 62 covers [0,248), plus the low short of int 62):
 *   reader1 per pass: sum_{i<25} 9i + sum_{25<=i<62} (5i+1) + (5*62+1)
 *     = 2700 + (5*(1891-300) + 37) + 311 = 2700 + 7992 + 311 = 11003; two passes: 22006
 *   per buffer; the heap and the global each print 22006.
 */
#include <stdio.h>
#include <stdlib.h>

char gbuf[1000];
volatile long sink;

__attribute__((noipa)) void writer(volatile int *p)
{
    for (int i = 0; i < 125; i++)
        p[i] = 5 * i + 1;
    for (int i = 0; i < 25; i++)
        p[i] = 9 * i;
}

__attribute__((noipa)) long reader1(volatile const short *p)
{
    long s = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 125; i++)
            s += p[i];
    return s;
}

__attribute__((noipa)) long reader2(volatile const int *p)
{
    long s = 0;
    for (int i = 225; i < 250; i++)
        s += p[i];
    return s;
}

int main(void)
{
    char *h = malloc(1000);
    if (!h)
        return 1;
    writer((int *)h);
    writer((int *)gbuf);
    long rh = reader1((short *)h);
    long rg = reader1((short *)gbuf);
    sink = reader2((int *)h) + reader2((int *)gbuf);
    printf("objects-pct heap=%ld global=%ld\n", rh, rg);
    free(h);
    return 0;
}
