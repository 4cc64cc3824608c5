/* cflags: -I/usr/include/valgrind */
/* dumpreq: COMMPROF_DUMP_PROFILE() mid-run (run with --commprof-xml-file=BASE.xml, BASE given as
 * the program's argument).
 *
 * commprof.h: the request writes the profile files now, as if the program were exiting;
 * they are written again, complete, at the real exit. The program moves the file of the
 * request aside to BASE.1.xml (natively there is none and the rename fails quietly),
 * and the exit writes BASE.xml. (%n in the name would keep each write without the
 * rename, but Valgrind's vg_regtest cannot take a % in vgopts; tests/suites/lifecycle.sh
 * covers %n.) docs/commprof.rng: <end reason="request"/> for a file written by the
 * request, "exit" at the exit.
 *
 *   p1(A, 32)   writes A (32 ints, 128 bytes)
 *   c1(A, 32)   reads A once                  p1 -> c1 128/128
 *   COMMPROF_DUMP_PROFILE()                   -> dumpreq.xml, renamed dumpreq.1.xml, reason request
 *   p2(B, 16)   writes B (16 ints, 64 bytes)
 *   c2(B, 16)   reads B once                  p2 -> c2 64/64
 *   exit                                      -> dumpreq.xml, reason exit
 *
 * dumpreq.1.xml: the edge p1 -> c1 128/128 only; p2 and c2 had not run yet: calls=0
 *   (not in the file); p1, c1 calls=1.
 * dumpreq.xml: the whole run: p1 -> c1 128/128 and p2 -> c2 64/64; every function
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

int main(int argc, char **argv)
{
    /* the profile's base name: dumpreq or dumpreq-O2 (the vgtest's args) */
    const char *base = argc > 1 ? argv[1] : "dumpreq";
    char xml[256], aside[256];
    snprintf(xml, sizeof xml, "%s.xml", base);
    snprintf(aside, sizeof aside, "%s.1.xml", base);
    p1(A, 32);
    long s1 = c1(A, 32);
    COMMPROF_DUMP_PROFILE();
    rename(xml, aside);
    p2(B, 16);
    long s2 = c2(B, 16);
    printf("dumpreq c1=%ld c2=%ld\n", s1, s2);
    return 0;
}
