/* libfile: a FILE that fopen allocates is the C library's data, however many functions use it.
 *
 * fopen allocates the FILE (and its lock) on the heap; fprintf, fscanf and fclose read and
 * write its fields (the buffer pointers, the flags, the lock) on behalf of whoever calls them.
 * Charged to the callers, those bytes made edges between the functions that open, use and
 * close a file: open_it -> write_it carried 172 bytes, open_it -> close_it 152,
 * write_it -> close_it 101, reopen -> read_it 258, read_it -> close2 45, where the program
 * passes only the 8-byte pointer.  Blocks
 * allocated while the program calls fopen, fdopen, popen, tmpfile, fmemopen,
 * open_memstream, fopencookie, opendir or fdopendir are the library's data, as its image is:
 * the library's code reading or writing them is charged to (library data).
 *
 *   set:      x = 4217
 *   open_it:  f = fopen("libfile.tmp", "w")
 *   write_it: fprintf(f, "%d\n", x): reads f (8) and x (4); the bytes go to the FILE's
 *             buffer and, at fclose, to the file (the write system call reads them: not
 *             counted)
 *   close_it: fclose(f): reads f (8)
 *   reopen:   g = fopen("libfile.tmp", "r")
 *   read_it:  fscanf(g, "%d", &y): reads g (8) and, from the buffer the read system call
 *             filled with "4217\n", the 4 digits and the newline where the number ends
 *             (5 bytes, each once in the call); writes y
 *   close2:   fclose(g): reads g (8)
 *   use:      returns y + 1: reads y (4)
 *   main:     calls them in this order, prints use()'s result
 *
 * Edges among these functions and (syscall read):
 *   set -> write_it     bytes = 4, unma = 4
 *   open_it -> write_it bytes = 8, unma = 8
 *   open_it -> close_it bytes = 8, unma = 8
 *   reopen -> read_it   bytes = 8, unma = 8
 *   reopen -> close2    bytes = 8, unma = 8
 *   (syscall read) -> read_it bytes = 5, unma = 5
 *   read_it -> use      bytes = 4, unma = 4
 *
 * stdout: 4218
 */
#include <stdio.h>
#include <stdlib.h>

/* the -O0 and -O2 builds run side by side: a file each */
#ifdef __OPTIMIZE__
#define TMP "libfile-O2.tmp"
#else
#define TMP "libfile.tmp"
#endif

int x, y;
FILE* f;
FILE* g;

__attribute__((noinline)) void set(void)
{
    x = 4217;
}

__attribute__((noinline)) void open_it(void)
{
    f = fopen(TMP, "w");
    if (!f)
        abort();
}

__attribute__((noinline)) void write_it(void)
{
    fprintf(f, "%d\n", x);
}

__attribute__((noinline)) void close_it(void)
{
    fclose(f);
}

__attribute__((noinline)) void reopen(void)
{
    g = fopen(TMP, "r");
    if (!g)
        abort();
}

__attribute__((noinline)) void read_it(void)
{
    if (fscanf(g, "%d", &y) != 1)
        abort();
}

__attribute__((noinline)) void close2(void)
{
    fclose(g);
}

__attribute__((noinline)) int use(void)
{
    return y + 1;
}

int main(void)
{
    set();
    open_it();
    write_it();
    close_it();
    reopen();
    read_it();
    close2();
    printf("%d\n", use());
    remove(TMP);
    return 0;
}
