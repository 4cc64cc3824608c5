/* cflags: -pthread */
/* objects-threadlocal-reuse: a thread that reuses an exited thread's stack (glibc keeps
 * it in its cache) has its thread-local variables at the same addresses, and they are
 * its own objects, starting (unwritten) (run with --objects=yes).
 *
 * main creates worker 1 (thread 2), joins it, then creates worker 2 (thread 3), which
 * gets thread 2's stack and TLS block again.  Each worker reads acc[0] (before: its
 * initial 0), then fill(k) writes acc[0..7] and total() reads them and seed.
 *   (unwritten) -> worker  4 bytes per thread, at the same address: bytes 8, unma 4
 *                 (thread 3's acc[0] is its own initial value, not thread 2's last write)
 *   fill -> total          32 per thread, same addresses: bytes 64, unma 32
 *   (unwritten) -> total   seed, 8 per thread: bytes 16, unma 8 (-O2: (int)seed loads its
 *                          low 4 bytes: 8, unma 4)
 *   (unwritten) -> fill    -O2 only: fill's vectorised loop adds two 16-byte constants
 *                          of .rodata ({0,1,2,3}, {4,5,6,7}): 32 a call, bytes 64, unma 32
 * acc (thread 2) and acc (thread 3), kind tls, 32 bytes each: each written whole by its
 * thread's fill (write-bytes 32, written-bytes 32: thread 2's counted when it exited),
 * read 4 + 32 = 36 bytes (prod-bytes 32: worker's read of acc[0] came before the write);
 * at -O0 reads 9, writes 8; at -O2 reads 3 (worker's 4-byte load, total's two 16-byte
 * loads), writes 2 (fill's two 16-byte stores).
 * stdout: thread 2: 0 + (1 + ... + 8) + 7 = 43; thread 3: 0 + (2 + ... + 9) + 7 = 51.
 */
#include <pthread.h>
#include <stdio.h>

#define NI __attribute__((noipa))

__thread int acc[8];
__thread long seed = 7;
int result[3];

NI void fill(int k)
{
    for (int i = 0; i < 8; i++) acc[i] = k + i;
}

NI int total(void)
{
    int s = 0;
    for (int i = 0; i < 8; i++) s += acc[i];
    return s + (int)seed;
}

static void* worker(void* arg)
{
    int k = (int)(long)arg;
    int before = acc[0];
    fill(k);
    result[k] = total() + before;
    return NULL;
}

int main(void)
{
    pthread_t t;
    for (long k = 1; k <= 2; k++) {
        pthread_create(&t, NULL, worker, (void*)k);
        pthread_join(t, NULL);
    }
    printf("objects-threadlocal-reuse %d %d\n", result[1], result[2]);
    return 0;
}
