/* reuse: free() forgets the producers of a block; munmap() forgets those of a mapping.
 *
 * Heap part:
 *   main: p = malloc(64)
 *   w1:   writes p[0..64) (16 ints)
 *   main: free(p); q = malloc(64).  Usually q == p (the allocator hands the freed chunk
 *         back). If it does not, main keeps the candidate blocks and allocates up to 64
 *         more 64-byte blocks looking for one at p's address; it reads whichever block it
 *         ends up with. Either way the block r reads is a fresh malloc block, so the
 *         expected edges do not depend on the address; only the stdout line tells
 *         whether the "same address" situation was really exercised (reuse.stdout.exp:
 *         "heap block reused"; the alternative reuse.stdout.exp2, "heap block not
 *         reused", keeps the test from failing with an allocator that never hands the
 *         address back, e.g. one with a freed-blocks queue: then the heap part is
 *         inconclusive, not wrong).
 *   r:    reads q[0..64) once (values indeterminate: summed into a volatile sink).
 *   => (unwritten) -> r bytes = 64, unma = 64
 *      no w1 -> r edge (free forgot w1 as producer of those addresses).
 *
 * Mapping part (address reuse is forced, so this part is always conclusive):
 *   main: m = mmap(4096, anonymous)
 *   w2:   writes m[0..64) (16 ints)
 *   main: munmap(m); mmap(m, 4096, MAP_FIXED) -> a fresh zero-filled page at the same
 *         address (the program checks the address and that the page reads as zero).
 *   r2:   reads m[0..64) once -> all zero (from the kernel's zero-fill)
 *   => (unwritten) -> r2 bytes = 64, unma = 64   (zero-filled pages are (unwritten))
 *      no w2 -> r2 edge.
 *
 * No other edges among {w1, r, w2, r2, (unwritten)}: w1/w2 only write; r/r2 read only
 * their block (no .rodata constants in their loops at -O2).
 *
 * stdout: "heap block reused" (or "... not reused", see above); "mapping reused sum=0".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

volatile long sink;

__attribute__((noipa)) void w1(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 13 * i + 5;
}

__attribute__((noipa)) void r(const int *q, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += q[i];
    sink = s;
}

__attribute__((noipa)) void w2(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 17 * i + 9;
}

__attribute__((noipa)) long r2(const int *q, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += q[i];
    return s;
}

int main(void)
{
    /* heap */
    int *p = malloc(64);
    if (!p)
        return 1;
    uintptr_t old = (uintptr_t)p;
    w1(p, 16);
    free(p);
    int *q = malloc(64);
    int *extra[64];
    int nextra = 0;
    while (q && (uintptr_t)q != old && nextra < 64) {
        extra[nextra++] = q;
        q = malloc(64);
    }
    if (!q)
        return 1;
    r(q, 16);
    printf("heap block %s\n", (uintptr_t)q == old ? "reused" : "not reused");
    free(q);
    for (int i = 0; i < nextra; i++)
        free(extra[i]);

    /* mapping */
    int *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 1;
    w2(m, 16);
    if (munmap(m, 4096) != 0)
        return 1;
    int *m2 = mmap(m, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                   -1, 0);
    if (m2 == MAP_FAILED)
        return 1;
    long s = r2(m2, 16);
    printf("mapping %s sum=%ld\n", m2 == m ? "reused" : "not reused", s);
    munmap(m2, 4096);
    return 0;
}
