/* cflags: -g0 */
/* objects-nodebug: a program built without debug information (-g0: symbols, no lines)
 * still has its heap objects named after its own code: the allocation path of the block
 * has no line of the program (make, main: function names only), and the innermost
 * function known by name, make, comes before the C library's start-up code, which has a
 * line (libc_start_call_main.h, with libc6-dbg): the object is named "make", not
 * "libc_start_call_main.h:58".
 *   make  mallocs 64 ints and writes them (256 bytes), in 64 stores at -O0 (at -O2 the
 *         loop is vectorised: 16 stores of 16 bytes);
 *   sum   reads them (256 bytes) through volatile: 64 loads at -O0 and -O2.
 * make -> sum 256 / 256; the object: 1 block of 256 bytes, written and read whole
 * (written-bytes 256, prod-bytes 256), path [make main].  Its access counts are left
 * out (they differ at -O2).
 * stdout: 0 + 1 + ... + 63 = 2016.
 */
#include <stdio.h>
#include <stdlib.h>

#define NI __attribute__((noipa))

NI int* make(int n)
{
    int* p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = i;
    return p;
}

NI int sum(int* p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += ((volatile int*)p)[i];
    return s;
}

int main(void)
{
    int* p = make(64);
    printf("objects-nodebug %d\n", sum(p, 64));
    free(p);
    return 0;
}
