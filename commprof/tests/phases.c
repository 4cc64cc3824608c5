/* cflags: -I/usr/include/valgrind */
/* phases: three frames marked with COMMPROF_PHASE; edges per (phase written, phase read).
 *
 * commprof.h: COMMPROF_PHASE(name) begins a new phase; every edge is also reported per
 * phase, with the phase in which its bytes were produced and the one in which they were
 * read. docs/commprof.rng: phase 0 is "(start)", everything before the first mark; the
 * phase-edges are every cross-function edge split by (producer phase, consumer phase),
 * plus the self edges whose bytes crossed phases.
 *
 * Arrays: fbuf[32] ints (128 bytes, reused every frame), persist[16] (64 bytes),
 * acc[4] (16 bytes). main, for f = 1, 2, 3:
 *   COMMPROF_PHASE("frame f")                 phase f
 *   producer(fbuf, 32, f)    writes fbuf[0..32)
 *   consumer(fbuf, 32)       reads fbuf[0..32) once: what producer wrote in this frame
 *   f == 1: keep(persist, 16)     writes persist (only in frame 1)
 *   f >= 2: recall(persist, 16)   reads persist: what keep wrote in frame 1
 *   accum(acc, 4, f)         acc[i] += f: reads acc[i] (one int load), then writes it
 *
 * Expected phase edges among {producer, consumer, keep, recall}:
 *   producer -> consumer [frame 1 -> frame 1] 128/128, and the same for frames 2 and 3
 *                        (fbuf is rewritten in every frame before it is read)
 *   keep -> recall [frame 1 -> frame 2] 64/64
 *   keep -> recall [frame 1 -> frame 3] 64/64     (the cross-phase flows)
 *   accum -> accum [frame 1 -> frame 2] 16/16     (self edges that cross phases: accum
 *   accum -> accum [frame 2 -> frame 3] 16/16      reads in frame f what it wrote in f-1)
 *   nothing else: no other self edge of these five crosses a phase (each call writes its
 *   stack slots before reading them; the stack of a call in frame 2 is written again in
 *   frame 2), nothing is read in phase 0, and persist is never written after frame 1.
 *   (accum's reads in frame 1 are of (unwritten) bytes, not in the list.)
 * Whole-run edges: producer -> consumer 384/128 (fbuf read three times), keep -> recall
 *   128/64.
 * Phases: 0 (start), 1 frame 1, 2 frame 2, 3 frame 3.
 * --fn: accum, producer, consumer calls=3, keep calls=1, recall calls=2.
 * Every array access is volatile, one per element at -O0 and -O2; the functions touch
 * nothing else but their own stack.
 *
 * stdout: fbuf[i] = f*i + 1: consumer in frame f = 496f + 32: 528, 1024, 1520 (sum 3072);
 * persist[i] = 4i + 2: recall = 4*120 + 32 = 512 each, 1024 for the two frames.
 * acc[i] = 1 + 2 + 3 = 6: sum 24.
 */
#include <stdio.h>
#include "commprof.h"

static int fbuf[32], persist[16], acc[4];

__attribute__((noipa)) void producer(volatile int *p, int n, int k)
{
    for (int i = 0; i < n; i++)
        p[i] = k * i + 1;
}

__attribute__((noipa)) long consumer(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void keep(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 4 * i + 2;
}

__attribute__((noipa)) long recall(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void accum(volatile int *p, int n, int k)
{
    for (int i = 0; i < n; i++)
        p[i] = p[i] + k;
}

int main(void)
{
    static const char *const names[3] = { "frame 1", "frame 2", "frame 3" };
    long c = 0, r = 0;
    for (int f = 1; f <= 3; f++) {
        COMMPROF_PHASE(names[f - 1]);
        producer(fbuf, 32, f);
        c += consumer(fbuf, 32);
        if (f == 1)
            keep(persist, 16);
        else
            r += recall(persist, 16);
        accum(acc, 4, f);
    }
    printf("phases consumer=%ld recall=%ld acc=%d\n", c, r, acc[0] + acc[1] + acc[2] + acc[3]);
    return 0;
}
