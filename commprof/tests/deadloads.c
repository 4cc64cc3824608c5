/* deadloads: loads whose value the program never uses.
 *
 * Valgrind's IR optimiser deletes a load whose result nothing uses before a
 * tool sees the block; commprof has such blocks translated again with every
 * load kept (see cp_deadloads.h).  The program reads, and throws away:
 *
 *   produce: writes data[0..7] (8 ints, 32 bytes), one 4-byte store each.
 *   touch:   (void)data[0]; (void)data[1]; (void)data[2]; return 0;
 *            three 4-byte volatile loads, each into %eax, which the next load
 *            (and at last the return value) overwrites: all three are dead.
 *            Called twice: 6 loads, 24 bytes over data[0..2] (12 addresses).
 *   vec:     movdqu data[4..7] into %xmm0, then pcmpeqb %xmm0, %xmm0, which
 *            overwrites it at once: one dead 16-byte load (16 addresses).
 *
 *   => produce -> touch bytes=24 unma=12   (6 loads)
 *      produce -> vec   bytes=16 unma=16   (1 load)
 *   touch and vec read nothing else but their stack: loads - stack-loads is
 *   6 and 1, bytes-read - stack-bytes-read 24 and 16.  The same at -O0 and
 *   -O2: the accesses to data are volatile or inline asm.
 *
 *   Their stack: at -O2 neither has a frame (loads=6 and 1, no stack load).
 *   At -O0 each call ends with pop %rbp, an 8-byte stack load (its push is a
 *   store): touch loads=8 stack-loads=2 bytes-read=40 stack-bytes-read=16
 *   (two calls), vec loads=2 stack-loads=1 bytes-read=24 stack-bytes-read=8.
 */
#include <stdio.h>

volatile int data[8] __attribute__((aligned(64)));

__attribute__((noinline)) void produce(void)
{
   for (int i = 0; i < 8; i++) data[i] = i;
}

__attribute__((noinline)) int touch(void)
{
   (void)data[0];
   (void)data[1];
   (void)data[2];
   return 0;
}

__attribute__((noinline)) void vec(void)
{
   __asm__ volatile("movdqu %0, %%xmm0\n\tpcmpeqb %%xmm0, %%xmm0"
                    :: "m"(*(const char(*)[16])&data[4]) : "xmm0");
}

int main(void)
{
   produce();
   int r = touch() + touch();
   vec();
   printf("done %d\n", r);
   return 0;
}
