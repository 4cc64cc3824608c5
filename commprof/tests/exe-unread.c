/* exe-unread: an executable whose symbols Valgrind 3.19 does not read.
 *
 * big is 2 MiB-aligned, so the linker gives .bss a load segment of its own
 * (readelf -l: a fifth LOAD, RW, file size 0); Valgrind's reader then reads
 * nothing of the executable.  commprof says so at start-up, once:
 *   commprof: warning: Valgrind read no debug information of ./exe-unread (...)
 * and reads the executable's symbol table itself (see also bare-exe.c): w, r
 * and main are nodes, called once each, and w -> r carries the 16 bytes of big
 * that w writes and r reads (one byte at a time, through volatile).
 * stdout: 0 + 1 + ... + 15 = 120.
 */
#include <stdio.h>

static char big[1 << 16] __attribute__((aligned(1 << 21)));

__attribute__((noinline)) void w(void)
{
    for (int i = 0; i < 16; i++)
        ((volatile char *)big)[i] = (char)i;
}

__attribute__((noinline)) int r(void)
{
    int s = 0;
    for (int i = 0; i < 16; i++)
        s += ((volatile char *)big)[i];
    return s;
}

int main(void)
{
    w();
    printf("exe-unread %d\n", r());
    return 0;
}
