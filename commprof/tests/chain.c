/* chain: three functions pass data through two heap buffers.
 *
 *   main:      a = malloc(N * 4), b = malloc(N * 4)   (both blocks: every byte (unwritten))
 *   produce:   writes a[0..N)                         N int stores = 4N bytes
 *   transform: reads  a[0..N), writes b[0..N)         every byte of a read exactly once
 *   consume:   reads  b[0..N)                         every byte of b read exactly once
 *
 * N = 100 (passed as an argument, so gcc -O2 cannot specialise the loops).
 *
 * Expected edges among {produce, transform, consume, (unwritten)}:
 *   produce   -> transform: transform reads each of the 400 bytes of a once, a's last
 *                           writer is produce for every byte: bytes = 4N = 400,
 *                           unma = 400 (a spans 400 distinct addresses).
 *   transform -> consume:   same reasoning on b: bytes = 400, unma = 400.
 *   produce   -> consume:   none (consume never touches a).
 *   (unwritten) -> any of the three: none. Every heap byte is written before it is read;
 *                           the functions read nothing else apart from their own stack
 *                           slots at -O0 (self edges, which --only does not print) and
 *                           registers. Their loops use no .rodata constants (checked
 *                           with objdump at -O2: no rip-relative loads).
 *   Nothing reads a or b twice, so bytes == unma on both edges.
 *
 * Vectorisation at -O2 reads/writes each element exactly once (no overlapping or
 * over-long accesses in gcc's vectorised loops), so -O0 and -O2 expect the same numbers.
 *
 * --fn: every function is called once from main: calls=1 each.
 *
 * stdout: consume's sum. produce: a[i] = 7i+3. transform: b[i] = 2a[i]+1 = 14i+7.
 *         sum_{i<100} (14i + 7) = 14*4950 + 700 = 69300 + 700 = 70000.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 100

__attribute__((noipa)) void produce(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = i * 7 + 3;
}

__attribute__((noipa)) void transform(const int *a, int *b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i] * 2 + 1;
}

__attribute__((noipa)) long consume(const int *b, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += b[i];
    return s;
}

int main(void)
{
    int *a = malloc(N * sizeof(int));
    int *b = malloc(N * sizeof(int));
    if (!a || !b)
        return 1;
    produce(a, N);
    transform(a, b, N);
    long s = consume(b, N);
    printf("chain sum=%ld\n", s);
    free(a);
    free(b);
    return 0;
}
