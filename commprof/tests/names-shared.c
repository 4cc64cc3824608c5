/* cflags: -ldl */
/* names-shared: two function nodes of one name are told apart by their place in the
 * run's summary and the DOT graph, as commprof-report shows them.
 *
 * The program's static helper (defined at line 25) writes buf, ten ints; the library's
 * static helper (names-shared-lib.c.in, a node with --node-objs) reads them.  XML and
 * callgrind files give each node its file and the line of its first instruction; the
 * summary printed at exit and the DOT graph showed "helper -> helper", which reads as a
 * function feeding itself.  Now the place is added, as the line of the first instruction:
 * the program's helper at line 26 (its opening brace, the prologue) at -O0 and line 27 (its
 * loop, no prologue) at -O2; the library's, built with -O2, at line 6 (its loop):
 *   summary line:  40 bytes, 40 unique addresses, "helper [names-shared.c:26] -> helper
 *                  [names-shared-lib.c.in:6]" (27 at -O2)
 *   DOT labels:    "helper [names-shared.c:26]", "helper [names-shared-lib.c.in:6]"
 * A name no other node has stays plain (main, on the graph through its other edges).
 *
 * stdout: 45
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int buf[10];

static __attribute__((noinline)) void helper(int *p)
{
    for (int i = 0; i < 10; i++)
        ((volatile int *)p)[i] = i;
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    char so[256];
    snprintf(so, sizeof so, "./%s-lib.so", prog);
    void *h = dlopen(so, RTLD_NOW);
    if (!h)
        return 1;
    int (*sum)(const int *) = (int (*)(const int *))dlsym(h, "lib_sum");
    if (!sum)
        return 2;
    helper(buf);
    printf("%d\n", sum(buf));
    return 0;
}
