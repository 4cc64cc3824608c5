/* stl: the C++ standard library's templates work for the functions that call them.
 *
 * std::vector's push_back, its growth (_M_realloc_insert, which moves the elements
 * to a larger block), its copy assignment and its iterators are functions the
 * program makes from libstdc++'s templates.  They are not nodes (--std-nodes=no, the
 * default): their code is charged to the function that calls them, as libstdc++'s
 * own code is.  fill, dup and sum have C linkage, so that their names have no commas.
 *
 *   fill(v, 1000): v.push_back(3i), i = 0..999: fill writes every element (those the
 *                  vector moves when it grows too) and v's pointers _M_start and
 *                  _M_finish
 *   dup(v, w):     w = v: reads v's 1000 elements (memmove) and its two pointers,
 *                  writes w's elements and pointers
 *   sum(v), sum(w): a range for: begin() reads _M_start, end() reads _M_finish, once
 *                  each, and every element once
 *
 * Edges (4 bytes per element, 8 per pointer):
 *   fill -> sum: 4000 + 16 = 4016 bytes, unma 4016; dup -> sum: the same for w.
 *   fill -> dup: unma 4016 (the elements and the two pointers; bytes 4016 at -O2, more
 *   at -O0, where operator= asks v's size twice).
 * Calls: fill 1, dup 1, sum 2.
 * With --std-nodes=yes (stl-stdnodes, -O2), push_back is inlined into fill but the
 * growth is _M_realloc_insert, a node: capacities 1, 2, 4, ..., 512, 1024; the last
 * growth comes at the push of element 512, which it writes, after moving elements
 * 0..511.  fill writes elements 513..999 (487) and _M_finish last:
 *   fill -> sum: 487 x 4 + 8 = 1956 bytes, unma 1956.
 * stdout: sum = 3 * 499500 = 1498500, twice.
 */
#include <cstdio>
#include <vector>

#define NOINLINE __attribute__((noinline))

extern "C" NOINLINE void fill(std::vector<int> &v, int n)
{
   for (int i = 0; i < n; i++) v.push_back(3 * i);
}

extern "C" NOINLINE void dup(const std::vector<int> &v, std::vector<int> &w)
{
   w = v;
}

extern "C" NOINLINE long sum(const std::vector<int> &v)
{
   long s = 0;
   for (int x : v) s += x;
   return s;
}

int main()
{
   std::vector<int> v, w;
   fill(v, 1000);
   dup(v, w);
   long a = sum(v), b = sum(w);
   printf("%ld %ld\n", a, b);
   return 0;
}
