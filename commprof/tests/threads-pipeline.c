/* cflags: -pthread -Wl,-z,now */
/* threads-pipeline: a producer thread fills a buffer, a consumer thread reads it; the
 * thread matrix, the (function, thread) edges and the thread names.
 *
 * Threads, by creation order (docs/commprof.rng, <threads>): 1 = main, 2 = the producer
 * thread, 3 = the consumer thread, both created by 1 (parent=1).
 * Names ("the last one set"):
 *   1: "pipeline"  main calls prctl(PR_SET_NAME) for itself;
 *   2: "producer"  the producer calls pthread_setname_np(pthread_self(), ...), which glibc
 *                  implements with prctl(PR_SET_NAME);
 *   3: "consumer"  main calls pthread_setname_np(t3, ...) right after creating it, which
 *                  glibc implements by writing /proc/self/task/TID/comm. Thread 3 cannot
 *                  have exited then: it waits for main's go byte on pipe `go` first.
 *
 * Data: produce (in thread 2) writes buf[0..256) (int, 1024 bytes); consume (in thread 3)
 * reads it once. The two threads run at the same time and synchronise through pipes only:
 * the bytes a pipe carries are written by the kernel ((syscall read) of the reading
 * thread) and the kernel's reads of write() buffers are not loads, so no byte of the
 * synchronisation goes from one thread to the other (a mutex's or a condition variable's
 * bytes would not either: the C library's synchronisation functions charge their accesses
 * to (library data), which the thread matrix leaves out; libdata-sync.c).
 *   thread 2: names itself, produce(buf), write(ready), then waits on pipe `done`
 *   thread 3: waits on `go`, then on `ready`, consume(buf), exits
 *   main:     creates 2 and 3, names 3, writes `go`, joins 3, writes `done`, joins 2.
 * Nothing else that thread 3 reads was written by thread 2: the stacks are fresh (no thread
 * exits before both are created, so glibc reuses no stack), each thread's TLS and
 * descriptor are written by main (pthread_create) and by the thread itself, and the C
 * library's own counters (__nptl_nthreads, which a thread's exit path decrements) are
 * (library data)'s. The program is linked with -z now, as it was written before lazy
 * bindings were charged to (dynamic linker) (left out of the thread matrix too): it
 * makes no difference to these numbers.
 *   => cell 2 -> 3           bytes = 1024, unma = 1024
 *      thread edge produce@2 -> consume@3  bytes = 1024, unma = 1024
 *      (and the function edge produce -> consume 1024/1024)
 *
 * stdout: buf[i] = 7i + 3, sum over i < 256 = 7*32640 + 768 = 229248.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#define N 256

static int buf[N];
static int ready[2], done[2], go[2];
static long result;

__attribute__((noipa)) void produce(int *b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = 7 * i + 3;
}

__attribute__((noipa)) long consume(const int *b, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += b[i];
    return s;
}

static void wait_byte(int fd)
{
    char c;
    if (read(fd, &c, 1) != 1)
        _exit(2);
}

static void send_byte(int fd)
{
    char c = 1;
    if (write(fd, &c, 1) != 1)
        _exit(2);
}

__attribute__((noipa)) void *producer_thread(void *arg)
{
    pthread_setname_np(pthread_self(), "producer");
    produce(buf, N);
    send_byte(ready[1]);
    wait_byte(done[0]);
    return NULL;
}

__attribute__((noipa)) void *consumer_thread(void *arg)
{
    wait_byte(go[0]);
    wait_byte(ready[0]);
    result = consume(buf, N);
    return NULL;
}

int main(void)
{
    pthread_t t2, t3;
    prctl(PR_SET_NAME, "pipeline", 0, 0, 0);
    if (pipe(ready) != 0 || pipe(done) != 0 || pipe(go) != 0)
        return 1;
    if (pthread_create(&t2, NULL, producer_thread, NULL) != 0)
        return 1;
    if (pthread_create(&t3, NULL, consumer_thread, NULL) != 0)
        return 1;
    if (pthread_setname_np(t3, "consumer") != 0)
        return 1;
    send_byte(go[1]);
    pthread_join(t3, NULL);
    send_byte(done[1]);
    pthread_join(t2, NULL);
    printf("threads-pipeline sum=%ld\n", result);
    return 0;
}
