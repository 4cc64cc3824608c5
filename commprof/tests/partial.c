/* partial: byte-level partial overwrites and an unaligned load.
 *
 * Every access is one inline-asm instruction whose size is fixed by its mnemonic
 * (movq = 8 bytes, movl = 4, movb = 1), so -O0 and -O2 make exactly the same accesses.
 * The data lives in a 64-byte aligned global, so each 8-byte word is an aligned
 * 8-byte block (this matters for the --granularity=8 variant, partial-g8).
 *
 *   S.w      : offset 0 of S (8-byte aligned)
 *   S.u[0..1]: offsets 16 and 24 of S (8-byte aligned)
 *
 * Part 1, one word, bytes numbered 0..7 from the lowest address:
 *   f1:     movq  -> bytes 0..7 written by f1
 *   f2:     movl  -> bytes 0..3 now written by f2
 *   f3:     movb  -> byte  5    now written by f3
 *   reader: movq  reads bytes 0..7 once.
 *   Owners at the time of the read: 0,1,2,3 = f2; 4 = f1; 5 = f3; 6,7 = f1.
 *   => f1 -> reader bytes=3 unma=3   (bytes 4, 6, 7)
 *      f2 -> reader bytes=4 unma=4   (bytes 0..3)
 *      f3 -> reader bytes=1 unma=1   (byte 5)
 *
 * Part 2, unaligned load straddling two words:
 *   g1:      movq -> u[0] (bytes 16..23 of S)
 *   g2:      movq -> u[1] (bytes 24..31 of S)
 *   ureader: movq reading bytes 20..27 of S, i.e. the upper 4 bytes of u[0] and the
 *            lower 4 bytes of u[1].
 *   => g1 -> ureader bytes=4 unma=4
 *      g2 -> ureader bytes=4 unma=4
 *
 * No other edges among the listed functions: none of them reads anything but S through
 * its single asm load (plus its own stack at -O0: self edges), and every byte read was
 * written before, so no (unwritten) edge either.
 *
 * Granularity 8 (partial-g8.vgtest, same binary, --granularity=8): the producer is kept
 * per aligned 8-byte block and a store to any byte of a block makes the storer the
 * producer of the whole block. The last store to the block of S.w is f3's movb, so all
 * 8 bytes reader reads are charged to f3; bytes and UnMA are still counted per byte:
 *   => f3 -> reader bytes=8 unma=8   (and no f1 -> reader, no f2 -> reader)
 *   u[0] and u[1] are separate blocks whose last writers are g1 and g2 (each fully
 *   overwritten by one movq), so part 2 is unchanged:
 *   => g1 -> ureader bytes=4 unma=4, g2 -> ureader bytes=4 unma=4
 *
 * stdout: values read (little endian):
 *   word: bytes 0..3 = 0x22 (f2), byte 4 = 0x11 (f1), byte 5 = 0x33 (f3), bytes 6,7 = 0x11
 *         => 0x1111331122222222
 *   straddle: bytes 20..23 = upper half of 0x4444444444444444, bytes 24..27 = lower half
 *         of 0x5555555555555555 => 0x5555555544444444
 */
#include <stdint.h>
#include <stdio.h>

static struct {
    uint64_t w;
    uint64_t pad;
    uint64_t u[2];
} __attribute__((aligned(64))) S;

__attribute__((noipa)) void f1(uint64_t *p)
{
    uint64_t v = 0x1111111111111111ULL;
    __asm__ volatile("movq %1, %0" : "=m"(*p) : "r"(v));
}

__attribute__((noipa)) void f2(uint64_t *p)
{
    uint32_t v = 0x22222222U;
    __asm__ volatile("movl %1, %0" : "=m"(*(uint32_t *)p) : "r"(v));
}

__attribute__((noipa)) void f3(uint64_t *p)
{
    uint8_t v = 0x33;
    __asm__ volatile("movb %1, %0" : "=m"(((uint8_t *)p)[5]) : "q"(v));
}

__attribute__((noipa)) uint64_t reader(const uint64_t *p)
{
    uint64_t v;
    __asm__ volatile("movq %1, %0" : "=r"(v) : "m"(*p));
    return v;
}

__attribute__((noipa)) void g1(uint64_t *u)
{
    uint64_t v = 0x4444444444444444ULL;
    __asm__ volatile("movq %1, %0" : "=m"(u[0]) : "r"(v));
}

__attribute__((noipa)) void g2(uint64_t *u)
{
    uint64_t v = 0x5555555555555555ULL;
    __asm__ volatile("movq %1, %0" : "=m"(u[1]) : "r"(v));
}

__attribute__((noipa)) uint64_t ureader(const uint64_t *u)
{
    uint64_t v;
    const unsigned char *q = (const unsigned char *)u + 4;
    __asm__ volatile("movq %1, %0" : "=r"(v) : "m"(*(const uint64_t *)q));
    return v;
}

int main(void)
{
    f1(&S.w);
    f2(&S.w);
    f3(&S.w);
    uint64_t a = reader(&S.w);
    g1(S.u);
    g2(S.u);
    uint64_t b = ureader(S.u);
    printf("word=%#llx straddle=%#llx\n", (unsigned long long)a, (unsigned long long)b);
    return 0;
}
