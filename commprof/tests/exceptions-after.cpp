/* exceptions-after: after a caught exception, the catching function's library calls are
 * its own again.
 *
 * docs/definitions.md, (library data): the exception runtime's accesses, and those of
 * the code it calls, are (library data)'s until its function returns; the buffers of a
 * memcpy the program calls are the caller's.  __cxa_end_catch ends by jumping to
 * _Unwind_DeleteException, whose return is in commprof's free, not in the runtime:
 * before, the runtime's call was taken as still in progress, and main's three memcpy
 * calls after the catch went to (library data): mk -> (library data) 3000,
 * (library data) -> use() 1000.
 *
 *   mk writes src[0..1000) (1000 one-byte stores); main throws and catches an int (in
 *   thrower), then copies src to dst three times with memcpy (n = 1000, volatile:
 *   commprof's memcpy makes 62 16-byte loads and one of 8 each time); use reads dst
 *   (1000 one-byte loads).
 *
 * Edges (bytes, unique addresses, accesses):
 *   mk() -> main 3000, 1000, 189; main -> use() 1000, 1000, 1000.
 *
 * stdout: the sum of i % 200 + 1 for i < 1000 = 5 x (1 + ... + 200) = 100500.
 */
#include <cstdio>
#include <cstring>

#define NI __attribute__((noipa))
#define N 1000

char src[N], dst[N];
volatile size_t n = N;

NI void mk()
{
    for (int i = 0; i < N; i++)
        ((volatile char *)src)[i] = (char)(i % 200 + 1);
}

NI void thrower()
{
    throw 7;
}

NI long use()
{
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (unsigned char)((volatile char *)dst)[i];
    return s;
}

int main()
{
    mk();
    try {
        thrower();
    } catch (int) {
    }
    for (int r = 0; r < 3; r++)
        memcpy(dst, src, n);
    printf("%ld\n", use());
    return 0;
}
