/* cflags: -fno-strict-aliasing */
/* objects-wrapper: two heap objects allocated through one wrapper from two call sites
 * (run with --objects=yes).
 *
 * A heap object is an allocation site: all blocks allocated through one call path
 * (docs/commprof.rng, <object kind="heap">). Its name is the file:line of the innermost
 * call on the path that has a source line: here the malloc call in wrap_alloc, line 57,
 * for both blocks. The paths differ in main's frame: line 93 for block a, line 94 for
 * block b. So there are two objects, both named objects-wrapper.c:57; cp_edges labels them
 *   objects-wrapper.c:57 [wrap_alloc:57 main:93]   (a)
 *   objects-wrapper.c:57 [wrap_alloc:57 main:94]   (b)
 * wrap_alloc uses malloc's result before returning (the NULL check and abort), so gcc -O2
 * cannot turn the malloc call into a tail call: its frame, and the path, are the same at
 * -O0 and -O2.
 *
 * Every access to the blocks goes through a volatile pointer, so each element is exactly
 * one load or store of its declared size at -O0 and -O2 (no vectorising, no merging).
 * Nothing else touches the blocks: wrap_alloc only passes the pointer on, main only passes
 * it and frees it, free() and malloc() are the tool's replacements.
 *
 *   a = wrap_alloc(48)        size 48
 *   b = wrap_alloc(20)        size 20
 *   put_longs(a, 6):  6 stores of 8 bytes  -> a: writes=6  write-bytes=48, bytes [0,48)
 *   put_ints(b, 5):   5 stores of 4 bytes  -> b: writes=5  write-bytes=20, bytes [0,20)
 *   get_ints(a, 10): 10 loads of 4 bytes   -> a: reads=10  read-bytes=40,  bytes [0,40)
 *   get_shorts(b, 10): 10 loads of 2 bytes -> b: reads=10  read-bytes=20,  bytes [0,20)
 *   free(a), free(b)
 *
 * Per object (one block each: blocks=1, total-bytes = peak-bytes = size):
 *   a: written-bytes = 48 (distinct bytes the program wrote), prod-bytes = 40 (written and
 *      later read), alloc-pct = 48/48 = 100.0, prod-pct = 40/48 = 83.33.. -> 83.3
 *   b: written-bytes = 20, prod-bytes = 20, alloc-pct = prod-pct = 100.0
 *
 * Flows producer -> object -> consumer:
 *   put_longs -> a -> get_ints   bytes = 40, unma = 40
 *   put_ints  -> b -> get_shorts bytes = 20, unma = 20
 * and the same as function edges: put_longs -> get_ints 40/40, put_ints -> get_shorts 20/20
 * (the four functions read nothing else but their own stack at -O0).
 *
 * objects-wrapper-depth1 runs the program with --alloc-depth=1: the allocation path is
 * then the innermost call only (wrap_alloc:57), the same for both blocks, so they form one
 * object "objects-wrapper.c:57 [wrap_alloc:57]" with blocks = 2, size = 20 (the last
 * block allocated, b), total-bytes = 48 + 20 = 68, peak-bytes = 68 (both blocks live until
 * after the printf), reads = 10 + 10 = 20, read-bytes = 40 + 20 = 60, writes = 6 + 5 = 11,
 * write-bytes = 48 + 20 = 68, written-bytes = 68, prod-bytes = 40 + 20 = 60,
 * alloc-pct = 100.0, prod-pct = 60/68 = 88.23.. -> 88.2; the same two flows through it.
 *
 * stdout: a holds the longs 7k+1 (k < 6): 1, 8, 15, 22, 29, 36; read as 10 ints
 *   (little endian, high halves 0): 1+8+15+22+29 = 75.
 *   b holds the ints 3k+2 (k < 5): 2, 5, 8, 11, 14; read as 10 shorts: 40.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) void *wrap_alloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        abort();
    return p;
}

__attribute__((noipa)) void put_longs(volatile long *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 7 * i + 1;
}

__attribute__((noipa)) void put_ints(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 3 * i + 2;
}

__attribute__((noipa)) long get_ints(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) long get_shorts(volatile const short *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    long *a = wrap_alloc(48);
    int *b = wrap_alloc(20);
    put_longs(a, 6);
    put_ints(b, 5);
    long sa = get_ints((int *)a, 10);
    long sb = get_shorts((short *)b, 10);
    printf("objects-wrapper a=%ld b=%ld\n", sa, sb);
    free(a);
    free(b);
    return 0;
}
