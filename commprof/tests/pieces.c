/* cflags: -mavx2 */
/* pieces: an instruction whose one memory operand Valgrind's VEX makes several
 * accesses is one load (one store), and each of its bytes counts once.
 *
 * VEX splits these instructions' operand into pieces: FXSAVE/FXRSTOR and
 * XSAVE/XRSTOR (a helper call for the x87 area [0, 160), a second one for MXCSR
 * at [24, 32), which the first covers too, one access per XMM register at
 * [160, 416) and per upper YMM half at [576, 832)); the AVX2 masked moves (one
 * access per element whose mask bit is set); the gathers (one per element).
 * Every function's memory accesses are in inline asm: the same instructions at
 * -O0 and -O2.  All data are 32- or 64-byte aligned globals (.bss); fill writes
 * them first, one 4-byte store per int.
 *
 *   fill:   a[i] = i + 1, mask = {-1,-1,-1,-1,0,0,-1,-1}, zmask = {0 x 8},
 *           idx = {7,6,5,4,3,2,1,1}, tab[i] = 10 * i   (5 x 32 bytes), reading
 *           m[i] and ix[i] of its two constant tables once each
 *     (unwritten) -> fill  bytes=64 unma=64 accesses=16
 *
 *   save:   fxsave64 fxa       one store: [0, 160) and [160, 416) = 416 bytes
 *                              ([24, 32) written twice by VEX, counted once)
 *   rest:   fxrstor64 fxa      one load of the same 416 bytes
 *     save -> rest  bytes=416 unma=416 accesses=1
 *
 *   xsv:    xsave64 xsa, edx:eax = 7 (x87, SSE, AVX)
 *           one store: [0, 416) and [576, 832), and byte 512 (XSTATE_BV |= 7)
 *             = 416 + 256 + 1 = 673 bytes
 *           one load: byte 512 (the OR reads it), never written: (unwritten)
 *     (unwritten) -> xsv  bytes=1 unma=1 accesses=1
 *   xrs:    xrstor64 xsa, edx:eax = 7
 *           one load: the header [512, 536) (XSTATE_BV, XCOMP_BV, bytes 16..23),
 *           then, XSTATE_BV being 7, [0, 416) and [576, 832):
 *             24 + 416 + 256 = 696 bytes
 *     xsv -> xrs          bytes=673 unma=673 accesses=1  (byte 512 and the 672 areas)
 *     (unwritten) -> xrs  bytes=23 unma=23 accesses=1    ([513, 536))
 *
 *   mload:  vmovdqa mask; vpmaskmovd a (elements 0-3, 6, 7: 24 bytes); store out
 *     fill -> mload  bytes=56 unma=56 accesses=2   (two loads: 32 + 24 bytes)
 *   mnone:  vmovdqa zmask; vpmaskmovd a with no element set: reads nothing
 *     fill -> mnone  bytes=32 unma=32 accesses=1   (the mask load only)
 *   mstore: vmovdqa mask; vmovdqa a; vpmaskmovd into b (elements 0-3, 6, 7)
 *     fill -> mstore bytes=64 unma=64 accesses=2;  one store of 24 bytes
 *   readb:  vmovdqa b (32 bytes); store out2
 *     mstore -> readb      bytes=24 unma=24 accesses=1
 *     (unwritten) -> readb bytes=8 unma=8 accesses=1   (b[4], b[5])
 *   gath:   vmovdqa idx; vpgatherdd tab[idx[i]] with every mask bit set: elements
 *           7, 6, 5, 4, 3, 2, 1 and 1 again: 28 distinct bytes; store out
 *     fill -> gath  bytes=60 unma=60 accesses=2   (32 + 28 bytes)
 *   gathm:  the same with the mask of mload: elements 7, 6, 5, 4 (lanes 0-3), 1 and
 *           1 (lanes 6, 7): 20 distinct bytes.  VEX loads a lane whose mask bit is
 *           clear from the stack pointer and drops the value: no access.
 *     fill -> gathm bytes=84 unma=84 accesses=3   (idx 32 + mask 32 + 20 bytes)
 *
 * The functions' own counts (--maip): at -O2 none has a stack access; at -O0
 * each adds push %rbp (one 8-byte stack store) and pop %rbp (one 8-byte stack
 * load) to the above:
 *             loads  bytes-read  stores  bytes-written
 *   save        0        0         1        416
 *   rest        1      416         0          0
 *   xsv         1        1         1        673
 *   xrs         1      696         0          0
 *   mload       2       56         1         32
 *   mnone       1       32         0          0
 *   mstore      2       64         1         24
 *   readb       1       32         1         32
 *   gath        2       60         1         32
 *   gathm       3       84         1         32
 *
 * With --objects=yes (pieces-objects), the instruction is one read or write of
 * each object, and its bytes count once:
 *   fxa    reads=1 read-bytes=416 (rest)        writes=1 write-bytes=416 (save)
 *   xsa    reads=2 read-bytes=697 (xsv 1, xrs 696)  writes=1 write-bytes=673 (xsv)
 *          written-bytes=673, prod-bytes=673 (all of xsv's bytes, read by xrs)
 *   a      reads=2 read-bytes=56 (mload 24, mstore 32; mnone reads none of it)
 *   mask   reads=3 read-bytes=96 (mload, mstore, gathm)
 *   zmask  reads=1 read-bytes=32 (mnone);  idx reads=2 read-bytes=64 (gath, gathm)
 *   tab    reads=2 read-bytes=48 (gath 28, gathm 20), prod-bytes=28 (tab[1..8))
 *   b      reads=1 read-bytes=32 (readb)  writes=1 write-bytes=24 (mstore),
 *          written-bytes=24
 *   out    writes=3 write-bytes=96 (mload, gath, gathm), reads=2 read-bytes=8
 *          (main: out[0], out[4]);  out2 writes=1 write-bytes=32 (readb), reads=2
 *          read-bytes=8 (main)
 *   a, mask, zmask, idx, tab: writes=8 write-bytes=32 (fill, an int at a time).
 *
 * stdout: out[0] after gathm = tab[7] = 70, out[4] = 0 (lane 4 masked off, the
 * destination cleared before), out2[0] = b[0] = a[0] = 1, and out2[4] = b[4] = 0
 * (never stored).
 */
#include <stdio.h>

#define NI __attribute__((noinline))

static unsigned char fxa[512] __attribute__((aligned(64)));
static unsigned char xsa[1024] __attribute__((aligned(64)));
static int a[8] __attribute__((aligned(32)));
static int mask[8] __attribute__((aligned(32)));
static int zmask[8] __attribute__((aligned(32)));
static int idx[8] __attribute__((aligned(32)));
static int tab[8] __attribute__((aligned(32)));
static int b[8] __attribute__((aligned(32)));
static int out[8] __attribute__((aligned(32)));
static int out2[8] __attribute__((aligned(32)));

NI void fill(void)
{
   static const int m[8] = { -1, -1, -1, -1, 0, 0, -1, -1 };
   static const int ix[8] = { 7, 6, 5, 4, 3, 2, 1, 1 };
   for (int i = 0; i < 8; i++) {
      __asm__ volatile("movl %1, %0" : "=m"(a[i]) : "r"(i + 1));
      __asm__ volatile("movl %1, %0" : "=m"(mask[i]) : "r"(m[i]));
      __asm__ volatile("movl %1, %0" : "=m"(zmask[i]) : "r"(0));
      __asm__ volatile("movl %1, %0" : "=m"(idx[i]) : "r"(ix[i]));
      __asm__ volatile("movl %1, %0" : "=m"(tab[i]) : "r"(10 * i));
   }
}

NI void save(void) { __asm__ volatile("fxsave64 %0" : "=m"(fxa)); }
NI void rest(void) { __asm__ volatile("fxrstor64 %0" : : "m"(fxa)); }

NI void xsv(void)
{
   __asm__ volatile("xsave64 %0" : "+m"(xsa) : "a"(7), "d"(0));
}

NI void xrs(void)
{
   __asm__ volatile("xrstor64 %0" : : "m"(xsa), "a"(7), "d"(0));
}

NI void mload(void)
{
   __asm__ volatile("vmovdqa %1, %%ymm1\n\t"
                    "vpmaskmovd %2, %%ymm1, %%ymm0\n\t"
                    "vmovdqa %%ymm0, %0"
                    : "=m"(out) : "m"(mask), "m"(a) : "xmm0", "xmm1");
}

NI void mnone(void)
{
   __asm__ volatile("vmovdqa %0, %%ymm1\n\t"
                    "vpmaskmovd %1, %%ymm1, %%ymm0"
                    : : "m"(zmask), "m"(a) : "xmm0", "xmm1");
}

NI void mstore(void)
{
   __asm__ volatile("vmovdqa %1, %%ymm1\n\t"
                    "vmovdqa %2, %%ymm0\n\t"
                    "vpmaskmovd %%ymm0, %%ymm1, %0"
                    : "+m"(b) : "m"(mask), "m"(a) : "xmm0", "xmm1");
}

NI void readb(void)
{
   __asm__ volatile("vmovdqa %1, %%ymm0\n\t"
                    "vmovdqa %%ymm0, %0"
                    : "=m"(out2) : "m"(b) : "xmm0");
}

NI void gathm(void)
{
   __asm__ volatile("vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
                    "vmovdqa %1, %%ymm1\n\t"
                    "vmovdqa %2, %%ymm2\n\t"
                    "vpgatherdd %%ymm2, (%3,%%ymm1,4), %%ymm0\n\t"
                    "vmovdqa %%ymm0, %0"
                    : "=m"(out) : "m"(idx), "m"(mask), "r"(tab), "m"(tab)
                    : "xmm0", "xmm1", "xmm2");
}

NI void gath(void)
{
   __asm__ volatile("vmovdqa %1, %%ymm1\n\t"
                    "vpcmpeqd %%ymm2, %%ymm2, %%ymm2\n\t"
                    "vpgatherdd %%ymm2, (%2,%%ymm1,4), %%ymm0\n\t"
                    "vmovdqa %%ymm0, %0"
                    : "=m"(out) : "m"(idx), "r"(tab), "m"(tab) : "xmm0", "xmm1", "xmm2");
}

int main(void)
{
   fill();
   save();
   rest();
   xsv();
   xrs();
   mload();
   mnone();
   mstore();
   readb();
   gath();
   gathm();
   __asm__ volatile("vzeroupper");
   printf("out[0]=%d out[4]=%d out2[0]=%d out2[4]=%d\n", out[0], out[4], out2[0], out2[4]);
   return 0;
}
