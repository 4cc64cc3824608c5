/* slices: time slices (--time-slice) and the phases detected in them, on three sequential
 * stages of known sizes (run with --time-slice=5000 --ignore-stack=yes).
 *
 * docs/commprof.rng: a <slice> holds, per function that did something in it, the
 * instructions, bytes read, bytes written and bytes consumed from other functions in that
 * slice; a <span> of <detected-phases> is a maximal run of consecutive slices with the
 * same active functions (those that executed at least --phase-threshold = 1 percent of
 * the slice's instructions).
 *
 * Arrays: buf1[4096], buf2[4096] ints (16384 bytes each). main runs:
 *   stage1(buf1, 4096)        writes buf1 (4096 int stores)
 *   pad(20000)                a loop in registers: no memory access (with
 *                             --ignore-stack=yes its stack does not count either)
 *   stage2(buf1, buf2, 4096)  reads buf1, writes buf2
 *   pad(20000)
 *   stage3(buf2, 4096)        reads buf2
 *   pad(20000)                (what follows, main's printf and the exit, is too short
 *                             to be sure to have a slice without stage3)
 *
 * With --ignore-stack=yes stack accesses are not counted at all, so the functions' byte
 * counts are exactly those of the arrays. Summed over all slices:
 *   stage1: bytes-read 0,     bytes-written 16384, in-bytes 0
 *   stage2: bytes-read 16384, bytes-written 16384, in-bytes 16384 (all of buf1, from stage1)
 *   stage3: bytes-read 16384, bytes-written 0,     in-bytes 16384 (all of buf2, from stage2)
 *   pad:    0, 0, 0.
 * Instructions depend on the compiler: for stage1..3 and pad the test checks that
 * the sum over the slices equals the function's instructions attribute (every
 * instruction falls in exactly one slice).
 * Edges: stage1 -> stage2 16384/16384, stage2 -> stage3 16384/16384.
 *
 * Detected phases: each stage executes far more than one slice of instructions (4096
 * iterations of at least 4 instructions: >= 16384 instructions, more than 3 slices), so
 * every stage has slices of its own where it is the only stage function active. pad runs
 * 20000 iterations of at least 3 instructions (>= 60000 instructions, 12 slices), so no
 * slice holds instructions of two stages: the slice where a stage ends also holds pad,
 * never the next stage. Restricted to {stage1, stage2, stage3},
 * with consecutive spans of the same restricted set merged, the detected phases are
 * therefore, in order:
 *   (none)   the start-up code (dynamic linker, _start, main before stage1)
 *   stage1
 *   (none)   pad
 *   stage2
 *   (none)   pad
 *   stage3
 *   (none)   pad, main's printf and the exit
 * (a slice shared by the end of a stage and the start of pad, if the stage is active in
 * it, merges with the stage's span, otherwise with pad's: the merged list is the same.)
 *
 * stdout: buf1[i] = i, buf2[i] = 2i + 1, stage3 = sum_{i<4096} (2i + 1) = 4096^2 = 16777216.
 */
#include <stdio.h>

#define N 4096

static int buf1[N], buf2[N];

__attribute__((noipa)) void stage1(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
}

__attribute__((noipa)) void stage2(volatile const int *a, volatile int *b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = 2 * a[i] + 1;
}

__attribute__((noipa)) long stage3(volatile const int *b, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += b[i];
    return s;
}

__attribute__((noipa)) void pad(int n)
{
    unsigned long x = 1;
    for (int i = 0; i < n; i++) {
        x = x * 3 + 1;
        __asm__ volatile("" : "+r"(x));
    }
}

int main(void)
{
    stage1(buf1, N);
    pad(20000);
    stage2(buf1, buf2, N);
    pad(20000);
    long s = stage3(buf2, N);
    pad(20000);
    printf("slices stage3=%ld\n", s);
    return 0;
}
