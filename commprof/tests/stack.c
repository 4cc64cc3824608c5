/* stack: data passed through a caller's stack frame; also run with --ignore-stack=yes
 * (stack-ignore.vgtest, same binary).
 *
 * Stack part:
 *   maker: int loc[64] is a local array (on maker's stack frame); maker writes
 *          loc[0..64) (256 bytes) and calls user(loc, 64).
 *   user:  reads loc[0..64) once.
 *   Default run:  maker -> user bytes = 256, unma = 256.
 *     user reads nothing else that maker wrote: its arguments arrive in registers (at
 *     -O0 user spills them itself: self edge); the return address is control flow, not
 *     data. maker reads only its own stack slots.
 *   --ignore-stack=yes: loc lies in the thread's stack, so maker's stores and user's loads
 *     of loc are left out entirely => no maker -> user edge at all.
 *
 * Heap part (control: present in both runs, so an empty result under --ignore-stack
 * cannot come from a tool that lost everything):
 *   hw: writes h[0..100) ints of a malloc'ed block (400 bytes)
 *   hr: reads  h[0..100) once
 *   => hw -> hr bytes = 400, unma = 400 (same in both runs; heap is not stack).
 *
 * No other edges among {maker, user, hw, hr}: hw and hr touch only h and their own
 * stack; maker and user only loc and their own stack. Frames of hw/hr and maker/user
 * overlap in address, but every function writes its stack slots before reading them.
 *
 * stdout: loc[i] = 5i + 2: sum_{i<64} = 5*2016 + 128 = 10208.
 *         h[i] = i*i: sum_{i<100} i^2 = 99*100*199/6 = 328350.
 */
#include <stdio.h>
#include <stdlib.h>

#define NO_TAIL() __asm__ volatile("" ::: "memory")

__attribute__((noipa)) long user(const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long maker(int n)
{
    int loc[64];
    for (int i = 0; i < n && i < 64; i++)
        loc[i] = 5 * i + 2;
    long s = user(loc, n);
    NO_TAIL();
    return s;
}

__attribute__((noipa)) void hw(int *h, int n)
{
    for (int i = 0; i < n; i++)
        h[i] = i * i;
}

__attribute__((noipa)) long hr(const int *h, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += h[i];
    return s;
}

int main(void)
{
    int *h = malloc(100 * sizeof(int));
    if (!h)
        return 1;
    hw(h, 100);
    long a = hr(h, 100);
    long b = maker(64);
    printf("stack heap=%ld local=%ld\n", a, b);
    free(h);
    return 0;
}
