/* maskmov: MASKMOVDQU and MASKMOVQ store only the bytes their mask selects.
 *
 * Valgrind carries these masked stores out as a load of all the bytes at (%rdi)
 * and a store of all of them, the unselected ones unchanged; the program reads
 * none of them, and the unselected bytes keep their producer.  Every access of
 * the functions below is in inline asm (the same at -O0 and -O2); the data are
 * 16-byte aligned globals (.bss).
 *
 *   fill:   d[0..16) and e[0..8), one byte store each (24 stores); src = 16 bytes of
 *           0x07, msk = bytes 0xff at 0..3 and 12..15, 0x00 elsewhere, as two 8-byte
 *           stores each (src8 and msk8: the first 8 bytes of src and msk)
 *   m:      movdqa src, %xmm1; movdqa msk, %xmm2; maskmovdqu %xmm2, %xmm1 to d:
 *           two 16-byte loads (fill's) and one store of d[0..4) and d[12..16)
 *   m8:     movq src, %mm1; movq msk, %mm2; maskmovq %mm2, %mm1 to e; emms:
 *           two 8-byte loads (fill's) and one store of e[0..4)
 *   r:      reads d[0..16) and e[0..8) a byte at a time (24 loads)
 *
 *   => fill -> m   bytes=32 unma=32 accesses=2
 *      fill -> m8  bytes=16 unma=16 accesses=2
 *      fill -> r   bytes=12 unma=12 accesses=12   (d[4..12), e[4..8))
 *      m -> r      bytes=8  unma=8  accesses=8    (d[0..4), d[12..16))
 *      m8 -> r     bytes=4  unma=4  accesses=4    (e[0..4))
 *      and no d or e bytes read by m or m8.
 *   m: loads=2 bytes-read=32 stores=1 bytes-written=8;  m8: loads=2 bytes-read=16
 *   stores=1 bytes-written=4; at -O0 each also pushes and pops %rbp (one 8-byte
 *   stack store and one 8-byte stack load more).
 *
 * stdout: the sum of d and e after the stores: d keeps 4..11 (sum 60) and gets 7 at
 * 0..3 and 12..15 (56); e keeps 4..7 (22) and gets 7 at 0..3 (28): 166.
 */
#include <stdio.h>

#define NI __attribute__((noinline))

static unsigned char d[16] __attribute__((aligned(16)));
static unsigned char e[8] __attribute__((aligned(16)));
static unsigned char src[16] __attribute__((aligned(16)));
static unsigned char msk[16] __attribute__((aligned(16)));

NI void fill(void)
{
   for (int i = 0; i < 16; i++)
      __asm__ volatile("movb %1, %0" : "=m"(d[i]) : "q"((char)i));
   for (int i = 0; i < 8; i++)
      __asm__ volatile("movb %1, %0" : "=m"(e[i]) : "q"((char)i));
   __asm__ volatile("movq %2, %0\n\tmovq %2, %1"
                    : "=m"(*(unsigned long*)src), "=m"(*(unsigned long*)(src + 8))
                    : "r"(0x0707070707070707UL));
   __asm__ volatile("movq %2, %0\n\tmovq %3, %1"
                    : "=m"(*(unsigned long*)msk), "=m"(*(unsigned long*)(msk + 8))
                    : "r"(0x00000000ffffffffUL), "r"(0xffffffff00000000UL));
}

NI void m(void)
{
   __asm__ volatile("movdqa %1, %%xmm1\n\t"
                    "movdqa %2, %%xmm2\n\t"
                    "lea %0, %%rdi\n\t"
                    "maskmovdqu %%xmm2, %%xmm1"
                    : "+m"(d) : "m"(src), "m"(msk) : "rdi", "xmm1", "xmm2");
}

NI void m8(void)
{
   __asm__ volatile("movq %1, %%mm1\n\t"
                    "movq %2, %%mm2\n\t"
                    "lea %0, %%rdi\n\t"
                    "maskmovq %%mm2, %%mm1\n\t"
                    "emms"
                    : "+m"(e) : "m"(*(const unsigned long*)src), "m"(*(const unsigned long*)msk)
                    : "rdi", "mm1", "mm2");
}

NI int r(void)
{
   int s = 0;
   for (int i = 0; i < 16; i++) {
      unsigned char b;
      __asm__ volatile("movb %1, %0" : "=q"(b) : "m"(d[i]));
      s += b;
   }
   for (int i = 0; i < 8; i++) {
      unsigned char b;
      __asm__ volatile("movb %1, %0" : "=q"(b) : "m"(e[i]));
      s += b;
   }
   return s;
}

int main(void)
{
   fill();
   m();
   m8();
   printf("sum=%d\n", r());
   return 0;
}
