/* objects-aligned: the aligned allocators' blocks are objects of the line that
 * calls them (run with --objects=yes --alloc-depth=1).
 *
 * Valgrind's posix_memalign and valloc replacements call its memalign
 * replacement: the allocation's stack starts with two frames of the preload
 * library, both left out of the allocation path.  With --alloc-depth=1 each
 * call below is then its own object, named by its line in main:
 *
 *   L50: posix_memalign(&a, 64, 40)   object "objects-aligned.c:50", size 40
 *   L52: b = aligned_alloc(64, 128)   "objects-aligned.c:52", size 128
 *   L53: c = memalign(32, 24)         "objects-aligned.c:53", size 24
 *   L54: d = valloc(16)               "objects-aligned.c:54", size 16
 *   L55: posix_memalign(&e, 16, 8)    "objects-aligned.c:55", size 8
 *
 * fill(p, n) writes each block byte by byte, then rd(p, n) reads it: every
 * object has writes=write-bytes=written-bytes=reads=read-bytes=prod-bytes=its
 * size, blocks=1, total-bytes=peak-bytes=size, alloc-pct=prod-pct=100.0, and a
 * flow fill -> object -> rd of size bytes (unma the same); the function edge
 * fill -> rd is 40+128+24+16+8 = 216 bytes, unma 216.
 * Every access goes through a volatile pointer (one access per byte at -O0
 * and -O2).  stdout: the sum of 1..n over the sizes: 820+8256+300+136+36 = 9548.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void fill(volatile char *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (char)(i + 1);
}

__attribute__((noipa)) long rd(volatile const char *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (unsigned char)p[i];
    return s;
}

static long use(void *p, int n)
{
    fill(p, n);
    return rd(p, n);
}

int main(void)
{
    void *a, *e;
    if (posix_memalign(&a, 64, 40))
        return 1;
    char *b = aligned_alloc(64, 128);
    char *c = memalign(32, 24);
    char *d = valloc(16);
    if (posix_memalign(&e, 16, 8) || !b || !c || !d)
        return 1;
    long s = use(a, 40) + use(b, 128) + use(c, 24) + use(d, 16) + use(e, 8);
    printf("objects-aligned %ld\n", s);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    return 0;
}
