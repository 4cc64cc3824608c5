/* cflags: -pthread */
/* lazybind: the first call of each library function goes through lazy symbol binding.
 *
 * Built without -Wl,-z,now (gcc's default), so the first call of memset, memcpy,
 * strlen, memmove, pthread_create, ... through the program's PLT runs the dynamic
 * linker's resolver: the PLT entry pushes the symbol's index, the PLT's first entry
 * pushes the link map, and the resolver looks the symbol up in the link maps, symbol
 * tables and hash tables and writes the function's address into the .got.plt. All of
 * that is charged to the special node (dynamic linker), not to the function whose call
 * needed the binding; so every number below is what the same program linked with
 * -z now gives (libc.c is that program's twin, linked with -z now).
 *
 *   main: buf = malloc(N), dst = malloc(N), dst2 = malloc(M); N = 1000, M = 100
 *   fill:  memset(buf, 'x', N)       first call of memset (bound now)
 *   copy:  memcpy(dst, buf, N)       first call of memcpy
 *   use:   C loop reading dst[0..N)  (no library call)
 *   fill2: memset(sbuf, 'a', 127); sbuf[127] = 0   (memset is already bound)
 *   lenf:  strlen(sbuf) = 127        first call of strlen
 *   main:  args = { dst2, buf } on its stack; pthread_create(tmove, &args) (first call
 *          of pthread_create), pthread_join
 *   tmove (second thread): memmove(args->d, args->s, M)   first call of memmove
 *
 * Edges among fill, copy, use, fill2, lenf, tmove, main and (dynamic linker):
 *   fill -> copy    bytes = 1000, unma = 1000  (memcpy reads buf once)
 *   copy -> use     bytes = 1000, unma = 1000
 *   fill2 -> lenf   bytes = 128,  unma = 128   (strlen reads up to the terminator)
 *   fill -> tmove   bytes = 100,  unma = 100   (memmove reads buf[0..100))
 *   main -> tmove   bytes = 16,   unma = 16    (tmove reads args->d and args->s)
 *   tmove -> main   bytes = 1,    unma = 1     (main prints dst2[99])
 *   and no edge between (dynamic linker) and the functions other than main: the
 *   resolver reads none of their data (the two words the PLT pushes are its own), and
 *   they read nothing it wrote (the .got.plt words are read by the PLT's jumps: control
 *   flow, not data). main's edges with (dynamic linker) are not checked: main's calls
 *   of printf, malloc and pthread_create run libc code on its behalf that reads and
 *   writes what the dynamic linker does.
 *
 * In and out bytes of the functions (edges with any node; the unma of a function is
 * of the union of its edges' addresses; main's are not checked, as above):
 *   fill  in 0, out 1100/1000 (buf[0..100) goes to copy and tmove)
 *   copy  in 1000/1000, out 1000/1000;   use in 1000/1000, out 0
 *   fill2 in 0, out 128/128;   lenf in 128/128, out 0;   tmove in 116/116, out 1/1
 * Without this attribution fill, copy, lenf and tmove would consume hundreds of bytes
 * of symbol tables from (unwritten) and (no function), and fill -> copy would carry 8
 * more bytes that the resolver writes on the stack during fill's binding and reads
 * during copy's.
 *
 * stdout: use's sum = 1000 * 'x' = 120000; strlen = 127; dst2[99] = 'x'.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000
#define M 100
#define NO_TAIL() __asm__ volatile("" ::: "memory")

static char sbuf[256] __attribute__((aligned(64)));

struct move_args { char *d; const char *s; };

__attribute__((noipa)) void fill(char *b, size_t n)
{
    memset(b, 'x', n);
    NO_TAIL();
}

__attribute__((noipa)) void copy(char *d, const char *s, size_t n)
{
    memcpy(d, s, n);
    NO_TAIL();
}

__attribute__((noipa)) long use(const char *d, size_t n)
{
    long s = 0;
    for (size_t i = 0; i < n; i++)
        s += (unsigned char)d[i];
    return s;
}

__attribute__((noipa)) void fill2(char *s, size_t n)
{
    memset(s, 'a', n - 1);
    NO_TAIL();
    s[n - 1] = 0;
}

__attribute__((noipa)) size_t lenf(const char *s)
{
    size_t r = strlen(s);
    NO_TAIL();
    return r;
}

__attribute__((noipa)) void *tmove(void *arg)
{
    struct move_args *a = arg;
    memmove(a->d, a->s, M);
    NO_TAIL();
    return NULL;
}

int main(void)
{
    char *buf = malloc(N);
    char *dst = malloc(N);
    char *dst2 = malloc(M);
    if (!buf || !dst || !dst2)
        return 1;
    fill(buf, N);
    copy(dst, buf, N);
    long s = use(dst, N);
    fill2(sbuf, 128);
    size_t l = lenf(sbuf);
    struct move_args args = { dst2, buf };
    pthread_t t;
    if (pthread_create(&t, NULL, tmove, &args) != 0)
        return 1;
    pthread_join(t, NULL);
    printf("lazybind sum=%ld len=%zu last=%c\n", s, l, dst2[M - 1]);
    free(buf);
    free(dst);
    free(dst2);
    return 0;
}
