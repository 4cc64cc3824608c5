/* cflags: -pthread */
/* libdata-sync: threads that synchronise through a mutex and a condition variable
 * communicate only through the data the lock protects.
 *
 * The pthread functions read and write the program's pthread_mutex_t and pthread_cond_t
 * (the lock word, the owner, the condition's sequence counters). All the accesses of the
 * C library's synchronisation functions are charged to (library data), so that the
 * lock's bookkeeping is not communication between the threads that take turns on it.
 * Before, worker@2 -> worker@3 carried 20 bytes (12 of them the mutex's) instead of 8.
 *
 * Threads by creation order: 1 main; 2 and 3 run worker, one after the other (main
 * joins 2 before it creates 3); then 4 runs prod and 5 runs cons, at the same time.
 *   worker (2, then 3): 1000 times: lock m; counter++ (an 8-byte load and store); unlock m
 *     thread 3's first load of counter reads thread 2's last store: 8 bytes, one address;
 *     every other load reads the same thread's store.
 *   prod (4): data[i] = 5 * i for i < 16 (64 bytes); lock m2; ready = 1; signal c; unlock m2
 *   cons (5): lock m2; while (!ready) wait c; unlock m2; sums data[0..16) into sum (8 bytes)
 *     cons reads ready until it is 1: the last of these reads is of prod's store (4 bytes);
 *     any earlier one is of (unwritten) (ready is in .bss). Then data: 64 bytes.
 *   main: prints counter (reads thread 3's last store: 8 bytes) and sum (cons's: 8 bytes).
 *
 * Edges among worker, prod, cons and main:
 *   worker -> main  bytes = 8,  unma = 8
 *   prod -> cons    bytes = 68, unma = 68
 *   cons -> main    bytes = 8,  unma = 8
 * Thread edges: worker@2 -> worker@3 bytes = 8, unma = 8; prod@4 -> cons@5 68/68;
 * worker@3 -> main@1 8/8; cons@5 -> main@1 8/8.
 * Cells off the diagonal: 2 -> 3 8/8; 3 -> 1 8/8 (counter); 4 -> 5 68/68; 5 -> 1 8/8 (sum).
 * Nothing else: what pthread_create hands the new thread (its descriptor, the start
 * routine and the argument, here NULL) and what the thread's exit hands pthread_join are
 * the C library's own (library data), and so are malloc's entry points in commprof's
 * preload library, which every thread's malloc reads.
 *
 * stdout: counter = 2000; sum = 5 * (0 + ... + 15) = 600.
 */
#include <pthread.h>
#include <stdio.h>

#define N 16

long counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int data[N];
int ready;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
long sum;

__attribute__((noinline)) void *worker(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    return arg;
}

__attribute__((noinline)) void *prod(void *arg)
{
    for (int i = 0; i < N; i++)
        data[i] = 5 * i;
    pthread_mutex_lock(&m2);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m2);
    return arg;
}

__attribute__((noinline)) void *cons(void *arg)
{
    pthread_mutex_lock(&m2);
    while (!*(volatile int *)&ready)
        pthread_cond_wait(&c, &m2);
    pthread_mutex_unlock(&m2);
    long s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    sum = s;
    return arg;
}

int main(void)
{
    pthread_t t, p, q;
    if (pthread_create(&t, NULL, worker, NULL) != 0) return 1;
    pthread_join(t, NULL);
    if (pthread_create(&t, NULL, worker, NULL) != 0) return 1;
    pthread_join(t, NULL);
    if (pthread_create(&p, NULL, prod, NULL) != 0) return 1;
    if (pthread_create(&q, NULL, cons, NULL) != 0) return 1;
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    printf("%ld %ld\n", counter, sum);
    return 0;
}
