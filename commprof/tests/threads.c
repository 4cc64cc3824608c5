/* cflags: -pthread */
/* threads: edges across threads.
 *
 * Part A (worker produces, main thread consumes):
 *   producer_thread (thread function of thread 2): writes bufA[0..128) ints (512 bytes)
 *   main: pthread_join
 *   consumer (called by main, thread 1): reads bufA[0..128) once
 *   => producer_thread -> consumer bytes = 512, unma = 512
 *
 * Part B (main thread produces, worker consumes):
 *   init (called by main): writes bufB[0..64) ints (256 bytes)
 *   worker_thread (thread function of thread 3): reads bufB[0..64) once and stores the
 *     sum into a global that main prints after the join (main is not in the list).
 *   => init -> worker_thread bytes = 256, unma = 256
 *
 * No other edges among {producer_thread, consumer, init, worker_thread}:
 *   - the thread functions get their argument in a register from libc's start code
 *     ((no function) on the new thread); they call no libc function.
 *   - consumer reads only bufA, worker_thread only bufB; producer_thread and init only
 *     write.
 *   - the two worker threads may run on the same (cached) stack; each function writes
 *     its stack slots before reading them.
 *
 * --fn: producer_thread, consumer, init, worker_thread: calls=1 each.
 *
 * stdout: bufA[i] = 3i + 7, sum_{i<128} = 3*8128 + 896 = 25280.
 *         bufB[i] = 9i + 1, sum_{i<64} = 9*2016 + 64 = 18208.
 */
#include <pthread.h>
#include <stdio.h>

#define NA 128
#define NB 64

static int bufA[NA];
static int bufB[NB];
static long worker_sum;

__attribute__((noipa)) void *producer_thread(void *arg)
{
    int *a = arg;
    for (int i = 0; i < NA; i++)
        a[i] = 3 * i + 7;
    return NULL;
}

__attribute__((noipa)) long consumer(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

__attribute__((noipa)) void init(int *b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = 9 * i + 1;
}

__attribute__((noipa)) void *worker_thread(void *arg)
{
    const int *b = arg;
    long s = 0;
    for (int i = 0; i < NB; i++)
        s += b[i];
    worker_sum = s;
    return NULL;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, producer_thread, bufA) != 0)
        return 1;
    pthread_join(t, NULL);
    long a = consumer(bufA, NA);

    init(bufB, NB);
    if (pthread_create(&t, NULL, worker_thread, bufB) != 0)
        return 1;
    pthread_join(t, NULL);
    printf("threads consumer=%ld worker=%ld\n", a, worker_sum);
    return 0;
}
