/* bare-exe: an executable whose debug information Valgrind 3.19 cannot read still has
 * its functions as nodes, its globals as objects and its heap blocks named after its
 * functions: commprof reads its symbol table itself.
 *
 * table is aligned to 64 KiB, more than a page: the linker gives .bss a load segment of
 * its own (readelf -l: a fifth LOAD, file size 0), a layout Valgrind 3.19's reader does not
 * take, so it reads no symbols, lines or CFI of the program.  commprof warns once (the
 * first line checked) and takes the functions and data symbols from the ELF symbol table:
 * no source files or lines (the nodes' file="" line="0").
 *
 *   init  writes table[0..1023] (4096 bytes).
 *   make  mallocs 256 floats and writes them (1024 bytes).
 *   use   reads p[0..255] (1024 bytes, make's) and table[0..255] (1024 bytes, init's), and
 *         increments counter (.bss: reads 4 bytes of (unwritten), writes 4).
 *   main  reads counter (4 bytes, use's) for printf.
 * Edges among them: make -> use 1024 / 1024, init -> use 1024 / 1024, use -> main 4 / 4;
 * each is called once.
 * Objects (--objects=yes): table, static, 4096 bytes: written 4096, read 1024 (read-bytes),
 *   written-bytes 4096, prod-bytes 1024 (alloc-pct 100.0, prod-pct 25.0);
 *   counter, static, 4 bytes: read by use and main (8 read-bytes), written 4, written-bytes 4,
 *   prod-bytes 4;
 *   the heap block is named after make: its allocation path has no line of the program, and
 *   the innermost function known by name (make) comes before the C library's start-up code
 *   (libc_start_call_main.h) that has one.  It is 1024 bytes, 1 block, written and read
 *   whole.
 * Accesses: make's 256 stores and use's 256 loads of p, use's 256 loads of table (float
 *   sums stay in order: scalar at -O2 too), counter's 2 loads and 1 store; table's stores:
 *   1024 at -O0, 256 at -O2 (init vectorised: 16-byte stores).
 * The heap block's path (cp_edges shows the program's functions, lines 0): at -O0
 *   [make main], the unwinder following frame pointers; at -O2 [make] only: without the
 *   program's CFI the unwinder stops there.
 *
 * stdout: sum of p[i] = i, 0..255: 32640; of table[i] = i / 2: 16320; "bare-exe 48960.0 1".
 */
#include <stdio.h>
#include <stdlib.h>

#define NI __attribute__((noipa))

static float table[1024] __attribute__((aligned(65536)));
int counter;

NI void init(void)
{
    for (int i = 0; i < 1024; i++) table[i] = i * 0.5f;
}

NI float* make(int n)
{
    float* p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = i;
    return p;
}

NI float use(const float* p, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++) s += p[i] + table[i];
    counter++;
    return s;
}

int main(void)
{
    init();
    float* p = make(256);
    float r = use(p, 256);
    printf("bare-exe %.1f %d\n", r, counter);
    free(p);
    return 0;
}
