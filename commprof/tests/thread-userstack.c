/* cflags: -pthread */
/* thread-userstack: threads that run on stacks the program gives them
 * (pthread_attr_setstack): a 256 KiB array in .bss and a 256 KiB heap block.
 *
 * Valgrind takes the whole mapping below such a thread's first stack pointer
 * for its stack: the globals of .bss below the array, and the heap blocks
 * below the block.  commprof clamps the stack to the array (its data symbol)
 * or to the heap block, so the other globals and blocks are no stack:
 *
 *   thread 2 (on stk):   gw stores below[0..7] and above[0..7], 16 stores of
 *                        8 bytes (volatile: no vector stores);
 *   thread 3 (on a malloc'd block): hw stores hb[0..63], 64 stores of 1 byte,
 *                        hb allocated just before the stack block;
 *   main: gr loads the 16 longs, hr the 64 bytes.
 *
 * Run with --ignore-stack=yes, which drops the accesses to the running
 * thread's own stack: none of these are, so
 *   gw -> gr  bytes=128 unma=128      gw stores=16
 *   hw -> hr  bytes=64  unma=64       hw stores=64
 * (before the clamp: hw's 64 stores were dropped, hr read (unwritten) bytes,
 * and so did gr for the array lying below stk).
 *
 * Once thread 3 has exited, its block is the heap object of line 103 again:
 * bw writes block[0..15], br reads them.  With --objects=yes
 *   bw -> br  bytes=16 unma=16
 *   line 101 (hb, 64 bytes): reads=64 read-bytes=64 writes=64 write-bytes=64,
 *       written-bytes=64 prod-bytes=64, alloc-pct=prod-pct=100.0
 *   line 103 (the block, 262144 bytes): reads=16 read-bytes=16 writes=16
 *       write-bytes=16 written-bytes=16 prod-bytes=16, 16/262144 = 0.0 %
 * (glibc's writes of the thread's descriptor at the block's top are
 * (library data)'s, no object's; the thread's own accesses to the block are
 * its stack's). */
#include <pthread.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile long below[8];
static char stk[1 << 18] __attribute__((aligned(4096)));
static volatile long above[8];
static volatile char* hb;
volatile long sink;

NOINLINE void gw(void)
{
   for (int i = 0; i < 8; i++) {
      below[i] = i;
      above[i] = i;
   }
}

NOINLINE void hw(void)
{
   volatile char* p = hb;
   for (int i = 0; i < 64; i++) p[i] = (char)i;
}

NOINLINE long gr(void)
{
   long s = 0;
   for (int i = 0; i < 8; i++) s += below[i] + above[i];
   return s;
}

NOINLINE long hr(void)
{
   volatile char* p = hb;
   long s = 0;
   for (int i = 0; i < 64; i++) s += p[i];
   return s;
}

NOINLINE void bw(volatile char* b)
{
   for (int i = 0; i < 16; i++) b[i] = (char)i;
}

NOINLINE long br(volatile char* b)
{
   long s = 0;
   for (int i = 0; i < 16; i++) s += b[i];
   return s;
}

static void* on_array(void* arg) { gw(); return arg; }
static void* on_block(void* arg) { hw(); return arg; }

static void run_on(void* stack, size_t size, void* (*fn)(void*))
{
   pthread_attr_t at;
   pthread_t t;
   pthread_attr_init(&at);
   pthread_attr_setstack(&at, stack, size);
   pthread_create(&t, &at, fn, NULL);
   pthread_join(t, NULL);
   pthread_attr_destroy(&at);
}

int main(void)
{
   hb = malloc(64);
   size_t size = 1 << 18;
   void* block = malloc(size);
   run_on(stk, sizeof stk, on_array);
   run_on(block, size, on_block);
   sink = gr();
   sink = hr();
   bw(block);                 /* the block, no stack any more */
   sink = br(block);
   return 0;
}
