/* percall-special: per-call records and the calls of special kinds.
 *
 * fill writes G[0..7] (4-byte ints).  main calls h twice; h reads G[0] and
 * G[1], calls g, which reads G[2] and G[3] and calls getpid (through the PLT:
 * its first call is a lazy binding by the dynamic linker, which reads the
 * executable's .dynamic, .dynsym, .rela.plt, ... and writes its .got.plt).
 *
 * 1. --collect-in=h --per-call=yes --per-call-fns=h,g (and --ignore-stack=yes,
 *    so that no spill of -O0 code counts): h's own calls are followed as g's
 *    are, as without --collect-in (h collects from its entry on):
 *      call g seq=2-4 count=2 callers=h,main,_start consumed=fill:8
 *      call h seq=1-3 count=2 callers=main,_start consumed=fill:16
 *    (g's records first: records are listed in the order they were first
 *    kept, g's call ends first; h's consumed includes g's 8 bytes).
 *
 * 3. --separate-callers=1 --collect-in="h'main" --per-call=yes
 *    --per-call-fns="h'main,g" --ignore-stack=yes: a pattern names a caller
 *    context as the profile does; h'main collects (g'h inside it), fill'main
 *    runs before and does not:
 *      fill'main -> g'h bytes=16 unma=8        fill'main calls=0
 *      fill'main -> h'main bytes=16 unma=8     g'h calls=2, h'main calls=2
 *      call g'h seq=2-4 count=2 callers=h'main,main'_start,_start consumed=fill'main:8
 *      call h'main seq=1-3 count=2 callers=main'_start,_start consumed=fill'main:16
 *    (before, a context's name matched the pattern but only the function's
 *    own name counted: nothing was collected and no warning said so).
 *
 * 2. --objects=yes --per-call=yes --per-call-fns=g --ignore-stack=yes: each
 *    call of g reads G[2..3] (2 accesses, 8 bytes) and writes sink (1 access,
 *    4 bytes); the lazy binding in the first call is the dynamic linker's,
 *    not g's, so both calls are one record:
 *      call g seq=1-2 count=2 callers=h,main,_start consumed=fill:8
 *          objects=G:r8/w0/a2,sink:r0/w4/a1
 *    (before, the first call's objects also had the executable's .dynamic,
 *    .dynstr, .got.plt, ... and made a record of its own).
 */
#include <stdio.h>
#include <unistd.h>

#define NI __attribute__((noinline, noclone))

volatile int G[8];
volatile int sink;

NI void fill(void)
{
   for (int i = 0; i < 8; i++) G[i] = i;
}

NI int g(void)
{
   sink = G[2] + G[3];
   return getpid() > 0;
}

NI int h(void)
{
   return G[0] + G[1] + g();
}

int main(void)
{
   fill();
   int s = h();
   s += h();
   printf("s %d\n", s);
   return 0;
}
