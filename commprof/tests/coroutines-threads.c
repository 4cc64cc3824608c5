/* cflags: -pthread */
/* coroutines-threads: three threads, alive at once, each runs a coroutine
 * on a heap block (makecontext, swapcontext) whose first function,
 * trampoline, is left out of the nodes (--fn-exclude=trampoline): its code
 * is charged to the innermost node frame of the stack it runs on, and the
 * coroutine's stack has none, so it is (no function)'s.
 *
 * Each thread k (threads 2, 3 and 4) runs worker(k): it writes msg[k] (64
 * bytes), switches into its coroutine, where trampoline(k) (k passed by
 * makecontext in a register) sums msg[k] (64 bytes read) into sums[k] (4
 * bytes written) and calls finish, a node, which switches back with
 * setcontext; then report(k) reads sums[k].
 *
 * Expected (any -O level), per thread N = 2, 3, 4 (--thread-edges):
 *   worker@N -> (no function)@N  bytes=64 unma=64    (msg[k])
 *   (no function)@N -> report@N  bytes=4 unma=4      (sums[k])
 *   report@N -> worker@N         bytes=4 unma=4      (got[k])
 * and over the threads
 *   worker -> (no function)  bytes=192 unma=192
 *   (no function) -> report  bytes=12 unma=12
 *   report -> worker         bytes=12 unma=12
 * With --per-call=yes --per-call-fns=worker, the three calls of worker
 * (numbered 1 to 3 in the order they began; they end in any order, after
 * the second barrier) make one record, its callees' numbers (report's)
 * included:
 *   call worker seq=1-3 count=3 callers=
 * (its consumed bytes are also the C library's reads of the contexts, not
 * printed here).
 * (Before, the code of a thread's coroutine stack was charged to
 * (library data) in threads started while others ran: the bookkeeping call
 * of the thread's start-up code, on its own stack, was taken as still
 * running there.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#define NT 3
#define STACK (64 * 1024)

static __thread ucontext_t back, co;
static char msg[NT][64];
static int sums[NT];
static pthread_barrier_t all_alive;

__attribute__((noinline)) void finish(void)
{
   setcontext(&back);
}

__attribute__((noinline)) void trampoline(int k)
{
   int s = 0;
   for (int i = 0; i < 64; i++) s += msg[k][i];
   sums[k] = s;
   finish();
}

__attribute__((noinline)) void report(int k, int* out)
{
   *out = sums[k];
}

__attribute__((noinline)) void* worker(void* arg)
{
   int k = (int)(long)arg;
   for (int i = 0; i < 64; i++) msg[k][i] = (char)(i + k);
   pthread_barrier_wait(&all_alive);
   void* stack = malloc(STACK);
   if (stack == NULL || getcontext(&co) != 0) exit(2);
   co.uc_stack.ss_sp = stack;
   co.uc_stack.ss_size = STACK;
   co.uc_link = NULL;
   makecontext(&co, (void (*)(void))trampoline, 1, k);
   swapcontext(&back, &co);
   static int got[NT];
   report(k, &got[k]);
   pthread_barrier_wait(&all_alive);
   free(stack);
   return (void*)(long)got[k];
}

int main(void)
{
   pthread_t t[NT];
   pthread_barrier_init(&all_alive, NULL, NT);
   for (long k = 0; k < NT; k++) pthread_create(&t[k], NULL, worker, (void*)k);
   long total = 0;
   for (int k = 0; k < NT; k++) {
      void* r;
      pthread_join(t[k], &r);
      total += (long)r;
   }
   printf("total %ld\n", total);
   return 0;
}
