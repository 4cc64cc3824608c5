/* cflags: -ldl */
/* nodeobjs-soname: a --node-objs pattern matches a library by its SONAME, the name the
 * program loads it by, and a pattern that matches no object says so at exit.
 *
 * The library (nodeobjs-soname-lib.c.in) is the file nodeobjs-soname-lib.so.1.0 with the
 * SONAME nodeobjs-soname-lib.so.1, and the program dlopens it through a link of that name.
 * Valgrind knows an object by the file it maps, the link's target: before, the pattern
 * 'nodeobjs-soname*-lib.so.1' (the name the user sees in ldd and in the program) matched
 * nothing, silently, and lib_fill and lib_sum were charged to their callers.  The run
 * (see the .vgtest) gives --node-objs='nodeobjs-soname*-lib.so.1,no-such-lib.so':
 *   lib_fill writes buf, 100 ints; lib_sum reads them:
 *     lib_fill -> lib_sum bytes = 400, unma = 400; calls 1 each
 *   fill and sum (the program's callers) have no edge between them
 *   'no-such-lib.so' matches no object: one line at exit,
 *     commprof: --node-objs pattern 'no-such-lib.so' matched no object of the run (a pattern
 *     matches an object's path, file name or SONAME)
 *
 * stdout: 5950 (sum of 10 + i for i < 100: 1000 + 4950)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void (*fill_fn)(int);
static int (*sum_fn)(void);

__attribute__((noipa)) void fill(void) { fill_fn(10); }
__attribute__((noipa)) int sum(void) { return sum_fn(); }

int main(int argc, char **argv)
{
    (void)argc;
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    char so[256];
    snprintf(so, sizeof so, "./%s-lib.so.1", prog);
    void *h = dlopen(so, RTLD_NOW);
    if (!h)
        return 1;
    fill_fn = (void (*)(int))dlsym(h, "lib_fill");
    sum_fn = (int (*)(void))dlsym(h, "lib_sum");
    if (!fill_fn || !sum_fn)
        return 2;
    fill();
    printf("%d\n", sum());
    return 0;
}
