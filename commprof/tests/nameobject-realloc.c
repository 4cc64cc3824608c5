/* cflags: -I/usr/include/valgrind */
/* nameobject-realloc: a COMMPROF_NAME_OBJECT naming inside a heap block and
 * realloc (run with --objects=yes).
 *
 * A realloc that moves the block moves the namings that lie wholly in it
 * with its bytes; one that shrinks it in place ends the namings that reach
 * into the cut-off tail, as free does.  The memory the block leaves is no
 * named object's any more.
 *
 *   L69: a = malloc(100), named "grow" (all 100 bytes)
 *       fill(a, 100)             100 1-byte stores to "grow"
 *       b = realloc(a, 5000)     moves (a new block, b != a): "grow" is b[0..100)
 *       rd(b, 100)               100 1-byte loads of "grow"
 *       rd_gone(a, 100)          100 1-byte loads of the freed old block: no object's
 *   L79: c = malloc(100)          a new block (wherever it lies, no naming holds it)
 *       fill(c, 100), rd(c, 100) 100 stores and 100 loads of object L79
 *   L84: d = malloc(64), d[32..64) named "tail"
 *       fill(d, 64)              32 stores to L84's object, 32 to "tail"
 *       realloc(d, 16)           shrinks in place: "tail" ends
 *       rd_gone(d + 32, 32)      32 1-byte loads of the cut-off tail: no object's
 *
 * "grow": named, size=total-bytes=peak-bytes=100, writes=100 write-bytes=100, reads=100
 *   read-bytes=100, written-bytes=prod-bytes=100, alloc-pct=prod-pct=100.0.
 * L69: heap, size=5000, total-bytes=peak-bytes=5000 (100 + the 4900 realloc adds), no
 *   access (its first 100 bytes are "grow"'s): all counts 0.
 * L79: size=total-bytes=peak-bytes=100, writes=100 write-bytes=100, reads=100
 *   read-bytes=100, written-bytes=prod-bytes=100, alloc-pct=prod-pct=100.0.
 * L84: size 16 (now), total-bytes=peak-bytes=64, writes=32 write-bytes=32,
 *   written-bytes=32, no reads: prod-bytes=0, alloc-pct=32/64=50.0, prod-pct=0.0.
 * "tail": size=total-bytes=peak-bytes=32, writes=32 write-bytes=32, written-bytes=32,
 *   no reads: prod-bytes=0, alloc-pct=100.0, prod-pct=0.0.
 * Flows: fill -> grow -> rd 100/100, fill -> L79 -> rd 100/100; none to rd_gone.
 * heap-bytes-read: rd 200, rd_gone 0; heap-bytes-written: fill 100+100+64 = 264.
 * Function edges: fill -> rd 200/200; (unwritten) -> rd_gone 132/132 (freed memory
 *   and a cut-off tail are unwritten).
 * Every access goes through a volatile pointer (one access per byte at -O0 and -O2).
 * stdout: 2 * (1+..+100) = 10100.
 */
#include <stdio.h>
#include <stdlib.h>
#include "commprof.h"

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

__attribute__((noipa)) long rd_gone(volatile const char *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

volatile long sink;

int main(void)
{
    char *a = malloc(100);
    if (!a)
        return 1;
    COMMPROF_NAME_OBJECT(a, 100, "grow");
    fill(a, 100);
    char *b = realloc(a, 5000);
    if (!b || b == a)
        return 2;
    long s = rd(b, 100);
    sink = rd_gone(a, 100);
    char *c = malloc(100);
    if (!c)
        return 1;
    fill(c, 100);
    s += rd(c, 100);
    char *d = malloc(64);
    if (!d)
        return 1;
    COMMPROF_NAME_OBJECT(d + 32, 32, "tail");
    fill(d, 64);
    if (realloc(d, 16) != d)
        return 3;
    sink = rd_gone(d + 32, 32);
    printf("nameobject-realloc %ld\n", s);
    free(b);
    free(c);
    free(d);
    return 0;
}
