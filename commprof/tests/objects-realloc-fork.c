/* objects-realloc-fork: a heap block grown by realloc, then inherited by a forked child
 * that frees it (run with --objects=yes).
 *
 * The tool keeps, for each heap block read after being written, a bitmap of the bytes
 * produced and read (prod-bytes); a forked child clears these bitmaps. Once cleared past
 * the end of the bitmap of a block realloc had grown, and the child's free of that block
 * then made Valgrind abort (its allocator found the end of the bitmap overwritten).
 *
 *   L61: p = malloc(64)       object "objects-realloc-fork.c:61" (path main:61)
 *        fill    writes p[0..16)  (16 int stores, 64 bytes)
 *        reader1 reads  p[0..16)  (16 int loads, 64 bytes): the block gets its bitmap
 *   L66: q = realloc(p, 128)  the block moves and grows (the tool's realloc always moves):
 *                             still object 61, 128 bytes; the producers move with the bytes
 *   fork; the child:
 *        reader2 reads  q[0..8)   (8 int loads, 32 bytes), then free(q), then _exit(0)
 *   the parent waits for the child, then frees q.
 *
 * Parent's profile: edge fill -> reader1 64/64; flow fill -> object 61 -> reader1 64/64.
 * Child's profile (its counters start at zero at the fork, the producers are inherited):
 *   edge fill -> reader2 32/32; flow fill -> object 61 -> reader2 32/32; object 61: the
 *   block live at the fork is the child's heap at its start (docs/manual.md, 7.4 fork):
 *   blocks = 1, total-bytes = peak-bytes = 128, size = 128; reads = 8, read-bytes = 32, no
 *   writes; prod-bytes = 32 (bytes written and then read: q[0..8)), prod-pct = 32/128 =
 *   25.0; written-bytes counts the bytes with a producer of the program when the block is
 *   freed, the inherited ones included: q[0..16) written by fill, 64 bytes; alloc-pct =
 *   64/128 = 50.0.
 * All accesses go through volatile pointers: one load/store per int at -O0 and -O2.
 *
 * stdout (parent only): reader1 = sum of 7i+2 for i < 16 = 7*120 + 32 = 872; the child
 *   exits with status 0 if reader2 = 7*28 + 16 = 212.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noipa)) void fill(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 7 * i + 2;
}

__attribute__((noipa)) long reader1(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long reader2(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    int *p = malloc(64);
    if (!p)
        return 1;
    fill(p, 16);
    long r1 = reader1(p, 16);
    int *q = realloc(p, 128);
    if (!q)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        long r2 = reader2(q, 8);
        free(q);
        _exit(r2 == 212 ? 0 : 3);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return 1;
    free(q);
    printf("objects-realloc-fork reader1=%ld child=%d\n", r1,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
