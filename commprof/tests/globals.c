/* globals: global arrays written and read by different functions.
 *
 *   garr:   int[256] in .bss (1024 bytes).
 *   writer: writes garr[0..256)                      -> every byte of garr written by writer
 *   reader: reads garr[0..200) twice (two passes separated by a compiler memory barrier,
 *           so gcc -O2 must load the elements again in the second pass)
 *           => writer -> reader bytes = 2 passes * 200 ints * 4 = 1600
 *                                  unma  = 200 * 4 = 800 (the same 800 addresses twice)
 *
 *   table:  int[16] in .data, initialised by the compiler and never written at run time
 *           (not static, not const, so gcc cannot fold its values). Its bytes are part of
 *           the program image as loaded: producer (unwritten).
 *   lookup: reads table[0..16) once
 *           => (unwritten) -> lookup bytes = 64, unma = 64
 *
 * No other edges among {writer, reader, lookup, (unwritten)}:
 *   - writer reads nothing but its own stack (-O0); reader reads only garr (all written by
 *     writer, so no (unwritten) -> reader); lookup reads only table (never written, so no
 *     writer -> lookup).
 *   - The loops use no .rodata constants at -O2 (checked with objdump): the only
 *     (unwritten) bytes lookup reads are table's.
 *
 * stdout: garr[i] = 3i + 1.  pass 1: sum_{i<200} (3i+1) = 3*19900 + 200 = 59900;
 *         pass 2 sums 2*garr[i] = 119800; reader returns 59900 + 119800 = 179700.
 *         table = 1..16, sum = 136.
 */
#include <stdio.h>

#define BARRIER() __asm__ volatile("" ::: "memory")

int garr[256];
int table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

__attribute__((noipa)) void writer(int n)
{
    for (int i = 0; i < n; i++)
        garr[i] = 3 * i + 1;
}

__attribute__((noipa)) long reader(int n)
{
    long s1 = 0, s2 = 0;
    for (int i = 0; i < n; i++)
        s1 += garr[i];
    BARRIER();
    for (int i = 0; i < n; i++)
        s2 += 2 * garr[i];
    return s1 + s2;
}

__attribute__((noipa)) long lookup(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += table[i];
    return s;
}

int main(void)
{
    writer(256);
    long r = reader(200);
    long t = lookup(16);
    printf("globals reader=%ld lookup=%ld\n", r, t);
    return 0;
}
