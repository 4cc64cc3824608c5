/* cflags: -pthread */
/* keys-c11: thread-specific values (pthread keys, C11 tss), cancellation points
 * and C11 threads are the run-time library's bookkeeping: (library data)'s.
 *
 * A key's value lives in the thread's descriptor (or a block the library
 * allocates for the keys past the 32nd), which pthread_setspecific writes and
 * pthread_getspecific reads: like the descriptor fields pthread_testcancel
 * reads, no function of the program communicates through it.
 *
 *   init:    val = 7                           one 8-byte store (global)
 *   setter:  pthread_setspecific(k, &val), tss_set(t, &val)
 *   getter:  *pthread_getspecific(k) + *tss_get(t)   two 8-byte loads of val
 *   tc1, tc2: pthread_testcancel()
 *   main:    a = 3 (its stack, 4 bytes), thrd_create(&th, thr, &a), thrd_join
 *   thr:     returns *(int *)arg                one 4-byte load of a
 *
 * Edges among these functions: init -> getter bytes=16 unma=8 (val read
 * twice), main -> thr bytes=4 unma=4; nothing else: not setter -> getter, not
 * tc1 -> tc2, not main -> thr or thr -> main through thrd_create/thrd_join,
 * and not main -> setter or main -> getter through k and t: the key a
 * program's variable receives from pthread_key_create (tss_create) is the
 * library's, like the pthread_t pthread_create writes.
 * The functions are noinline and the accesses of val, a and arg volatile (the
 * same at -O0 and -O2).  stdout: "keys-c11 14 3".
 */
#include <pthread.h>
#include <stdio.h>
#include <threads.h>

#define NI __attribute__((noinline))

static pthread_key_t k;
static tss_t t;
static volatile long val;

NI void init(void)
{
    val = 7;
}

NI void setter(void)
{
    pthread_setspecific(k, (void *)&val);
    tss_set(t, (void *)&val);
}

NI long getter(void)
{
    volatile long *p = pthread_getspecific(k);
    volatile long *q = tss_get(t);
    return *p + *q;
}

NI void tc1(void)
{
    pthread_testcancel();
}

NI void tc2(void)
{
    pthread_testcancel();
}

NI int thr(void *arg)
{
    return *(volatile int *)arg;
}

int main(void)
{
    if (pthread_key_create(&k, NULL) != 0 || tss_create(&t, NULL) != thrd_success)
        return 1;
    init();
    setter();
    long s = getter();
    tc1();
    tc2();
    volatile int a = 3;
    thrd_t th;
    int r = 0;
    if (thrd_create(&th, thr, (void *)&a) != thrd_success || thrd_join(th, &r) != thrd_success)
        return 1;
    printf("keys-c11 %ld %d\n", s, r);
    return 0;
}
