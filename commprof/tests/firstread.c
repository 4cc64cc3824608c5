/* firstread: first-read bytes per edge (run with --first-read=yes).
 *
 * docs/commprof.rng: first-read = bytes the consumer read for the first time since they
 * were last written; re-reads of unchanged bytes are not counted. It is per consumer
 * function: another function reading the bytes in between does not make a re-read a
 * first read (A, B, A), a new store does (even of the same value).
 *
 * wr(p, n) and wr2(p, n) write p[0..n) (one int store each); ra(p, n) and rb(p, n) read
 * p[0..n) once (one int load each). Arrays X[16] (64 bytes), Y[8] (32), Z[8] (32).
 *
 *   X: wr(X,16); ra(X,16); ra(X,16); rb(X,16)
 *      ra reads X twice: 128 bytes, the first time 64 first-read bytes, then 0;
 *      rb reads X once: 64 bytes, 64 first-read.
 *   Y: wr(Y,8); ra(Y,8); rb(Y,8); ra(Y,8)                      (A, B, A)
 *      ra: 64 bytes, first-read 32 (its second read sees unchanged bytes: rb's read in
 *      between does not matter); rb: 32 bytes, first-read 32.
 *   Z: wr(Z,8); ra(Z,8); wr(Z,8); ra(Z,8); wr2(Z,4); ra(Z,8)
 *      1st ra: 32 bytes from wr, 32 first.
 *      2nd ra: 32 bytes from wr, rewritten in between (same values): 32 first again.
 *      3rd ra: Z[0..4) from wr2 (16 bytes, first), Z[4..8) from wr, unchanged since the
 *              2nd read: 16 bytes, 0 first.
 *      wr -> ra: 32 + 32 + 16 = 80 bytes, first-read 64; wr2 -> ra: 16 bytes, 16 first.
 *
 * Expected edges among {wr, wr2, ra, rb}:
 *   wr  -> ra  bytes = 128 + 64 + 80 = 272, unma = 64 + 32 + 32 = 128,
 *              first-read = 64 + 32 + 64 = 160
 *   wr  -> rb  bytes = 64 + 32 = 96, unma = 96, first-read = 96
 *   wr2 -> ra  bytes = 16, unma = 16, first-read = 16
 * The functions touch nothing else but their own stack (self edges, not listed); every
 * array access is volatile, one per element at -O0 and -O2.
 *
 * stdout: wr writes p[i] = i + 1, wr2 writes p[i] = 100.
 *   sum X = 136: ra 136 + 136, rb 136.   sum Y = 36: ra 36 + 36, rb 36.
 *   Z: ra 36, 36, then 4*100 + (5+6+7+8) = 426.
 *   ra total = 272 + 72 + 36 + 36 + 426 = 842, rb total = 136 + 36 = 172.
 */
#include <stdio.h>

static int X[16], Y[8], Z[8];

__attribute__((noipa)) void wr(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i + 1;
}

__attribute__((noipa)) void wr2(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 100;
}

__attribute__((noipa)) long ra(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long rb(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    long a = 0, b = 0;
    wr(X, 16);
    a += ra(X, 16);
    a += ra(X, 16);
    b += rb(X, 16);

    wr(Y, 8);
    a += ra(Y, 8);
    b += rb(Y, 8);
    a += ra(Y, 8);

    wr(Z, 8);
    a += ra(Z, 8);
    wr(Z, 8);
    a += ra(Z, 8);
    wr2(Z, 4);
    a += ra(Z, 8);

    printf("firstread ra=%ld rb=%ld\n", a, b);
    return 0;
}
