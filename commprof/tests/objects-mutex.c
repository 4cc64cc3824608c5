/* cflags: -pthread */
/* objects-mutex: what the run-time library does to the program's mutex is no object's
 * (run with --objects=yes).
 *
 * docs/definitions.md, Data objects: every counted load and store is matched to the data
 * object holding its address, "except those charged to (library data): the run-time
 * library's bookkeeping (a program's pthread_mutex_t that only the library touches
 * included) is no object's reads, writes or flows, and the bytes it writes are not the
 * object's written-bytes or prod-bytes".
 *
 *   other: a mutex that only pthread_mutex_lock and pthread_mutex_unlock touch (in bump2):
 *          no object is listed for it (the post command prints "other absent")
 *   lock:  the same, but main reads its first int (the lock word, 0 once unlocked) once,
 *          through a volatile pointer: reads = 1, read-bytes = 4, writes = 0; its bytes
 *          were written by the library only: written-bytes = prod-bytes = 0, 0.0 %
 *   counter: bump does counter++ 10 times under lock (a load and a store of 4 bytes each:
 *          a read-modify-write), main reads it once: reads = 11, read-bytes = 44,
 *          writes = 10, write-bytes = 40, written-bytes = 4, prod-bytes = 4, 100.0 %
 * Edges: bump -> main 4 bytes (counter), 4 addresses.
 *
 * stdout: "10 0 20": counter, the lock word, counter2.
 */
#include <pthread.h>
#include <stdio.h>

#define NI __attribute__((noipa))

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
int counter, counter2;

NI void bump(void)
{
    pthread_mutex_lock(&lock);
    ((volatile int *)&counter)[0]++;
    pthread_mutex_unlock(&lock);
}

NI void bump2(void)
{
    pthread_mutex_lock(&other);
    counter2 += 2;
    pthread_mutex_unlock(&other);
}

int main(void)
{
    for (int i = 0; i < 10; i++) {
        bump();
        bump2();
    }
    printf("%d %d %d\n", ((volatile int *)&counter)[0], *(volatile int *)&lock, counter2);
    return 0;
}
