/* realloc-gran: a realloc that shrinks a block keeps the producer of the bytes it keeps,
 * at any --granularity (run with --granularity=8, and =2 for the -O2 build).
 *
 * docs/definitions.md, Granularity: "A realloc that shrinks a block makes only the blocks
 * wholly in the cut-off tail (unwritten): the block that holds the last bytes kept keeps
 * its producer."  Before, the shrink marked the cut-off tail from its first byte, and at
 * granularity N > 1 that erased the producer of the N-byte block holding the kept bytes'
 * end: f -> h was 4 bytes at granularity 2 and 4, and 0 at 8 ((unwritten) -> h 5).
 *
 *   f writes q[0..16) (16 one-byte stores); q = realloc(q, 5) shrinks it in place;
 *   h reads q[0..5) (5 one-byte loads);
 *   then g writes r[0..16) of another block; r = realloc(r, 8) cuts at a block boundary;
 *   k reads r[0..8).
 *
 * Edges: f -> h 5 bytes, 5 unique addresses; g -> k 8, 8; nothing from (unwritten) into h
 *   or k.
 * stdout: h = 0 + 1 + 2 + 3 + 4 = 10; k = 1 + 2 + ... + 8 = 36 (r[i] = i + 1).
 */
#include <stdio.h>
#include <stdlib.h>

#define NI __attribute__((noipa))

NI void f(char *p)
{
    for (int i = 0; i < 16; i++)
        ((volatile char *)p)[i] = (char)i;
}

NI int h(char *p)
{
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += ((volatile char *)p)[i];
    return s;
}

NI void g(char *p)
{
    for (int i = 0; i < 16; i++)
        ((volatile char *)p)[i] = (char)(i + 1);
}

NI int k(char *p)
{
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += ((volatile char *)p)[i];
    return s;
}

int main(void)
{
    char *q = malloc(16), *r = malloc(16);
    if (!q || !r)
        return 1;
    f(q);
    q = realloc(q, 5);
    g(r);
    r = realloc(r, 8);
    printf("%d %d\n", h(q), k(r));
    free(q);
    free(r);
    return 0;
}
