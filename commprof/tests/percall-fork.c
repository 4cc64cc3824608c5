/* percall-fork: a forked child's per-call records start at the fork (run with
 * --per-call=yes; the XML file name has no %p, so the child writes
 * percall-fork.xml.<pid>).
 *
 *   main:   fill(buf, 100)     100 int stores
 *           outer()
 *   outer:  rd(buf, 50)        50 int loads (200 bytes of fill's)
 *           fork()
 *           the child: rd(buf + 50, 50) (200 bytes of fill's), returns to main,
 *           which calls _exit(0); the parent: waits, returns
 *
 * The child starts with no records, and the calls open at the fork (_start,
 * main, outer) are numbered again from 1, outermost first, and hold only
 * what they do after it.  Its records (--calls-no-self: a call's own stack
 * traffic left out):
 *   call rd    seq=4-4 count=1 callers=outer,main,_start consumed=fill:200
 *   call outer seq=3-3 count=1 callers=main,_start consumed=fill:200 and
 *     (no function):8, (unwritten):8 (fork's child side in the C library reads
 *     the dynamic linker's list of thread stacks, which is no library's own
 *     data to libc: charged to the caller), and at -O0 rd:1624 (rd's own
 *     stack traffic, part of its caller's call: per iteration i, p, s and
 *     i again, 4 + 8 + 8 + 4 = 24 bytes, 50 times; the loop test's i and n,
 *     8 bytes, 51 times; s at the return and the saved rbp at the pop, 8 + 8:
 *     1200 + 408 + 16 = 1624)
 *     (before the fix: fill:400 with the pre-fork rd's, sequence numbers going
 *     on from the parent's, and 16 bytes more of the thread's descriptor that
 *     fork's child side reads through a pointer)
 * main and _start never return in the child (_exit): no record.
 * The parent: _start=1, main=2, fill=3, outer=4, rd=5 (no other function of
 * the executable runs before them): fill consumes nothing of these, rd 200
 * bytes of fill's, outer fill:200 (and rd:1624 at -O0).
 * stdout (parent): 49*50/2 = 1225.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NI __attribute__((noinline))

static int buf[100];

NI void fill(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
}

NI long rd(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

NI long outer(int *child)
{
    long s = rd(buf, 50);
    pid_t pid = fork();
    if (pid == 0) {
        *child = 1;
        return s + rd(buf + 50, 50);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return s;
}

int main(void)
{
    int child = 0;
    fill(buf, 100);
    long s = outer(&child);
    if (child)
        _exit(0);
    printf("percall-fork %ld\n", s);
    return 0;
}
