/* exceptions: C++ exceptions carry the thrown object from the thrower to the
 * handlers, and nothing else: the unwinder (libgcc_s), libstdc++'s throw, catch
 * and personality functions, the exception's header and the tables they read are
 * (library data)'s, and a handler in a function's cold part (-O2) is the
 * function's own code.
 *
 *   produce:  data[i] = 3i, i = 0..63
 *   check(i): v = data[i]; if v > 100 throw Err{v, {i, 2, 3}}; return v
 *   scan:     a Guard g (its destructor, not inlined, does ++counter), then
 *             s += check(i) for i = 0, 1, ...: check(34) throws (3 * 34 = 102),
 *             and g's destructor runs in scan's cleanup as the exception passes
 *   relay:    try { scan() } catch (Err &e) { e.code += 1; throw; }
 *   handle(e) = e.code + e.where[0];  handle2(e) = 10 * e.code + e.where[1]
 *   main:     produce; try { scan() } catch (const Err &e) { got = handle(e) };
 *             try { relay() } catch (const Err &e) { got += handle2(e) };
 *             prints got and counter
 *
 * Edges (bytes, unma):
 *   produce -> check:   data[0..34] twice (two scans): 2 x 35 x 4 = 280, unma 140
 *   check -> handle:    e.code, e.where[0] of the first exception: 8, 8
 *   check -> relay:     e.code of the second, read by e.code += 1: 4, 4
 *   relay -> handle2:   e.code as relay left it: 4, 4
 *   check -> handle2:   e.where[1]: 4, 4
 *   scan -> Guard::~Guard(): g.log, which scan's frame holds, once per scan; the
 *                       two frames lie at two depths (main's call, relay's): 16, 16
 *   Guard::~Guard() -> main: counter, read by printf's argument: 4, 4
 *   (the two exceptions' objects may share an address: the unma above count the
 *   fields read, at offsets 0 and 4 for handle and relay, 8 for handle2, which are
 *   distinct either way)
 * Calls: produce 1, scan 2, check 70, relay 1, handle 1, handle2 1, Guard::~Guard() 2.
 *
 * exceptions-runtime(-O2).vgtest lists the edges from (unwritten), (no function) and
 * (syscall futex) too: the runtime gives the throwing functions nothing (before, the
 * unwinder's calls of commprof's strlen, on the augmentation strings of the unwind
 * tables, were charged to the thrower: (unwritten) -> check(int) 14 bytes a throw; and
 * pthread_once's quick check of the unwinder's once-control word, (syscall futex) ->
 * check(int) 4 bytes from the second throw on).  What the program's own code reads from
 * (unwritten):
 *   Guard::~Guard() reads counter, never written before: 4, 4
 *   at -O2 only: produce() loads two 16-byte vector constants from .rodata: 32, 32;
 *   check(int)'s cold part loads Err's where[1..2] = {2, 3} as one 8-byte constant, once
 *   a throw: 16, 8
 *   main's printf reads its format "%d %d\n" and the terminator: 7, 7 (before, main's
 *   library calls after its second catch were taken for the runtime's: __cxa_end_catch
 *   returns through commprof's free, not by a return of the runtime's own)
 * stdout: handle = 102 + 34 = 136, handle2 = 10 * 103 + 2 = 1032: "1168 2".
 */
#include <cstdio>

#define NOINLINE __attribute__((noinline))

struct Err { int code; int where[3]; };

static int data[64];
static int counter;

struct Guard {
   int *log;
   NOINLINE ~Guard() { ++*log; }
};

NOINLINE void produce()
{
   for (int i = 0; i < 64; i++) data[i] = 3 * i;
}

NOINLINE int check(int i)
{
   int v = data[i];
   if (v > 100) throw Err{v, {i, 2, 3}};
   return v;
}

NOINLINE int scan(int n)
{
   Guard g{&counter};
   int s = 0;
   for (int i = 0; i < n; i++) s += check(i);
   return s;
}

NOINLINE int relay(int n)
{
   try {
      return scan(n);
   } catch (Err &e) {
      e.code += 1;
      throw;
   }
}

NOINLINE int handle(const Err &e) { return e.code + e.where[0]; }
NOINLINE int handle2(const Err &e) { return 10 * e.code + e.where[1]; }

int main()
{
   int got = 0;
   produce();
   try {
      got = scan(64);
   } catch (const Err &e) {
      got = handle(e);
   }
   try {
      got += relay(64);
   } catch (const Err &e) {
      got += handle2(e);
   }
   printf("%d %d\n", got, counter);
   return 0;
}
