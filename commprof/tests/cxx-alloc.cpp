/* cxx-alloc: heap objects made through the C++ library's headers are named after
 * the program's line that asked for them, not after the header code that called
 * operator new (new_allocator.h for std::vector, unique_ptr.h for make_unique).
 *
 *   line 28: std::vector<int> a(1000)          4000 bytes
 *   line 29: std::vector<double> b(10)           80 bytes
 *   line 30: std::make_unique<long[]>(5)         40 bytes
 *   line 31: new short[7]                        14 bytes
 *
 * Each is one block: size = total-bytes = peak-bytes as above, blocks = 1, named
 * cxx-alloc.cpp:28 .. cxx-alloc.cpp:31.  At -O0 the library's functions are real
 * calls, so the allocation path holds main's frame; at -O2 they are inlined into
 * main, and the test passes --read-inline-info=yes (Valgrind reads which code was
 * inlined from where, which commprof then puts on the path).
 *
 * stdout: a[999] + b[9] + p[4] + s[6] = 1 + 2 + 3 + 4 = 10.
 */
#include <cstdio>
#include <memory>
#include <vector>

#define NOIPA __attribute__((noipa))

NOIPA void set_last(int* a, double* b, long* p, short* s) { a[999] = 1; b[9] = 2; p[4] = 3; s[6] = 4; }

int main()
{
   std::vector<int> a(1000);
   std::vector<double> b(10);
   auto p = std::make_unique<long[]>(5);
   short* s = new short[7];
   set_last(a.data(), b.data(), p.get(), s);
   printf("%ld\n", (long)(a[999] + b[9] + p[4] + s[6]));
   delete[] s;
   return 0;
}
