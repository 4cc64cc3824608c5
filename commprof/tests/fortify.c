/* cflags: -Wl,-z,now */
/* fortify: the _FORTIFY_SOURCE variants of libc's copies (__memset_chk,
 * __memcpy_chk, __strcpy_chk), which gcc calls at -O2 when it knows the size of
 * the destination but not the length, touch exactly the bytes of memset, memcpy
 * and strcpy; an overflow they detect aborts the program as glibc's do
 * (message, SIGABRT), and the profile of what ran before is still written.
 *
 * _FORTIFY_SOURCE is defined only when optimising (glibc ignores it at -O0):
 * the -O0 build calls memset, memcpy and strcpy themselves, with the same
 * bytes, and skips the overflow.  Lengths come from main's arguments to the
 * noipa functions, so gcc cannot expand the calls inline.
 *
 *   setsrc(20): memset(src, 'z', 20)          writes src[0..20)
 *   setstr():   src[24..28) = "hey" and its NUL (at -O2 gcc makes the four byte
 *               stores one 4-byte store of a constant it loads from .rodata:
 *                 (unwritten) -> setstr  bytes=4 unma=4, -O2 only)
 *   cpy(12):    memcpy(dst, src, 12)          reads src[0..12), writes dst[0..12)
 *     setsrc -> cpy  bytes=12 unma=12
 *   scpy(src + 24): strcpy(dst2, "hey")      reads src[24..28), writes dst2[0..4)
 *     setstr -> scpy  bytes=4 unma=4
 *   use():      reads dst[0..12) and dst2[0..8) once
 *     cpy -> use   bytes=12 unma=12
 *     scpy -> use  bytes=4 unma=4
 *     (unwritten) -> use  bytes=4 unma=4     (dst2[4..8), never written)
 *
 * -O2 only: scpy(src): __strcpy_chk(dst2, src, 8) with a 20-character string.
 *   It copies src[0..8) into dst2 (8 bytes read), finds no terminator within
 *   dst2's 8 bytes, prints "*** buffer overflow detected ***: terminated" and
 *   the program dies of SIGABRT; commprof writes the profile at exit:
 *     setsrc -> scpy  bytes=8 unma=8
 *   use ran before: its edges stay as above.
 *
 * stderr at -O2: the message, and "Aborted" when the shell that runs the test
 * reports the signal (fortify-O2.stderr.exp-sh).
 *
 * stdout (flushed before the overflow): use = 12 * 'z' + "hey" = 12 * 122 +
 * 104 + 101 + 121 = 1464 + 326 = 1790.
 */
#ifdef __OPTIMIZE__
#define _FORTIFY_SOURCE 2
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_TAIL() __asm__ volatile("" ::: "memory")

static char src[32] __attribute__((aligned(64)));
static char dst[16] __attribute__((aligned(64)));
static char dst2[8] __attribute__((aligned(64)));

__attribute__((noipa)) void setsrc(size_t n) { memset(src, 'z', n); NO_TAIL(); }
__attribute__((noipa)) void setstr(void)
{
    src[24] = 'h';
    src[25] = 'e';
    src[26] = 'y';
    src[27] = 0;
}
__attribute__((noipa)) void cpy(size_t n) { memcpy(dst, src, n); NO_TAIL(); }
__attribute__((noipa)) void scpy(const char *s) { strcpy(dst2, s); NO_TAIL(); }
__attribute__((noipa)) long use(void)
{
    long s = 0;
    for (int i = 0; i < 12; i++)
        s += *(volatile char *)&dst[i];
    for (int i = 0; i < 8; i++)
        s += *(volatile char *)&dst2[i];
    return s;
}

int main(int argc, char **argv)
{
    size_t k = (size_t)argc;            /* 1 */
    setsrc(20 * k);
    setstr();
    cpy(12 * k);
    scpy(src + 24);
    printf("use=%ld\n", use());
    fflush(stdout);
#ifdef __OPTIMIZE__
    scpy(src);                          /* overflows dst2: aborts */
    printf("not reached\n");
#endif
    return 0;
}
