/* tailcalls: a function that jumps to another instead of calling it (a tail call) is its
 * caller all the same (--separate-callers=1).
 *
 * At -O2 gcc compiles the calls that end a, b, c, is_even and is_odd into jumps: the
 * caller's frame is gone when the callee runs, and the callee returns straight to the
 * caller's caller. The source's calls are the truth, as at -O0 (real calls) and as in
 * callgrind: the expected values are the same for both builds.
 *
 *   main: a(); x = sum(); b(); x += c(); e = is_even(1000)
 *   a: fill(1)     b: fill(2)     c: return sum()
 *   fill writes buf[0..100) (ints, 400 bytes); sum reads buf[0..100) (400 bytes)
 *   is_even(n) = n == 0 ? 1 : is_odd(n - 1);  is_odd(n) = n == 0 ? 0 : is_even(n - 1)
 *
 * --separate-callers=1: fill'a writes buf, sum'main reads it; fill'b writes it again,
 * sum'c reads it:
 *   fill'a -> sum'main  bytes = 400, unma = 400
 *   fill'b -> sum'c     bytes = 400, unma = 400
 *   calls: a'main = b'main = c'main = 1; fill'a = fill'b = 1; sum'main = sum'c = 1.
 * is_even(1000) calls is_odd(999), which calls is_even(998), ... down to is_even(0):
 * is_even runs for n = 1000, 998, ..., 0 (501 calls: 1 from main, 500 from is_odd), is_odd
 * for n = 999, ..., 1 (500 calls, from is_even):
 *   is_even'main = 1, is_even'is_odd = 500, is_odd'is_even = 500.
 * (At -O2 the 1001 calls are jumps at one stack pointer: the tool keeps 64 frames there,
 * then lets each function's frame replace its former one, which keeps the callers.)
 *
 * stdout: sum after a: 100 * 1 = 100; after b (through c): 100 * 2 = 200; x = 300;
 *   is_even(1000) = 1.
 */
#include <stdio.h>

#define N __attribute__((noipa))

int buf[100];

N void fill(int v)
{
    for (int i = 0; i < 100; i++)
        buf[i] = v;
}

N long sum(void)
{
    long s = 0;
    for (int i = 0; i < 100; i++)
        s += buf[i];
    return s;
}

N void a(void) { fill(1); }
N void b(void) { fill(2); }
N long c(void) { return sum(); }

N int is_odd(unsigned n);
N int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
N int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void)
{
    a();
    long x = sum();
    b();
    x += c();
    int e = is_even(1000);
    printf("tailcalls %ld %d\n", x, e);
    return 0;
}
