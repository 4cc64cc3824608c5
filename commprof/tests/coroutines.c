/* coroutines: two coroutines of one thread on stacks of the program's own
 * (getcontext, makecontext, swapcontext): coro_heap on a malloc'd block,
 * coro_glob on a global array.  The program's copies are made by the C
 * library (memcpy, a call with a size the compiler cannot see), code outside
 * the nodes, charged to the innermost node frame of the running context: the
 * frames of each stack are kept apart, so after a switch back into a
 * coroutine its copies are its own again, not main's.
 *
 *   fill writes src[0..255] (256 bytes, one call).
 *   main resumes the coroutines in turn; after each switch back it sums what
 *   the coroutine copied with consume (5 calls):
 *     1. coro_heap: memcpy dst <- src (256 bytes)        consume(dst, 256)
 *     2. coro_glob: helper: memcpy out1 <- src[0..127]   consume(out1, 128)
 *     3. coro_heap (resumed): memcpy dst <- src again    consume(dst, 256)
 *     4. coro_glob (resumed): memcpy out2 <- src[128..255], then
 *        helper: memcpy out1 <- src[128..255]            consume(out2, 128),
 *                                                         consume(out1, 128)
 *     5. coro_heap (resumed) ends its loop and returns; main goes on
 *        (uc_link).  coro_glob is never resumed again.
 *
 * Edges among fill, coro_heap, coro_glob, helper and consume (any -O level):
 *   fill -> coro_heap      bytes=512 unma=256   (two copies of src)
 *   fill -> helper         bytes=256 unma=256   (src[0..127], src[128..255])
 *   fill -> coro_glob      bytes=128 unma=128   (src[128..255])
 *   coro_heap -> consume   bytes=512 unma=256   (dst twice)
 *   helper -> consume      bytes=256 unma=128   (out1 twice)
 *   coro_glob -> consume   bytes=128 unma=128   (out2)
 * Calls: fill 1, coro_heap 1, coro_glob 1, helper 2, consume 5.
 * (Before the frames were kept apart, copies 3 and 4 were main's: fill ->
 * coro_heap 256, coro_heap -> consume 256, fill -> main 384, main -> consume
 * 384, fill -> coro_glob and coro_glob -> consume absent.)
 *
 * With --separate-callers=1: a coroutine's first function has no caller
 * (no frame lies below it on its stack); helper is helper'coro_glob both
 * times, consume is consume'main:
 *   fill'main -> coro_heap            bytes=512 unma=256
 *   fill'main -> helper'coro_glob     bytes=256 unma=256
 *   fill'main -> coro_glob            bytes=128 unma=128
 *   coro_heap -> consume'main         bytes=512 unma=256
 *   helper'coro_glob -> consume'main  bytes=256 unma=128
 *   coro_glob -> consume'main         bytes=128 unma=128
 * and with --per-call=yes --per-call-fns=helper, helper's two calls (the
 * only per-call records, numbered 1 and 2) are one record, called from
 * coro_glob, each consuming src's 128 bytes from fill:
 *   call helper'coro_glob seq=1-2 count=2 callers=coro_glob consumed=fill'main:128
 *
 * With --collect-in=coro_glob only what runs while coro_glob's frame is on
 * its stack counts (steps 2 and 4):
 *   fill -> coro_glob  bytes=128 unma=128
 *   fill -> helper     bytes=256 unma=256
 * and nothing else among these five (consume runs in main).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define N 256
#define STACK (64 * 1024)

static ucontext_t main_uc, heap_uc, glob_uc;
static char glob_stack[STACK] __attribute__((aligned(16)));
static char src[N], dst[N], out1[N / 2], out2[N / 2];
static volatile size_t n_all = N, n_half = N / 2;

__attribute__((noinline)) void fill(void)
{
   for (int i = 0; i < N; i++) src[i] = (char)(i * 7);
}

__attribute__((noinline)) void helper(char* d, const char* s, size_t n)
{
   memcpy(d, s, n);
}

__attribute__((noinline)) void coro_heap(void)
{
   for (int r = 0; r < 2; r++) {
      memcpy(dst, src, n_all);
      swapcontext(&heap_uc, &main_uc);
   }
}

__attribute__((noinline)) void coro_glob(void)
{
   helper(out1, src, n_half);
   swapcontext(&glob_uc, &main_uc);
   memcpy(out2, src + N / 2, n_half);
   helper(out1, src + N / 2, n_half);
   swapcontext(&glob_uc, &main_uc);          /* never resumed */
}

__attribute__((noinline)) int consume(const char* p, size_t n)
{
   int s = 0;
   for (size_t i = 0; i < n; i++) s += p[i];
   return s;
}

static void make(ucontext_t* uc, void* stack, void (*fn)(void))
{
   if (getcontext(uc) != 0) exit(2);
   uc->uc_stack.ss_sp = stack;
   uc->uc_stack.ss_size = STACK;
   uc->uc_link = &main_uc;
   makecontext(uc, fn, 0);
}

int main(void)
{
   char* heap_stack = malloc(STACK);
   if (heap_stack == NULL) return 2;
   make(&heap_uc, heap_stack, coro_heap);
   make(&glob_uc, glob_stack, coro_glob);
   fill();
   int s = 0;
   swapcontext(&main_uc, &heap_uc);
   s += consume(dst, N);
   swapcontext(&main_uc, &glob_uc);
   s += consume(out1, N / 2);
   swapcontext(&main_uc, &heap_uc);
   s += consume(dst, N);
   swapcontext(&main_uc, &glob_uc);
   s += consume(out2, N / 2);
   s += consume(out1, N / 2);
   swapcontext(&main_uc, &heap_uc);
   printf("sum %d\n", s);
   free(heap_stack);
   return 0;
}
