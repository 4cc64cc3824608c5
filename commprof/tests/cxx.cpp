/* cxx: a C++ program: objects made with new and new[], virtual calls, and an
 * exception thrown through four frames and caught in a handler that calls
 * another function.
 *
 *   main:        b.d = new int[N] (N = 1000, the object cxx.cpp:122 below);
 *                f = new Fill, s = new Scale (cxx.cpp:123, 2 blocks of 8 bytes:
 *                a vtable pointer each); f->run(b), s->run(b) (virtual calls);
 *                r = guard(b); prints r; deletes everything.
 *   Fill::run:   writes d[i] = 3i + 1, i = 0..N-1 (4 bytes each)
 *   Scale::run:  reads d[i] and writes d[i] = 2 d[i]
 *   guard:       g_level = 3; try { check(b) } catch (int v) { r = v + consume(b) }
 *   check:       if (g_level-- == 0) throw b.d[7]; else check(b): called 4 times
 *                (levels 3, 2, 1, 0); the last call reads d[7] and throws it
 *   consume:     reads d[i], i = 0..N-1, once each, and returns their sum
 *
 * Edges among Fill::run, Scale::run and consume (function names as Valgrind
 * demangles them):
 *   Fill::run  -> Scale::run: d[0..N) once each: bytes = unma = 4000
 *   Scale::run -> consume:    d[0..N) once each, after the exception (the
 *                             handler runs in guard's frame): bytes = unma = 4000
 * and among Scale::run, guard and check (cxx, cxx-O2): the unwinder, libstdc++'s
 * throw and catch functions and the exception's header are (library data)'s:
 *   Scale::run -> check: d[7], the thrown value: bytes = unma = 4
 *   guard -> check: g_level, read by the first check only (each later call reads
 *   what the one before wrote): bytes = unma = 4
 *   check -> guard: the thrown int, which the handler reads as v: bytes = unma = 4
 * Calls: Fill::run 1, Scale::run 1, check 4, guard 1, consume 1.
 *
 * --objects=yes, the array (cxx.cpp:122): size = total-bytes = peak-bytes = 4000,
 *   blocks = 1; reads = 1000 (Scale::run) + 1000 (consume) + 1 (check, d[7]) = 2001,
 *   read-bytes = 8004; writes = 1000 (Fill::run) + 1000 (Scale::run) = 2000,
 *   write-bytes = 8000; written-bytes = 4000, every byte read while written:
 *   prod-bytes = 4000; alloc-pct = prod-pct = 100.0.
 *   Flows: Fill::run -> array -> Scale::run and Scale::run -> array -> consume,
 *   bytes = unma = 4000 each.
 * At -O0 also the stage objects (cxx.cpp:123, size 8, blocks 2, total-bytes 16):
 *   writes: each constructor is Stage::Stage() storing Stage's vtable pointer, then
 *   Fill::Fill() (Scale::Scale()) storing its own: 4; each deleting destructor runs
 *   ~Fill() (~Scale()), storing the class's vtable pointer, then ~Stage(), storing
 *   Stage's: 4; so writes = 8, write-bytes = 64, written-bytes = 16.
 *   reads: main loads each vtable pointer for the virtual run and again for the
 *   virtual destructor: reads = 4, read-bytes = 32, prod-bytes = 16 (100.0, 100.0).
 *   At -O2 the constructors are inlined into main, which stores each vtable pointer
 *   once, and the deleting destructors only free: writes = 2, write-bytes = 16; main
 *   still loads each vtable pointer for the two virtual calls: reads = 4 as at -O0.
 *
 * --separate-callers=2 (cxx-contexts): consume runs in the handler, after the unwinder
 * (code that is not a node) jumped into guard with the stack pointer of guard's body:
 * the four frames of check are gone, so consume is consume'guard'main, called once,
 * at -O0 and at -O2 too, where the handler is in guard's cold part, which is guard's
 * own code (it makes no frame of its own), and the edge Scale::run'main'_start -> that
 * context carries the 4000 bytes.  Nothing is charged to the nodes guard and
 * consume without callers: instructions = loads = stores = calls = 0; guard'main'_start
 * is called once.  (Its other counts take in the code of libstdc++'s
 * __cxa_begin_catch and __cxa_end_catch, and of the allocator they call, which is
 * charged to the function that calls it: run-time library code is not a node of its
 * own, and its instructions and its accesses to its own frames are not counted
 * here by hand.)
 *
 * stdout: consume's sum is sum 2(3i + 1) = 6 * 499500 + 2000 = 2999000, v = d[7] = 44:
 *   2999044.
 */
#include <cstdio>

#define N 1000
#define NOIPA __attribute__((noipa))

struct Buf { int n; int *d; };

struct Stage {
   virtual void run(Buf &b) = 0;
   virtual ~Stage() {}
};

struct Fill : Stage {
   NOIPA void run(Buf &b) override
   {
      for (int i = 0; i < b.n; i++) b.d[i] = 3 * i + 1;
   }
};

struct Scale : Stage {
   NOIPA void run(Buf &b) override
   {
      for (int i = 0; i < b.n; i++) b.d[i] = 2 * b.d[i];
   }
};

static int g_level;

NOIPA void check(const Buf &b)
{
   if (g_level-- == 0) throw b.d[7];
   check(b);
   __asm__ volatile("" ::: "memory");          /* not a tail call */
}

NOIPA long consume(const Buf &b)
{
   long s = 0;
   for (int i = 0; i < b.n; i++) s += b.d[i];
   return s;
}

NOIPA long guard(const Buf &b)
{
   long r;
   try {
      g_level = 3;
      check(b);
      r = 0;
   } catch (int v) {
      r = v + consume(b);
   }
   return r;
}

int main()
{
   Buf b;
   b.n = N;
   b.d = new int[N];
   Stage *f = new Fill, *s = new Scale;
   f->run(b);
   s->run(b);
   long r = guard(b);
   printf("%ld\n", r);
   delete f;
   delete s;
   delete[] b.d;
   return 0;
}
