/* cflags: -pthread */
/* thread-userstack-syscall: a thread on a heap block of the program's own
 * (pthread_attr_setstack) makes a system call between two uses of buffers on
 * its stack.  The part of the block below the thread's first stack pointer is
 * its stack while it lives; the top of the block (glibc's thread descriptor
 * and TLS, which the system call's wrapper reads) stays the heap object's.
 *
 *   writer writes tbuf[0..99] byte by byte (volatile), reader reads them;
 *   getpid (a system call);
 *   writer2 writes tbuf2[0..99], reader2 reads them.
 *
 * With --objects=yes, the flows between different functions (any -O level;
 * at -O0 each function also reads back its own spills on the stack):
 *   writer -> stack of thread 2 -> reader      bytes=100 unma=100
 *   writer2 -> stack of thread 2 -> reader2    bytes=100 unma=100
 * (Before, once the descriptor at the block's top had been looked up as the
 * heap object's, the whole block was taken for it: the second pair's flow
 * went through the heap object of the block's allocation.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NI __attribute__((noinline))
#define TSTACK (256 * 1024)

static volatile int sink;

NI void writer(char* p, int n) { volatile char* q = p; for (int i = 0; i < n; i++) q[i] = (char)i; }
NI int reader(char* p, int n) { volatile char* q = p; int s = 0; for (int i = 0; i < n; i++) s += q[i]; return s; }
NI void writer2(char* p, int n) { volatile char* q = p; for (int i = 0; i < n; i++) q[i] = (char)(i + 1); }
NI int reader2(char* p, int n) { volatile char* q = p; int s = 0; for (int i = 0; i < n; i++) s += q[i]; return s; }

NI void* tfn(void* arg)
{
   char tbuf[100], tbuf2[100];
   writer(tbuf, 100);
   int s = reader(tbuf, 100);
   if (getpid() <= 0) s = -1;
   writer2(tbuf2, 100);
   s += reader2(tbuf2, 100);
   sink = s;
   return arg;
}

int main(void)
{
   char* block = malloc(TSTACK);
   if (block == NULL) return 2;
   pthread_attr_t at;
   pthread_attr_init(&at);
   pthread_attr_setstack(&at, block, TSTACK);
   pthread_t t;
   if (pthread_create(&t, &at, tfn, NULL) != 0) return 3;
   pthread_join(t, NULL);
   printf("sum %d\n", sink);
   free(block);
   return 0;
}
