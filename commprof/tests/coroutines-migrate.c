/* cflags: -pthread */
/* coroutines-migrate: a coroutine started by the main thread and resumed by
 * another thread (as a scheduler of several threads does): its frames go
 * with it, so its C library copy in the second thread is its own.
 *
 *   fill (thread 1) writes src[0..63];
 *   co, on a heap block, copies src to d1 with memcpy (thread 1), switches
 *   back to main, which sums d1 with consume; then thread 2 (thr) resumes co,
 *   which copies src to d2 (memcpy, thread 2) and switches back to thr,
 *   which sums d2 with consume.
 *
 * Expected (any -O level), --thread-edges among fill, co and consume:
 *   fill@1 -> co@1     bytes=64 unma=64
 *   fill@1 -> co@2     bytes=64 unma=64
 *   co@1 -> consume@1  bytes=64 unma=64
 *   co@2 -> consume@2  bytes=64 unma=64
 * and over the threads fill -> co 128/64, co -> consume 128/128.  At -O2
 * co ends with a tail call (jmp swapcontext) after popping the two
 * registers its prologue pushed, in thread 2 the 16 bytes thread 1 wrote on
 * the coroutine's stack:
 *   co@1 -> co@2       bytes=16 unma=16
 * (Before, the frames stayed with thread 1: thread 2's copy was thr's, the
 * function that resumed co: fill@1 -> thr@2 64, thr -> consume 64.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define NI __attribute__((noinline))
#define STACK (64 * 1024)

static char src[64], d1[64], d2[64];
static ucontext_t main_uc, co_uc, thr_uc;
static ucontext_t* volatile back;
static volatile size_t n64 = 64;

NI void fill(void)
{
   for (int i = 0; i < 64; i++) src[i] = (char)i;
}

NI void co(void)
{
   memcpy(d1, src, n64);
   swapcontext(&co_uc, back);
   memcpy(d2, src, n64);
   swapcontext(&co_uc, back);           /* never resumed */
}

NI long consume(const char* p)
{
   long s = 0;
   for (int i = 0; i < 64; i++) s += p[i];
   return s;
}

NI void* thr(void* arg)
{
   back = &thr_uc;
   swapcontext(&thr_uc, &co_uc);
   return (void*)consume(d2);
}

int main(void)
{
   char* stack = malloc(STACK);
   if (stack == NULL || getcontext(&co_uc) != 0) return 2;
   co_uc.uc_stack.ss_sp = stack;
   co_uc.uc_stack.ss_size = STACK;
   co_uc.uc_link = NULL;
   makecontext(&co_uc, co, 0);
   fill();
   back = &main_uc;
   swapcontext(&main_uc, &co_uc);
   long s = consume(d1);
   pthread_t t;
   void* r;
   pthread_create(&t, NULL, thr, NULL);
   pthread_join(t, &r);
   printf("sums %ld %ld\n", s, (long)r);
   return 0;
}
