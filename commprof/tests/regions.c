/* cflags: -I/usr/include/valgrind */
/* regions: named code regions (COMMPROF_REGION_BEGIN/END), nested and crossing calls.
 *
 * commprof.h: everything the thread executes between BEGIN and the matching END, in any
 * function, is charged to a node named after the region (kind "region") instead of to the
 * functions; regions nest (the innermost one is charged) and may begin in one function
 * and end in another.
 *
 * produce(p, n, k) writes p[0..n) (p[i] = k*i + 1, one int store each); consume(p, n)
 * reads p[0..n) once (one int load each) and returns the sum. Four global int arrays:
 * A[64] (256 bytes), B[32] (128), C[16] (64), D[8] (32). main runs, in this order:
 *
 *    1  produce(A, 64, 3)   no region         produce writes A[0..64)
 *    2  open_outer()        BEGIN("outer") inside open_outer, which then returns:
 *                           region "outer" stays open in main
 *    3  consume(A, 64)      outer             outer reads A[0..64): produce -> outer 256
 *    4  produce(B, 32, 5)   outer             outer writes B
 *    5  BEGIN("inner")      in main, nested in outer
 *    6  consume(B, 32)      inner (innermost) inner reads B:       outer -> inner 128
 *    7  produce(C, 16, 7)   inner             inner writes C
 *    8  END("inner")        back in outer
 *    9  consume(C, 16)      outer             outer reads C:       inner -> outer 64
 *   10  close_outer()       END("outer") inside close_outer
 *   11  consume(B, 32)      no region         consume reads B:     outer -> consume 128
 *   12  consume(C, 8)       no region         consume reads C[0..8): inner -> consume 32
 *   13  BEGIN("inner")      second time, not nested
 *   14  produce(D, 8, 9)    inner             inner writes D
 *   15  consume(A, 16)      inner             inner reads A[0..16): produce -> inner 64
 *   16  END("inner")
 *   17  consume(D, 8)       no region         consume reads D:     inner -> consume 32
 *
 * Expected edges among {produce, consume, outer, inner, (unwritten)}: every array is
 * read once per listed step, always at addresses nobody else wrote in between, so
 * bytes = unma on each edge, except where two steps add up:
 *   produce -> outer    256/256 (3)
 *   produce -> inner     64/64  (15)
 *   outer   -> inner    128/128 (6)
 *   inner   -> outer     64/64  (9)
 *   outer   -> consume  128/128 (11)
 *   inner   -> consume   64/64  (12: C[0..8) 32 bytes, 17: D 32 bytes; distinct addresses)
 *   no produce -> consume (consume, as a function, only reads what regions wrote) and no
 *   (unwritten) edge: every array is written before it is read, produce and consume
 *   touch nothing else but their own stack (written in the same call before it is read,
 *   so by the same node), and no call straddles a region boundary except those of main,
 *   open_outer and close_outer, which are not in the list.
 * --fn: a region's calls count its BEGINs: outer calls=1, inner calls=2.
 *
 * stdout: A[i] = 3i+1, B[i] = 5i+1, C[i] = 7i+1, D[i] = 9i+1.
 *   s1 = sum A[0..64) = 3*2016 + 64 = 6112      s2 = sum B[0..32) = 5*496 + 32 = 2512
 *   s3 = sum C[0..16) = 7*120 + 16 = 856        s4 = s2 = 2512
 *   s5 = sum C[0..8)  = 7*28 + 8 = 204          s6 = sum A[0..16) = 3*120 + 16 = 376
 *   s7 = sum D[0..8)  = 9*28 + 8 = 260
 * Natively the requests are no-ops and the output is the same.
 */
#include <stdio.h>
#include "commprof.h"

static int A[64], B[32], C[16], D[8];

__attribute__((noipa)) void produce(volatile int *p, int n, int k)
{
    for (int i = 0; i < n; i++)
        p[i] = k * i + 1;
}

__attribute__((noipa)) long consume(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void open_outer(void)
{
    COMMPROF_REGION_BEGIN("outer");
}

__attribute__((noipa)) void close_outer(void)
{
    COMMPROF_REGION_END("outer");
}

int main(void)
{
    produce(A, 64, 3);
    open_outer();
    long s1 = consume(A, 64);
    produce(B, 32, 5);
    COMMPROF_REGION_BEGIN("inner");
    long s2 = consume(B, 32);
    produce(C, 16, 7);
    COMMPROF_REGION_END("inner");
    long s3 = consume(C, 16);
    close_outer();
    long s4 = consume(B, 32);
    long s5 = consume(C, 8);
    COMMPROF_REGION_BEGIN("inner");
    produce(D, 8, 9);
    long s6 = consume(A, 16);
    COMMPROF_REGION_END("inner");
    long s7 = consume(D, 8);
    printf("regions s1=%ld s2=%ld s3=%ld s4=%ld s5=%ld s6=%ld s7=%ld\n",
           s1, s2, s3, s4, s5, s6, s7);
    return 0;
}
