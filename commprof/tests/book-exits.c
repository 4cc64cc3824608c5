/* cflags: -pthread */
/* book-exits: the library's bookkeeping ends when its call ends, however it ends; and a
 * futex call that only wakes writes nothing.
 *
 * docs/definitions.md, (library data): the code the synchronisation functions call is
 * theirs "until the function returns (or is left by longjmp or an exception)"; what the
 * library reads or writes in the program's memory (the buffer of memcpy) is the caller's.
 * (syscall NAME): "bytes the kernel wrote into client memory".
 *
 *   prod (thread 2) writes src[0..1000) (1000 one-byte stores)
 *   main: pthread_once(&oc, init), and init longjmps back to main's setjmp, out of
 *         pthread_once; then memcpy(dst, src, n) with n = 1000 (commprof's memcpy: 62
 *         16-byte loads and one of 8) and use reads dst (1000 one-byte loads).  Before,
 *         the left pthread_once call was taken as still in progress for main's later
 *         library calls: prod -> (library data) 1000 and (library data) -> use 1000.
 *   setflag stores flag = 1000 and calls futex(&flag, FUTEX_WAKE_PRIVATE, 1), which only
 *         wakes: rdflag reads flag from setflag (before: from (syscall futex))
 *   pthread_once(&oc2, init2), init2 returning: rdoc reads the once-control word oc2,
 *         which pthread_once (the library's bookkeeping) set to "done": from (library
 *         data) (before: (syscall futex), as pthread_once wakes its waiters)
 *
 * Edges (bytes, unique addresses, accesses):
 *   prod -> main 1000, 1000, 63; main -> use 1000, 1000, 1000; setflag -> rdflag 4, 4, 1;
 *   (library data) -> rdoc 4, 4, 1.
 * Thread matrix: cell 2 -> 1 = 1000, 1000 (src, read by main's memcpy).
 *
 * stdout: "use -212 flag 1000 once 2": the sum of (char)i for i < 1000 (each round of
 *   256 values sums to -128, three rounds -384; then 0..127 = 8128 and -128..-25 = -7956:
 *   -384 + 172 = -212), flag, and glibc's "done" value of a once-control word.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NI __attribute__((noipa))
#define N 1000

char src[N], dst[N];
volatile size_t n = N;
int flag;
static pthread_once_t oc = PTHREAD_ONCE_INIT, oc2 = PTHREAD_ONCE_INIT;
static jmp_buf jb;

NI void *prod(void *a)
{
    (void)a;
    for (int i = 0; i < N; i++)
        ((volatile char *)src)[i] = (char)i;
    return NULL;
}

NI void init(void)
{
    longjmp(jb, 1);
}

NI void init2(void)
{
}

NI long use(void)
{
    long s = 0;
    for (int i = 0; i < N; i++)
        s += ((volatile char *)dst)[i];
    return s;
}

NI void setflag(void)
{
    *(volatile int *)&flag = 1000;
    syscall(SYS_futex, &flag, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

NI int rdflag(void)
{
    return *(volatile int *)&flag;
}

NI int rdoc(void)
{
    return *(volatile int *)&oc2;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, prod, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    if (setjmp(jb) == 0)
        pthread_once(&oc, init);
    memcpy(dst, src, n);
    long u = use();
    setflag();
    int f = rdflag();
    pthread_once(&oc2, init2);
    int o = rdoc();
    printf("use %ld flag %d once %d\n", u, f, o);
    return 0;
}
