/* objects-globals: globals and a function's static as static objects; object selection
 * by name (run with --objects=yes).
 *
 * A static object is a global or static variable of the main executable, named after its
 * ELF symbol, with its symbol size (docs/commprof.rng). gcc names a static declared inside
 * a function NAME.N: `static volatile long hist[4]` in bump is the local symbol hist.0
 * (checked with nm on both builds).
 *
 * garr (int[64], .bss, 256 bytes):
 *   gwrite: 64 int stores, all of garr     -> writes = 64, write-bytes = 256
 *   gread:  48 int loads, garr[0..48)      -> reads = 48, read-bytes = 192
 *   written-bytes = 256, prod-bytes = 192: alloc-pct = 100.0, prod-pct = 192/256 = 75.0
 *   flow gwrite -> garr -> gread  bytes = 192, unma = 192
 * secret (int[16], .bss, 64 bytes): gwrite writes all of it, gread reads all of it. With
 *   --object-exclude=sec* it is no object of the profile (cp_edges prints "secret
 *   absent") and no flow goes through it; the function edge is unchanged:
 *   gwrite -> gread  bytes = 192 + 64 = 256, unma = 256.
 * hist.0 (long[4], .bss, 32 bytes): bump(k) increments hist[k] (one 8-byte load and one
 *   8-byte store, the object is volatile) and returns hist; report reads hist[0..4).
 *   bump(0): hist[0] is (unwritten)        bump(1): hist[1] (unwritten)
 *   bump(1): hist[1] was written by bump   bump(3): hist[3] (unwritten)
 *   report:  hist[0], hist[1], hist[3] written by bump, hist[2] (unwritten)
 *   -> reads = 4 + 4 = 8, read-bytes = 64, writes = 4, write-bytes = 32
 *      written-bytes = 24 (hist[0], hist[1], hist[3]); prod-bytes = 24 (each of them is
 *      read after it was written: hist[1] by bump, all three by report)
 *      alloc-pct = prod-pct = 24/32 = 75.0
 *   flows: (unwritten) -> hist.0 -> bump    bytes = 24, unma = 24
 *          bump        -> hist.0 -> bump    bytes =  8, unma =  8
 *          bump        -> hist.0 -> report  bytes = 24, unma = 24
 *          (unwritten) -> hist.0 -> report  bytes =  8, unma =  8
 *   function edges: (unwritten) -> bump 24/24, bump -> report 24/24,
 *                   (unwritten) -> report 8/8 (the self edge bump -> bump is not listed)
 * The four functions read nothing else but their own stack (garr, secret and hist are
 * addressed RIP-relative, without loads); every access to the arrays is volatile, one
 * load or store per element at -O0 and -O2.
 *
 * The second test, objects-globals-include, runs the same program with
 * --object-include=hist.*,sec* --object-exclude=secret: only hist.0 is reported (an
 * exclude pattern wins over an include pattern), so garr and secret are absent and only
 * the flows through hist.0 are listed. Objects are a report selection: the function
 * edges stay the same.
 *
 * stdout: garr[i] = 2i+1, sum over i < 48 = 48^2 = 2304; secret[i] = i + 100, sum over
 *   i < 16 = 120 + 1600 = 1720; gread returns 4024. hist = {1, 2, 0, 1}: report 4.
 */
#include <stdio.h>

int garr[64];
int secret[16];

__attribute__((noipa)) void gwrite(void)
{
    volatile int *p = garr;
    for (int i = 0; i < 64; i++)
        p[i] = 2 * i + 1;
    volatile int *q = secret;
    for (int i = 0; i < 16; i++)
        q[i] = i + 100;
}

__attribute__((noipa)) long gread(void)
{
    volatile const int *p = garr;
    volatile const int *q = secret;
    long s = 0;
    for (int i = 0; i < 48; i++)
        s += p[i];
    for (int i = 0; i < 16; i++)
        s += q[i];
    return s;
}

__attribute__((noipa)) volatile long *bump(int k)
{
    static volatile long hist[4];
    hist[k]++;
    return hist;
}

__attribute__((noipa)) long report(volatile const long *h)
{
    long s = 0;
    for (int i = 0; i < 4; i++)
        s += h[i];
    return s;
}

int main(void)
{
    gwrite();
    long g = gread();
    bump(0);
    bump(1);
    bump(1);
    volatile long *h = bump(3);
    long r = report(h);
    printf("objects-globals gread=%ld report=%ld\n", g, r);
    return 0;
}
