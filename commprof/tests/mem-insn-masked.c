/* cflags: -mavx2 */
/* mem-insn-masked: masked moves and gathers are memory instructions only
 * when their mask selects something.
 *
 * Each function below is naked: its code is the inline asm alone (the same at
 * -O0 and -O2), ending in ret (control flow, not a load).  buf (32 bytes,
 * 32-aligned, .bss) is written by fill, one 8-byte store at a time (4 stores).
 *
 *   ld0:   vpxor (zero mask); vmaskmovps (%rdi), mask, %ymm0; ret
 *          instructions=3 mem-instructions=0 loads=0 bytes-read=0
 *   ld1:   vpcmpeqd (all-ones mask); vmaskmovps (%rdi), mask, %ymm0; ret
 *          instructions=3 mem-instructions=1 loads=1 bytes-read=32
 *   st0:   vpxor; vmaskmovps %ymm0, mask, (%rdi); ret
 *          instructions=3 mem-instructions=0 stores=0 bytes-written=0
 *   ga0:   vpxor (indices); vpxor (zero mask); vpgatherdd mask, (%rdi,%ymm3,4), %ymm0; ret
 *          instructions=4 mem-instructions=0 loads=0 bytes-read=0
 *   ga1:   vpxor (indices 0); vpcmpeqd (all-ones mask); vpgatherdd ...; ret
 *          instructions=4 mem-instructions=1 loads=1 bytes-read=4 (its 8 lanes
 *          read buf[0..4): an instruction reads each byte of its operand once)
 *   mm0:   pxor (zero mask); maskmovdqu %xmm2, %xmm1 to (%rdi); ret
 *          instructions=3 mem-instructions=0 stores=0 bytes-written=0
 *   rep0:  xor %ecx,%ecx; rep movsb (%rsi) to (%rdi); ret: no iteration
 *          instructions=3 mem-instructions=0 loads=0 stores=0
 *
 * Edges: fill -> ld1 bytes=32 unma=32; fill -> ga1 bytes=4 unma=4; nothing
 * else among these functions (fill reads nothing of buf).
 * stdout: "mem-insn-masked ok".
 */
#include <stdio.h>

static unsigned char buf[32] __attribute__((aligned(32)));
static unsigned char other[32] __attribute__((aligned(32)));

__attribute__((noinline)) void fill(unsigned char *p)
{
    for (int i = 0; i < 4; i++)
        __asm__ volatile("movq %1, %0" : "=m"(*(unsigned long *)(p + 8 * i)) : "r"(0x0101010101010101UL * (i + 1)));
}

__attribute__((naked)) void ld0(void *p)
{
    __asm__("vpxor %ymm1, %ymm1, %ymm1\n\t"
            "vmaskmovps (%rdi), %ymm1, %ymm0\n\t"
            "ret");
}

__attribute__((naked)) void ld1(void *p)
{
    __asm__("vpcmpeqd %ymm1, %ymm1, %ymm1\n\t"
            "vmaskmovps (%rdi), %ymm1, %ymm0\n\t"
            "ret");
}

__attribute__((naked)) void st0(void *p)
{
    __asm__("vpxor %ymm1, %ymm1, %ymm1\n\t"
            "vmaskmovps %ymm0, %ymm1, (%rdi)\n\t"
            "ret");
}

__attribute__((naked)) void ga0(void *p)
{
    __asm__("vpxor %ymm3, %ymm3, %ymm3\n\t"
            "vpxor %ymm2, %ymm2, %ymm2\n\t"
            "vpgatherdd %ymm2, (%rdi,%ymm3,4), %ymm0\n\t"
            "ret");
}

__attribute__((naked)) void ga1(void *p)
{
    __asm__("vpxor %ymm3, %ymm3, %ymm3\n\t"
            "vpcmpeqd %ymm2, %ymm2, %ymm2\n\t"
            "vpgatherdd %ymm2, (%rdi,%ymm3,4), %ymm0\n\t"
            "ret");
}

__attribute__((naked)) void mm0(void *p)
{
    __asm__("pxor %xmm2, %xmm2\n\t"
            "maskmovdqu %xmm2, %xmm1\n\t"
            "ret");
}

__attribute__((naked)) void rep0(void *dst, const void *src)
{
    __asm__("xor %ecx, %ecx\n\t"
            "rep movsb\n\t"
            "ret");
}

int main(void)
{
    fill(buf);
    ld0(buf);
    ld1(buf);
    st0(other);
    ga0(buf);
    ga1(buf);
    mm0(other);
    rep0(other, buf);
    __asm__ volatile("vzeroupper");
    for (int i = 0; i < 32; i++)
        if (other[i] != 0)
            return 1;
    printf("mem-insn-masked ok\n");
    return 0;
}
