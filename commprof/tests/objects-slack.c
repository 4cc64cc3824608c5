/* objects-slack: the bytes between a heap block's end and the next 16-byte
 * boundary are no object's (run with --objects=yes).
 *
 * commprof's block map has a cell per 16 bytes, and a block's last cell
 * reaches past its end; those bytes are not the block's.
 *
 *   L59: p = malloc(13)       object "objects-slack.c:59", size 13
 *   fill(p, 13)               13 1-byte stores
 *   rd(p, 13)                 13 1-byte loads of the block
 *   rd_slack(p + 13, 3)       3 1-byte loads of p[13..16): no object's
 *   L65: s = malloc(64)       object "objects-slack.c:65", size 64
 *   fill(s, 64)               64 1-byte stores
 *   t = realloc(s, 20)        shrinks in place (t == s): the block is 20 bytes
 *   rd(t, 20)                 20 1-byte loads of the block
 *   rd_slack(t + 20, 12)      12 1-byte loads of t[20..32): no object's
 *
 * Object 59: size=total-bytes=peak-bytes=13, writes=13 write-bytes=13, reads=13
 *   read-bytes=13, written-bytes=prod-bytes=13, alloc-pct=prod-pct=100.0.
 * Object 65: size 20 (its size now), total-bytes=peak-bytes=64, writes=64
 *   write-bytes=64 written-bytes=64 (all before the shrink), reads=20 read-bytes=20,
 *   prod-bytes=20, alloc-pct=64/64=100.0, prod-pct=20/64=31.3.
 * Flows: fill -> 59 -> rd 13/13, fill -> 65 -> rd 20/20; none to rd_slack.
 * Function edges: fill -> rd 33/33; (unwritten) -> rd_slack 15/15: p[13..16) was
 *   never written, and the tail a realloc cuts off is free memory again.
 * heap-bytes-read: rd 33, rd_slack 0 (it reads no heap block's bytes); fill
 *   heap-bytes-written 13 + 64 = 77.
 * Every access goes through a volatile pointer (one access per byte at -O0
 * and -O2).  stdout: 1+..+13 = 91 and 1+..+20 = 210.
 */
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
        s += p[i];
    return s;
}

__attribute__((noipa)) long rd_slack(volatile const char *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

volatile long sink;

int main(void)
{
    char *p = malloc(13);
    if (!p)
        return 1;
    fill(p, 13);
    long a = rd(p, 13);
    sink = rd_slack(p + 13, 3);
    char *s = malloc(64);
    if (!s)
        return 1;
    fill(s, 64);
    char *t = realloc(s, 20);
    if (t != s)
        return 2;
    long c = rd(t, 20);
    sink = rd_slack(t + 20, 12);
    printf("objects-slack %ld %ld\n", a, c);
    free(p);
    free(t);
    return 0;
}
