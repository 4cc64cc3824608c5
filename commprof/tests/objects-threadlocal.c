/* cflags: -pthread */
/* objects-threadlocal: thread-local variables of the executable are (unwritten)'s
 * when a thread starts, and each thread's instance of one is a data object of its
 * own (run with --objects=yes).
 *
 * acc (int[8], 32 bytes, .tbss) and seed (long, 8 bytes, .tdata, 7) are __thread.
 * Every thread's block of them is initialised from the executable's TLS image before
 * the thread runs the program (the main thread's by ld.so before _start, a new thread's
 * by pthread_create in main), and commprof makes those bytes (unwritten)'s then, as
 * .data and .bss are: the initial values are nobody's.
 *
 * Three threads: 1 (main) calls peek, then creates 2 and 3 (worker with k = 1, 2) and
 * joins them, then fill(10) and total(). Each worker calls fill(k) and total().
 *   peek  reads acc[0] (4 bytes) and seed (8) of thread 1: initial values.
 *   fill  writes acc[0..7] of its thread: 8 stores of 4 bytes.
 *   total reads acc[0..7] (32 bytes, fill's) and seed (8, initial) of its thread.
 * Function edges (bytes = unma, each thread's block at its own addresses):
 *   (unwritten) -> peek   4 + 8                 = 12
 *   fill -> total         3 threads x 32        = 96
 *   (unwritten) -> total  3 threads x seed's 8  = 24
 * The objects, one per variable and thread, named "NAME (thread N)": kind tls, size
 * and total-bytes and peak-bytes the variable's size.
 *   acc (thread 1): written by fill (32 bytes), read by peek (4) and total (32):
 *      read-bytes 36, write-bytes 32, written-bytes 32 (the distinct bytes the program
 *      wrote), prod-bytes 32 (read after the program wrote them: total's reads; peek's
 *      acc[0] was not written yet), alloc-pct 100.0, prod-pct 100.0.
 *   acc (thread 2), acc (thread 3): written by fill, read by total: read-bytes 32,
 *      write-bytes 32, written-bytes 32, prod-bytes 32.
 *   seed (thread 1): read by peek and total: read-bytes 16, no write: written-bytes 0,
 *      prod-bytes 0.  seed (thread 2), (thread 3): read by total: read-bytes 8.
 * Accesses at -O0: fill 8 stores, total 8 loads of acc and 1 of seed, peek 1 of each:
 *   acc (thread 1) reads 9, writes 8; acc (thread 2), (thread 3) reads 8, writes 8;
 *   seed (thread 1) reads 2; seed (thread 2), (thread 3) reads 1.
 * At -O2 (objdump -d): fill is two 16-byte stores (movaps %xmm, %fs:-0x20 and -0x10)
 * of {k,k,k,k} + two 16-byte constants of .rodata ({0,1,2,3}, {4,5,6,7}: paddd loads
 * them, 32 bytes a call from (unwritten), 96 over the three calls on the same 32
 * addresses); total is two 16-byte loads of acc and a 4-byte load of seed ((int)seed
 * reads its low half); peek a 4-byte load of each. So at -O2:
 *   (unwritten) -> fill 96 (unma 32), (unwritten) -> peek 4 + 4 = 8,
 *   (unwritten) -> total 3 x 4 = 12, fill -> total 96;
 *   acc (thread 1) reads 3 (read-bytes 36), writes 2; (thread 2), (thread 3) reads 2,
 *   writes 2; seed (thread 1) reads 2, read-bytes 8; (thread 2), (thread 3) reads 1,
 *   read-bytes 4; the flows of seed carry 4 bytes each.
 * Flows producer -> object -> consumer (bytes = unma):
 *   fill -> acc (thread N) -> total        32 each
 *   (unwritten) -> acc (thread 1) -> peek   4
 *   (unwritten) -> seed (thread 1) -> peek  8, -> total 8; (thread 2), (thread 3) -> total 8
 *
 * stdout: p = 0 + 7 = 7; total of thread 1: 10+..+17 = 108, + 7 = 115;
 * thread 2: 1+..+8 = 36, + 7 = 43; thread 3: 2+..+9 = 44, + 7 = 51.
 */
#include <pthread.h>
#include <stdio.h>

__thread int acc[8];
__thread long seed = 7;
int result[3];

__attribute__((noipa)) void fill(int k)
{
    for (int i = 0; i < 8; i++) acc[i] = k + i;
}

__attribute__((noipa)) int total(void)
{
    int s = 0;
    for (int i = 0; i < 8; i++) s += acc[i];
    return s + (int)seed;
}

__attribute__((noipa)) int peek(void)
{
    return acc[0] + (int)seed;
}

static void* worker(void* arg)
{
    int k = (int)(long)arg;
    fill(k);
    result[k] = total();
    return NULL;
}

int main(void)
{
    int p = peek();
    pthread_t t[2];
    for (long k = 1; k <= 2; k++) pthread_create(&t[k - 1], NULL, worker, (void*)k);
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    fill(10);
    result[0] = total();
    printf("objects-threadlocal %d %d %d %d\n", p, result[0], result[1], result[2]);
    return 0;
}
