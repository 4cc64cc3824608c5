/* cflags: -pthread -Wl,-z,now */
/* threads-fanin: 100 worker threads each write their own 64-byte slot of a shared array,
 * then the main thread reads the whole array.
 *
 * Threads, by creation order: 1 = main, 2..101 = worker k-2 (slot k-2), all created by
 * main (parent=1), no names.
 *
 *   worker_thread (slot s): fill_slot writes slots[s][0..16) (16 ints = 64 bytes), then
 *     sends one byte on the pipe `ready` and blocks on the pipe `never`, which nobody
 *     writes: the workers never exit (the process exit ends them).
 *   main: creates the 100 workers, reads 100 bytes from `ready`, then read_all reads
 *     slots[0..100) once (6400 bytes).
 *
 * Thread matrix: cell k -> 1 = the bytes of slot k-2, for k = 2..101:
 *     bytes = 64, unma = 64 each (100 cells)
 * Nothing else that main reads was written by a worker: pipe bytes are written by the
 * kernel ((syscall read) of main), and since no worker exits, none of glibc's thread
 * bookkeeping that crosses threads runs (pthread_join's reads of the exiting thread's
 * descriptor, the __nptl_nthreads decrement at thread exit, the stack cache); what
 * pthread_create reads (its lock, the thread count, the list of stacks) only main writes.
 * The program is linked with -z now: with lazy binding, the first call of a libc function
 * through the PLT (write, read) binds it in the calling thread, and ld.so's symbol lookup
 * increments a global counter of relocations (8 bytes), which the next binding, in
 * whatever thread, reads: a cell of 8 bytes between the threads that happen to bind
 * first. With -z now every symbol is bound at start-up, before main.
 * Thread edges: fill_slot@k -> read_all@1  bytes = 64, unma = 64 for k = 2..101
 * (function edge fill_slot -> read_all 6400/6400).
 *
 * stdout: slot s holds s*16 + j + 1 for j < 16 (the numbers 1..1600): sum 1600*1601/2
 *   = 1280800.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NT 100
#define SLOT_INTS 16

static int slots[NT][SLOT_INTS];
static int ready[2], never[2];

__attribute__((noipa)) void fill_slot(int *slot, int s)
{
    for (int j = 0; j < SLOT_INTS; j++)
        slot[j] = s * SLOT_INTS + j + 1;
}

__attribute__((noipa)) long read_all(const int *a, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

__attribute__((noipa)) void *worker_thread(void *arg)
{
    int s = (int)(long)arg;
    fill_slot(slots[s], s);
    char c = 1;
    if (write(ready[1], &c, 1) != 1)
        _exit(2);
    for (;;)
        if (read(never[0], &c, 1) != 1)
            _exit(2);
    return NULL;
}

int main(void)
{
    pthread_t t[NT];
    if (pipe(ready) != 0 || pipe(never) != 0)
        return 1;
    for (long s = 0; s < NT; s++)
        if (pthread_create(&t[s], NULL, worker_thread, (void *)s) != 0)
            return 1;
    char buf[NT];
    int got = 0;
    while (got < NT) {
        ssize_t r = read(ready[0], buf, NT - got);
        if (r <= 0)
            return 1;
        got += (int)r;
    }
    long sum = read_all(&slots[0][0], NT * SLOT_INTS);
    printf("threads-fanin sum=%ld\n", sum);
    return 0;
}
