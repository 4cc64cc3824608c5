/* libfile-fmemopen: the FILE of the program's first fmemopen is the C library's data too.
 *
 * glibc's fmemopen starts with calloc through the C library's own PLT entry, which the
 * dynamic linker binds at the first call; its resolver's jump to calloc was taken for where
 * the program's call went, so the FILE and the cookie that fmemopen allocates were not seen
 * as allocated by an opener (docs/definitions.md, "(library data)"): the library's accesses
 * to them were charged to the callers, with edges open_it -> read_it 213 bytes,
 * open_it -> close_it 121, read_it -> close_it 28 where the program passes only the pointer,
 * and with --objects=yes the FILE (iofopncook.c:205) and the cookie (fmemopen.c:155) were
 * data objects of the program's, with flows from open_it to read_it and close_it.
 *
 *   fill_text: writes the 12 bytes "hello world\n" into text[]
 *   open_it:   f = fmemopen(text, 12, "r"): writes the global f (8 bytes)
 *   read_it:   fgetc(f): reads f (8); the stream's read function copies the 12 bytes of
 *              text into the FILE's buffer, each read once in the call
 *   close_it:  fclose(f): reads f (8)
 *
 * With --objects=yes, the flows through text, f and the blocks fmemopen allocates:
 *   fill_text -> text -> read_it bytes = 12, unma = 12
 *   open_it -> f -> close_it     bytes = 8, unma = 8
 *   open_it -> f -> read_it      bytes = 8, unma = 8
 *
 * Edges among these functions:
 *   fill_text -> read_it bytes = 12, unma = 12
 *   open_it -> close_it  bytes = 8, unma = 8
 *   open_it -> read_it   bytes = 8, unma = 8
 *
 * stdout: h
 */
#define _GNU_SOURCE
#include <stdio.h>

#define NI __attribute__((noinline))

static char text[32];
FILE *f;

NI void fill_text(void)
{
    const char *s = "hello world\n";
    for (int i = 0; i < 12; i++) text[i] = s[i];
}

NI void open_it(void) { f = fmemopen(text, 12, "r"); }
NI int read_it(void) { return fgetc(f); }
NI void close_it(void) { fclose(f); }

int main(void)
{
    fill_text();
    open_it();
    if (!f) return 1;
    int c = read_it();
    close_it();
    printf("%c\n", c);
    return 0;
}
