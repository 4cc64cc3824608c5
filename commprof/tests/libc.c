/* cflags: -Wl,-z,now */
/* libc: memset / memcpy / strlen called from user functions.
 *
 * Attribution rule: libc code is charged to the innermost node function on the stack,
 * so memset called by fill is a store by fill, memcpy called by copy is a load and a
 * store by copy, strlen called by lenf is a load by lenf.
 * (-Wl,-z,now: PLT slots are bound before _start, so no lazy-binding work of the dynamic
 * linker is charged to these functions. Every libc call is followed by an empty asm
 * statement so that gcc -O2 cannot turn it into a tail jump: the caller stays on the
 * stack while libc runs.)
 *
 *   main:  buf = malloc(N), dst = malloc(N), N = 1000      (fresh: (unwritten))
 *   fill:  memset(buf, 'x', N)      -> every byte of buf[0..N) last written by fill
 *   copy:  memcpy(dst, buf, N)      -> reads buf, writes every byte of dst[0..N)
 *   use:   plain C loop reading dst[0..N) once
 *
 *   fill -> copy: memcpy reads every byte of buf once (commprof's replacement of
 *                 glibc's memcpy, cp_strmem.c, has no overlapping head/tail vectors)
 *                 => bytes = 1000, unma = 1000.
 *   copy -> use:  memcpy's stores cover dst[0..N) and nothing else writes dst; use's
 *                 own loop reads each byte once => bytes = 1000, unma = 1000.
 *
 * strlen part:
 *   sbuf: global char[256], 64-byte aligned, .bss (produced by (unwritten)).
 *   fill2: memset(sbuf, 'a', 127); sbuf[127] = 0   -> sbuf[0..128) last written by fill2
 *   lenf:  strlen(sbuf) = 127
 *   fill2 -> lenf: strlen reads every byte up to and including the terminator at
 *                  offset 127, each once, and nothing after it
 *                  => bytes = 128, unma = 128 (glibc's own strlen would also read
 *                  sbuf[128..160) in its last 32-byte vector; strmem.c tests more).
 *
 * No other edges among {fill, copy, fill2, lenf}: memset reads no user memory, memcpy
 * reads only buf, strlen reads only sbuf, and none reads another's stack.
 * No fill -> use edge: use reads only dst, whose bytes were all last written by copy.
 *
 * stdout: use's sum = 1000 * 'x' = 1000 * 120 = 120000; strlen = 127.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000
#define NO_TAIL() __asm__ volatile("" ::: "memory")

static char sbuf[256] __attribute__((aligned(64)));

__attribute__((noipa)) void fill(char *buf, size_t n)
{
    memset(buf, 'x', n);
    NO_TAIL();
}

__attribute__((noipa)) void copy(char *dst, const char *src, size_t n)
{
    memcpy(dst, src, n);
    NO_TAIL();
}

__attribute__((noipa)) long use(const char *dst, size_t n)
{
    long s = 0;
    for (size_t i = 0; i < n; i++)
        s += (unsigned char)dst[i];
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

int main(void)
{
    char *buf = malloc(N);
    char *dst = malloc(N);
    if (!buf || !dst)
        return 1;
    fill(buf, N);
    copy(dst, buf, N);
    long s = use(dst, N);
    fill2(sbuf, 128);
    size_t l = lenf(sbuf);
    printf("libc sum=%ld len=%zu\n", s, l);
    free(buf);
    free(dst);
    return 0;
}
