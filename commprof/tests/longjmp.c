/* cflags: -Wl,-z,now */
/* longjmp: after a longjmp out of a deep call chain, libc code called by the function
 * that did the setjmp must be charged to that function, not to the abandoned frames.
 *
 *   main:   src = malloc(N), dst = malloc(N), N = 300
 *   prep:   writes src[0..N)                         -> src: prep
 *   runner: setjmp(env); while fewer than 3 jumps were made: level1 -> level2 -> deep,
 *           and deep calls longjmp(env, 1), which resumes runner at its setjmp (the
 *           frames of level1, level2, deep are abandoned without returning).
 *           Then runner calls memcpy(dst, src, N).
 *   check:  reads dst[0..N) once (plain loop).
 *
 * After the jump the innermost node on the stack is runner, so memcpy is charged to
 * runner: it is the consumer of src and the producer of dst.
 *   => prep   -> runner: memcpy reads all of src[0..N) and nothing else prep wrote;
 *                        glibc may read some bytes twice, so only UnMA is exact:
 *                        unma = 300  (--unma-only)
 *      runner -> check:  dst[0..N) last written by runner (memcpy), read once by check's
 *                        own loop: bytes = 300, unma = 300
 *   (A tool that kept the abandoned frames would charge memcpy to deep and report
 *    prep -> deep and deep -> check instead.)
 *   runner -> deep exists (longjmp, run by deep, reads the jmp_buf runner's setjmp
 *   wrote) but its size depends on glibc, so deep is never listed together with runner.
 *
 * --fn: level1, level2, deep are each entered 3 times (calls=3); runner and check once.
 * No edges among {level1, level2, deep}: they pass their argument in registers, and
 * the only memory they write is the volatile global sink (never read) and their own
 * stack slots; code after their calls (sink = -1 / -2) never runs.
 *
 * stdout: src[i] = (7i + 1) mod 256; check sums dst's bytes: i = 0..255 is a permutation
 *         of 0..255 (7 is odd): 32640; i = 256..299 gives 7j+1 for j = 0..43 minus 256 for
 *         j >= 37: 6666 - 7*256 = 4874; total 37514.
 *         The program also prints the number of jumps (3).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 300
#define NO_TAIL() __asm__ volatile("" ::: "memory")

static jmp_buf env;
static volatile int njumps;
volatile int sink;

__attribute__((noipa)) void prep(unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(7 * i + 1);
}

__attribute__((noipa)) void deep(int d)
{
    sink = d;
    longjmp(env, 1);
}

__attribute__((noipa)) void level2(int d)
{
    deep(d + 1);
    sink = -1;
}

__attribute__((noipa)) void level1(int d)
{
    level2(d + 1);
    sink = -2;
}

__attribute__((noipa)) void runner(unsigned char *dst, const unsigned char *src, size_t n)
{
    setjmp(env);
    if (njumps < 3) {
        njumps++;
        level1(0);
    }
    memcpy(dst, src, n);
    NO_TAIL();
}

__attribute__((noipa)) long check(const unsigned char *dst, size_t n)
{
    long s = 0;
    for (size_t i = 0; i < n; i++)
        s += dst[i];
    return s;
}

int main(void)
{
    unsigned char *src = malloc(N);
    unsigned char *dst = malloc(N);
    if (!src || !dst)
        return 1;
    prep(src, N);
    runner(dst, src, N);
    long s = check(dst, N);
    printf("longjmp jumps=%d sum=%ld\n", njumps, s);
    free(src);
    free(dst);
    return 0;
}
