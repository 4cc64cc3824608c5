/* rep: string instructions; every iteration of rep stos / rep movs is one access.
 *
 * Byte version (N = 100):
 *   f: rep stosb  with rcx = N into buf   -> N one-byte stores: buf[0..N) produced by f
 *   g: rep movsb  with rcx = N, buf->buf2 -> N one-byte loads of buf, N one-byte stores
 *                                           into buf2[0..N)
 *   h: plain loop reading buf2[0..N) once
 *   => f -> g bytes = 100, unma = 100
 *      g -> h bytes = 100, unma = 100
 *
 * Quadword version (Q = 16 quadwords = 128 bytes):
 *   f8: rep stosq with rcx = Q into qbuf  -> Q 8-byte stores: qbuf[0..128) by f8
 *   g8: rep movsq with rcx = Q, qbuf->qbuf2
 *   h8: plain loop reading qbuf2[0..Q) once
 *   => f8 -> g8 bytes = 128, unma = 128
 *      g8 -> h8 bytes = 128, unma = 128
 *
 * Compare (a string instruction that reads two operands):
 *   c: repe cmpsb with rcx = N over buf and buf2 (equal: all 0x5a), one iteration per
 *      byte: each is one load (one instruction) of two bytes, buf[i] (f's) and buf2[i]
 *      (g's); sete stores the result (1) into the byte ceq
 *   => f -> c bytes = 100, unma = 100, accesses = 100
 *      g -> c bytes = 100, unma = 100, accesses = 100
 *      c: loads = 100, bytes-read = 200, stores = 1 (at -O0 also push %rbp and pop %rbp:
 *      loads = 101, stack-loads = 1, bytes-read = 208, stack-bytes-read = 8)
 *
 * The string instructions are inline asm, identical at -O0 and -O2 (the direction flag is
 * clear at function entry, as the ABI requires). No other edges among the listed
 * functions: g/g8 read only buf/qbuf, h/h8 only buf2/qbuf2, f/f8 only write.
 *
 * stdout: buf2 = 100 bytes of 0x5a (90): sum 9000; ceq = 1;
 *         qbuf2 = 16 quadwords of 0x0101010101010101 -> sum 16 * that = 0x1010101010101010
 *         (h8 adds whole quadwords, so gcc cannot narrow its loads).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define N 100
#define Q 16

static unsigned char buf[N], buf2[N];
static uint64_t qbuf[Q], qbuf2[Q];

__attribute__((noipa)) void f(unsigned char *dst, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(0x5a) : "memory");
}

__attribute__((noipa)) void g(unsigned char *dst, const unsigned char *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static unsigned char ceq;

__attribute__((noipa)) void c(void)
{
    __asm__ volatile("lea %1, %%rsi\n\t"
                     "lea %2, %%rdi\n\t"
                     "mov %3, %%ecx\n\t"
                     "repe cmpsb\n\t"
                     "sete %0"
                     : "=m"(ceq) : "m"(buf), "m"(buf2), "i"(N) : "rsi", "rdi", "rcx", "cc");
}

__attribute__((noipa)) long h(const unsigned char *p, size_t n)
{
    long s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void f8(uint64_t *dst, size_t n)
{
    __asm__ volatile("rep stosq" : "+D"(dst), "+c"(n) : "a"(0x0101010101010101ULL) : "memory");
}

__attribute__((noipa)) void g8(uint64_t *dst, const uint64_t *src, size_t n)
{
    __asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

__attribute__((noipa)) uint64_t h8(const uint64_t *p, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    f(buf, N);
    g(buf2, buf, N);
    c();
    long a = h(buf2, N);
    f8(qbuf, Q);
    g8(qbuf2, qbuf, Q);
    uint64_t b = h8(qbuf2, Q);
    printf("rep sum=%ld qsum=%#llx ceq=%d\n", a, (unsigned long long)b, ceq);
    return 0;
}
