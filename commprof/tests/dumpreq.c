/* cflags: -I/usr/include/valgrind */
/* dumpreq: COMMPROF_DUMP_PROFILE() mid-run (run with --commprof-xml-file=dumpreq.%n.xml).
 *
 * commprof.h: the request writes the profile files now, as if the program were exiting;
 * they are written again, complete, at the real exit; %n in a file name is the number of
 * the write (1 for the first), so each write keeps its own file. docs/commprof.rng: <end
 * reason="request"/> for a file written by the request, "exit" at the exit.
 *
 *   p1(A, 32)   writes A (32 ints, 128 bytes)
 *   c1(A, 32)   reads A once                  p1 -> c1 128/128
 *   COMMPROF_DUMP_PROFILE()                   -> dumpreq.1.xml, reason request
 *   p2(B, 16)   writes B (16 ints, 64 bytes)
 *   c2(B, 16)   reads B once                  p2 -> c2 64/64
 *   exit                                      -> dumpreq.2.xml, reason exit
 *
 * dumpreq.1.xml: the edge p1 -> c1 128/128 only; p2 and c2 had not run yet: calls=0
 *   (not in the file); p1, c1 calls=1.
 * dumpreq.2.xml: the whole run: p1 -> c1 128/128 and p2 -> c2 64/64; every function
 *   calls=1.
 * No other edges among {p1, c1, p2, c2}: they touch nothing else but their own stack;
 * every array access is volatile, one per element at -O0 and -O2. Natively the request
 * is a no-op and no file is written.
 *
 * stdout: A[i] = i: c1 = 496; B[i] = 2i: c2 = 240.
 */
#include <stdio.h>
#include "commprof.h"

static int A[32], B[16];

__attribute__((noipa)) void p1(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
}

__attribute__((noipa)) long c1(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void p2(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 2 * i;
}

__attribute__((noipa)) long c2(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    p1(A, 32);
    long s1 = c1(A, 32);
    COMMPROF_DUMP_PROFILE();
    p2(B, 16);
    long s2 = c2(B, 16);
    printf("dumpreq c1=%ld c2=%ld\n", s1, s2);
    return 0;
}
