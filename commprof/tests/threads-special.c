/* cflags: -pthread -Wl,-z,now */
/* threads-special: bytes produced by special nodes belong to the thread they were
 * produced for.
 *
 * docs/commprof.rng, <thread-matrix>: "Bytes produced by special nodes other than
 * (unwritten) belong to the thread they were produced for (a system call's thread)".
 *
 *   main (thread 1): writes 32 bytes into the pipe `data`, creates the worker (thread 2)
 *   worker:          z = calloc(16, 4): 64 bytes produced by (allocator) in thread 2
 *                    read(data, buf, 32): buf[0..32) produced by (syscall read) in thread 2
 *                    sends the pointer z through the pipe `ready` (main receives it with
 *                    its own read: (syscall read) in thread 1), then blocks on the pipe
 *                    `never` (the worker never exits: no pthread_join bookkeeping crosses
 *                    threads; the process exit ends it)
 *   main:            reader(z, buf) reads z[0..16) (64 bytes) and buf[0..32) (32 bytes)
 *   => thread edges: (allocator)@2     -> reader@1  bytes = 64, unma = 64
 *                    (syscall read)@2  -> reader@1  bytes = 32, unma = 32
 *      function edges: (allocator) -> reader 64/64, (syscall read) -> reader 32/32
 *      cell 2 -> 1: bytes = 96, unma = 96 (nothing else main reads was produced in the
 *      worker: the pointer came through the pipe; the program is linked with -z now, so
 *      ld.so's lazy binding does not count relocations across threads)
 *
 * stdout: z is all zeroes; buf holds the bytes 1..32: reader returns 528.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned char buf[32];
static int data[2], ready[2], never[2];

__attribute__((noipa)) long reader(const int *z, const unsigned char *b)
{
    long s = 0;
    for (int i = 0; i < 16; i++)
        s += z[i];
    for (int i = 0; i < 32; i++)
        s += b[i];
    return s;
}

__attribute__((noipa)) void *worker_thread(void *arg)
{
    int *z = calloc(16, sizeof(int));
    if (!z || read(data[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
        _exit(2);
    if (write(ready[1], &z, sizeof(z)) != (ssize_t)sizeof(z))
        _exit(2);
    char c;
    for (;;)
        if (read(never[0], &c, 1) != 1)
            _exit(2);
    return NULL;
}

int main(void)
{
    unsigned char msg[32];
    for (int i = 0; i < 32; i++)
        msg[i] = (unsigned char)(i + 1);
    if (pipe(data) != 0 || pipe(ready) != 0 || pipe(never) != 0)
        return 1;
    if (write(data[1], msg, sizeof(msg)) != (ssize_t)sizeof(msg))
        return 1;
    pthread_t t;
    if (pthread_create(&t, NULL, worker_thread, NULL) != 0)
        return 1;
    int *z;
    if (read(ready[0], &z, sizeof(z)) != (ssize_t)sizeof(z))
        return 1;
    printf("threads-special sum=%ld\n", reader(z, buf));
    return 0;
}
