/* cflags: -pthread */
/* thread-setup: what the C library does to create, start and end a thread is
 * (library data)'s, callees included: a new thread receives from its creator only what
 * the program passes it.
 *
 * docs/definitions.md, (library data): the library's thread creation and ending
 * (pthread_create, start_thread, pthread_exit, a thread's set-up and clean-up code) and
 * its synchronisation functions (pthread_once ...) "all of whose accesses are (library
 * data)'s", and so are the accesses of the code they call that is not a node function.
 *
 *   tv:      a thread-local array of 100 ints with an initializer (in .tdata); every
 *            thread's copy is made when the thread is created: the dynamic linker's
 *            _dl_allocate_tls_init, called by pthread_create, copies the image with its
 *            own memcpy.  Once charged to main (the innermost node), so main -> rdt 400
 *            bytes, and 400 bytes in the thread matrix's cell 1 -> 2; then to (library
 *            data); now the block of the executable's thread-local variables is
 *            (unwritten)'s when the thread starts (definitions.md: the initial values
 *            are nobody's, as those of .data), so (unwritten) -> rdt 400 bytes.
 *   main:    fill writes input[0..250) (1000 bytes); g1 calls pthread_once(&oc, init)
 *            (init writes once_val); creates the worker and joins it; g2 calls
 *            pthread_once again (only the quick check of oc: before, glibc's name for it,
 *            pthread_once@@GLIBC_2.34, did not match the pattern pthread_once, so g2
 *            read oc's 4 bytes from (syscall futex) or the init's store); then reads
 *            result[0] and once_val.
 *   worker:  rdt reads its tv (100 int loads, 400 bytes), consume reads input (250 int
 *            loads), deep calls finish, which writes result[0] (8 bytes) and calls
 *            pthread_exit (which loads libgcc_s to unwind the thread: before, that
 *            loading was charged to finish, from the dynamic linker's data, the files it
 *            read, ...).
 *
 * Edges among the functions listed (all through volatile pointers: one load per int at
 * -O0 and -O2):
 *   fill -> consume           1000 / 1000
 *   finish -> main            8 / 8 (result[0])
 *   init -> main              4 / 4 (once_val)
 *   (unwritten) -> main       8 / 8: printf's format "%ld %d\n" and its terminator, read
 *                             by printf for main
 *   (unwritten) -> rdt        400 / 400: the thread's tv as initialised
 *   and nothing into g1, g2, finish or deep.
 * Thread matrix, off the diagonal: 1 -> 2 = 1000 / 1000 (input), 2 -> 1 = 8 / 8 (result;
 *   before, also 16 bytes of calloc's zeroes in the link map of the libgcc_s that
 *   pthread_exit loads, which _dl_fini reads at the exit: (library data)'s now).
 * From (library data) (the second command; the library's code also reads the functions'
 *   saved registers when pthread_exit unwinds, which depends on the compiler):
 *   (library data) -> main    8 / 8: t, which pthread_create wrote
 *   (library data) -> rdt     8 / 8: the thread pointer's self-pointer at %fs:0 that
 *                             rdt's code reads to find tv
 *
 * stdout: rdt = 1 + 2 + ... + 10 = 55; consume = 0 + 1 + ... + 249 = 31125; "31180 7".
 */
#include <pthread.h>
#include <stdio.h>

#define NI __attribute__((noipa))

__thread int tv[100] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
int input[250];
long result[1];
static pthread_once_t oc = PTHREAD_ONCE_INIT;
static int once_val;

NI void fill(void)
{
    for (int i = 0; i < 250; i++)
        ((volatile int *)input)[i] = i;
}

NI long rdt(void)
{
    volatile int *p = tv;
    long s = 0;
    for (int i = 0; i < 100; i++)
        s += p[i];
    return s;
}

NI long consume(void)
{
    long s = 0;
    for (int i = 0; i < 250; i++)
        s += ((volatile int *)input)[i];
    return s;
}

NI void finish(long v)
{
    ((volatile long *)result)[0] = v;
    pthread_exit(NULL);
}

NI void deep(long v)
{
    finish(v);
}

static void *worker(void *arg)
{
    (void)arg;
    deep(rdt() + consume());
    return NULL;
}

static void init(void)
{
    *(volatile int *)&once_val = 7;
}

NI void g1(void)
{
    pthread_once(&oc, init);
}

NI void g2(void)
{
    pthread_once(&oc, init);
}

int main(void)
{
    pthread_t t;
    fill();
    g1();
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    g2();
    printf("%ld %d\n", ((volatile long *)result)[0], *(volatile int *)&once_val);
    return 0;
}
