/* contexts: functions split by their callers (--separate-callers=1 in test contexts,
 * --separate-callers=2 in contexts2).
 *
 * docs/commprof.rng: with --separate-callers=N a function is one node per sequence of its
 * last N calling functions, named as callgrind names them: f'caller'caller's caller, with
 * attributes base (the function) and callers. Calls are counted per context.
 *
 * Call tree (every function a node of the main executable; main calls run, so that no
 * name depends on what calls main):
 *   run: fill(GI, 16); fill(HI, 8); a(); b(); use(GO, 16); use(HO, 8)
 *   a:   g()
 *   b:   g(); h()
 *   g:   f(GI, GO, 16)        f reads in[0..n), writes out[0..n)
 *   h:   f(HI, HO, 8)
 * Arrays of ints: GI[16], GO[16] (64 bytes each), HI[8], HO[8] (32 bytes each).
 * fill writes its array; use reads its array once.
 *
 * --separate-callers=1 (contexts): f splits into f'g (called twice, from g under a and
 * under b) and f'h; fill, use, a, b into X'run, g into g'a and g'b, h into h'b.
 *   fill'run -> f'g  bytes = 2 * 64 = 128 (GI read by both calls), unma = 64
 *   fill'run -> f'h  32/32
 *   f'g -> use'run   64/64 (GO: both calls of f'g wrote it, the last writer is f'g)
 *   f'h -> use'run   32/32
 *   --fn: f'g calls=2, f'h calls=1, g'a calls=1, g'b calls=1, h'b calls=1,
 *         fill'run calls=2, use'run calls=2.
 * --separate-callers=2 (contexts2): f'g splits further into f'g'a and f'g'b.
 *   fill'run'main -> f'g'a  64/64
 *   fill'run'main -> f'g'b  64/64
 *   fill'run'main -> f'h'b  32/32
 *   f'g'b -> use'run'main   64/64 (f'g'b, called after f'g'a, rewrote all of GO: f'g'a
 *                                  has no edge to use)
 *   f'h'b -> use'run'main   32/32
 *   --fn: f'g'a, f'g'b, f'h'b calls=1, g'a'run, g'b'run, h'b'run calls=1,
 *         fill'run'main, use'run'main calls=2.
 * No other edges among these nodes: the functions touch nothing else but their own stack
 * (each call writes its slots before reading them); every array access is volatile, one
 * per element at -O0 and -O2. g, h, a, b only call; at -O2 gcc makes their last calls
 * jumps (tail calls), and the callee still counts as called from the function that
 * jumped (see tailcalls.c): the expected values are those of -O0.
 *
 * stdout: GI[i] = i + 1, HI[i] = i + 1, f writes out[i] = 3 * in[i]:
 *   use(GO) = 3 * 136 = 408, use(HO) = 3 * 36 = 108.
 */
#include <stdio.h>

static int GI[16], GO[16], HI[8], HO[8];

__attribute__((noipa)) void fill(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i + 1;
}

__attribute__((noipa)) void f(volatile const int *in, volatile int *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = 3 * in[i];
}

__attribute__((noipa)) long use(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void g(void)
{
    f(GI, GO, 16);
}

__attribute__((noipa)) void h(void)
{
    f(HI, HO, 8);
}

__attribute__((noipa)) void a(void)
{
    g();
}

__attribute__((noipa)) void b(void)
{
    g();
    h();
}

__attribute__((noipa)) void run(void)
{
    fill(GI, 16);
    fill(HI, 8);
    a();
    b();
    long sg = use(GO, 16);
    long sh = use(HO, 8);
    printf("contexts g=%ld h=%ld\n", sg, sh);
}

int main(void)
{
    run();
    return 0;
}
