/* exe-unread: an executable whose symbols Valgrind 3.19 does not read.
 *
 * big is 2 MiB-aligned, so the linker gives .bss a load segment of its own
 * (readelf -l: a fifth LOAD, RW, file size 0); Valgrind's reader then reads
 * nothing of the executable: w, r and main are no nodes, and their work is
 * charged to (no function).  commprof says so at start-up, once:
 *   commprof: warning: Valgrind read no symbols of ./exe-unread (...)
 * and the profile has no node w or r (no edge w -> r: 16 bytes that would be
 * there with a readable executable).  stdout: 0 + 1 + ... + 15 = 120.
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
