/* cflags: -pthread */
/* libdata: functions that call printf and rand do not communicate through the C library's data.
 *
 * printf keeps stdout's state in libc's data (the FILE object _IO_2_1_stdout_, its lock,
 * the locale), rand its seed and table (random_data, its lock). The first call writes
 * that state and the next, from another function, reads it. Without the special node
 * (library data), to which an access by a library's code to the library's own image
 * (its sections, writable or not) is charged, these bytes made edges between the
 * functions that called printf or rand: producer -> consumer carried 476 bytes
 * instead of 400.
 *
 *   producer: data[i] = 3 * i for i < 100 (100 ints); srand(7); printf(rand() % 100)
 *   consumer: sums data[0..100); printf(the sum, rand() % 100)
 *   main: producer(); consumer(); then thread 2 runs ta, joined; then thread 3 runs tb
 *   ta (thread 2): tbuf[i] = i for i < 64 (64 ints); printf
 *   tb (thread 3): sums tbuf[0..64); printf
 *
 * Edges among producer, consumer, ta, tb and main:
 *   producer -> consumer  bytes = 400, unma = 400   (data, each int read once)
 *   ta -> tb              bytes = 256, unma = 256   (tbuf, each int read once)
 * and no other: main reads nothing the others wrote (the sum comes back in a register),
 * and the libc state that printf and rand pass from call to call is (library data)'s.
 * None of the five reads what (library data) wrote, and (library data) reads nothing
 * they wrote (the format strings are in the program's .rodata, the arguments in
 * registers and on the caller's stack: those reads are the callers').
 * Thread edges: producer@1 -> consumer@1 and ta@2 -> tb@3 with the same numbers.
 * The thread matrix off its diagonal: only 2 -> 3, bytes = 256, unma = 256 (stdout's state
 * that ta's printf leaves for tb's is the library's; what pthread_create hands a thread
 * and its exit hands pthread_join too).
 *
 * stdout: the sum 3 * (0 + ... + 99) = 14850; 0 + ... + 63 = 2016; rand's values
 * after srand(7) are glibc's (two calls, printed modulo 100).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100
#define M 64

int data[N];
int tbuf[M];

__attribute__((noinline)) void producer(void)
{
    for (int i = 0; i < N; i++)
        data[i] = 3 * i;
    srand(7);
    printf("produced %d\n", rand() % 100);
}

__attribute__((noinline)) long consumer(void)
{
    long s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    printf("consumed %ld %d\n", s, rand() % 100);
    return s;
}

__attribute__((noinline)) void *ta(void *arg)
{
    for (int i = 0; i < M; i++)
        tbuf[i] = i;
    printf("ta\n");
    return arg;
}

__attribute__((noinline)) void *tb(void *arg)
{
    long s = 0;
    for (int i = 0; i < M; i++)
        s += tbuf[i];
    printf("tb %ld\n", s);
    return arg;
}

int main(void)
{
    pthread_t t;
    producer();
    consumer();
    if (pthread_create(&t, NULL, ta, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    if (pthread_create(&t, NULL, tb, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    return 0;
}
