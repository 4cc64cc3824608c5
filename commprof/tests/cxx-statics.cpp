/* cxx-statics: the data objects of a C++ program's globals and local statics get the
 * names c++filt gives their symbols, and --object-include matches either.
 *
 *   img::table              int[100], written by fill (table[i] = i), read by sum
 *   Counter::total          long, a static member; bump adds k to it (k = 0, 1, 2)
 *   Counter::bump(int)::calls  int, a local static of the member function; bump counts
 *   sum()::last             long, a local static of sum; sum adds it (still 0, never
 *                           written before) to its result, then stores the result in it
 *
 * fill and sum are built without vectorisation, so each element is one access.
 *
 * Objects (--objects=yes), by hand:
 *   img::table: size = total-bytes = peak-bytes = 400, blocks = 0 (not heap);
 *     reads = 100 (sum), read-bytes = 400; writes = 100 (fill), write-bytes = 400;
 *     written-bytes = 400, prod-bytes = 400 (every byte read after fill wrote it):
 *     alloc-pct = prod-pct = 100.0
 *   Counter::total: size 8; bump reads and writes it 3 times, main reads it once for
 *     printf: reads = 4, read-bytes = 32, writes = 3, write-bytes = 24,
 *     written-bytes = 8, prod-bytes = 8 (the 2nd and 3rd bump and main read it
 *     written): 100.0, 100.0
 *   Counter::bump(int)::calls: size 4; reads = writes = 3, read-bytes = write-bytes = 12,
 *     written-bytes = 4, prod-bytes = 4: 100.0, 100.0
 *   sum()::last: size 8; one read, of bytes nothing wrote, then one write: reads = 1,
 *     read-bytes = 8, writes = 1, write-bytes = 8, written-bytes = 8, prod-bytes = 0:
 *     alloc-pct = 100.0, prod-pct = 0.0
 * Flows: fill -> img::table -> sum bytes = unma = 400; Counter::bump(int) ->
 *   Counter::total -> main bytes = unma = 8; and bump's own (the 2nd and 3rd call read
 *   what the one before wrote): bump -> Counter::total -> bump bytes = 16, unma = 8,
 *   bump -> calls -> bump bytes = 8, unma = 4.
 * Edges: fill -> sum bytes = unma = 400, Counter::bump(int) -> main bytes = unma = 8.
 * The symbol attribute of img::table is _ZN3img5tableE.
 * With --object-include='img::*,_ZZ3sumvE*' (cxx-statics-select) only img::table (by
 *   its name) and sum()::last (by its symbol, _ZZ3sumvE4last) are reported.
 *
 * stdout: sum 0 + 1 + ... + 99 = 4950, total 0 + 1 + 2 = 3: "4950 3".
 */
#include <cstdio>

#define NOIPA __attribute__((noipa))
#define NOVEC __attribute__((optimize("no-tree-vectorize")))

namespace img { int table[100]; }

struct Counter {
   static long total;
   NOIPA void bump(int k);
};
long Counter::total;

NOIPA void Counter::bump(int k)
{
   static int calls;
   calls++;
   total += k;
}

NOIPA NOVEC void fill()
{
   for (int i = 0; i < 100; i++) img::table[i] = i;
}

NOIPA NOVEC long sum()
{
   static long last;
   long s = last;
   for (int i = 0; i < 100; i++) s += img::table[i];
   last = s;
   return s;
}

int main()
{
   Counter c;
   fill();
   for (int i = 0; i < 3; i++) c.bump(i);
   long s = sum();
   printf("%ld %ld\n", s, Counter::total);
   return 0;
}
