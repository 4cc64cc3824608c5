/* selfedge: a function reading what it wrote itself makes a self edge, reported only in
 * its self-bytes/self-unma attributes, never as an <edge>.
 *
 * The test runs with --ignore-stack=yes so that the exact self edge is not blurred by
 * stack traffic (at -O0 every function spills its arguments and loop counters to its own
 * stack frame and reads them back: self edges whose size depends on the compiler). With
 * the stack left out, the only memory selfish touches is the global gbuf.
 *
 *   selfish: writes gbuf[0..64) (64 ints = 256 bytes); memory barrier; reads
 *            gbuf[0..64) (pass 1); memory barrier; reads gbuf[0..64) again (pass 2).
 *            The barriers force gcc -O2 to perform the loads after the stores (it may not
 *            forward the stored values).
 *            => self edge of selfish: bytes = 2 * 256 = 512, unma = 256
 *   later:   reads gbuf[0..16) once
 *            => selfish -> later bytes = 64, unma = 64 (a normal cross edge)
 *            later has no self edge (it reads nothing it wrote, stack aside).
 *   No selfish -> selfish <edge> element, so cp_edges prints no "selfish -> selfish" line.
 *
 * stdout: gbuf[i] = 4i + 1. pass 1: sum_{i<64} = 4*2016 + 64 = 8128; pass 2 adds the
 *         same values times 3: 24384; selfish returns 8128 + 24384 = 32512.
 *         later: sum_{i<16} (4i + 1) = 480 + 16 = 496.
 */
#include <stdio.h>

#define BARRIER() __asm__ volatile("" ::: "memory")

int gbuf[64];

__attribute__((noipa)) long selfish(int n)
{
    long s1 = 0, s2 = 0;
    for (int i = 0; i < n; i++)
        gbuf[i] = 4 * i + 1;
    BARRIER();
    for (int i = 0; i < n; i++)
        s1 += gbuf[i];
    BARRIER();
    for (int i = 0; i < n; i++)
        s2 += 3 * gbuf[i];
    return s1 + s2;
}

__attribute__((noipa)) long later(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += gbuf[i];
    return s;
}

int main(void)
{
    long a = selfish(64);
    long b = later(16);
    printf("selfedge selfish=%ld later=%ld\n", a, b);
    return 0;
}
